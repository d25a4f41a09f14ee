import { describe, expect, it } from 'vitest';
import { ERROR_PHRASES } from '../src/corpus/vocabulary.js';
import { compareSignals } from '../src/families/compare.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import { pickDocIds, pickPhrase } from '../src/families/params.js';
import { compositeBucketsOf, namedBucketsOf, topHitsIdsOf } from '../src/families/signals/buckets.js';
import { canonicalJson } from '../src/families/signals/hits.js';
import { percentilesOf } from '../src/families/signals/metrics.js';
import type { Family } from '../src/families/types.js';
import { rowSettings, wireRequest } from '../src/measure/readRow.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';
import { Rng } from '../src/rng.js';

const family = (id: string) => {
  const f = ALL_FAMILIES.find((x) => x.id === id);
  if (!f) throw new Error(`no family ${id}`);
  return f as Family;
};
const search = (aggregations: unknown, total = 10) => ({
  hits: { total: { value: total, relation: 'eq' }, hits: [] },
  aggregations,
});

describe('the widened row list', () => {
  it('has one row per family the brief names, ids unique, in the schema groups', () => {
    const ids = ALL_FAMILIES.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      'query.match_none',
      'query.match_phrase',
      'query.multi_match',
      'query.prefix',
      'query.wildcard',
      'query.exists',
      'query.ids',
      'query.constant_score',
      'query.dis_max',
      'query.fuzzy',
      'query.regexp',
      'query.range_date_math',
      'query.boosting',
      'query.match_phrase_prefix',
      'query.simple_query_string',
      'metric.stats',
      'metric.extended_stats',
      'metric.value_count',
      'metric.cardinality',
      'metric.percentiles',
      'bucket.histogram',
      'bucket.range',
      'bucket.date_range',
      'bucket.filter',
      'bucket.filters',
      'bucket.missing',
      'bucket.composite',
      'bucket.top_hits',
      'feature.source_filtering',
      'feature.search_after',
      'feature.sort_doc',
      'feature.mget',
      'feature.msearch',
    ])
      expect(ids).toContain(id);
    for (const f of ALL_FAMILIES) expect(f.id.startsWith(`${f.group}.`)).toBe(true);
  });

  it('draws different, reproducible parameters per iteration', () => {
    for (const f of ALL_FAMILIES.filter((x) => !['query.match_none', 'query.match_all'].includes(x.id))) {
      const draw = (seed: number) => {
        const rng = Rng.derive(seed, f.id);
        return Array.from({ length: 20 }, () => JSON.stringify(f.request(rng)));
      };
      expect(draw(7)).toEqual(draw(7));
      expect(new Set(draw(7)).size, f.id).toBeGreaterThan(1);
    }
  });

  it('asks for values that exist: real phrases, corpus ids, anchored date math', () => {
    const rng = new Rng(3);
    const phrases = Object.values(ERROR_PHRASES).flat();
    for (let i = 0; i < 50; i++) {
      const p = pickPhrase(rng);
      expect(p.split(' ').length).toBeGreaterThanOrEqual(2);
      expect(phrases.some((full) => full.includes(p))).toBe(true);
    }
    expect(pickDocIds(rng, 3).every((id) => /^ev-\d{9}$/.test(id))).toBe(true);
    const body = family('query.range_date_math').request(new Rng(5)) as {
      query: { range: { '@timestamp': { gte: string; lt: string } } };
    };
    expect(body.query.range['@timestamp'].gte).toMatch(
      /^2026-1\d-\d\dT\d\d:\d\d:00\.000Z\|\|-\d+([hd])\/\1$/,
    );
    expect(body.query.range['@timestamp'].lt).toMatch(/\|\|\/[hd]$/);
  });
});

describe('approximate metrics keep their check, within a stated tolerance', () => {
  const pct = (p50: number) => ({ latency: { values: { '50.0': p50, '95.0': 2000, '99.0': 5000 } } });
  const f = family('metric.percentiles');

  it('accepts a 4% difference and refuses a 6% one on a percentile', () => {
    const base = f.signal(search(pct(1000)));
    expect(compareSignals(f.signal(search(pct(1040))), base)).toBeUndefined();
    expect(compareSignals(f.signal(search(pct(1060))), base)).toMatch(
      /latency.p50: 1060 vs 1000 \(beyond the 5% tolerance\)/,
    );
  });

  it('reads keyed and array percentiles alike', () => {
    const keyed = percentilesOf({ aggregations: pct(1000) }, 'latency');
    const list = percentilesOf(
      {
        aggregations: {
          latency: {
            values: [
              { key: 50, value: 1000 },
              { key: 95, value: 2000 },
              { key: 99, value: 5000 },
            ],
          },
        },
      },
      'latency',
    );
    expect(list).toEqual(keyed);
    expect(keyed).toEqual({ 'latency.p50': 1000, 'latency.p95': 2000, 'latency.p99': 5000 });
  });

  it('cardinality: 5% tolerance, exact metrics stay at 1e-6', () => {
    const card = family('metric.cardinality');
    const at = (n: number) => card.signal(search({ tenants: { value: n } }));
    expect(compareSignals(at(480), at(490))).toBeUndefined();
    expect(compareSignals(at(400), at(490))).toMatch(/tenants/);
    const stats = family('metric.stats');
    const s = (sum: number) =>
      stats.signal(search({ latency: { count: 3, min: 1, max: 5, avg: sum / 3, sum } }));
    expect(compareSignals(s(9), s(9))).toBeUndefined();
    expect(compareSignals(s(9.001), s(9))).toMatch(/latency\.(avg|sum)/);
  });
});

