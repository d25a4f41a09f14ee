import { Rng } from '../rng.js';

/**
 * The kNN corpus: a seeded Gaussian mixture (vectors that are not uniform noise), its own index,
 * query vectors drawn fresh from the same clusters (never corpus points), and the exact
 * neighbours of each query by brute force, so recall is measured against the truth.
 */

export const VECTOR_INDEX = 'vectors';
export const VECTOR_FIELD = 'vec';
/** Neighbours asked for and scored (recall@K). */
export const KNN_K = 10;

export interface VectorCorpusOptions {
  docs: number;
  dims: number;
  clusters: number;
  queries: number;
  seed: number;
}

export const DEFAULT_VECTOR_OPTIONS: Omit<VectorCorpusOptions, 'seed'> = {
  docs: 50_000,
  dims: 64,
  clusters: 80,
  queries: 250,
};

export interface VectorCorpus {
  options: VectorCorpusOptions;
  /** Doc i (its `_id` is String(i)) owns vectors[i * dims .. (i + 1) * dims]. */
  vectors: Float32Array;
  /** The mixture component each doc was drawn from. */
  clusterOf: Uint16Array;
  /** Cluster c's centre: centres[c * dims .. (c + 1) * dims]. */
  centres: Float32Array;
  /** Query q: queries[q * dims .. (q + 1) * dims]. */
  queries: Float32Array;
}

/** Decimal places sent over the wire: both engines and the ground truth see the same values. */
const DECIMALS = 4;
const SCALE = 10 ** DECIMALS;
const quantise = (x: number) => Math.round(x * SCALE) / SCALE;

/**
 * Cluster weights fall off like a Zipf law (exponent 0.8), so the biggest cluster holds tens of
 * times the smallest one's docs; each cluster also gets its own spread, so the density varies.
 */
function mixture(rng: Rng, clusters: number, dims: number) {
  const weights = Array.from({ length: clusters }, (_, c) => 1 / (c + 1) ** 0.8);
  const sum = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  const cumulative = weights.map((w) => (acc += w / sum));
  const centres = new Float32Array(clusters * dims);
  for (let i = 0; i < centres.length; i++) centres[i] = quantise(rng.float() * 2 - 1);
  const spread = Float64Array.from({ length: clusters }, () => 0.05 + rng.float() * 0.2);
  /** A cluster by weight, drawn from the caller's stream. */
  const pick = (from: Rng) => {
    const u = from.float();
    let lo = 0;
    let hi = clusters - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return { centres, spread, pick };
}

function drawNear(
  rng: Rng,
  m: ReturnType<typeof mixture>,
  c: number,
  dims: number,
  out: Float32Array,
  at: number,
) {
  const sigma = m.spread[c] as number;
  for (let d = 0; d < dims; d++) {
    out[at + d] = quantise((m.centres[c * dims + d] as number) + sigma * rng.normal());
  }
}

export function generateVectorCorpus(options: VectorCorpusOptions): VectorCorpus {
  const { docs, dims, clusters, queries, seed } = options;
  if (!(docs > 0 && dims > 0 && clusters > 0 && queries > 0))
    throw new Error('vector corpus: docs, dims, clusters and queries must be positive');
  if (clusters > 65_535) throw new Error('vector corpus: at most 65535 clusters');
  // Separate streams, so changing the query count leaves the corpus unchanged and vice versa.
  const m = mixture(Rng.derive(seed, 'vectors', 'mixture'), clusters, dims);
  const docRng = Rng.derive(seed, 'vectors', 'docs');
  const vectors = new Float32Array(docs * dims);
  const clusterOf = new Uint16Array(docs);
  for (let i = 0; i < docs; i++) {
    const c = m.pick(docRng);
    clusterOf[i] = c;
    drawNear(docRng, m, c, dims, vectors, i * dims);
  }
  // Queries follow the same mixture (busy clusters get more queries) but are fresh draws.
  const queryRng = Rng.derive(seed, 'vectors', 'queries');
  const queryVectors = new Float32Array(queries * dims);
  for (let q = 0; q < queries; q++) drawNear(queryRng, m, m.pick(queryRng), dims, queryVectors, q * dims);
  return { options, vectors, clusterOf, centres: m.centres, queries: queryVectors };
}

export const vectorAt = (all: Float32Array, dims: number, i: number): Float32Array =>
  all.subarray(i * dims, (i + 1) * dims);

export function squaredL2(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) {
    const diff = (a[d] as number) - (b[d] as number);
    sum += diff * diff;
  }
  return sum;
}

export interface Neighbours {
  /** Doc ids, nearest first. */
  ids: number[];
  /** Their squared distances, ascending. */
  distances: number[];
}

/** Dimensions summed between checks against the current k-th distance. */
const ABANDON_EVERY = 16;

/**
 * The exact k nearest docs of `query` (ties to the lower id), by a full scan. A doc is abandoned
 * as soon as its partial sum reaches the current k-th distance (the remaining terms can only
 * add), which skips most of the work for docs in other clusters without changing the answer.
 */
