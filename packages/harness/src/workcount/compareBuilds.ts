import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CorpusSpec } from '../corpus/corpora.js';
import type { Family } from '../families/types.js';
import { REPO_ROOT } from '../repo.js';
import { COUNT_THRESHOLD, compareCounts } from './compare.js';
import { buildCorpusIndex } from './corpusIndex.js';
import { countBuild } from './count.js';
import { requestStream, type StreamSizes, toNdjson } from './requestStream.js';
import { buildRunner, type RunnerBinary, RunnerBuildError } from './runnerBuild.js';
import type { BuildCount, CountComparison } from './types.js';

/**
 * Requests per row: counts are exact, so a few dozen varied requests show a row's cost; more
 * only cost CI time (about 1.2 s of callgrind per request over all 88 rows at 20k documents).
 */
export const DEFAULT_SIZES: StreamSizes = { warmup: 10, timed: 40 };

export interface CountSetup {
  corpus: CorpusSpec;
  docs: number;
  seed: number;
  families: readonly Family[];
  sizes: StreamSizes;
  /** Scratch folder: the index, the request file, each count's copy and dumps. */
  workDir: string;
  cacheSim: boolean;
  log: (line: string) => void;
}

/** What every count of one comparison shares: the index at rest, the requests, the clock's start. */
export interface PreparedCount {
  data: string;
  requestsFile: string;
  epochMs: number;
  /** Wall time of the index load and the request file, ms. */
  prepareMs: number;
}

export async function prepareCount(setup: CountSetup, server?: string): Promise<PreparedCount> {
  const t0 = performance.now();
  await mkdir(setup.workDir, { recursive: true });
  const data = await buildCorpusIndex(
    { corpus: setup.corpus, docs: setup.docs, seed: setup.seed },
    join(setup.workDir, 'index'),
    server,
    setup.log,
  );
  const requestsFile = join(setup.workDir, 'requests.ndjson');
  await writeFile(
    requestsFile,
    toNdjson(requestStream(setup.families, setup.corpus.index, setup.seed, setup.sizes)),
  );
  return { data, requestsFile, epochMs: Date.now(), prepareMs: performance.now() - t0 };
}

/** Count several builds on one prepared index, two at a time on a machine of two cores or more. */
export async function countBuilds(
  setup: CountSetup,
  prepared: PreparedCount,
  runs: { name: string; runner: RunnerBinary; revision?: string; plant?: string }[],
): Promise<BuildCount[]> {
  const width = Math.max(1, Math.min(2, availableParallelism()));
  const results: BuildCount[] = new Array(runs.length);
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const i = next++;
      const run = runs[i] as (typeof runs)[number];
      setup.log(`count: ${run.name} under callgrind`);
      results[i] = await countBuild({
        runner: run.runner,
        data: prepared.data,
        requestsFile: prepared.requestsFile,
        // One path length for every count: the data directory's path is in the engine's own strings.
        workDir: join(setup.workDir, `count-${String(i).padStart(3, '0')}`),
        epochMs: prepared.epochMs,
        cacheSim: setup.cacheSim,
        ...(run.plant ? { plant: run.plant } : {}),
        ...(run.revision ? { revision: run.revision } : {}),
      });
      setup.log(`count: ${run.name} done in ${((results[i]?.wallMs ?? 0) / 1000).toFixed(1)} s`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, runs.length) }, worker));
  return results;
}

/**
 * The gate's count check: this checkout's build against the merge-base build in `baseTree`, both
 * counted on the same index (loaded by `base.server`, the merge base's service, when given; else
 * by this checkout's) with the same requests; a row the two answer differently is not compared. A merge
 * base the runner cannot be built against gives a comparison with a note and no rows.
 */
export async function compareWithBase(
  setup: CountSetup,
  base: { tree: string; revision: string; server?: string },
  headRevision: string,
): Promise<CountComparison> {
  const timings: Record<string, number> = {};
  const context = {
    baseRevision: base.revision,
    headRevision,
    corpus: { name: setup.corpus.id, docs: setup.docs, seed: setup.seed },
    sizes: setup.sizes,
    timings,
  };
  let t = performance.now();
  const head = buildRunner(REPO_ROOT, setup.log);
  timings.buildHeadRunner = performance.now() - t;
  t = performance.now();
  let baseRunner: RunnerBinary;
  try {
    baseRunner = buildRunner(base.tree, setup.log);
  } catch (error) {
    if (!(error instanceof RunnerBuildError)) throw error;
    timings.buildBaseRunner = performance.now() - t;
    return { ...context, threshold: COUNT_THRESHOLD, rows: [], note: error.message };
  }
  timings.buildBaseRunner = performance.now() - t;
  const prepared = await prepareCount(setup, base.server);
  timings.prepare = prepared.prepareMs;
  t = performance.now();
  const [baseCount, headCount] = await countBuilds(setup, prepared, [
    { name: `merge base ${base.revision.slice(0, 7)}`, runner: baseRunner, revision: base.revision },
    { name: 'this build', runner: head, revision: headRevision },
  ]);
  timings.count = performance.now() - t;
  const comparison = compareCounts(baseCount as BuildCount, headCount as BuildCount, context);
  const cpu = { base: baseCount?.cpuMs, head: headCount?.cpuMs };
  if (cpu.base !== undefined || cpu.head !== undefined) comparison.countCpuMs = cpu;
  return comparison;
}
