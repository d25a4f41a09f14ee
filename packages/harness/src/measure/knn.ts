import {
  KNN_K,
  knnRequest,
  type Neighbours,
  recallOf,
  VECTOR_INDEX,
  type VectorCorpus,
  vectorAt,
  vectorBulkBodies,
  vectorIndexBody,
} from '../corpus/vectors.js';
import { idsOf, totalOf } from '../families/signal.js';
import type { Family } from '../families/types.js';
import { esErrorSummary, TransportError } from '../load/http.js';
import { wireRequest } from '../load/readPhase.js';
import type { Side } from '../load/side.js';
import { KNN_LATENCY_ROW_ID, type RecallSideRaw } from '../model/raw.js';
import type { LoadSettings } from '../model/settings.js';

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

/** How long merging the vector index to one segment may take (OpenSearch rebuilds its HNSW graph). */
const FORCE_MERGE_TIMEOUT_MS = 30 * 60_000;

/**
 * A fresh `vectors` index with the whole corpus, refreshed and merged to one segment; returns an
 * error when the engine refused any of it or `_count` is not the corpus size (the rows are then
 * N/A on that side). The merge puts both engines in the state OpenSearch's k-NN guide advises
 * for a static vector index (one segment, one graph) and waits until its graph is built, so
 * neither engine is measured while it still builds graphs in the background.
 */
export async function loadVectors(
  side: Side,
  corpus: VectorCorpus,
  settings: LoadSettings,
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
  const merged = await side.send(
    'POST',
    `/${VECTOR_INDEX}/_forcemerge?max_num_segments=1`,
    undefined,
    Math.max(timeout, FORCE_MERGE_TIMEOUT_MS),
  );
  if (merged.status >= 300) return `_forcemerge: ${esErrorSummary(merged.status, parse(merged.text))}`;
  const visible = await side.send('POST', `/${VECTOR_INDEX}/_refresh`, undefined, timeout);
  if (visible.status >= 300) return `refresh: ${esErrorSummary(visible.status, parse(visible.text))}`;
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
export async function measureRecall(
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
