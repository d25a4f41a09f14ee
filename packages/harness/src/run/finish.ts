import { describePlacement } from '../engines/placement.js';
import type { RunningEngine } from '../engines/types.js';
import { annotateFromHistory } from '../history/annotate.js';
import { appendRun, historyPath, withHistory } from '../history/db.js';
import { perRound } from '../model/settings.js';
import { aaLine } from '../scorecard/aa.js';
import { buildScorecard } from '../scorecard/build.js';
import { readConformance, readRestSuite } from '../scorecard/conformance.js';
import { costCurveOf } from '../scorecard/costCurve.js';
import type { Scorecard } from '../scorecard/schema.js';
import { writeScorecard } from '../scorecard/write.js';
import { baseOverall } from '../verdict/baseOverall.js';
import type { RunContext } from './context.js';
import { buildManifest, engineInfo } from './manifest.js';

/** What a run hands back: its scorecard and folder, or why there is none. */
export interface BenchOutcome {
  card?: Scorecard;
  dir?: string;
  exitCode: Scorecard['exitCode'];
  /** Set when the run failed before anything could be written. */
  error?: string;
}

/** The manifest's `indexSimilarity`: what each engine's index was given (corpus/similarity.ts). */
const similarityNote = (notes: Partial<Record<string, string>> | undefined): Record<string, string> => {
  const lines = Object.entries(notes ?? {}).map(([role, note]) => `${role}: ${note}`);
  return lines.length > 0 ? { indexSimilarity: lines.join('; ') } : {};
};

/**
 * The end of a run: the scorecard from what the stages measured, checked against the history
 * (flaky rows, coverage), written beside its SCORECARD.md, and appended to the history.
 */
export async function finishRun(
  ctx: RunContext,
  done: {
    started: Date;
    durationMs: number;
    status: Scorecard['status'];
    failure?: string;
    engines: { candidate: RunningEngine; baseline: RunningEngine; base?: RunningEngine };
    baseRevision?: string;
    log: (line: string) => void;
    /** The pass set's earlier scorecards: with them the card carries the cost curve. */
    earlierPasses?: readonly Scorecard[];
  },
): Promise<BenchOutcome> {
  const { settings } = ctx;
  const card = buildScorecard({
    runId: ctx.runId,
    createdAt: done.started,
    durationMs: done.durationMs,
    status: done.status,
    failure: done.failure,
    manifest: buildManifest({
      candidate: engineInfo(done.engines.candidate),
      baseline: engineInfo(done.engines.baseline),
      corpus: {
        name: ctx.spec.name,
        seed: settings.seed,
        docs: ctx.corpus.docs,
        contentHash: ctx.corpus.contentHash,
      },
      settings,
      gitDirty: ctx.gitDirtyAtStart,
      gitRevision: ctx.gitRevisionAtStart,
      extra: {
        index: ctx.index,
        schedule: `open loop, constant rate`,
        // Relative to the repository: no path of the machine that ran it is published.
        engineLogs: `.runs/${ctx.runId}`,
        mixedWriteRate: ctx.mixedWriteRate,
        sweep: ctx.sweepFamilies.length > 0,
        sweepP99Ms: ctx.sweepP99Ms,
        ...similarityNote(ctx.corpus.indexBodyNotes),
      },
    }),
    rows: ctx.rows,
    ...(done.baseRevision ? { versusBaseOverall: baseOverall(ctx.rows, settings, done.baseRevision) } : {}),
  });
  if (done.engines.base && done.baseRevision)
    card.manifest.base = { ...engineInfo(done.engines.base), revision: done.baseRevision };
  card.manifest.design = {
    forks: settings.forks,
    roundsPerFork: settings.rounds,
    requestsPerRound: perRound(settings),
    basis: settings.designBasis,
    othersFrozen: true,
  };
  card.manifest.placement = describePlacement(
    ctx.cpus,
    !done.engines.candidate.pid || !done.engines.baseline.pid,
  );
  if (ctx.idle.length > 0)
    card.manifest.idle = ctx.idle.map(({ waitedMs, quiet, cpuMsPerSecond }) => ({
      waitedMs,
      quiet,
      cpuMsPerSecond,
    }));
  const phases = ctx.phases.list();
  if (phases.length > 0) card.manifest.phases = phases;
  if (ctx.floor) card.floor = ctx.floor;
  if (ctx.shard)
    card.manifest.shard = {
      index: ctx.shard.index,
      count: ctx.shard.count,
      assignment: ctx.shard.assignment,
    };
  // The suite's summary travels with the verdicts only for the candidate this checkout built.
  if (done.engines.candidate.pid !== undefined && !settings.aa) {
    const { summary, note } = readConformance();
    if (summary) card.conformance = summary;
    else if (note) done.log(note);
    const rest = readRestSuite();
    if (rest.summary) card.restSuite = rest.summary;
    else if (rest.note) done.log(rest.note);
  }
  if (ctx.sweeps.length > 0) card.sweeps = ctx.sweeps;
  const curve = costCurveOf([...(done.earlierPasses ?? []), card]);
  if (curve) card.costCurve = curve;
  if (settings.aa) {
    // Both sides are OpenSearch: say so on every verdict and record the false-verdict tally.
    for (const row of card.rows)
      if (row.verdict === 'WIN' || row.verdict === 'LOSE')
        row.reason = `A/A (same engine both sides), so this ${row.verdict} is false: ${row.reason}`;
    card.manifest.settings.aaResult = aaLine(card);
  }
  const unread = await annotateFromHistory(ctx.out, card);
  if (unread) done.log(unread);
  if (card.coverage?.fell)
    done.log(
      `coverage fell against ${card.coverage.previousRunId}: N/A ${card.coverage.previousNA} -> ${card.coverage.na}${card.coverage.missingRows.length > 0 ? `, missing ${card.coverage.missingRows.join(', ')}` : ''}`,
    );
  const dir = await writeScorecard(ctx.out, card);
  await withHistory(historyPath(ctx.out), (conn) => appendRun(conn, card));
  return { card, dir, exitCode: card.exitCode };
}
