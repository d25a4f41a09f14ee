import {
  DEFAULT_VECTOR_OPTIONS,
  generateVectorCorpus,
  groundTruth,
  KNN_K,
  knnRequest,
  type Neighbours,
  recallOf,
  VECTOR_INDEX,
  type VectorCorpus,
  type VectorCorpusOptions,
  vectorAt,
  vectorBulkBodies,
  vectorIndexBody,
} from '../corpus/vectors.js';
import { idsOf, totalOf } from '../families/signal.js';
import type { Family } from '../families/types.js';
import type { Floor, Role, RowResult } from '../scorecard/schema.js';
import {
  asKnnLatencyRow,
  KNN_LATENCY_ROW_ID,
  knnRecallRow,
  type RecallSideRaw,
} from '../verdict/knnRowResults.js';
import { readRowResult } from '../verdict/readRowResult.js';
import { measureReadRowAdaptive } from './adaptiveReadRow.js';
import type { Clock } from './clock.js';
import { esErrorSummary, TransportError } from './http.js';
import { prewarm, wireRequest } from './readRow.js';
import type { RunSettings } from './settings.js';
import type { Side } from './side.js';

type Sides = Record<Role, Side>;

export interface KnnOptions extends Partial<Omit<VectorCorpusOptions, 'seed'>> {
  /** The run's floor, for the latency row's below-resolution check. */
  floor?: Pick<Floor, 'p50'>;
}

/**
 * The kNN latency row as a read family: each request a query vector drawn from the query set.
 * Scored hit order may legitimately differ (the baseline's HNSW is approximate), so the signal
 * compared across engines is only how many hits came back; quality is the recall row's job.
 */
