import { describe, expect, it } from 'vitest';
import type { RowResult, Scorecard } from '../lib/definitions';
import {
  allRowIds,
  countsAgree,
  countVerdicts,
  groupRows,
  latestRowResult,
  latestScorecard,
  trendFromScorecards,
} from '../lib/prepare';
import { runSets } from '../lib/sets';
import { loadFixtures } from './load-fixtures';

const cards = loadFixtures();

function row(id: string, group: RowResult['group'], verdict: RowResult['verdict']): RowResult {
  return {
    id,
    group,
    family: id,
    title: id,
    unit: 'ms',
    betterIs: 'lower',
    candidate: { supported: true, samples: 1, errors: 0 },
    baseline: { supported: true, samples: 1, errors: 0 },
    verdict,
    reason: 'r',
  };
}

describe('groupRows', () => {
  it('orders groups ingest first, keeps row order inside a group and drops empty groups', () => {
    const sections = groupRows([
      row('bucket.a', 'bucket', 'WIN'),
      row('query.b', 'query', 'TIE'),
      row('ingest.c', 'ingest', 'LOSE'),
      row('query.a', 'query', 'N/A'),
    ]);
    expect(sections.map((s) => s.group)).toEqual(['ingest', 'query', 'bucket']);
    expect(sections[1]?.rows.map((r) => r.id)).toEqual(['query.b', 'query.a']);
  });
});

describe('latestScorecard', () => {
  it('picks the newest createdAt whatever the input order', () => {
    expect(latestScorecard(cards)?.runId).toBe('2026-11-21T02-09-58Z-c4a7b19');
    expect(latestScorecard([...cards].reverse())?.runId).toBe('2026-11-21T02-09-58Z-c4a7b19');
  });
  it('is undefined without runs', () => {
    expect(latestScorecard([])).toBeUndefined();
  });
});

describe('countVerdicts', () => {
  it('matches the counts each fixture file stores', () => {
    for (const card of cards) expect(countsAgree(countVerdicts(card.rows), card.counts)).toBe(true);
  });
  it('notices a file whose counts disagree with its rows', () => {
    const card = cards[0] as Scorecard;
    expect(countsAgree(countVerdicts(card.rows), { ...card.counts, WIN: card.counts.WIN + 1 })).toBe(false);
  });
});

describe('trendFromScorecards', () => {
  // Trends are drawn within one comparable set: the newest run's, three 200k runs.
  const series = runSets(cards)[0]?.runs ?? [];
  it('lists a row oldest run first and skips runs that lack it', () => {
    const trend = trendFromScorecards(series, 'metric.avg');
    expect(trend?.points.map((p) => p.runId)).toEqual([
      '2026-11-20T02-12-41Z-8d01e77',
      '2026-11-21T02-09-58Z-c4a7b19',
    ]);
    expect(trend?.points[1]?.ciLow).toBeLessThan(trend?.points[1]?.ratio ?? 0);
    // Each engine's own scored number rides along for the per-engine chart.
    expect(trend?.points[1]?.candidate).toBeGreaterThan(0);
    expect(trend?.points[1]?.gitRevision).toMatch(/^c4a7b19/);
    // Each point knows its interval's level: the newest run's forks at 99%, the older run's bootstrap at 95%.
    expect(trend?.points.map((p) => p.level)).toEqual([0.95, 0.99]);
  });
  it('keeps N/A runs as points without a ratio', () => {
    const trend = trendFromScorecards(series, 'query.phrase');
    expect(trend?.points).toHaveLength(3);
    expect(trend?.points.every((p) => p.verdict === 'N/A' && p.ratio === undefined)).toBe(true);
  });
  it('is undefined for an unknown row', () => {
    expect(trendFromScorecards(cards, 'no.such-row')).toBeUndefined();
  });
});

describe('allRowIds and latestRowResult', () => {
  it('lists each row once, the latest run order first', () => {
    const ids = allRowIds(cards);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(latestScorecard(cards)?.rows.map((r) => r.id));
  });
  it('finds a row in the newest run that has it', () => {
    expect(latestRowResult(cards, 'ingest.4-clients')?.verdict).toBe('WIN');
  });
});
