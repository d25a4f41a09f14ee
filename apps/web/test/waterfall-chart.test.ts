import { describe, expect, it } from 'vitest';
import { rowCharts } from '../lib/chart-files';
import { renderSpecSvg } from '../lib/charts';
import type { RowResult, SideMeasurement, Waterfall } from '../lib/definitions';
import {
  formatPartMs,
  hasWaterfall,
  partsOf,
  tookSides,
  waterfallParts,
  waterfallSegments,
  waterfallTable,
} from '../lib/waterfall-chart';
import { loadFixtures } from './load-fixtures';

// The candidate reports its engine, napi call and handler (Server-Timing); its Rest is below zero.
const candidateP50: Waterfall = {
  q: 50,
  samples: 201,
  latencyMs: 0.6,
  floorMs: 0.2,
  queueMs: 0.05,
  engineMs: 0.3,
  engineSource: 'server-timing',
  hopMs: 0.02,
  serviceMs: 0.04,
  restMs: -0.01,
};
// The baseline only reports `took`, whole milliseconds rounded down: no hop, no service.
const baselineP50: Waterfall = {
  q: 50,
  samples: 201,
  latencyMs: 1.4,
  floorMs: 0.2,
  queueMs: 0.025,
  engineMs: 0.375,
  engineSource: 'took',
  restMs: 0.8,
};
const p99 = (w: Waterfall, factor: number): Waterfall => ({
  ...w,
  q: 99,
  samples: 21,
  latencyMs: w.latencyMs * factor,
  engineMs: (w.engineMs ?? 0) * factor,
});

const side = (waterfall?: SideMeasurement['waterfall']): SideMeasurement => ({
  supported: true,
  samples: 2000,
  errors: 0,
  p50: 1,
  p99: 5,
  ...(waterfall ? { waterfall } : {}),
});

const row = (candidate: SideMeasurement, baseline: SideMeasurement): RowResult => ({
  id: 'query.term',
  group: 'query',
  family: 'term',
  title: 'Term query',
  unit: 'ms',
  betterIs: 'lower',
  candidate,
  baseline,
  verdict: 'WIN',
  reason: 'fixture',
});

const both = row(
  side({ p50: candidateP50, p99: p99(candidateP50, 4) }),
  side({ p50: baselineP50, p99: p99(baselineP50, 3) }),
);

