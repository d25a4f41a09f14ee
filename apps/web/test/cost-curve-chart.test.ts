import { describe, expect, it } from 'vitest';
import { rowCharts } from '../lib/chart-files';
import { renderSpecSvg } from '../lib/charts';
import { costCurveData } from '../lib/cost-curve-chart';
import type { Scorecard } from '../lib/definitions';
import { loadFixtures } from './load-fixtures';

const [card] = loadFixtures();
if (!card) throw new Error('no fixtures');
const row = card.rows.find((r) => r.id === 'query.term');
if (!row) throw new Error('no query.term row in the fixtures');

const curve: NonNullable<Scorecard['costCurve']> = {
  docs: [100_000, 1_000_000, 10_000_000],
  runIds: ['a', 'b', 'c'],
  loads: [
    { rate: 200, iterations: 600 },
    { rate: 200, iterations: 600 },
    { rate: 50, iterations: 200 },
  ],
  rows: [
    {
      id: 'query.term',
      candidateP50: [0.4, 1, 9],
      baselineP50: [1.2, 6, 80],
      candidateCpuMs: [0.2, 0.5, null],
      baselineCpuMs: [0.9, 4.5, 0],
    },
  ],
};

describe("a row's cost against corpus size", () => {
  it('takes each side and measure at every size it was measured, leaving out what a log axis cannot show', () => {
    const data = costCurveData({ costCurve: curve }, 'query.term');
    expect(data.filter((d) => d.measure === 'p50' && d.engine === 'Baseline').map((d) => d.ms)).toEqual([
      1.2, 6, 80,
    ]);
    // null (not measured) and 0 (no CPU counted) are not points.
    expect(data.filter((d) => d.measure === 'CPU per request').map((d) => [d.engine, d.docs])).toEqual([
      ['Candidate', 100_000],
      ['Candidate', 1_000_000],
      ['Baseline', 100_000],
      ['Baseline', 1_000_000],
    ]);
    expect(costCurveData({ costCurve: curve }, 'query.match')).toEqual([]);
    expect(costCurveData({ costCurve: undefined }, 'query.term')).toEqual([]);
  });

  it("is a chart on the row's page only when the run carries the row's curve, drawn at its exact size", async () => {
    expect(rowCharts(row, []).some((c) => c.name === 'cost')).toBe(false);
    const cost = rowCharts(row, [], { costCurve: curve }).find((c) => c.name === 'cost');
    expect(cost?.alt).toContain('against the number of documents');
    for (const variant of ['wide', 'narrow'] as const) {
      const svg = await renderSpecSvg(cost?.spec(variant) as never);
      const size = cost?.size(variant);
      expect(svg).toMatch(new RegExp(`^<svg[^>]*width="${size?.width}"[^>]*height="${size?.height}"`));
      // The x axis names every size it drew.
      for (const label of ['100k', '1M', '10M']) expect(svg).toContain(label);
    }
    // One size only is no curve.
    const single = { ...curve, docs: [1_000_000], rows: [{ ...curve.rows[0], candidateP50: [1] }] } as never;
    expect(rowCharts(row, [], { costCurve: single }).some((c) => c.name === 'cost')).toBe(false);
  });
});
