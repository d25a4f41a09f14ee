import { describe, expect, it } from 'vitest';
import {
  RANDOM_SAMPLER_PROBABILITY,
  samplerTolerances,
} from '../src/families/aggs/buckets-ranges-filters.js';
import { SCRIPTED_SUM } from '../src/families/aggs/metrics.js';
import { compareSignals } from '../src/families/compare.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { Family } from '../src/families/types.js';
import { Rng } from '../src/rng.js';

const family = (id: string) => {
  const f = ALL_FAMILIES.find((x) => x.id === id);
  if (!f) throw new Error(`no family ${id}`);
  return f as Family;
};
const search = (aggregations: unknown, total = 10, hits: unknown[] = []) => ({
  hits: { total: { value: total, relation: 'eq' }, hits },
  aggregations,
});
const same = (f: Family, c: unknown, b: unknown) => compareSignals(f.signal(c), f.signal(b));
// biome-ignore lint/suspicious/noExplicitAny: request bodies are loose JSON
const draw = (f: Family, seed = 1) => f.request(new Rng(seed)) as Record<string, any>;

const NEW_ROWS = [
  'query.function_score',
  'query.pinned',
  'query.match_bool_prefix',
  'query.combined_fields',
  'query.query_string',
  'query.more_like_this',
  'metric.percentile_ranks',
  'metric.median_absolute_deviation',
  'metric.matrix_stats',
  'metric.scripted_metric',
  'bucket.rare_terms',
  'bucket.significant_terms',
  'bucket.adjacency_matrix',
  'bucket.global',
  'bucket.auto_date_histogram',
  'bucket.variable_width_histogram',
  'bucket.random_sampler',
  'bucket.date_histogram_tz',
];