export function exactNeighbours(
  vectors: Float32Array,
  dims: number,
  query: ArrayLike<number>,
  k: number,
): Neighbours {
  const ids: number[] = [];
  const distances: number[] = [];
  const q = Float64Array.from(query);
  const n = vectors.length / dims;
  const unrolled = dims - (dims % 4);
  for (let i = 0; i < n; i++) {
    const base = i * dims;
    const bound = ids.length === k ? (distances[k - 1] as number) : Number.POSITIVE_INFINITY;
    let sum = 0;
    let d = 0;
    while (d < unrolled && sum < bound) {
      const stop = Math.min(unrolled, d + ABANDON_EVERY);
      // Four accumulators: independent adds the JIT can pipeline.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (; d < stop; d += 4) {
        const a = (vectors[base + d] as number) - (q[d] as number);
        const b = (vectors[base + d + 1] as number) - (q[d + 1] as number);
        const c = (vectors[base + d + 2] as number) - (q[d + 2] as number);
        const e = (vectors[base + d + 3] as number) - (q[d + 3] as number);
        s0 += a * a;
        s1 += b * b;
        s2 += c * c;
        s3 += e * e;
      }
      sum += s0 + s1 + s2 + s3;
    }
    if (sum >= bound) continue;
    for (d = unrolled; d < dims; d++) {
      const diff = (vectors[base + d] as number) - (q[d] as number);
      sum += diff * diff;
    }
    if (sum >= bound) continue;
    // Insertion into a short sorted list: k is small, so this beats a heap.
    let at = ids.length;
    while (at > 0 && (distances[at - 1] as number) > sum) at--;
    ids.splice(at, 0, i);
    distances.splice(at, 0, sum);
    if (ids.length > k) {
      ids.pop();
      distances.pop();
    }
  }
  return { ids, distances };
}

/** Ground truth for every query of the corpus. */
export function groundTruth(corpus: VectorCorpus, k = KNN_K): Neighbours[] {
  const { dims, queries } = corpus.options;
  return Array.from({ length: queries }, (_, q) =>
    exactNeighbours(corpus.vectors, dims, vectorAt(corpus.queries, dims, q), k),
  );
}

/**
 * recall@k of one answer: the share of the k true neighbours it found. A returned doc counts if it
 * is no farther than the k-th true neighbour (within float32 rounding), so an exact tie at rank k
 * is not held against an engine that broke it the other way, as ann-benchmarks counts it.
 */
export function recallOf(
  returned: readonly string[],
  truth: Neighbours,
  query: ArrayLike<number>,
  corpus: VectorCorpus,
  k = KNN_K,
): number {
  const { dims, docs } = corpus.options;
  const bound = (truth.distances[k - 1] as number) * (1 + 1e-5) + 1e-9;
  let found = 0;
  const seen = new Set<number>();
  for (const id of returned.slice(0, k)) {
    const i = Number(id);
    if (!Number.isInteger(i) || i < 0 || i >= docs || seen.has(i)) continue;
    seen.add(i);
    if (squaredL2(vectorAt(corpus.vectors, dims, i), query) <= bound) found++;
  }
  return found / k;
}

/** The index body both engines receive: OpenSearch k-NN plugin dialect, HNSW on the lucene engine. */
export function vectorIndexBody(dims: number) {
  return {
    settings: { index: { knn: true, number_of_shards: 1, number_of_replicas: 0 } },
    mappings: {
      properties: {
        [VECTOR_FIELD]: {
          type: 'knn_vector',
          dimension: dims,
          method: { name: 'hnsw', engine: 'lucene', space_type: 'l2' },
        },
      },
    },
  };
}

const vectorJson = (v: ArrayLike<number>) => `[${Array.from(v, (x) => String(x)).join(',')}]`;

/** `_bulk` bodies of `batchSize` docs each, ids 0..docs-1. */
export function vectorBulkBodies(corpus: VectorCorpus, batchSize: number): string[] {
  const { docs, dims } = corpus.options;
  const bodies: string[] = [];
  for (let start = 0; start < docs; start += batchSize) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(docs, start + batchSize); i++) {
      lines.push(
        `{"index":{"_id":"${i}"}}`,
        `{"${VECTOR_FIELD}":${vectorJson(vectorAt(corpus.vectors, dims, i))}}`,
      );
    }
    bodies.push(`${lines.join('\n')}\n`);
  }
  return bodies;
}

/** The kNN search body for query q: ids only (`_source: false`), so the row times the search. */
export function knnRequest(corpus: VectorCorpus, q: number, k = KNN_K): Record<string, unknown> {
  const vector = Array.from(vectorAt(corpus.queries, corpus.options.dims, q));
  return { query: { knn: { [VECTOR_FIELD]: { vector, k } } }, size: k, _source: false };
}
