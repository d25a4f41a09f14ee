import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../src/cli/args.js';
import { aaLine, renderSummary } from '../src/cli/summary.js';
import { sampleCard } from './helpers/card.js';

describe('A/A mode', () => {
  it('is a flag that refuses a remote candidate and keeps its cards out of scorecards/', () => {
    const args = parseBenchArgs(['--aa']);
    expect(args.settings.aa).toBe(true);
    expect(args.out).toMatch(/\.runs\/aa$/);
    expect(parseBenchArgs([]).settings.aa).toBe(false);
    expect(() => parseBenchArgs(['--aa', '--candidate-url', 'http://127.0.0.1:9'])).toThrow(
      /drop --candidate-url/,
    );
  });

  it('counts every WIN and LOSE as false, over the comparable rows', () => {
    const card = sampleCard();
    const { WIN, LOSE, TIE } = card.counts;
    const line = aaLine(card);
    expect(line).toContain(`${WIN} false WIN, ${LOSE} false LOSE of ${WIN + LOSE + TIE} comparable rows`);
    for (const row of card.rows.filter((r) => r.verdict === 'WIN' || r.verdict === 'LOSE'))
      expect(line).toContain(`${row.id} ${row.verdict}`);
    expect(renderSummary(card)).not.toContain('A/A');
    card.manifest.settings.aa = true;
    expect(renderSummary(card)).toContain(line);
  });
});
