import { describe, expect, it } from 'vitest';
import {
  engineData,
  isJump,
  ratioData,
  rowCharts,
  runLabels,
  setCharts,
  trendData,
} from '../lib/chart-files';
import { renderSpecSvg } from '../lib/charts';
import type { TrendPoint } from '../lib/definitions';
import {
  clientCounts,
  listInWords,
  previousInSet,
  runSets,
  scalingLines,
  setLabel,
  setSlug,
  sizeLabel,
  sizeShort,
} from '../lib/sets';
import { loadFixtures } from './load-fixtures';

const cards = loadFixtures();

describe('comparable sets', () => {
  it('groups runs by the harness key: the 2M run is its own set, even at the same commit', () => {
    const sets = runSets(cards);
    expect(sets.map((set) => [set.set.docs, set.runs.length])).toEqual([
      [200_000, 3],
      [200_000, 1],
      [20_000_000, 1],
      [2_000_000, 1],
    ]);
    const big = sets.find((set) => set.set.docs === 2_000_000)?.runs[0];
    const sameCommit = cards.find(
      (card) => card !== big && card.manifest.gitRevision === big?.manifest.gitRevision,
    );
    expect(sameCommit).toBeDefined();
    expect(setSlug(sameCommit as never)).not.toBe(setSlug(big as never));
    expect(previousInSet(sets, '2026-11-20T02-12-41Z-8d01e77')?.runId).toBe('2026-11-18T02-10-04Z-3f9c2ab');
    expect(sizeLabel(100_000)).toBe('100k');
    expect(sizeLabel(1_000_000)).toBe('1m');
    expect(sizeLabel(2500)).toBe('2500');
    expect(sizeShort(10_000_000)).toBe('10M');
    expect(sizeShort(6046)).toBe('6,046');
  });

  it('names a set by corpus and size; its options are chips, and a client list never reads as a decimal', () => {
    const sets = runSets(cards);
    const [plain, knn] = sets;
    expect(plain?.name).toBe('logs-zipf, 200,000 docs');
    expect(knn?.name).toBe(plain?.name);
    // The 200k sets differ in their options, shown beside the name.
    expect(knn?.options.map((option) => option.text)).toEqual([
      'kNN, 5,000 vectors',
      'ingest at 1 and 8 clients',
    ]);
    expect(plain?.options.map((option) => option.text)).toEqual(['ingest at 1, 2, 4 and 8 clients']);
    expect(setLabel(knn as never)).toBe(
      'logs-zipf, 200,000 docs (kNN, 5,000 vectors; ingest at 1 and 8 clients)',
    );
    expect(listInWords(clientCounts('1,8'))).toBe('1 and 8');
    expect(listInWords(clientCounts(['1', '2', '4']))).toBe('1, 2 and 4');
    expect(setLabel(knn as never)).not.toContain('1,8');
  });

  it('lines up the sizes of one set of options: 200k -> 2M -> 20M is one line, kNN another', () => {
    const lines = scalingLines(runSets(cards));
    expect(lines.map((line) => line.name)).toEqual(['logs-zipf: 200k → 2M → 20M', 'logs-zipf: 200k']);
    expect(lines[0]?.sets.map((set) => set.set.docs)).toEqual([200_000, 2_000_000, 20_000_000]);
    expect(lines[1]?.options.map((option) => option.key)).toEqual(['knn', 'clients']);
  });
});

const point = (over: Partial<TrendPoint>): TrendPoint => ({
  runId: 'r',
  createdAt: '2026-11-20T02:00:00.000Z',
  gitRevision: 'abcdef0123',
  verdict: 'WIN',
  reason: 'r',
  ...over,
});

describe('trend charts', () => {
  it('labels runs with date and commit, unique per run', () => {
    const labels = runLabels([point({}), point({}), point({ gitRevision: '1234567aaa' })]);
    expect(labels).toEqual(['20 Nov\nabcdef0', '20 Nov\nabcdef0 #2', '20 Nov\n1234567']);
  });

  it('marks a jump only when the ratio moves 25% or more beyond both intervals', () => {
    const a = point({ ratio: 1.5, ciLow: 1.4, ciHigh: 1.6 });
    expect(isJump(a, point({ ratio: 2.5, ciLow: 2.3, ciHigh: 2.7 }))).toBe(true);
    expect(isJump(a, point({ ratio: 1.7, ciLow: 1.5, ciHigh: 1.9 }))).toBe(false);
    expect(isJump(a, point({ ratio: 2.5, ciLow: 1.5, ciHigh: 3.5 }))).toBe(false);
    const data = trendData([a, point({ verdict: 'N/A' }), point({ ratio: 2.5, ciLow: 2.3, ciHigh: 2.7 })]);
    expect(data.map((d) => [d.order, d.jump])).toEqual([
      [0, false],
      [2, true],
    ]);
    expect(engineData([point({ candidate: 1, baseline: 2 })])).toHaveLength(2);
  });

  it('draws an error bar and a point per run, and no band between runs', async () => {
    const data = trendData([
      point({ ratio: 1.5, ciLow: 1.4, ciHigh: 1.6 }),
      point({ ratio: 2.5, ciLow: 2.3, ciHigh: 2.7, gitRevision: '9999999aaa' }),
    ]);
    const row = cards[0]?.rows.find((r) => r.id === 'query.term');
    if (!row) throw new Error('no row');
    const [trend] = rowCharts(row, [
      point({ ratio: 1.5, ciLow: 1.4, ciHigh: 1.6 }),
      point({ ratio: 2.5, ciLow: 2.3, ciHigh: 2.7, gitRevision: '9999999aaa' }),
    ]);
    expect(trend?.name).toBe('trend');
    const svg = await renderSpecSvg(trend?.spec('wide') as never);
    expect(svg).not.toContain('mark-area');
    expect(svg).toContain('9999999');
    expect(data).toHaveLength(2);
  });

  it('sizes every chart exactly, so the page reserves its space', async () => {
    const newest = [...cards].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1);
    if (!newest) throw new Error('no fixtures');
    const [ratios] = setCharts(newest);
    expect(ratioData(newest)[0]?.ratio).toBeGreaterThanOrEqual(ratioData(newest).at(-1)?.ratio ?? 0);
    for (const variant of ['wide', 'narrow'] as const) {
      const svg = await renderSpecSvg(ratios?.spec(variant) as never);
      const size = ratios?.size(variant);
      expect(svg).toMatch(new RegExp(`^<svg[^>]*width="${size?.width}"[^>]*height="${size?.height}"`));
    }
  });
});

describe('sweep points', () => {
  it('follow the harness: behind, over the bound, or failures above the recorded capacity disqualify', async () => {
    const { pointStatus } = await import('../lib/latency-charts');
    const ok = { p99: 10, achievedRate: 1000, errors: 0, dropped: 0 };
    expect(pointStatus(ok, 1000, 50)).toBe('sustained');
    expect(pointStatus({ ...ok, achievedRate: 900 }, 1000, 50)).toBe('fell behind');
    expect(pointStatus({ ...ok, p99: 60 }, 1000, 50)).toBe('p99 over the bound');
    // 63 dropped at 2,003 req/s where the harness recorded a capacity of 1,669: disqualified.
    expect(pointStatus({ ...ok, achievedRate: 1963, dropped: 63 }, 2003, 50, 1669)).toBe(
      'too many failed or dropped',
    );
    // 8 dropped at 1,669 req/s, which the harness counted as sustained.
    expect(pointStatus({ ...ok, achievedRate: 1665, dropped: 8 }, 1669, 50, 1669)).toBe('sustained');
  });
});
