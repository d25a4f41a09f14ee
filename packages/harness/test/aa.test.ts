import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../src/cli/args.js';
import { aaLine, renderSummary } from '../src/cli/summary.js';
import { sampleCard } from './helpers/card.js';

describe('A/A mode', () => {
  it('names the engine run against itself, refuses a remote engine in the twin place, keeps its cards out of scorecards/', () => {
    const args = parseBenchArgs(['--aa', 'baseline']);
    expect(args.settings.aa).toBe('baseline');
    expect(args.out).toMatch(/\.runs\/aa$/);
    expect(parseBenchArgs(['--aa', 'candidate']).settings.aa).toBe('candidate');
    expect(parseBenchArgs([]).settings.aa).toBe(false);
    expect(() => parseBenchArgs(['--aa', 'baseline', '--candidate-url', 'http://127.0.0.1:9'])).toThrow(
      /drop --candidate-url/,
    );
    expect(() => parseBenchArgs(['--aa', 'candidate', '--baseline-url', 'http://127.0.0.1:9'])).toThrow(
      /drop --baseline-url/,
    );
    expect(() => parseBenchArgs(['--aa', 'both'])).toThrow(/--aa baseline or --aa candidate/);
  });

  it('counts every WIN and LOSE as false, over the comparable rows', () => {
    const card = sampleCard();
    const { WIN, LOSE, TIE } = card.counts;
    const line = aaLine(card);
    expect(line).toContain(`${WIN} false WIN, ${LOSE} false LOSE of ${WIN + LOSE + TIE} comparable rows`);
    for (const row of card.rows.filter((r) => r.verdict === 'WIN' || r.verdict === 'LOSE'))
      expect(line).toContain(`${row.id} ${row.verdict}`);
    expect(renderSummary(card)).not.toContain('A/A');
    card.manifest.settings.aa = 'baseline';
    expect(renderSummary(card)).toContain(aaLine(card));
    expect(aaLine(card)).toMatch(/^A\/A \(everycell 0\.1\.0 against itself\)/);
  });
});
