import { join } from 'node:path';
import { corpusById } from '../corpus/corpora.js';
import type { Family } from '../families/types.js';
import { buildBase } from '../gate/baseBuild.js';
import type { RunSettings } from '../model/settings.js';
import { COUNT_THRESHOLD, compareRow } from '../workcount/compare.js';
import { type CountSetup, countBuilds, DEFAULT_SIZES, prepareCount } from '../workcount/compareBuilds.js';
import { buildRunner, RunnerBuildError } from '../workcount/runnerBuild.js';
import type { BuildCount } from '../workcount/types.js';
import { worktreeAt } from '../worktree.js';
import type { BisectStep } from './search.js';

/**
 * `npm run bisect -- --by count`: one row's instructions per request on each commit against the
 * good build, by the gate's count rule (3% or more is a regression). The index is loaded once by
 * the good build's service; every commit's runner (this checkout's runner source, built against
 * that commit's engine) replays the same requests on a copy of it. Exact counts need one run per
 * commit, and no engine process or baseline: a step costs a build of the runner and a few seconds.
 */
export async function countStepper(opts: {
  family: Family;
  corpus: string;
  settings: RunSettings;
  good: string;
  repo: string;
  log: (line: string) => void;
}): Promise<(revision: string) => Promise<BisectStep>> {
  const setup: CountSetup = {
    corpus: corpusById(opts.corpus),
    docs: opts.settings.docs,
    seed: opts.settings.seed,
    families: [opts.family],
    sizes: DEFAULT_SIZES,
    workDir: join(opts.repo, '.runs', 'bisect-counts'),
    cacheSim: false,
    log: () => {},
  };
  const goodPkg = buildBase(opts.good, opts.log, opts.repo);
  const prepared = await prepareCount(setup, join(goodPkg, 'dist', 'server.js'));
  const count = async (revision: string): Promise<BuildCount> => {
    const runner = buildRunner(worktreeAt(revision, opts.repo), opts.log, opts.repo);
    const [c] = await countBuilds(setup, prepared, [{ name: revision.slice(0, 7), runner, revision }]);
    return c as BuildCount;
  };
  const good = await count(opts.good);
  const row = (c: BuildCount) => c.rows.find((r) => r.row === opts.family.id);
  opts.log(
    `  ${opts.good.slice(0, 7)} (good): ${Math.round(row(good)?.instructionsPerRequest ?? 0).toLocaleString('en-US')} instructions per request`,
  );
  return async (revision) => {
    let head: BuildCount;
    try {
      head = await count(revision);
    } catch (error) {
      if (!(error instanceof RunnerBuildError)) throw error;
      return { revision, verdict: 'N/A', reason: error.message };
    }
    const change = compareRow(opts.family.id, row(good), row(head), COUNT_THRESHOLD);
    return { revision, verdict: change.verdict, reason: change.reason };
  };
}
