import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../src/cli/args.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';
import { type ExitCode, runScales, worstExit } from '../src/run/scales.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';
import { runCli } from './helpers/runCli.js';

const fakes: FakeEs[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('--docs with a list of corpus sizes', () => {
  it('parses sizes in order without duplicates; the first is the settings default', () => {
    const args = parseBenchArgs(['--docs', '100k,1m,100000']);
    expect(args.scales).toEqual([100_000, 1_000_000]);
    expect(args.settings.docs).toBe(100_000);
    expect(parseBenchArgs([]).scales).toEqual([DEFAULT_SETTINGS.docs]);
    expect(parseBenchArgs(['--docs', '20k']).scales).toEqual([20_000]);
    expect(() => parseBenchArgs(['--docs', '100k,,1m'])).toThrow(
      /--docs must be a whole number >= 1, got ""/,
    );
    // Every size is capped at a real corpus's size, not just the first; never padded.
    expect(parseBenchArgs(['--corpus', 'wordnet', '--docs', '10k,200k']).scales).toEqual([10_000, 117_791]);
  });

  it('exits with the worst pass in the gate order: 2, then 1, then 3, then 0', () => {
    expect(worstExit([])).toBe(0);
    expect(worstExit([0, 3])).toBe(3);
    expect(worstExit([3, 1, 0])).toBe(1);
    expect(worstExit([1, 2, 3])).toBe(2);
  });

  it('runs one pass per size, in order, and starts no pass after an interrupt', async () => {
    const seen: number[] = [];
    const abort = new AbortController();
    const codes: ExitCode[] = [0, 1, 0];
    const all = await runScales(DEFAULT_SETTINGS, [1000, 2000, 3000], abort.signal, async (s, i) => {
      seen.push(s.docs);
      return { exitCode: codes[i] as ExitCode };
    });
    expect(seen).toEqual([1000, 2000, 3000]);
    expect(all.exitCode).toBe(1);
    seen.length = 0;
    const cut = await runScales(DEFAULT_SETTINGS, [1000, 2000, 3000], abort.signal, async (s) => {
      seen.push(s.docs);
      abort.abort();
      return { exitCode: 0 as const };
    });
    expect(seen).toEqual([1000]);
    expect(cut.exitCode).toBe(2);
  });

  it('writes one scorecard per size through the real CLI', async () => {
    const out = await mkdtemp(join(tmpdir(), 'everycell-scales-'));
    dirs.push(out);
    const candidate = await startFakeEs({ name: 'fake-fast' });
    const baseline = await startFakeEs({ name: 'fake-slow', delayMs: 20 });
    fakes.push(candidate, baseline);
    const r = await runCli([
      '--candidate-url',
      candidate.url,
      '--baseline-url',
      baseline.url,
      '--out',
      out,
      '--docs',
      '1000,2000',
      '--families',
      'query.term',
      '--iterations',
      '40',
      '--warmup',
      '2',
      '--prewarm',
      '10',
      '--rate',
      '300',
      '--max-send-lag-ms',
      '10000',
      '--no-sweep',
      '--mixed-write-rate',
      '0',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('pass 1/2: 1,000 docs');
    expect(r.stdout).toContain('pass 2/2: 2,000 docs');
    const runs = (await readdir(out)).filter((f) => /^\d{8}T\d{6}Z-/.test(f)).sort();
    expect(runs).toHaveLength(2);
    const docs = await Promise.all(
      runs.map(
        async (id) =>
          (JSON.parse(await readFile(join(out, id, 'scorecard.json'), 'utf8')) as Scorecard).manifest.corpus
            .docs,
      ),
    );
    expect(docs).toEqual([1000, 2000]);
  }, 120_000);
});
