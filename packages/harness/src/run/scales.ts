import type { RunSettings } from '../model/settings.js';

export type ExitCode = 0 | 1 | 2 | 3 | 4;

/** The gate's order: a failed run (2) outranks a LOSE (1), which outranks fallen coverage (3), then 0. */
const RANK: Record<ExitCode, number> = { 2: 4, 1: 3, 4: 2, 3: 1, 0: 0 };

export function worstExit(codes: readonly ExitCode[]): ExitCode {
  return codes.reduce<ExitCode>((worst, c) => (RANK[c] > RANK[worst] ? c : worst), 0);
}

/**
 * `--docs 100k,1m`: one complete pass per corpus size, in the order given, each with its own
 * engines, load, rows and scorecard (a scorecard speaks for one size: coverage, history and the
 * gate compare runs of the same size). A later pass does not start once the run is interrupted;
 * a failed pass does not stop the next, whose size is an independent measurement.
 */
export async function runScales<T extends { exitCode: ExitCode }>(
  settings: RunSettings,
  scales: readonly number[],
  abort: AbortSignal,
  pass: (settings: RunSettings, index: number) => Promise<T>,
): Promise<{ outcomes: T[]; exitCode: ExitCode }> {
  const outcomes: T[] = [];
  for (const [i, docs] of scales.entries()) {
    if (abort.aborted) break;
    outcomes.push(await pass({ ...settings, docs }, i));
  }
  // An interrupted list is a failed run even if every finished pass was clean.
  const skipped = outcomes.length < scales.length ? ([2] as ExitCode[]) : [];
  return { outcomes, exitCode: worstExit([...outcomes.map((o) => o.exitCode), ...skipped]) };
}
