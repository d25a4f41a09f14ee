import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { withEngineTarget } from '../engineTarget.js';
import { REPO_ROOT } from '../repo.js';
import { git, revParse, worktreeAt } from '../worktree.js';

/** What decides the candidate's behaviour: a change outside these cannot make it slower. */
export const ENGINE_PATHS = [
  'packages/engine-core',
  'packages/engine-napi/src',
  'packages/engine-napi/ts',
  'packages/engine-napi/build.rs',
  'packages/engine-napi/Cargo.toml',
  'packages/engine-napi/package.json',
  'Cargo.toml',
  'Cargo.lock',
  '.cargo',
];

export { git, revParse, worktreeAt };

/**
 * The revision a pull request is measured against: the merge base with main (origin/main, else
 * main). On main itself that is HEAD, so the check compares HEAD with its first parent: the
 * last landing is then measured against the state before it, which is what caught nothing when
 * 6daa13d made date_range 10x slower.
 */
export function defaultBaseRevision(cwd = REPO_ROOT): string | undefined {
  const head = revParse('HEAD', cwd);
  if (!head) return undefined;
  for (const main of ['origin/main', 'main']) {
    if (!revParse(main, cwd)) continue;
    let base: string;
    try {
      base = git(['merge-base', 'HEAD', main], cwd);
    } catch {
      continue;
    }
    if (base !== head) return base;
    return revParse('HEAD^', cwd);
  }
  return revParse('HEAD^', cwd);
}

/** Whether the candidate engine's sources differ between two revisions. */
export function engineChanged(base: string, head = 'HEAD', cwd = REPO_ROOT): boolean {
  const r = spawnSync('git', ['diff', '--quiet', base, head, '--', ...ENGINE_PATHS], { cwd });
  return r.status !== 0;
}

/** How a checkout of the engine becomes a runnable build: napi + tsc in this repository. */
export type BuildStep = (packageDir: string, revision: string) => void;

const napiBuild =
  (repo: string): BuildStep =>
  (pkg, revision) =>
    withEngineTarget(
      resolve(pkg, '..', '..'),
      () => {
        const env = { ...process.env, CARGO_TARGET_DIR: join(repo, 'target') };
        for (const script of ['build:native', 'build:ts']) {
          const r = spawnSync('npm', ['run', script], { cwd: pkg, env, stdio: 'inherit' });
          if (r.status !== 0)
            throw new Error(
              `building the candidate at ${revision.slice(0, 7)} failed (npm run ${script} in ${pkg})`,
            );
        }
      },
      repo,
    );

/**
 * Build the candidate at `revision` in a worktree of its own under .runs/base-builds/ (kept
 * between runs: a second gate or bisect step on the same revision reuses it), sharing this
 * checkout's node_modules and cargo target folder so only the engine's own crates compile.
 * Returns the engine package folder (its dist/server.js is what the harness starts).
 */
export function buildBase(
  revision: string,
  log: (line: string) => void,
  repo = REPO_ROOT,
  build: BuildStep = napiBuild(repo),
): string {
  const tree = worktreeAt(revision, repo);
  const full = basename(tree);
  const pkg = join(tree, 'packages', 'engine-napi');
  // The mark of a build whose engine crates were compiled from this tree (withEngineTarget);
  // trees built before that guard (marked `.built`) may hold another tree's engine, and rebuild.
  const mark = join(tree, '.built-own-engine');
  if (existsSync(join(pkg, 'dist', 'server.js')) && existsSync(mark)) {
    log(`build ${full.slice(0, 7)}: reusing ${tree}`);
    return pkg;
  }
  log(`build ${full.slice(0, 7)}: building the candidate engine in ${tree}`);
  build(pkg, full);
  execFileSync('touch', [mark]);
  return pkg;
}
