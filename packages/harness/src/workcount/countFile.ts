import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COUNT_FILE, type CountComparison } from './types.js';

/** Where a run's count comparison lives: `workcount.json` beside its scorecard.json. */
export const countFileOf = (runDir: string) => join(runDir, COUNT_FILE);

export function writeCountComparison(runDir: string, comparison: CountComparison): void {
  writeFileSync(countFileOf(runDir), `${JSON.stringify(comparison, null, 2)}\n`);
}

/** The run's count comparison, or undefined when the count check did not run. */
export function readCountComparison(runDir: string): CountComparison | undefined {
  const file = countFileOf(runDir);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as CountComparison;
  if (
    !Array.isArray(parsed.rows) ||
    typeof parsed.baseRevision !== 'string' ||
    typeof parsed.threshold !== 'number'
  )
    throw new Error(`${file}: not a count comparison (rows, baseRevision, threshold)`);
  return parsed;
}
