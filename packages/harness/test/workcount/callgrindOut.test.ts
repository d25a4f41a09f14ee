import { describe, expect, it } from 'vitest';
import { callgrindArgs } from '../../src/workcount/callgrind.js';
import { cycleEstimate, parseDump } from '../../src/workcount/callgrindOut.js';

const DUMP = `# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 123
part: 7
desc: I1 cache: 
desc: Trigger: --dump-after=everycell_workcount_row_done
positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim
summary: 1000 300 200 10 20 30 1 2 3 100 40 50 6
fn=(1) main
0 1000 300 200 10 20 30 1 2 3 100 40 50 6
totals: 1000 300 200 10 20 30 1 2 3 100 40 50 6
`;

describe('callgrind dumps', () => {
  it('reads the events and their totals, the part and the trigger', () => {
    const dump = parseDump(DUMP);
    expect(dump.part).toBe(7);
    expect(dump.trigger).toBe('--dump-after=everycell_workcount_row_done');
    expect(dump.totals).toMatchObject({ Ir: 1000, I1mr: 10, Bcm: 40, Bim: 6 });
  });

  it('takes a counter left off the end of the line as zero', () => {
    expect(parseDump('events: Ir Dr\nsummary: 5\n').totals).toEqual({ Ir: 5, Dr: 0 });
    expect(() => parseDump('nothing here')).toThrow(/not a callgrind dump/);
  });

  it("computes callgrind's cycle estimate only with the cache and branch simulation", () => {
    // Ir + 10 (Bcm + Bim) + 10 (I1mr + D1mr + D1mw) + 100 (ILmr + DLmr + DLmw)
    expect(cycleEstimate(parseDump(DUMP).totals)).toBe(1000 + 10 * 46 + 10 * 60 + 100 * 6);
    expect(cycleEstimate({ Ir: 5 })).toBeUndefined();
  });

  it('collects only inside the counted function and dumps after each row', () => {
    const args = callgrindArgs('/tmp/x/callgrind.out', { cacheSim: false });
    expect(args).toEqual(
      expect.arrayContaining([
        '--collect-atstart=no',
        '--toggle-collect=everycell_workcount_request',
        '--dump-after=everycell_workcount_row_done',
      ]),
    );
    expect(args).not.toContain('--cache-sim=yes');
    expect(callgrindArgs('/tmp/x/callgrind.out', { cacheSim: true })).toContain('--cache-sim=yes');
  });
});