describe('rows for the rest of the engine surface', () => {
  it('are registered once each, as breadth rows, grouped with their kind', () => {
    const ids = ALL_FAMILIES.map((f) => f.id);
    for (const id of NEW_ROWS)
      expect(
        ids.filter((x) => x === id),
        id,
      ).toHaveLength(1);
    for (const id of NEW_ROWS) expect(family(id).breadth, id).toBe(true);
    // Scorecard order stays queries, metrics, buckets: each new row sits inside its group's run.
    const groups = ALL_FAMILIES.map((f) => f.group);
    const firstFeature = groups.indexOf('feature');
    for (const id of NEW_ROWS) expect(ids.indexOf(id)).toBeLessThan(firstFeature);
    expect(ids.indexOf('query.more_like_this')).toBeLessThan(ids.indexOf('metric.avg'));
    expect(ids.indexOf('metric.scripted_metric')).toBeLessThan(ids.indexOf('bucket.terms'));
  });

  it('function_score: top scores to float precision, whatever the tie order', () => {
    const f = family('query.function_score');
    const fs = draw(f).query.function_score;
    expect(fs.functions[0].field_value_factor).toMatchObject({ field: 'prompt_tokens', modifier: 'log1p' });
    expect(Object.keys(fs.functions[1].gauss)).toEqual(['@timestamp']);
    const hits = (...scores: number[]) =>
      search(
        undefined,
        5,
        scores.map((s, i) => ({ _id: `ev-${i}`, _score: s })),
      );
    expect(same(f, hits(3.8177109, 3.5), hits(3.81771, 3.5))).toBeUndefined();
    expect(same(f, hits(3.9, 3.5), hits(3.8177109, 3.5))).toMatch(/score\[0\]: 3.9 vs 3.8177109 \(beyond/);
    expect(same(f, hits(3.8, 3.5), hits(3.8, 3.5, 3.1))).toMatch(/score\[2\]/);
  });

  it('pinned: the page is exactly the pinned ids, distinct and in the first 1000 documents', () => {
    const f = family('query.pinned');
    for (let seed = 1; seed < 20; seed++) {
      const body = draw(f, seed);
      const ids = body.query.pinned.ids as string[];
      expect(new Set(ids).size).toBe(ids.length);
      expect(body.size).toBe(ids.length);
      for (const id of ids) expect(Number(id.replace(/\D/g, ''))).toBeLessThan(1000);
    }
    const page = (...ids: string[]) =>
      search(
        undefined,
        40,
        ids.map((_id) => ({ _id, _score: 1 })),
      );
    expect(same(f, page('a', 'b'), page('b', 'a'))).toMatch(/hit ids/);
  });

  it('query_string and more_like_this sort on @timestamp, so ids are compared', () => {
    for (const id of ['query.query_string', 'query.more_like_this']) {
      const body = draw(family(id));
      expect(body.sort).toEqual([{ '@timestamp': { order: 'desc' } }]);
    }
    expect(draw(family('query.query_string')).query.query_string.query).toMatch(
      /^message:\(\w+ OR \w+\) AND status:\w+ AND latency_ms:\[\d+ TO \*\]$/,
    );
  });

  it('percentile_ranks and MAD carry the t-digest tolerance; matrix_stats is exact', () => {
    const ranks = family('metric.percentile_ranks');
    const r = (a: number) => search({ ranks: { values: { '650.0': a, '1300.0': 80 } } });
    expect(same(ranks, r(49), r(50))).toBeUndefined(); // 2% apart
    expect(same(ranks, r(45), r(50))).toMatch(/ranks.rank650: 45 vs 50 \(beyond the 5% tolerance\)/);
    const keyedFalse = search({
      ranks: {
        values: [
          { key: 650, value: 50 },
          { key: 1300, value: 80 },
        ],
      },
    });
    expect(same(ranks, keyedFalse, r(50))).toBeUndefined();
    const matrix = family('metric.matrix_stats');
    const m = (mean: number) =>
      search({
        matrix: {
          doc_count: 3,
          fields: [
            {
              name: 'latency_ms',
              count: 3,
              mean,
              variance: 2,
              skewness: 0.1,
              kurtosis: 1.5,
              covariance: { latency_ms: 2 },
              correlation: { latency_ms: 1 },
            },
          ],
        },
      });
    expect(same(matrix, m(10), m(10))).toBeUndefined();
    expect(same(matrix, m(10.001), m(10))).toMatch(/latency_ms.mean/);
  });

  it('scripted_metric sends the summing shape the candidate recognises', () => {
    const f = family('metric.scripted_metric');
    expect(draw(f).aggs.total_latency.scripted_metric).toEqual(SCRIPTED_SUM);
    const v = (value: number) => search({ total_latency: { value } });
    expect(same(f, v(72365), v(72365.00001))).toBeUndefined();
    expect(same(f, v(72366), v(72365))).toMatch(/total_latency/);
  });

  it('significant_terms compares keys, counts, background counts and scores', () => {
    const f = family('bucket.significant_terms');
    const sig = (score: number, bg = 316) =>
      search({
        models: {
          doc_count: 236,
          bg_count: 20000,
          buckets: [{ key: 'command-r-plus', doc_count: 8, score, bg_count: bg }],
        },
      });
    expect(same(f, sig(0.0388), sig(0.0388))).toBeUndefined();
    expect(same(f, sig(0.04), sig(0.0388))).toMatch(/score/);
    expect(same(f, sig(0.0388, 317), sig(0.0388))).toMatch(/bg_count/);
  });

  it('auto_date_histogram compares the chosen interval as well as the buckets', () => {
    const f = family('bucket.auto_date_histogram');
    const h = (interval: string) => search({ timeline: { interval, buckets: [{ key: 0, doc_count: 3 }] } });
    expect(same(f, h('12h'), h('12h'))).toBeUndefined();
    expect(same(f, h('1d'), h('12h'))).toMatch(/timeline.interval/);
  });

  it('variable_width_histogram: positional buckets, counts exact', () => {
    const f = family('bucket.variable_width_histogram');
    const w = (count: number) =>
      search({ widths: { buckets: [{ key: 532.125, min: 245, max: 881, doc_count: count }] } });
    expect(same(f, w(16), w(16))).toBeUndefined();
    expect(same(f, w(15), w(16))).toMatch(/widths\[0\].doc_count: 15 vs 16/);
    expect(same(f, search({ widths: { buckets: [] } }), w(16))).toMatch(/widths.buckets: 0 vs 1/);
  });

  it('random_sampler: tolerance from the exact total, six binomial standard errors', () => {
    const t = samplerTolerances(10_000, RANDOM_SAMPLER_PROBABILITY);
    expect(t.count).toBeCloseTo(6 * Math.sqrt(0.9 / 1000), 10); // ~18%
    expect(t.mean).toBeCloseTo((6 * Math.sqrt(Math.E - 1)) / Math.sqrt(1000), 10); // ~25%
    const f = family('bucket.random_sampler');
    const s = (docCount: number, tokens: number) =>
      search({ sample: { doc_count: docCount, tokens: { value: tokens } } }, 10_000);
    expect(same(f, s(1050, 700), s(1000, 650))).toBeUndefined();
    // Unscaled vs scaled-up counts (10x) or a mean a third off are a different answer.
    expect(same(f, s(10_000, 650), s(1000, 650))).toMatch(/sample.doc_count/);
    expect(same(f, s(1000, 1000), s(1000, 650))).toMatch(/sample.tokens/);
  });

  it('date_histogram in a time zone: extended bounds +-2 days, empty buckets compared too', () => {
    const f = family('bucket.date_histogram_tz');
    const body = draw(f).aggs.per_day.date_histogram;
    expect(body.min_doc_count).toBe(0);
    expect(typeof body.time_zone).toBe('string');
    const q = draw(f).query.range['@timestamp'];
    expect(Date.parse(q.gte) - Date.parse(body.extended_bounds.min)).toBe(2 * 86_400_000);
    const days = (...counts: number[]) =>
      search({ per_day: { buckets: counts.map((doc_count, i) => ({ key: i * 86_400_000, doc_count })) } });
    expect(same(f, days(0, 5, 0), days(0, 5, 0))).toBeUndefined();
    // An engine that does not fill the bounds answers a different question.
    expect(
      same(f, search({ per_day: { buckets: [{ key: 86_400_000, doc_count: 5 }] } }), days(0, 5, 0)),
    ).toMatch(/per_day/);
  });

  it('rare_terms, adjacency_matrix and global compare exact keys and counts', () => {
    const rare = family('bucket.rare_terms');
    expect(draw(rare).aggs.rare.rare_terms.precision).toBe(0.00001);
    const r = (...keys: string[]) =>
      search({ rare: { buckets: keys.map((key) => ({ key, doc_count: 1 })) } });
    expect(same(rare, r('tenant-0021'), r('tenant-0021', 'tenant-0022'))).toMatch(/lacks buckets/);
    const adj = family('bucket.adjacency_matrix');
    const a = (n: number) => search({ overlap: { buckets: [{ key: 'cached&error', doc_count: n }] } });
    expect(same(adj, a(7), a(7))).toBeUndefined();
    expect(same(adj, a(6), a(7))).toMatch(/cached&error/);
    const g = family('bucket.global');
    const gl = (all: number) =>
      search({ tenant_latency: { value: 2546.7 }, everyone: { doc_count: all, latency: { value: 2090.2 } } });
    expect(same(g, gl(20_000), gl(20_000))).toBeUndefined();
    expect(same(g, gl(49), gl(20_000))).toMatch(/everyone.doc_count/);
  });
});
