import { describe, expect, it } from 'vitest';
import { generateCorpus } from '../src/corpus/generate.js';
import { INDEX_BODY } from '../src/corpus/mapping.js';
import { MODELS, REGIONS, STATUSES, WORDS } from '../src/corpus/vocabulary.js';
import { compareSignals } from '../src/families/compare.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { Family } from '../src/families/types.js';
import { MIXED_SOURCE_FAMILIES } from '../src/measure/mixed.js';
import { Rng } from '../src/rng.js';

/** The rows the reference scorecard has that the default corpus lacked (issue 23, item 2). */

const family = (id: string) => {
  const f = ALL_FAMILIES.find((x) => x.id === id);
  if (!f) throw new Error(`no family ${id}`);
  return f;
};
// biome-ignore lint/suspicious/noExplicitAny: request bodies are loose JSON
const draw = (f: Family, seed = 1) => f.request(new Rng(seed)) as Record<string, any>;
const search = (hits: unknown[] = [], total = 10, aggregations?: unknown) => ({
  hits: { total: { value: total, relation: 'eq' }, hits },
  aggregations,
});
const same = (f: Family, c: unknown, b: unknown) => compareSignals(f.signal(c), f.signal(b));

const NEW_ROWS = [
  'query.range_double',
  'query.term_boolean',
  'query.bool_should',
  'query.paginate_deep',
  'bucket.terms_plain',
  'feature.highlight',
];

describe("the reference scorecard's rows on the default corpus", () => {
  it('each sits at the end of its group, after every row that was there before', () => {
    const ids = ALL_FAMILIES.map((f) => f.id);
    const lastOf = (group: string, except: string[]) =>
      Math.max(...ALL_FAMILIES.flatMap((f, i) => (f.group === group && !except.includes(f.id) ? [i] : [])));
    for (const id of NEW_ROWS) {
      const f = family(id);
      expect(ids.indexOf(id), id).toBeGreaterThan(lastOf(f.group, NEW_ROWS));
      expect(ALL_FAMILIES.filter((x) => x.id === id)).toHaveLength(1);
    }
  });

  it('range on cost_usd (a double) and term on cache_hit (a boolean), fields of the mapping', () => {
    expect(INDEX_BODY.mappings.properties.cost_usd.type).toBe('double');
    expect(INDEX_BODY.mappings.properties.cache_hit.type).toBe('boolean');
    const costs = [...generateCorpus(7, 2000)].map((d) => d.source.cost_usd);
    let drawn = 0;
    for (let seed = 0; seed < 30; seed++) {
      const { gte, lt } = draw(family('query.range_double'), seed).query.range.cost_usd;
      expect(gte).toBeLessThan(lt);
      drawn += costs.filter((c) => c >= gte && c < lt).length;
    }
    expect(drawn).toBeGreaterThan(0);
    const values = new Set(
      Array.from({ length: 20 }, (_, s) => draw(family('query.term_boolean'), s).query.term.cache_hit),
    );
    expect(values).toEqual(new Set([true, false]));
  });

  it('bool_should: must, filter, should (1 of 2) and must_not, from values the corpus has', () => {
    const bool = draw(family('query.bool_should'), 3).query.bool;
    expect(Object.keys(bool)).toEqual(['must', 'filter', 'should', 'minimum_should_match', 'must_not']);
    expect(WORDS).toContain(bool.must[0].match.message);
    expect(MODELS.map((m) => m.name)).toContain(bool.filter[0].term.model);
    expect(STATUSES.map((s) => s.name)).toContain(bool.should[0].term.status);
    expect(REGIONS).toContain(bool.must_not[0].term.region);
    expect(bool.minimum_should_match).toBe(1);
  });

  it('paginate_deep: from exactly 500 in @timestamp order, so the page ids are compared', () => {
    const f = family('query.paginate_deep');
    for (let seed = 0; seed < 5; seed++) expect(draw(f, seed)).toMatchObject({ from: 500, size: 10 });
    const page = (...ids: string[]) => search(ids.map((_id) => ({ _id })));
    expect(same(f, page('ev-1', 'ev-2'), page('ev-1', 'ev-2'))).toBeUndefined();
    expect(same(f, page('ev-1', 'ev-2'), page('ev-2', 'ev-1'))).toMatch(/hit ids/);
  });

  it('terms_plain: the bucket.terms request without its sub-aggregations', () => {
    const plain = draw(family('bucket.terms_plain'));
    expect(plain.aggs.by_model.aggs).toBeUndefined();
    expect(plain.aggs.by_model.terms).toEqual({ field: 'model', size: MODELS.length });
    const f = family('bucket.terms_plain');
    const agg = (...counts: number[]) =>
      search([], 10, { by_model: { buckets: counts.map((n, i) => ({ key: `m${i}`, doc_count: n })) } });
    expect(same(f, agg(5, 3), agg(5, 3))).toBeUndefined();
    expect(same(f, agg(5, 3), agg(5, 2))).toMatch(/by_model\[m1\]\.doc_count: 3 vs 2/);
  });

  it('highlight: sorted on the unique @timestamp; each hit must carry the same fragments', () => {
    const f = family('feature.highlight');
    const body = draw(f);
    expect(body.sort).toEqual([{ '@timestamp': { order: 'desc' } }]);
    expect(body.highlight).toEqual({ fields: { message: {} } });
    const hit = (fragment?: string) =>
      search([{ _id: 'ev-1', ...(fragment === undefined ? {} : { highlight: { message: [fragment] } }) }], 1);
    expect(f.signal(hit('a <em>timeout</em> b')).lists?.highlights).toEqual(['ev-1: a <em>timeout</em> b']);
    expect(same(f, hit('a <em>timeout</em> b'), hit('a <em>timeout</em> b'))).toBeUndefined();
    expect(same(f, hit('a <em>timeout</em>'), hit('a <em>timeout</em> b'))).toMatch(/highlights/);
    expect(same(f, hit(), hit('a <em>timeout</em> b'))).toMatch(/highlights/);
  });

  it('read-under-write rows cover match_all, bool, range and cardinality beside term, match and terms', () => {
    expect(MIXED_SOURCE_FAMILIES.map((id) => family(id).family)).toEqual([
      'match_all',
      'term',
      'range',
      'match',
      'bool',
      'cardinality',
      'terms',
    ]);
  });
});
