import type { PreparedCorpus } from '../corpus/bulk.js';
import type { CorpusSpec } from '../corpus/corpora.js';
import type { CpuPlan } from '../engines/placement.js';
import type { Family } from '../families/types.js';
import type { Clock } from '../load/clock.js';
import type { Side } from '../load/side.js';
import type { IdleState } from '../measure/idle.js';
import type { RunSettings } from '../model/settings.js';
import type { Floor, Role, RowResult, Sweep } from '../scorecard/schema.js';
import type { RowGuard } from './guard.js';
import type { PhaseLog } from './phases.js';
import type { ShardPlan } from './shard.js';

/** What the run reports while it runs (the CLI draws it; tests and calibrate pass quiet ones). */
export interface RunProgress {
  start(totalSteps: number): void;
  step(phase: string, row: string): void;
  advance(): void;
  log(line: string): void;
  stop(): void;
  /** Where the run's time estimate comes from: seconds left, as the stages go (run/eta.ts). */
  estimate?(secondsLeft: () => number): void;
}

/**
 * Everything one run's stages share: the settings, the loaded corpus, both engines' sides, the
 * guard that survives engine crashes, and what the stages produced so far. Stages append rows
 * (and the floor and sweeps) here; nothing else is passed between them.
 */
export interface RunContext {
  readonly settings: RunSettings;
  readonly runId: string;
  /** Where run folders go (scorecards/ or a calibration/test folder). */
  readonly out: string;
  readonly corpus: PreparedCorpus;
  readonly spec: CorpusSpec;
  readonly index: string;
  readonly sides: Record<Role, Side>;
  /** The candidate built at the merge base (the gate's regression check), measured on the read rows. */
  readonly base?: Side;
  /** The merge-base revision that build was made from. */
  readonly baseRevision?: string;
  readonly guard: RowGuard;
  readonly clock: Clock;
  readonly progress: RunProgress;
  /** What the run spent its time on (the manifest's `phases`, and the progress's time estimate). */
  readonly phases: PhaseLog;
  /** The read rows selected for this corpus. */
  readonly families: readonly Family[];
  /** Docs/s re-indexed during the mixed rows (0: no mixed rows). */
  readonly mixedWriteRate: number;
  /** Read when the run starts: edits made while it runs are not the code that ran. */
  readonly gitDirtyAtStart: boolean;
  /** The revision checked out when the run started (a commit made while it runs is not what ran). */
  readonly gitRevisionAtStart: string;
  readonly mixedFamilies: readonly Family[];
  readonly sweepFamilies: readonly Family[];
  readonly sweepP99Ms: number;
  /** This run's share of a matrix split over machines (--shard K/N); absent: the whole matrix. */
  readonly shard?: ShardPlan;
  /** Where the harness and the engines run (undefined: one CPU, nothing pinned). */
  readonly cpus?: CpuPlan;
  rows: RowResult[];
  /** Whether each side took the whole corpus (the load): one that refused it has no index to restart on. */
  loaded: Record<Role, boolean>;
  floor?: Floor;
  /** The idle state each fork's timing started from (read stage). */
  idle: IdleState[];
  sweeps: Sweep[];
}

/**
 * One named step of a run. Most stages measure one kind of row and judge it (kinds/); a stage
 * may also only prepare (the load, the prewarm). The run is the list of stages in order.
 */
export interface Stage {
  readonly name: string;
  /** Progress units this stage will advance (for the bar's total). */
  steps(ctx: RunContext): number;
  run(ctx: RunContext): Promise<void>;
}
