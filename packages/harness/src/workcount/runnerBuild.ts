import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { withEngineTarget } from '../engineTarget.js';
import { REPO_ROOT } from '../repo.js';

/** The runner's source in this checkout (a binary of the engine crate). */
export const RUNNER_SOURCE = join('packages', 'engine-core', 'src', 'bin', 'workcount');
const ENGINE_MANIFEST = join('packages', 'engine-core', 'Cargo.toml');
const TARGET_TRIPLE = 'x86_64-unknown-linux-gnu';

/** A runner binary built against one tree's engine, ready to start. */
export interface RunnerBinary {
  path: string;
  /** The tree whose engine it links (this checkout, or a merge-base or bisect worktree). */
  tree: string;
}

export class RunnerBuildError extends Error {}

/**
 * Build the runner against the engine in `tree` (release profile, the workspace's own settings),
 * sharing this checkout's cargo target folder so the dependencies compile once; another tree's
 * engine crates are compiled from its own sources (withEngineTarget). Another
 * tree gets this checkout's runner source first: both sides of a comparison are counted by the
 * same instrument, and a merge base older than the runner has none of its own. The binary is
 * copied out of the shared target folder (the next tree's build would overwrite it).
 */
export function buildRunner(tree: string, log: (line: string) => void, repo = REPO_ROOT): RunnerBinary {
  const own = resolve(tree) === resolve(repo);
  if (!own) {
    const to = join(tree, RUNNER_SOURCE);
    rmSync(to, { recursive: true, force: true });
    cpSync(join(repo, RUNNER_SOURCE), to, { recursive: true });
  }
  const started = performance.now();
  const path = withEngineTarget(tree, () => cargoBuildRunner(tree, own, repo), repo);
  log(
    `runner: built against ${own ? 'this checkout' : tree} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { path, tree };
}

/** `cargo build` of the runner in `tree`, copied out of the target folder; returns its path. */
function cargoBuildRunner(tree: string, own: boolean, repo: string): string {
  const r = spawnSync(
    'cargo',
    ['build', '--release', '--manifest-path', join(tree, ENGINE_MANIFEST), '--bin', 'workcount'],
    {
      cwd: tree,
      env: { ...process.env, CARGO_TARGET_DIR: join(repo, 'target') },
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'pipe'],
    },
  );
  if (r.status !== 0)
    throw new RunnerBuildError(
      `building the count runner against ${tree} failed: ${
        (r.stderr ?? '')
          .split('\n')
          .filter((l) => l.startsWith('error'))
          .slice(0, 3)
          .join('; ') || `cargo exited with ${r.status}`
      }`,
    );
  const built = join(repo, 'target', TARGET_TRIPLE, 'release', 'workcount');
  if (!existsSync(built)) throw new RunnerBuildError(`cargo built no ${built}`);
  const dir = own ? join(repo, '.runs', 'workcount', 'bin') : join(tree, '.workcount');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'workcount');
  // Copied beside, then renamed over: a count still running the previous binary keeps its file
  // (valgrind reads the binary it runs while it runs; overwritten in place, it crashed).
  const staged = `${path}.${process.pid}`;
  copyFileSync(built, staged);
  renameSync(staged, path);
  return path;
}