describe('bucket and feature readers', () => {
  it('named buckets: keyed objects and keyed lists compare alike, empty ones dropped', () => {
    const obj = namedBucketsOf(
      { aggregations: { f: { buckets: { ok: { doc_count: 3 }, error: { doc_count: 0 } } } } },
      'f',
    );
    const list = namedBucketsOf({ aggregations: { f: { buckets: [{ key: 'ok', doc_count: 3 }] } } }, 'f');
    expect(obj).toEqual(list);
    expect(obj).toEqual([{ key: 'ok', docCount: 3 }]);
  });

  it('composite keys flatten in source order; top_hits ids per bucket; canonical sources', () => {
    const comp = compositeBucketsOf(
      { aggregations: { p: { buckets: [{ key: { status: 'ok', model: 'm' }, doc_count: 2 }] } } },
      'p',
      ['model', 'status'],
    );
    expect(comp).toEqual([{ key: 'model=m|status=ok', docCount: 2 }]);
    const top = topHitsIdsOf(
      {
        aggregations: {
          by: {
            buckets: [{ key: 'openai', doc_count: 5, t: { hits: { hits: [{ _id: 'a' }, { _id: 'b' }] } } }],
          },
        },
      },
      'by',
      't',
    );
    expect(top).toEqual({ 't[openai]': ['a', 'b'] });
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe(
      canonicalJson({ a: [{ c: null, d: 2 }], b: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: 1.5 }));
  });

  it('top_hits rows fail on a different latest id', () => {
    const f = family('bucket.top_hits');
    const resp = (ids: string[]) =>
      search({
        by_provider: {
          buckets: [{ key: 'openai', doc_count: 9, latest: { hits: { hits: ids.map((_id) => ({ _id })) } } }],
        },
      });
    expect(compareSignals(f.signal(resp(['a', 'b', 'c'])), f.signal(resp(['a', 'b', 'c'])))).toBeUndefined();
    expect(compareSignals(f.signal(resp(['a', 'c', 'b'])), f.signal(resp(['a', 'b', 'c'])))).toMatch(
      /latest\[openai\]/,
    );
  });

  it('_mget compares found flags and sources; _msearch compares each total', () => {
    const mget = family('feature.mget');
    const docs = (source: unknown) => ({
      docs: [
        { _id: 'ev-1', found: true, _source: source },
        { _id: 'ev-2', found: false },
      ],
    });
    expect(
      compareSignals(mget.signal(docs({ a: 1, b: 2 })), mget.signal(docs({ b: 2, a: 1 }))),
    ).toBeUndefined();
    expect(compareSignals(mget.signal(docs({ a: 1 })), mget.signal(docs({ a: 2 })))).toMatch(/docs/);
    const ms = family('feature.msearch');
    const totals = (...t: number[]) => ({
      responses: t.map((value) => ({ hits: { total: { value, relation: 'eq' } } })),
    });
    expect(compareSignals(ms.signal(totals(1, 2)), ms.signal(totals(1, 2)))).toBeUndefined();
    expect(compareSignals(ms.signal(totals(1, 3)), ms.signal(totals(1, 2)))).toMatch(
      /totals: \[1,3\] vs \[1,2\]/,
    );
  });

  it('sends _msearch as NDJSON with request_cache off per header, _mget as JSON', () => {
    const ms = family('feature.msearch');
    const wire = wireRequest(ms, 'idx', ms.request(new Rng(1)));
    expect(wire.path).toBe('/idx/_msearch');
    const lines = wire.body.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.length).toBe(4 * 2 + 1);
    expect(JSON.parse(lines[0] as string)).toEqual({ request_cache: false });
    expect(JSON.parse(lines[1] as string).track_total_hits).toBe(true);
    const mget = family('feature.mget');
    expect(wireRequest(mget, 'idx', { ids: ['ev-1'] })).toEqual({
      path: '/idx/_mget',
      body: '{"ids":["ev-1"]}',
    });
  });
});

describe('breadth rows', () => {
  it('every new row is a breadth row; the headline rows keep the full budget', () => {
    const breadth = ALL_FAMILIES.filter((f) => f.breadth).map((f) => f.id);
    // 33 query, metric, bucket and feature rows, the 13 pipeline rows, the 18 rows added for the
    // rest of the engine surface and the 6 the reference scorecard has (familiesReference.test.ts).
    expect(breadth).toHaveLength(70);
    expect(breadth).not.toContain('query.term');
    const s = { ...DEFAULT_SETTINGS, iterations: 600, prewarm: 200, rounds: 2 };
    expect(rowSettings(family('query.term'), s)).toBe(s);
    expect(rowSettings(family('query.fuzzy'), s)).toMatchObject({ iterations: 200, prewarm: 100 });
    // Never fewer than one request per round of every fork.
    expect(rowSettings(family('query.fuzzy'), { ...s, iterations: 2, forks: 1 }).iterations).toBe(2);
    expect(rowSettings(family('query.fuzzy'), { ...s, iterations: 2, forks: 5 }).iterations).toBe(10);
  });
});
