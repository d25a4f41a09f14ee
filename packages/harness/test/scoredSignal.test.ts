import { describe, expect, it } from 'vitest';
import { alignedIndexBody, defaultScale } from '../src/corpus/similarity.js';
import { compareSignals } from '../src/families/compare.js';
import { totalAndScores } from '../src/families/signals/hits.js';
import type { Signal } from '../src/families/types.js';

const page = (...hits: [string, number][]): Signal => ({
  scored: hits.map(([id, score]) => ({ id, score })),
});

describe('scored pages', () => {
  it('agree when scores agree and each run of tied scores holds the same ids in any order', () => {
    const c = page(['a', 3.1], ['b', 2.5], ['c', 2.5], ['d', 1.0]);
    const b = page(['a', 3.1], ['c', 2.5], ['b', 2.5], ['d', 1.0]);
    expect(compareSignals(c, b)).toBeUndefined();
    // float32 summation order: a few ulps apart is the same score
    expect(compareSignals(page(['a', 3.1000001]), page(['a', 3.1]))).toBeUndefined();
  });

  it('refuse a score beyond the tolerance, naming the hit', () => {
    expect(compareSignals(page(['a', 3.1], ['b', 2.5]), page(['a', 3.1], ['b', 2.4]))).toBe(
      'hits[1]._score: 2.5 vs 2.4 (beyond 0.0001 relative)',
    );
    // ES 8's BM25 against the legacy scale: every score 2.2 times apart
    expect(compareSignals(page(['a', 1]), page(['a', 2.2]))).toMatch(/hits\[0\]._score/);
  });

  it('refuse other documents inside a run of ties the page holds whole', () => {
    const c = page(['a', 3], ['x', 2], ['b', 2], ['d', 1]);
    const b = page(['a', 3], ['c', 2], ['b', 2], ['d', 1]);
    expect(compareSignals(c, b)).toBe('hit ids scored 2: ["b","x"] vs ["b","c"]');
    expect(compareSignals(page(['x', 3], ['d', 1]), page(['a', 3], ['d', 1]))).toMatch(/scored 3/);
  });

  it('let the last run differ: the page may end inside it', () => {
    const c = page(['a', 3], ['b', 1], ['c', 1]);
    const b = page(['a', 3], ['y', 1], ['z', 1]);
    expect(compareSignals(c, b)).toBeUndefined();
    // a constant-score page is one run: only the totals decide
    expect(compareSignals(page(['p', 1], ['q', 1]), page(['r', 1], ['s', 1]))).toBeUndefined();
  });

  it('refuse pages of different lengths and a side without a page', () => {
    expect(compareSignals(page(['a', 1]), page(['a', 1], ['b', 1]))).toBe('hits on the page: 1 vs 2');
    expect(compareSignals({}, page(['a', 1]))).toMatch(/scored hits: absent/);
  });

  it('read ids and scores from a response, and refuse a hit without a score', () => {
    const body = {
      hits: {
        total: { value: 7, relation: 'eq' },
        hits: [
          { _id: 'a', _score: 2.5 },
          { _id: 'b', _score: 1.25 },
        ],
      },
    };
    expect(totalAndScores(body)).toEqual({
      total: { value: 7, relation: 'eq' },
      scored: [
        { id: 'a', score: 2.5 },
        { id: 'b', score: 1.25 },
      ],
    });
    const unscored = { hits: { total: { value: 1, relation: 'eq' }, hits: [{ _id: 'a', _score: null }] } };
    expect(() => totalAndScores(unscored)).toThrow(/hits.hits\[0\]._score is not a number/);
  });
});

describe('index similarity aligned with the baseline', () => {
  const body = { settings: { index: { number_of_shards: 1 } }, mappings: { properties: {} } };
  const candidate = 'everycell 0.1.0 (tantivy-0.27, ES API 8.15.0)';

  it('knows which products score BM25 on the legacy scale', () => {
    expect(defaultScale('OpenSearch 2.19.1')).toBe('LegacyBM25');
    expect(defaultScale('OpenSearch 1.3.20')).toBe('LegacyBM25');
    expect(defaultScale('OpenSearch 3.0.0')).toBe('BM25');
    expect(defaultScale('Elasticsearch 7.17.0')).toBe('LegacyBM25');
    expect(defaultScale('Elasticsearch 8.13.4')).toBe('BM25');
    expect(defaultScale(candidate)).toBe('BM25');
  });

  it('gives the candidate LegacyBM25 against OpenSearch 2.x, and leaves the corpus body alone', () => {
    const aligned = alignedIndexBody(body, candidate, 'OpenSearch 2.19.1');
    expect(aligned.body).toEqual({
      settings: { index: { number_of_shards: 1, similarity: { default: { type: 'LegacyBM25' } } } },
      mappings: { properties: {} },
    });
    expect(aligned.note).toMatch(/LegacyBM25.*OpenSearch 2.19.1/);
    expect(body.settings.index).toEqual({ number_of_shards: 1 });
  });

  it('changes nothing when the scales already agree, for other engines, or when the corpus chose', () => {
    expect(alignedIndexBody(body, candidate, 'Elasticsearch 8.13.4')).toEqual({ body });
    expect(alignedIndexBody(body, candidate, candidate)).toEqual({ body });
    expect(alignedIndexBody(body, 'OpenSearch 2.19.1', 'OpenSearch 2.19.1')).toEqual({ body });
    const chosen = { settings: { index: { similarity: { default: { type: 'boolean' } } } } };
    expect(alignedIndexBody(chosen, candidate, 'OpenSearch 2.19.1')).toEqual({ body: chosen });
    const flat = { settings: { 'index.similarity.default.type': 'BM25' } };
    expect(alignedIndexBody(flat, candidate, 'OpenSearch 2.19.1')).toEqual({ body: flat });
  });
});
