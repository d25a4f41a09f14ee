import { describe, expect, it } from 'vitest';
import { HISTOGRAM_ROWS } from '../src/families/aggs/buckets-histograms.js';
import { compareSignals, metricsAgree } from '../src/families/compare.js';
import { SORTING_PAGING_ROWS } from '../src/families/queries/sorting-paging.js';
import { TERM_LEVEL_ROWS } from '../src/families/queries/term-level.js';
import type { Family } from '../src/families/types.js';

const family = (list: readonly Family[], id: string) => list.find((f) => f.id === id) as Family;

const search = (total: number, extra: Record<string, unknown> = {}) => ({
  took: 1,
  hits: { total: { value: total, relation: 'eq' }, hits: [] },
  ...extra,
});

describe('compareSignals', () => {
  it('requires hit totals and relation to match exactly', () => {
    expect(
      compareSignals({ total: { value: 10, relation: 'eq' } }, { total: { value: 10, relation: 'eq' } }),
    ).toBeUndefined();
    expect(
      compareSignals({ total: { value: 10, relation: 'eq' } }, { total: { value: 11, relation: 'eq' } }),
    ).toBe('hits.total: 10 (eq) vs 11 (eq)');
    expect(
      compareSignals({ total: { value: 10, relation: 'gte' } }, { total: { value: 10, relation: 'eq' } }),
    ).toMatch(/gte/);
    expect(compareSignals({}, { total: { value: 1, relation: 'eq' } })).toMatch(/hits.total/);
  });

  it('compares counts, ids in order and sorted values', () => {
    expect(compareSignals({ count: 3 }, { count: 4 })).toBe('count: 3 vs 4');
    expect(compareSignals({ ids: ['a', 'b'] }, { ids: ['a', 'b'] })).toBeUndefined();
    expect(compareSignals({ ids: ['a', 'b'] }, { ids: ['b', 'a'] })).toMatch(/hit ids/);
    expect(compareSignals({ sortValues: [9, 8] }, { sortValues: [9, 7] })).toMatch(/sorted values/);
  });

  it('compares metrics within 1e-6 relative, nulls only with nulls', () => {
    expect(metricsAgree(1000, 1000 * (1 + 5e-7))).toBe(true);
    expect(metricsAgree(1000, 1000 * (1 + 5e-6))).toBe(false);
    expect(metricsAgree(null, null)).toBe(true);
    expect(metricsAgree(0, null)).toBe(false);
    expect(compareSignals({ metrics: { value: 2 } }, { metrics: { value: 2.1 } })).toBe(
      'aggregations.value: 2 vs 2.1',
    );
  });

  it('compares buckets by key and doc_count exactly, sub-metrics with tolerance', () => {
    const b = {
      by: [
        { key: 'a', docCount: 3, metrics: { avg: 1.5 } },
        { key: 'b', docCount: 1, metrics: { avg: 2 } },
      ],
    };
    expect(compareSignals({ buckets: b }, { buckets: b })).toBeUndefined();
    expect(
      compareSignals({ buckets: { by: [{ key: 'a', docCount: 3, metrics: { avg: 1.5 } }] } }, { buckets: b }),
    ).toMatch(/lacks buckets \["b"\]/);
    expect(
      compareSignals(
        {
          buckets: {
            by: [
              { key: 'a', docCount: 2, metrics: { avg: 1.5 } },
              { key: 'b', docCount: 1, metrics: { avg: 2 } },
            ],
          },
        },
        { buckets: b },
      ),
    ).toBe('aggregations.by[a].doc_count: 2 vs 3');
    expect(
      compareSignals(
        {
          buckets: {
            by: [
              { key: 'a', docCount: 3, metrics: { avg: 1.5 + 1e-9 } },
              { key: 'b', docCount: 1, metrics: { avg: 2 } },
            ],
          },
        },
        { buckets: b },
      ),
    ).toBeUndefined();
  });
});

describe('family signals from ES responses', () => {
  it('extracts totals and sorted ids', () => {
    const f = family(SORTING_PAGING_ROWS, 'query.sort_timestamp');
    const res = search(5, {});
    (res.hits as { hits: unknown[] }).hits = [
      { _id: 'ev-2', _source: {} },
      { _id: 'ev-1', _source: {} },
    ];
    expect(f.signal(res)).toEqual({ total: { value: 5, relation: 'eq' }, ids: ['ev-2', 'ev-1'] });
  });

  it('drops empty buckets and orders by key, so gap-filling differences do not count', () => {
    const f = family(HISTOGRAM_ROWS, 'bucket.date_histogram_day');
    const a = search(3, {
      aggregations: {
        per_day: {
          buckets: [
            { key: 2, doc_count: 1 },
            { key: 1, doc_count: 2 },
            { key: 3, doc_count: 0 },
          ],
        },
      },
    });
    const b = search(3, {
      aggregations: {
        per_day: {
          buckets: [
            { key: 1, doc_count: 2 },
            { key: 2, doc_count: 1 },
          ],
        },
      },
    });
    expect(compareSignals(f.signal(a), f.signal(b))).toBeUndefined();
  });

  it('throws a clear error on a malformed response', () => {
    const f = family(TERM_LEVEL_ROWS, 'query.term');
    expect(() => f.signal({ hits: {} })).toThrow(/hits.total/);
  });
});