export function knnFamily(corpus: VectorCorpus): Family {
  const { docs, dims, queries } = corpus.options;
  return {
    id: KNN_LATENCY_ROW_ID,
    group: 'query',
    family: 'knn',
    title: `kNN top-${KNN_K} among ${docs} vectors of ${dims} dims (l2)`,
    endpoint: '_search',
    request: (rng) => knnRequest(corpus, rng.int(0, queries - 1)),
    signal: (response) => ({ total: totalOf(response), lists: { hits: [idsOf(response).length] } }),
  };
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * A fresh `vectors` index with the whole corpus, refreshed; returns an error when the engine
 * refused any of it or `_count` is not the corpus size (the rows are then N/A on that side).
 */
async function loadVectors(
  side: Side,
  corpus: VectorCorpus,
  settings: RunSettings,
): Promise<string | undefined> {
  const timeout = settings.bulkTimeoutMs;
  await side.send('DELETE', `/${VECTOR_INDEX}`, undefined, timeout);
  const created = await side.send(
    'PUT',
    `/${VECTOR_INDEX}`,
    JSON.stringify(vectorIndexBody(corpus.options.dims)),
  );
  if (created.status >= 300) return `create index: ${esErrorSummary(created.status, parse(created.text))}`;
  for (const body of vectorBulkBodies(corpus, settings.bulkSize)) {
    const res = await side.send('POST', `/${VECTOR_INDEX}/_bulk`, body, timeout);
    const parsed = parse(res.text) as { errors?: boolean; items?: Record<string, { error?: unknown }>[] };
    if (res.status >= 300) return `bulk: ${esErrorSummary(res.status, parsed)}`;
    if (parsed.errors) {
      const failed = parsed.items?.map((item) => Object.values(item)[0]).find((r) => r?.error);
      return `bulk item failed: ${esErrorSummary(400, failed)}`;
    }
  }
  const refresh = await side.send('POST', `/${VECTOR_INDEX}/_refresh`, undefined, timeout);
  if (refresh.status >= 300) return `refresh: ${esErrorSummary(refresh.status, parse(refresh.text))}`;
  const count = await side.json('GET', `/${VECTOR_INDEX}/_count`);
  const n = (count.body as { count?: unknown }).count;
  if (count.status >= 300) return `_count: ${esErrorSummary(count.status, count.body)}`;
  if (n !== corpus.options.docs) return `_count is ${String(n)} after loading ${corpus.options.docs} vectors`;
  return undefined;
}

/** recall@k of query q on one engine, or why there is none (an error status, a malformed body). */
async function recallOfQuery(
  side: Side,
  family: Family,
  corpus: VectorCorpus,
  truth: Neighbours,
  q: number,
): Promise<number | string> {
  const wire = wireRequest(family, VECTOR_INDEX, knnRequest(corpus, q));
  let res: Awaited<ReturnType<Side['send']>>;
  try {
    res = await side.send('POST', wire.path, wire.body);
  } catch (error) {
    if (error instanceof TransportError) return error.message;
    throw error;
  }
  const body = parse(res.text);
  if (res.status >= 300) return esErrorSummary(res.status, body);
  let ids: string[];
  try {
    ids = idsOf(body);
  } catch (error) {
    return `malformed response: ${(error as Error).message}`;
  }
  return recallOf(ids, truth, vectorAt(corpus.queries, corpus.options.dims, q), corpus);
}

/** recall@k of every query on one engine, sent one at a time (untimed: this row measures answers). */
async function measureRecall(
  side: Side,
  family: Family,
  corpus: VectorCorpus,
  truth: readonly Neighbours[],
): Promise<RecallSideRaw> {
  const perQuery: number[] = [];
  let firstError: string | undefined;
  for (let q = 0; q < truth.length; q++) {
    const answer = await recallOfQuery(side, family, corpus, truth[q] as Neighbours, q);
    if (typeof answer === 'string') firstError ??= answer;
    perQuery.push(typeof answer === 'number' ? answer : Number.NaN);
  }
  // An engine that answered none of the queries does not support the row.
  if (perQuery.every((x) => Number.isNaN(x))) return { supported: false, error: firstError, perQuery };
  return firstError
    ? { supported: true, error: `some queries failed, first: ${firstError}`, perQuery }
    : { supported: true, perQuery };
}

/**
 * The kNN rows: build the vector corpus and its exact neighbours, load it into a `vectors` index
 * on both engines, then `knn.recall` (every query once per engine against the truth) and
 * `knn.latency` (open-loop timed requests with the read rows' rounds, re-measurement and
 * verdict). The recall pass runs first and doubles as a warm-up; the index is dropped at the end.
 * Engine death and Ctrl-C propagate as EngineFailure / Interrupted, as for every other row.
 */
export async function measureKnn(
  sides: Sides,
  settings: RunSettings,
  clock: Clock,
  onProgress: (what: string) => void = () => {},
  options: KnnOptions = {},
): Promise<RowResult[]> {
  const { floor, ...shape } = options;
  const corpusOptions: VectorCorpusOptions = { ...DEFAULT_VECTOR_OPTIONS, ...shape, seed: settings.seed };
  onProgress(
    `corpus: ${corpusOptions.docs} vectors x ${corpusOptions.dims} dims, ${corpusOptions.clusters} clusters`,
  );
  const corpus = generateVectorCorpus(corpusOptions);
  onProgress(`exact neighbours of ${corpusOptions.queries} queries`);
  const truth = groundTruth(corpus);
  const family = knnFamily(corpus);
  const probeBody = knnRequest(corpus, 0);

  const loadError: Record<Role, string | undefined> = { candidate: undefined, baseline: undefined };
  for (const role of ['candidate', 'baseline'] as const) {
    onProgress(`load ${role}`);
    try {
      loadError[role] = await loadVectors(sides[role], corpus, settings);
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      loadError[role] = `load: ${error.message}`;
    }
  }

  const recall: Record<Role, RecallSideRaw> = {
    candidate: { supported: false, perQuery: [] },
    baseline: { supported: false, perQuery: [] },
  };
  for (const role of ['candidate', 'baseline'] as const) {
    const error = loadError[role];
    if (error) {
      recall[role] = { supported: false, error, perQuery: [] };
      continue;
    }
    onProgress(`recall ${role}`);
    recall[role] = await measureRecall(sides[role], family, corpus, truth);
  }
  const recallRow = knnRecallRow(recall, KNN_K, probeBody, settings);

  let latencyRow: RowResult;
  if (loadError.candidate || loadError.baseline) {
    const unsupported = (role: Role) => {
      const error = loadError[role];
      return { supported: error === undefined, ...(error ? { error } : {}), timed: [], warmup: [] };
    };
    const raw = {
      family,
      probeBody,
      candidate: unsupported('candidate'),
      baseline: unsupported('baseline'),
      rounds: 0,
      signalChecks: 0,
      signalMismatches: 0,
    };
    latencyRow = asKnnLatencyRow(readRowResult(raw, settings, floor));
  } else {
    await prewarm([family], sides, VECTOR_INDEX, settings, clock, (role) => onProgress(`prewarm ${role}`));
    const { row } = await measureReadRowAdaptive(family, sides, VECTOR_INDEX, settings, clock, {
      ...(floor ? { floor } : {}),
      onProgress: (what) => onProgress(`latency ${what}`),
    });
    latencyRow = asKnnLatencyRow(row);
  }

  for (const role of ['candidate', 'baseline'] as const) {
    await sides[role].send('DELETE', `/${VECTOR_INDEX}`, undefined, settings.bulkTimeoutMs).catch((error) => {
      if (!(error instanceof TransportError)) throw error;
    });
  }
  return [latencyRow, recallRow];
}
