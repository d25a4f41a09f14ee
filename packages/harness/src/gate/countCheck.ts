import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { corpusByName } from '../corpus/corpora.js';
import { selectFamilies } from '../families/index.js';
import { workloadById } from '../families/workloads.js';
import { gitRevision, REPO_ROOT } from '../repo.js';
import type { Manifest } from '../scorecard/schema.js';
import { COUNT_THRESHOLD } from '../workcount/compare.js';
import { compareWithBase, DEFAULT_SIZES } from '../workcount/compareBuilds.js';
import { writeCountComparison } from '../workcount/countFile.js';
import type { CountComparison } from '../workcount/types.js';
import { readScorecard } from './scorecards.js';

/**
 * The gate's count check, after the bench: the run's read rows (its corpus, size, seed and row
 * selection, from its manifest) counted on this build and on the merge-base build the bench
 * measured, written to the run folder's workcount.json for the judge. With the merge base's
 * service (`base.server`), the index is the one the merge base writes: this build must read it
 * (indices outlive upgrades) and the merge base can, so both do the same work even when this
 * build changes what it writes.
 */
export async function runCountCheck(
  runDir: string,
  base: { tree: string; revision: string; server?: string },
  log: (line: string) => void,
): Promise<CountComparison> {
  const card = readScorecard(join(runDir, 'scorecard.json'));
  const started = performance.now();
  const workDir = join(REPO_ROOT, '.runs', 'workcount', card.runId);
  const comparison = await compareWithBase(
    {
      ...countedWorkOf(card.manifest),
      sizes: DEFAULT_SIZES,
      workDir,
      cacheSim: false,
      log,
    },
    base,
    gitRevision(),
  );
  comparison.timings.total = performance.now() - started;
  writeCountComparison(runDir, comparison);
  await rm(workDir, { recursive: true, force: true });
  return comparison;
}

/**
 * What the count check replays for a run: the corpus its manifest names (by its versioned name:
 * the --corpus id is a setting), the same size and seed, and the run's row selection.
 */
export function countedWorkOf(manifest: Pick<Manifest, 'corpus' | 'settings'>) {
  const { corpus, settings } = manifest;
  const spec = corpusByName(corpus.name);
  const families = selectFamilies(String(settings.families ?? '*'), workloadById(spec.id).families);
  return { corpus: spec, docs: corpus.docs, seed: corpus.seed, families };
}

/** The worktree of a merge-base build from its engine package folder (what buildBase returns). */
export const treeOfPackage = (pkg: string) => join(pkg, '..', '..');

/** A count check that could not run still leaves its reason where the judge reads it. */
export function writeCountFailure(runDir: string, baseRevision: string, message: string): void {
  writeCountComparison(runDir, {
    baseRevision,
    headRevision: gitRevision(),
    threshold: COUNT_THRESHOLD,
    corpus: { name: '', docs: 0, seed: 0 },
    sizes: DEFAULT_SIZES,
    rows: [],
    timings: {},
    note: `the count check failed (exit 2): ${message}`,
  });
}
