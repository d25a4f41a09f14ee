import {
  DEFAULT_VECTOR_OPTIONS,
  generateVectorCorpus,
  groundTruth,
  KNN_K,
  knnRequest,
  VECTOR_INDEX,
  type VectorCorpusOptions,
} from '../../corpus/vectors.js';
import type { Clock } from '../../load/clock.js';
import { TransportError } from '../../load/http.js';
import type { Side } from '../../load/side.js';
import { probeCache } from '../../measure/cacheProbe.js';
import { knnFamily, loadVectors, measureRecall } from '../../measure/knn.js';
import { measureReadRow, prewarm } from '../../measure/readRow.js';
import type { RecallSideRaw } from '../../model/raw.js';
import { type RunSettings, singleFork } from '../../model/settings.js';
import type { Floor, Role, RowResult } from '../../scorecard/schema.js';
import { asKnnLatencyRow, knnRecallRow } from '../../verdict/knnRowResults.js';
import { readRowResult } from '../../verdict/readRowResult.js';
import type { RunContext, Stage } from '../context.js';
import { placeEngines } from '../placement.js';
import { KNN_UNIT, ownsUnit } from '../shard.js';

type Sides = Record<Role, Side>;

export interface KnnOptions extends Partial<Omit<VectorCorpusOptions, 'seed'>> {
  /** The run's floor, for the latency row's below-resolution check. */
  floor?: Pick<Floor, 'p50'> & Partial<Floor>;
  /** Called once the vectors are loaded, before the latency row is timed (placement). */
  beforeTiming?: () => Promise<void>;
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
  const { floor, beforeTiming: _, ...shape } = options;
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
      forks: 0,
      signalChecks: 0,
      signalMismatches: 0,
    };
    latencyRow = asKnnLatencyRow(readRowResult(raw, singleFork(settings), floor));
  } else {
    await options.beforeTiming?.();
    await prewarm([family], sides, VECTOR_INDEX, settings, 0, (role) => onProgress(`prewarm ${role}`));
    const raw = await measureReadRow(family, sides, VECTOR_INDEX, singleFork(settings), clock, (what) =>
      onProgress(`latency ${what}`),
    );
    await probeCache(raw, sides, VECTOR_INDEX, settings, clock);
    latencyRow = asKnnLatencyRow(readRowResult(raw, singleFork(settings), floor));
  }

  for (const role of ['candidate', 'baseline'] as const) {
    await sides[role]
      .send('DELETE', `/${VECTOR_INDEX}`, undefined, settings.bulkTimeoutMs)
      .catch((error: unknown) => {
        if (!(error instanceof TransportError)) throw error;
      });
  }
  return [latencyRow, recallRow];
}

const measuresKnn = (ctx: RunContext) => ctx.settings.knn && ownsUnit(ctx.shard, KNN_UNIT);

/**
 * The kNN rows (--knn) on their own index, so loading vectors cannot disturb the rows above. Two
 * rows from one measurement: a crash fails the run (exit 2) rather than being pinned on one row.
 */
export const knnStage: Stage = {
  name: 'knn',
  steps: (ctx) => (measuresKnn(ctx) ? 2 : 0),
  async run(ctx) {
    if (!measuresKnn(ctx)) return;
    ctx.phases.begin('knn', 'knn', 1);
    // Loading the vectors is a load (every CPU); its latency row is timed like a read row.
    await placeEngines(ctx, 'load');
    const rows = await measureKnn(
      ctx.sides,
      ctx.settings,
      ctx.clock,
      (what) => ctx.progress.step('knn', what),
      {
        docs: ctx.settings.knnDocs,
        ...(ctx.floor ? { floor: ctx.floor } : {}),
      },
    );
    ctx.rows.push(...rows);
    ctx.progress.advance();
    ctx.progress.advance();
  },
};
