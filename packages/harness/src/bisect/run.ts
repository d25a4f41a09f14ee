import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Family } from '../families/types.js';
import { type BuildStep, buildBase, engineChanged, git, revParse } from '../gate/baseBuild.js';
import type { RunSettings } from '../model/settings.js';
import { REPO_ROOT } from '../repo.js';
import { countStepper } from './countStep.js';
import { measureAgainstGood } from './measureRow.js';
import { type BisectResult, bisect } from './search.js';

export interface BisectOptions {
  family: Family;
  corpus: string;
  good: string;
  bad: string;
  settings: RunSettings;
  log: (line: string) => void;
  repo?: string;
  /** How a checkout becomes a runnable build (default: napi + tsc in this repository). */
  build?: BuildStep;
  /**
   * What a step compares: the row's latency and CPU per request in forks (the gate's wall-clock
   * rule, the default), or its counted instructions per request (the gate's count rule).
   */
  by?: 'latency' | 'count';
}

/**
 * `npm run bisect`: the first commit between --good and --bad whose build is slower on one row
 * than the good build, by the gate's regression rule (or, `by: 'count'`, its count rule). Commits along the first-parent line;
 * commits that did not touch the engine's sources are never built (they inherit a neighbour's
 * result).
 */
export async function runBisect(opts: BisectOptions): Promise<BisectResult> {
  const repo = opts.repo ?? REPO_ROOT;
  const good = revParse(opts.good, repo);
  const bad = revParse(opts.bad, repo);
  if (!good) throw new Error(`--good ${opts.good} is not a commit`);
  if (!bad) throw new Error(`--bad ${opts.bad} is not a commit`);
  const between = git(['rev-list', '--first-parent', '--reverse', `${good}..${bad}`], repo)
    .split('\n')
    .filter(Boolean);
  if (between.length === 0)
    throw new Error(`${opts.bad} is not a descendant of ${opts.good}: pass --good older than --bad`);
  const commits = [good, ...between];
  opts.log(
    `bisect ${opts.family.id}: ${between.length} commit${between.length === 1 ? '' : 's'} after ${good.slice(0, 7)} up to ${bad.slice(0, 7)}`,
  );
  const sameEngine = (a: string, b: string) => !engineChanged(a, b, repo);
  if (opts.by === 'count') {
    const step = await countStepper({ ...opts, good, repo });
    return bisect(
      commits,
      async (revision) => {
        const result = await step(revision);
        opts.log(`  ${revision.slice(0, 7)}: ${result.verdict} (${result.reason})`);
        return result;
      },
      sameEngine,
    );
  }
  const goodPkg = buildBase(good, opts.log, repo, opts.build);
  const workDir = join(repo, '.runs', 'bisect');
  return bisect(
    commits,
    async (revision) => {
      const pkg = buildBase(revision, opts.log, repo, opts.build);
      await rm(workDir, { recursive: true, force: true });
      const step = await measureAgainstGood({
        family: opts.family,
        corpus: opts.corpus,
        settings: opts.settings,
        candidateServer: join(pkg, 'dist', 'server.js'),
        goodServer: join(goodPkg, 'dist', 'server.js'),
        goodRevision: good,
        revision,
        workDir,
        log: () => {},
      });
      opts.log(`  ${revision.slice(0, 7)}: ${step.verdict} (${step.reason})`);
      return step;
    },
    sameEngine,
  );
}
