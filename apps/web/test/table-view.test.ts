import { describe, expect, it } from 'vitest';
import type { RowResult } from '../lib/definitions';
import { groupRows } from '../lib/prepare';
import { tableRow, tableSections } from '../lib/table-rows';
import {
  applyView,
  DEFAULT_VIEW,
  isDefaultView,
  parseView,
  rowMatches,
  serializeView,
} from '../lib/table-view';

function row(
  id: string,
  group: RowResult['group'],
  verdict: RowResult['verdict'],
  ratio?: number,
): RowResult {
  const result: RowResult = {
    id,
    group,
    family: id.split('.')[1] ?? id,
    title: `Title of ${id}`,
    unit: 'ms',
    betterIs: 'lower',
    candidate: { supported: true, samples: 1, errors: 0 },
    baseline: { supported: true, samples: 1, errors: 0 },
    verdict,
    reason: `reason for ${verdict}`,
  };
  if (ratio !== undefined) result.ratio = ratio;
  return result;
}

const results = [
  row('ingest.one', 'ingest', 'WIN', 2.1),
  row('query.term', 'query', 'LOSE', 0.7),
  row('query.match', 'query', 'TIE', 1.01),
  row('query.phrase', 'query', 'N/A'),
  row('bucket.terms', 'bucket', 'LOSE', 0.5),
];
const MANIFEST = { settings: { confidence: 0.99, tieMargin: 0.05 } };
const sections = tableSections(groupRows(results), MANIFEST);
const rows = results.map((result) => tableRow(result, MANIFEST));

describe('the view in the query string', () => {
  it('round-trips every field and leaves defaults out', () => {
    const view = { verdict: 'N/A' as const, group: 'query' as const, q: 'a b&c', sort: 'ratio-asc' as const };
    const query = serializeView(view);
    expect(query).toBe('verdict=N%2FA&group=query&q=a+b%26c&sort=ratio-asc');
    expect(parseView(`?${query}`)).toEqual(view);
    expect(serializeView(DEFAULT_VIEW)).toBe('');
    expect(isDefaultView(parseView(''))).toBe(true);
  });

  it('ignores unknown values instead of failing', () => {
    expect(parseView('?verdict=MAYBE&group=<script>&sort=up&q=%20%20')).toEqual(DEFAULT_VIEW);
  });
});

describe('applyView', () => {
  it('keeps the groups, dropping those left empty by a filter', () => {
    const bodies = applyView(sections, { ...DEFAULT_VIEW, verdict: 'LOSE' });
    expect(bodies.map((body) => [body.key, body.rows.map((r) => r.id)])).toEqual([
      ['query', ['query.term']],
      ['bucket', ['bucket.terms']],
    ]);
    expect(bodies[0]?.label).toBe('Queries');
  });

  it('matches free text in title, id, family and reason, case-insensitively', () => {
    expect(rowMatches(rows[1] as ReturnType<typeof tableRow>, { ...DEFAULT_VIEW, q: 'TERM' })).toBe(true);
    expect(
      rowMatches(rows[1] as ReturnType<typeof tableRow>, { ...DEFAULT_VIEW, q: 'reason for lose' }),
    ).toBe(true);
    expect(rowMatches(rows[1] as ReturnType<typeof tableRow>, { ...DEFAULT_VIEW, q: 'histogram' })).toBe(
      false,
    );
    expect(applyView(sections, { ...DEFAULT_VIEW, q: 'nothing like this' })).toEqual([]);
  });

  it('sorts by ratio in one list, rows without a ratio last either way', () => {
    const ids = (sort: 'ratio-asc' | 'ratio-desc') =>
      applyView(sections, { ...DEFAULT_VIEW, sort }).flatMap((body) => body.rows.map((r) => r.id));
    expect(ids('ratio-asc')).toEqual([
      'bucket.terms',
      'query.term',
      'query.match',
      'ingest.one',
      'query.phrase',
    ]);
    expect(ids('ratio-desc')).toEqual([
      'ingest.one',
      'query.match',
      'query.term',
      'bucket.terms',
      'query.phrase',
    ]);
    const [body] = applyView(sections, { ...DEFAULT_VIEW, sort: 'ratio-asc' });
    expect(body?.label).toBeUndefined();
  });

  it('sorts by name and combines with filters', () => {
    const bodies = applyView(sections, { ...DEFAULT_VIEW, group: 'query', sort: 'name' });
    expect(bodies.flatMap((body) => body.rows.map((r) => r.id))).toEqual([
      'query.match',
      'query.phrase',
      'query.term',
    ]);
  });
});
