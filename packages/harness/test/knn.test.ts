import { describe, expect, it } from 'vitest';
import {
  exactNeighbours,
  generateVectorCorpus,
  groundTruth,
  knnRequest,
  recallOf,
  squaredL2,
  type VectorCorpus,
  vectorAt,
  vectorBulkBodies,
} from '../src/corpus/vectors.js';
import { bodiesFor, wireRequest } from '../src/load/readPhase.js';
import { knnFamily } from '../src/measure/knn.js';
import type { RecallSideRaw } from '../src/model/raw.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';
import { knnRecallRow, pairedRecallBootstrap } from '../src/verdict/knnRowResults.js';

const small = (seed = 7, docs = 3000): VectorCorpus =>
  generateVectorCorpus({ docs, dims: 16, clusters: 20, queries: 40, seed });

describe('vector corpus', () => {
  it('is a pure function of its seed', () => {
    const a = small(7);
    const b = small(7);
    expect(a.vectors).toEqual(b.vectors);
    expect(a.queries).toEqual(b.queries);
    expect(a.clusterOf).toEqual(b.clusterOf);
    expect(small(8).vectors).not.toEqual(a.vectors);
  });

  it('is clustered: docs sit near their own centre, and clusters differ in size', () => {
    const c = small();
    const { dims, clusters, docs } = c.options;
    let nearestIsOwn = 0;
    for (let i = 0; i < docs; i++) {
      const v = vectorAt(c.vectors, dims, i);
      let best = -1;
      let bestD = Number.POSITIVE_INFINITY;
      for (let k = 0; k < clusters; k++) {
        const d = squaredL2(v, vectorAt(c.centres, dims, k));
        if (d < bestD) [best, bestD] = [k, d];
      }
      if (best === c.clusterOf[i]) nearestIsOwn++;
    }
    expect(nearestIsOwn / docs).toBeGreaterThan(0.99);
    const sizes = new Array<number>(clusters).fill(0);
    for (const k of c.clusterOf) sizes[k] = (sizes[k] as number) + 1;
    expect(Math.max(...sizes) / Math.max(1, Math.min(...sizes))).toBeGreaterThan(4);
  });

  it('draws queries near the clusters, distinct and never equal to a corpus point', () => {
    const c = small();
    const { dims, queries, docs } = c.options;
    const keys = new Set<string>();
    for (let q = 0; q < queries; q++) {
      const v = vectorAt(c.queries, dims, q);
      keys.add(Array.from(v).join(','));
      const nearest = exactNeighbours(c.vectors, dims, v, 1);
      expect(nearest.distances[0]).toBeGreaterThan(0);
      // Near a cluster: its nearest doc is far closer than the typical distance between centres.
      expect(nearest.distances[0]).toBeLessThan(
        squaredL2(vectorAt(c.centres, dims, 0), vectorAt(c.centres, dims, 1)) / 4,
      );
    }
    expect(keys.size).toBe(queries);
    expect(docs).toBeGreaterThan(queries);
  });

  it('sends exactly the values the ground truth uses', () => {
    const c = small(7, 30);
    const [first] = vectorBulkBodies(c, 25);
    const lines = (first as string).trim().split('\n');
    expect(lines).toHaveLength(50);
    expect(JSON.parse(lines[0] as string)).toEqual({ index: { _id: '0' } });
    const sent = (JSON.parse(lines[1] as string) as { vec: number[] }).vec;
    expect(Float32Array.from(sent)).toEqual(vectorAt(c.vectors, c.options.dims, 0));
    expect(vectorBulkBodies(c, 25)).toHaveLength(2);
  });
});

describe('ground truth', () => {
  it('equals a full sort of all distances', () => {
    const c = small(3, 500);
    const { dims } = c.options;
    const truth = groundTruth(c, 10);
    for (let q = 0; q < 10; q++) {
      const query = vectorAt(c.queries, dims, q);
      const all = Array.from({ length: 500 }, (_, i) => ({
        i,
        d: squaredL2(vectorAt(c.vectors, dims, i), query),
      }));
      all.sort((a, b) => a.d - b.d || a.i - b.i);
      expect(truth[q]?.ids).toEqual(all.slice(0, 10).map((x) => x.i));
      expect(truth[q]?.distances[9]).toBeCloseTo(all[9]?.d as number, 10);
    }
  });

  it('breaks exact ties to the lower id', () => {
    const vectors = Float32Array.from([1, 0, 0, 1, -1, 0, 0, 0]);
    expect(exactNeighbours(vectors, 2, [0, 0], 3).ids).toEqual([3, 0, 1]);
  });
});

