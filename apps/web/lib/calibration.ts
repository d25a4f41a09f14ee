/**
 * The newest committed calibration (`npm run calibrate` writes scorecards/calibration/<date>.json):
 * how often the verdict rule called a difference between an engine and itself (A/A), and how often
 * it found a known +10% slowdown (power). Read as the harness wrote it; only the fields the
 * methodology page shows are typed, and a file without them is reported, not guessed at.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scorecardsDir } from './data';

export interface AaSummary {
  runs: number;
  incompleteRuns?: number;
  comparableRowRuns: number;
  falseWin: number;
  falseLose: number;
  cpuRowRuns: number;
  falseCpu: number;
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
  aa: Record<string, AaSummary>;
  power?: { slowdown: number; minP50Ms: number; cpu: Detection; latency: Detection };
  variance?: { rows: number; forkSd: number; roundSdWithinFork: number };
}

const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function problem(raw: Record<string, unknown>): string | undefined {
  if (typeof raw.createdAt !== 'string') return 'createdAt';
  if (typeof raw.complete !== 'boolean') return 'complete';
  const aa = raw.aa as Record<string, Record<string, unknown>> | undefined;
  if (!aa || typeof aa !== 'object') return 'aa';
  for (const [engine, a] of Object.entries(aa))
    for (const key of ['runs', 'comparableRowRuns', 'falseWin', 'falseLose', 'cpuRowRuns', 'falseCpu'])
      if (!isCount(a?.[key])) return `aa.${engine}.${key}`;
  return undefined;
}

/** Undefined when no calibration was committed; throws on a file that is not one (the build lists it). */
export function getCalibration(dir = join(scorecardsDir(), 'calibration')): Calibration | undefined {
  if (!existsSync(dir)) return undefined;
  const newest = readdirSync(dir)
    .filter((name) => /^\d{4}-\d{2}-\d{2}.*\.json$/.test(name))
    .sort()
    .at(-1);
  if (!newest) return undefined;
  const file = join(dir, newest);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const bad = problem(raw);
  if (bad) throw new Error(`scorecards/calibration/${newest}: not a calibration result (field ${bad})`);
  return { ...(raw as unknown as Calibration), file: `scorecards/calibration/${newest}` };
}
