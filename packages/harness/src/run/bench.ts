import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareBulk } from '../corpus/bulk.js';
import { clusterIndexShape, shardedIndexBody } from '../corpus/clusterShards.js';
import { alignedIndexBody } from '../corpus/similarity.js';
import { pinTree, planCpus } from '../engines/placement.js';
import { selectFamilies } from '../families/index.js';
import { workloadById } from '../families/workloads.js';
import { realClock } from '../load/clock.js';
import { EngineFailure, Interrupted } from '../load/errors.js';
import { Side } from '../load/side.js';
import { selectMixed } from '../measure/mixed.js';
import { selectSweeps } from '../measure/sweep.js';
import type { RunSettings } from '../model/settings.js';
import { gitDirty, gitRevision, REPO_ROOT } from '../repo.js';
import { makeRunId } from '../scorecard/runId.js';
import type { Scorecard } from '../scorecard/schema.js';
import type { RunContext, RunProgress } from './context.js';
import { startEngines } from './engines.js';
import { type BenchOutcome, finishRun } from './finish.js';

export type { BenchOutcome };

import { Eta } from './eta.js';
import { RowGuard } from './guard.js';
import { PhaseLog } from './phases.js';
import { planInput, planRun, startPhase } from './plan.js';
import { ownsUnit } from './shard.js';
import { dealShard, shardLine } from './shardUnits.js';
import { STAGES } from './stages.js';

export interface BenchOptions {
  settings: RunSettings;
  out: string;
  candidateUrl?: string;
  baselineUrl?: string;
  progress: RunProgress;
  abort: AbortSignal;
  /** Docs/s re-indexed during the mixed rows; 0 or absent leaves them out. */
  mixedWriteRate?: number;
  /** The candidate built at the merge base: its service and revision (the gate's regression check). */
  base?: { server: string; revision: string };
  /** Run the latency-at-throughput sweeps of the selected throughput.* rows. */
  sweep?: boolean;
  sweepP99Ms?: number;
  /** The scorecards of this pass set's earlier passes (`--docs 100k,1m`), for its cost curve. */
  earlierPasses?: readonly Scorecard[];
}

/**
 * One whole run: corpus -> engines -> the stages in order (stages.ts) -> scorecard + history.
 * Whatever happens after the engines are up, they are stopped and what was measured is written.
 */