describe('recall@k', () => {
  const c = small(11, 400);
  const dims = c.options.dims;
  const query = vectorAt(c.queries, dims, 0);
  const truth = exactNeighbours(c.vectors, dims, query, 10);
  const ids = truth.ids.map(String);

  it('is the share of true neighbours found, whatever their order', () => {
    expect(recallOf(ids, truth, query, c)).toBe(1);
    expect(recallOf([...ids].reverse(), truth, query, c)).toBe(1);
    const far = exactNeighbours(c.vectors, dims, query, 400).ids.slice(-5).map(String);
    expect(recallOf([...ids.slice(0, 5), ...far], truth, query, c)).toBe(0.5);
    expect(recallOf(ids.slice(0, 3), truth, query, c)).toBe(0.3);
  });

  it('does not count duplicates, unknown ids or hits beyond k', () => {
    const first = ids[0] as string;
    expect(recallOf([first, first, first], truth, query, c)).toBe(0.1);
    expect(recallOf(['nope', '-1', '99999', first], truth, query, c)).toBe(0.1);
    expect(recallOf([...Array(10).fill('nope'), ...ids], truth, query, c)).toBe(0);
  });

  it('accepts a doc tied with the k-th neighbour', () => {
    const vectors = Float32Array.from([1, 0, 0, 1, 5, 5]);
    const corpus: VectorCorpus = {
      options: { docs: 3, dims: 2, clusters: 1, queries: 1, seed: 1 },
      vectors,
      clusterOf: new Uint16Array(3),
      centres: new Float32Array(2),
      queries: Float32Array.from([0, 0]),
    };
    const t = exactNeighbours(vectors, 2, [0, 0], 1);
    expect(t.ids).toEqual([0]);
    expect(recallOf(['1'], t, [0, 0], corpus, 1)).toBe(1);
    expect(recallOf(['2'], t, [0, 0], corpus, 1)).toBe(0);
  });
});

describe('recall verdict', () => {
  const settings = DEFAULT_SETTINGS;
  const sideOf = (perQuery: number[]): RecallSideRaw => ({ supported: true, perQuery });
  const exact = Array(250).fill(1);
  // Baseline recall 0.9 on average, varying per query.
  const approximate = Array.from({ length: 250 }, (_, i) => (i % 5 === 0 ? 0.6 : i % 3 === 0 ? 0.9 : 1));

  it('calls equal recall a TIE, not a WIN', () => {
    const row = knnRecallRow({ candidate: sideOf(exact), baseline: sideOf(exact) }, 10, {}, settings);
    expect(row.verdict).toBe('TIE');
    expect(row.ratio).toBe(1);
    expect(row.ci).toEqual([1, 1]);
    expect(row.candidate.value).toBe(1);
    expect(row).toMatchObject({ id: 'knn.recall', group: 'knn', unit: 'recall', betterIs: 'higher' });
  });

  it('is a WIN for clearly higher recall and a LOSE for clearly lower', () => {
    const win = knnRecallRow({ candidate: sideOf(exact), baseline: sideOf(approximate) }, 10, {}, settings);
    expect(win.verdict).toBe('WIN');
    expect(win.ratio as number).toBeGreaterThan(1.05);
    expect(win.ci?.[0] as number).toBeGreaterThan(1);
    expect(win.reason).toMatch(/recall@10 candidate 1\.0000/);
    const lose = knnRecallRow({ candidate: sideOf(approximate), baseline: sideOf(exact) }, 10, {}, settings);
    expect(lose.verdict).toBe('LOSE');
    expect(lose.ci?.[1] as number).toBeLessThan(1);
  });

  it('is a TIE when the difference is within a point of recall', () => {
    const nearly = exact.map((x, i) => (i === 0 ? 0.9 : x));
    const row = knnRecallRow({ candidate: sideOf(exact), baseline: sideOf(nearly) }, 10, {}, settings);
    expect(row.verdict).toBe('TIE');
  });

  it('is N/A when a side could not answer, and a collapse when too many queries failed', () => {
    const refused: RecallSideRaw = {
      supported: false,
      error: 'HTTP 400 parsing_exception: unknown query [knn]',
      perQuery: [],
    };
    const na = knnRecallRow({ candidate: sideOf(exact), baseline: refused }, 10, {}, settings);
    expect(na.verdict).toBe('N/A');
    expect(na.reason).toMatch(/unknown query \[knn\]/);
    const flaky = exact.map((x, i) => (i % 10 === 0 ? Number.NaN : x));
    const lose = knnRecallRow({ candidate: sideOf(flaky), baseline: sideOf(exact) }, 10, {}, settings);
    expect(lose.verdict).toBe('LOSE');
    expect(lose.reason).toMatch(/collapsed/);
  });

  it('pairs the bootstrap: identical samples give a ratio interval of exactly 1', () => {
    const boot = pairedRecallBootstrap(approximate, approximate, 500, 3);
    expect(boot.ratio).toEqual([1, 1]);
    expect(boot.candidate[0]).toBeLessThan(0.9);
    expect(boot.candidate[1]).toBeGreaterThan(0.85);
  });
});

describe('kNN latency family', () => {
  it('draws each request from the query set, the same on both sides', () => {
    const c = small();
    const family = knnFamily(c);
    const bodies = bodiesFor(family, 42, 20, 'round', 0);
    expect(bodiesFor(family, 42, 20, 'round', 0)).toEqual(bodies);
    const queryKeys = new Set(
      Array.from({ length: c.options.queries }, (_, q) => JSON.stringify(knnRequest(c, q))),
    );
    for (const body of bodies) expect(queryKeys.has(JSON.stringify(body))).toBe(true);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBeGreaterThan(10);
    const wire = wireRequest(family, 'vectors', bodies[0] as Record<string, unknown>);
    expect(wire.path).toBe('/vectors/_search?request_cache=false');
    expect(JSON.parse(wire.body)).toMatchObject({ size: 10, _source: false, track_total_hits: true });
    const signal = family.signal({ hits: { total: { value: 10, relation: 'eq' }, hits: [{ _id: '1' }] } });
    expect(signal).toEqual({ total: { value: 10, relation: 'eq' }, lists: { hits: [1] } });
  });
});
