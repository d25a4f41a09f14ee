import { describe, expect, it } from 'vitest';
import { floorLine, renderSummary, rowNotes } from '../src/cli/summary.js';
import type { RowResult } from '../src/scorecard/schema.js';
import { sampleCard } from './helpers/card.js';

describe('terminal summary', () => {
  it('flags below-resolution, collapsed, saturated, cached and re-measured rows', () => {
    const row = sampleCard().rows[1] as RowResult;
    expect(rowNotes(row)).toBe('');
    const flagged: RowResult = {
      ...row,
      belowResolution: true,
      rounds: 6,
      remeasured: true,
      candidate: { ...row.candidate, collapsed: true, saturated: true },
      baseline: {
        ...row.baseline,
        saturated: true,
        cache: { repeatedP50: 0.2, variedP50: 1, suspected: true },
      },
    };
    expect(rowNotes(flagged)).toBe('below resolution, collapsed c, saturated c+b, cache? b, 6 rounds');
  });

  it('prints the floor line when the run measured one', () => {
    const card = sampleCard();
    expect(renderSummary(card)).not.toContain('floor');
    card.floor = { rate: 200, p50: 0.4, p99: 1.2, sendLagP50: 0.01, sendLagP99: 0.3 };
    expect(renderSummary(card)).toContain(floorLine(card.floor));
    expect(floorLine(card.floor)).toMatch(/p50 0\.400 ms.*both p50 under 0\.800 ms are below resolution/);
  });
});
