import { describe, expect, it } from 'vitest';
import type { TrendPoint } from '../lib/definitions';
import { chartData, ratioDomain, renderTrendSvg } from '../lib/trend-chart';

const points: TrendPoint[] = [
  {
    runId: 'a',
    createdAt: '2026-11-18T02:10:04.000Z',
    verdict: 'LOSE',
    ratio: 0.8,
    ciLow: 0.7,
    ciHigh: 0.9,
    reason: 'r',
  },
  { runId: 'b', createdAt: '2026-11-20T02:10:04.000Z', verdict: 'N/A', reason: 'r' },
  {
    runId: 'c',
    createdAt: '2026-11-21T02:10:04.000Z',
    verdict: 'WIN',
    ratio: 2.2,
    ciLow: 2.0,
    ciHigh: 2.4,
    reason: 'r',
  },
];

describe('chartData', () => {
  it('keeps runs with a ratio, numbered by their place among all runs', () => {
    const data = chartData(points);
    expect(data.map((d) => d.run)).toEqual(['#1 · 18 Nov', '#3 · 21 Nov']);
    expect(data.map((d) => d.verdict)).toEqual(['LOSE', 'WIN']);
  });
  it('drops verdicts outside the closed set, so no free text reaches the SVG', () => {
    const bad = { ...points[0], verdict: '<script>' } as unknown as TrendPoint;
    expect(chartData([bad])).toEqual([]);
  });
});

describe('ratioDomain', () => {
  it('always contains the 1x line and every interval', () => {
    const [low, high] = ratioDomain(chartData(points));
    expect(low).toBeLessThan(0.7);
    expect(high).toBeGreaterThan(2.4);
    const [onlyAbove] = ratioDomain(chartData([points[2] as TrendPoint]));
    expect(onlyAbove).toBeLessThan(1);
  });
});

describe('renderTrendSvg', () => {
  it('renders one point mark per run with a ratio, without a browser', async () => {
    const svg = await renderTrendSvg(chartData(points), 'test chart');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('viewBox');
    const pointMarks = svg.match(/class="mark-symbol role-mark[^"]*"[^>]*>(.*?)<\/g>/)?.[1] ?? '';
    expect(pointMarks.match(/<path/g)).toHaveLength(2);
    expect(svg).toContain('1× parity');
  });
});