export async function runBench(opts: BenchOptions): Promise<BenchOutcome> {
  const { settings, progress, abort } = opts;
  const started = new Date();
  const t0 = performance.now();
  const phases = new PhaseLog();
  phases.begin('start', 'corpus and engines');
  const gitRevisionAtStart = gitRevision();
  const runId = makeRunId(started, gitRevisionAtStart);
  const gitDirtyAtStart = gitDirty();
  const runDir = join(REPO_ROOT, '.runs', runId);
  const workload = workloadById(settings.corpus);
  const { corpus: spec } = workload;
  // The mixed and throughput rows are built on the telemetry corpus's fields.
  const telemetry = spec.id === 'llm-telemetry';
  const mixedWriteRate = telemetry ? (opts.mixedWriteRate ?? 0) : 0;

  progress.log(`run ${runId}: building a ${settings.docs}-doc ${spec.id} corpus (seed ${settings.seed})`);
  const corpus = prepareBulk(spec.documents(settings.seed, settings.docs), settings.bulkSize, spec.indexBody);

  let engines: Awaited<ReturnType<typeof startEngines>>;
  try {
    engines = await startEngines({
      ...opts,
      aa: settings.aa,
      calibrationExtraCpu: settings.calibrationExtraCpu,
      baselineNodes: settings.baselineNodes,
      runDir,
      log: progress.log,
      ...(opts.base ? { baseServer: opts.base.server } : {}),
    });
  } catch (error) {
    return { exitCode: 2, error: `could not start or reach the engines: ${(error as Error).message}` };
  }
  // Every engine scores on the baseline's BM25 scale, so scored rows can compare their top hits.
  corpus.indexBodies = {};
  corpus.indexBodyNotes = {};
  for (const e of [engines.candidate, engines.baseline, ...(engines.base ? [engines.base] : [])]) {
    const aligned = alignedIndexBody(spec.indexBody, e.product, engines.baseline.product);
    // A baseline cluster spreads the index over its nodes: one shard each (corpus/clusterShards.ts).
    corpus.indexBodies[e.role] = e.cluster
      ? shardedIndexBody(aligned.body, clusterIndexShape(e.cluster.nodes))
      : aligned.body;
    if (aligned.note) corpus.indexBodyNotes[e.role] = aligned.note;
  }
  for (const e of [engines.candidate, engines.baseline, ...(engines.base ? [engines.base] : [])])
    progress.log(
      `${`${e.role}:`.padEnd(10)} ${e.product} at ${e.url}${e.pid === undefined ? '' : ` (pid ${e.pid})`}${e.cluster ? `, a ${e.cluster.nodes}-node cluster (every request to this node; pid is the supervisor of the node JVMs)` : ''}`,
    );

  // The harness on its own CPU (engines/placement.ts), once the engines it started (which inherit
  // its affinity) are up with every CPU; each stage places the engines for what it does.
  const cpus = planCpus();
  if (cpus) await pinTree(process.pid, cpus.harness);
  const sides = {
    candidate: new Side(engines.candidate, settings.connections, settings.timeoutMs, abort),
    baseline: new Side(engines.baseline, settings.connections, settings.timeoutMs, abort),
  };
  const base = engines.base
    ? new Side(engines.base, settings.connections, settings.timeoutMs, abort)
    : undefined;
  const selected = {
    families: selectFamilies(settings.families, workload.families),
    mixedFamilies: mixedWriteRate > 0 ? selectMixed(settings.families) : [],
    sweepFamilies: opts.sweep && telemetry ? selectSweeps(settings.families) : [],
  };
  const shard = settings.shard ? dealShard({ settings, corpus, ...selected, base }) : undefined;
  if (shard) progress.log(shardLine(shard));
  const ctx: RunContext = {
    ...(base && opts.base ? { base, baseRevision: opts.base.revision } : {}),
    settings,
    runId,
    out: opts.out,
    corpus,
    spec,
    index: spec.index,
    sides,
    // An engine that dies or hangs after the load costs the row it was on, not the run.
    guard: new RowGuard(sides, spec.index, corpus.docs, progress.log),
    clock: realClock,
    progress,
    phases,
    // A shard times only its own read rows; the other kinds filter theirs (kind.ts, knn, load).
    families: selected.families.filter((f) => ownsUnit(shard, f.id)),
    mixedWriteRate,
    gitDirtyAtStart,
    gitRevisionAtStart,
    mixedFamilies: selected.mixedFamilies,
    sweepFamilies: selected.sweepFamilies,
    ...(shard ? { shard } : {}),
    sweepP99Ms: opts.sweepP99Ms ?? 50,
    ...(cpus ? { cpus } : {}),
    rows: [],
    loaded: { candidate: true, baseline: true },
    sweeps: [],
    idle: [],
  };
  let status: Scorecard['status'] = 'complete';
  let failure: string | undefined;
  try {
    progress.start(STAGES.reduce((n, stage) => n + stage.steps(ctx), 0));
    const plan = planInput(ctx);
    const eta = new Eta(planRun(plan), [startPhase(plan)]);
    phases.listen(eta);
    progress.estimate?.(() => eta.remainingSeconds(phases.at()));
    for (const stage of STAGES) await stage.run(ctx);
  } catch (error) {
    if (error instanceof Interrupted) {
      status = 'partial';
      failure = 'interrupted (Ctrl-C)';
    } else {
      status = 'failed';
      failure =
        error instanceof EngineFailure ? error.message : `harness error: ${(error as Error).stack ?? error}`;
    }
  } finally {
    // A crash the run survived still fails it: its rows are not a clean comparison.
    const crashed = ctx.guard.summary();
    if (crashed !== undefined && status === 'complete') {
      status = 'failed';
      const lost = ctx.rows.filter((r) => r.candidate.collapsed || r.baseline.collapsed).length;
      failure = `${crashed}; ${lost} row${lost === 1 ? '' : 's'} recorded collapsed, the others measured`;
    }
    phases.end();
    progress.stop();
    const all = [sides.candidate, sides.baseline, ...(base ? [base] : [])];
    await Promise.all(all.map((side) => side.client.close()));
    // The sides hold the current processes: a restarted engine is not the one first started.
    await Promise.all(all.map((side) => side.engine.stop()));
    // Engine data is bulky and rebuilt every run; the logs stay for post-mortems.
    for (const dir of [
      'candidate/data',
      'baseline/home/data',
      'candidate-aa/home/data',
      'baseline-aa/data',
      'base/data',
    ])
      await rm(join(runDir, dir), { recursive: true, force: true });
  }
  return finishRun(ctx, {
    started,
    durationMs: performance.now() - t0,
    status,
    failure,
    engines,
    log: progress.log,
    earlierPasses: opts.earlierPasses ?? [],
    ...(opts.base ? { baseRevision: opts.base.revision } : {}),
  });
}
