import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Scorecard } from '../scorecard/schema.js';
import { readScorecardFile, ScorecardFileError } from '../scorecard/validate.js';
import { UsageError } from './flags.js';

/**
 * The published runs --cost-curve-with names, checked before any engine starts: each must be a
 * complete run of the same corpus and seed, at a size below every size this run will measure,
 * so the curve it joins grows in one direction over one body of data.
 */
export function readCostCurveRuns(
  raw: string,
  /** The corpus's versioned name, as manifests record it (e.g. llm-telemetry-v1). */
  corpus: string,
  seed: number,
  scales: readonly number[],
  cwd: string,
): Scorecard[] {
  const dirs = raw
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  if (dirs.length === 0)
    throw new UsageError('--cost-curve-with needs run folders, e.g. --cost-curve-with scorecards/<run-id>');
  const cards = dirs.map((dir) => {
    const file = join(resolve(cwd, dir), 'scorecard.json');
    if (!existsSync(file))
      throw new UsageError(`--cost-curve-with ${dir}: no scorecard.json there; pass a run folder`);
    try {
      return readScorecardFile(file, file) as Scorecard;
    } catch (error) {
      if (error instanceof ScorecardFileError)
        throw new UsageError(`--cost-curve-with ${dir}: ${error.message}`);
      throw error;
    }
  });
  const smallest = Math.min(...scales);
  let previous = 0;
  for (const [i, card] of cards.entries()) {
    const dir = dirs[i];
    const c = card.manifest.corpus;
    if (card.status !== 'complete')
      throw new UsageError(`--cost-curve-with ${dir}: the run is ${card.status}; pass a complete run`);
    if (c.name !== corpus || c.seed !== seed)
      throw new UsageError(
        `--cost-curve-with ${dir}: corpus ${c.name} seed ${c.seed}, but this run is ${corpus} seed ${seed}`,
      );
    if (c.docs <= previous || c.docs >= smallest)
      throw new UsageError(
        `--cost-curve-with ${dir}: ${c.docs} docs; list runs in growing size, all below --docs (${smallest})`,
      );
    previous = c.docs;
  }
  return cards;
}
