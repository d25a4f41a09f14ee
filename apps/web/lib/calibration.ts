/**
 * Calibrations (`npm run calibrate` writes scorecards/calibration/<date>.json): how often the
 * verdict rule called a difference between an engine and itself (A/A), and how often it found a
 * known +10% slowdown (power). Read as the harness wrote it; only the fields the site shows are
 * typed, and a file without them is reported, not guessed at. A calibration qualifies the runs it
 * is shown beside, so it says when it is older or smaller than the run: an A/A result at 20,000
 * documents on yesterday's engine says little about today's 10M card. Pure (lib/data.ts reads the
 * files).
 */
import type { Scorecard } from './definitions';
import { formatDate } from './format';

export interface AaSummary {
  runs: number;
  incompleteRuns?: number;
  comparableRowRuns: number;
  falseWin: number;
  falseLose: number;
  cpuRowRuns: number;
  falseCpu: number;
  perRun?: { runId: string }[];
}

export interface Detection {
  eligible: number;
  detected: number;
}

export interface Calibration {
  file: string;
  createdAt: string;
  complete: boolean;
  runsPlanned: { aaPerEngine: number; engines: string[] };
  settings: { docs: number; corpus: string };
  machine?: { cpuModel: string; cores: number };
  aa: Record<string, AaSummary>;
  power?: { slowdown: number; minP50Ms: number; cpu: Detection; latency: Detection };
  variance?: { rows: number; forkSd: number; roundSdWithinFork: number };
}

const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The first field a calibration file lacks or gets wrong, or undefined when it is one. */
export function calibrationProblem(raw: Record<string, unknown>): string | undefined {
  if (typeof raw.createdAt !== 'string') return 'createdAt';
  if (typeof raw.complete !== 'boolean') return 'complete';
  const settings = raw.settings as Record<string, unknown> | undefined;
  if (!settings || !isCount(settings.docs)) return 'settings.docs';
  const aa = raw.aa as Record<string, Record<string, unknown>> | undefined;
  if (!aa || typeof aa !== 'object') return 'aa';
  for (const [engine, a] of Object.entries(aa))
    for (const key of ['runs', 'comparableRowRuns', 'falseWin', 'falseLose', 'cpuRowRuns', 'falseCpu'])
      if (!isCount(a?.[key])) return `aa.${engine}.${key}`;
  return undefined;
}

/** The engine revision the calibration measured, from its A/A runs' ids ("<time>-<commit>"). */
export function calibrationRevision(c: Calibration): string | undefined {
  const runId = Object.values(c.aa).flatMap((a) => a.perRun ?? [])[0]?.runId;
  return runId?.split('-').at(-1);
}

/** How far a calibration fits a run, with every way it does not. */
export interface CalibrationFit {
  calibration: Calibration;
  /** Empty when it fits; otherwise one phrase per mismatch ("older than this run: ..."). */
  stale: string[];
}

const integer = new Intl.NumberFormat('en-US');
const day = (iso: string) => formatDate(iso).replace(/, \d\d:\d\d UTC$/, '');

/**
 * The calibration that qualifies a run: the newest one made at or before it, else the earliest
 * after it; with the reasons it is stale for that run.
 */
export function calibrationFor(
  calibrations: readonly Calibration[],
  card: Pick<Scorecard, 'createdAt' | 'manifest'>,
): CalibrationFit | undefined {
  const ordered = [...calibrations].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  const runTime = Date.parse(card.createdAt);
  const calibration =
    ordered.filter((c) => Date.parse(c.createdAt) <= runTime).at(-1) ??
    ordered.find((c) => Date.parse(c.createdAt) > runTime);
  if (!calibration) return undefined;
  const stale: string[] = [];
  const revision = calibrationRevision(calibration);
  const runRevision = card.manifest.gitRevision.slice(0, 7);
  if (Date.parse(calibration.createdAt) < runTime && revision !== runRevision) {
    const engines = revision ? ` (engine ${revision} against ${runRevision})` : '';
    stale.push(`older than this run: ${day(calibration.createdAt)} against ${day(card.createdAt)}${engines}`);
  }
  if (calibration.settings.docs < card.manifest.corpus.docs) {
    stale.push(
      `smaller than this run: ${integer.format(calibration.settings.docs)} documents against ${integer.format(card.manifest.corpus.docs)}`,
    );
  }
  const machine = card.manifest.machine;
  if (
    calibration.machine &&
    (calibration.machine.cores !== machine.cores || calibration.machine.cpuModel !== machine.cpuModel)
  ) {
    stale.push(
      `on another machine: ${calibration.machine.cores} cores, ${calibration.machine.cpuModel} against ${machine.cores} cores, ${machine.cpuModel}`,
    );
  }
  if (!calibration.complete) {
    stale.push(
      `incomplete: stopped before all ${calibration.runsPlanned.aaPerEngine} planned A/A runs per engine finished`,
    );
  }
  return { calibration, stale };
}

/** "A/A on 26 Nov 2026, 20,000 documents of llm-telemetry, 2 runs per engine": its date and scale. */
export function calibrationScale(c: Calibration): string {
  const runs = Math.min(...Object.values(c.aa).map((a) => a.runs));
  return `${day(c.createdAt)}, ${integer.format(c.settings.docs)} documents of ${c.settings.corpus}, ${runs} A/A run${runs === 1 ? '' : 's'} per engine`;
}