describe('where a row’s latency goes', () => {
  it('lists the parts an engine measured, in drawing order, signed', () => {
    expect(waterfallParts(candidateP50)).toEqual([
      { part: 'Floor', ms: 0.2 },
      { part: 'Queue', ms: 0.05 },
      { part: 'Engine', ms: 0.3 },
      { part: 'napi hop', ms: 0.02 },
      { part: 'HTTP service', ms: 0.04 },
      { part: 'Rest', ms: -0.01 },
    ]);
    expect(waterfallParts(baselineP50).map((p) => p.part)).toEqual(['Floor', 'Queue', 'Engine', 'Rest']);
    expect(partsOf(both)).toEqual(['Floor', 'Queue', 'Engine', 'napi hop', 'HTTP service', 'Rest']);
    expect(tookSides(both)).toEqual(['Baseline']);
  });

  it('lays the parts end to end, one bar per engine; a part below zero takes no width', () => {
    const segments = waterfallSegments(both, 'p50');
    const candidate = segments.filter((s) => s.engine === 'Candidate');
    expect(candidate.map((s) => s.part)).toEqual(['Floor', 'Queue', 'Engine', 'napi hop', 'HTTP service']);
    for (const [a, b] of candidate.slice(1).map((s, i) => [candidate[i], s] as const)) {
      expect(b.from).toBeCloseTo(a?.to ?? Number.NaN, 12);
    }
    expect(candidate.at(-1)?.to).toBeCloseTo(0.61, 12);
    const baseline = segments.filter((s) => s.engine === 'Baseline');
    expect(baseline.map((s) => s.part)).toEqual(['Floor', 'Queue', 'Engine', 'Rest']);
    expect(baseline.at(-1)?.to).toBeCloseTo(1.4, 12);
    // An engine without a waterfall (unsupported) draws no bar.
    const oneSided = row({ supported: false, samples: 0, errors: 0 }, both.baseline);
    expect(new Set(waterfallSegments(oneSided, 'p99').map((s) => s.engine))).toEqual(new Set(['Baseline']));
  });

  it('tabulates every part to 3 decimals, marks a took as a lower bound and a missing side with a dash', () => {
    const table = waterfallTable(row(both.candidate, side({ p50: baselineP50, p99: p99(baselineP50, 3) })));
    const byLabel = Object.fromEntries(table.map((line) => [line.label, line.cells]));
    expect(table.map((line) => line.label)).toEqual([
      'Latency (band mean)',
      'Floor',
      'Queue',
      'Engine',
      'napi hop',
      'HTTP service',
      'Rest',
      'Requests averaged',
    ]);
    // Columns: p50 candidate, p50 baseline, p99 candidate, p99 baseline.
    expect(byLabel['Latency (band mean)']).toEqual(['0.600', '1.400', '2.400', '4.200']);
    expect(byLabel.Engine).toEqual(['0.300', '≥ 0.375', '1.200', '≥ 1.125']);
    expect(byLabel['napi hop']).toEqual(['0.020', '—', '0.020', '—']);
    expect(byLabel.Rest).toEqual(['−0.010', '0.800', '−0.010', '0.800']);
    expect(byLabel['Requests averaged']).toEqual(['201', '201', '21', '21']);
    const noCandidate = waterfallTable(row({ supported: false, samples: 0, errors: 0 }, both.baseline));
    expect(noCandidate[0]?.cells).toEqual(['—', '1.400', '—', '4.200']);
    // The baseline alone measures no hop or service: no rows for them.
    expect(noCandidate.map((line) => line.label)).not.toContain('napi hop');
  });

  it('writes a true minus below zero and never "-0.000"', () => {
    expect(formatPartMs(-0.0123)).toBe('−0.012');
    expect(formatPartMs(-0.0004)).toBe('0.000');
    expect(formatPartMs(1.23456)).toBe('1.235');
    expect(formatPartMs(undefined)).toBe('—');
  });

  it('draws two charts, p50 and p99, at their exact sizes, only for a row that recorded them', async () => {
    expect(hasWaterfall(row(side(), side()))).toBe(false);
    expect(rowCharts(row(side(), side()), []).filter((c) => c.name.startsWith('waterfall'))).toEqual([]);
    const charts = rowCharts(both, []).filter((c) => c.name.startsWith('waterfall'));
    expect(charts.map((c) => c.name)).toEqual(['waterfall-p50', 'waterfall-p99']);
    expect(charts[0]?.alt).toContain('Floor, Queue, Engine, napi hop, HTTP service, Rest');
    for (const chart of charts) {
      for (const variant of ['wide', 'narrow'] as const) {
        const svg = await renderSpecSvg(chart.spec(variant));
        const size = chart.size(variant);
        expect(svg).toMatch(new RegExp(`^<svg[^>]*width="${size.width}"[^>]*height="${size.height}"`));
        for (const label of ['Candidate', 'Baseline', 'napi hop', 'HTTP service'])
          expect(svg).toContain(label);
      }
    }
  });

  it('is in the newest fixture run, and not in the older ones', () => {
    const cards = loadFixtures().sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    const newest = cards.at(-1);
    const withIt = newest?.rows.filter(hasWaterfall) ?? [];
    expect(withIt.length).toBeGreaterThan(5);
    expect(withIt.every((r) => r.candidate.waterfall?.p50.engineSource !== 'took')).toBe(true);
    expect(withIt.some((r) => r.baseline.waterfall?.p50.engineSource === 'took')).toBe(true);
    expect(cards.slice(0, -1).some((card) => card.rows.some(hasWaterfall))).toBe(false);
  });
});
