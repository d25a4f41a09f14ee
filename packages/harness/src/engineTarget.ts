import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from './repo.js';

/**
 * The shared cargo target folder's guard (scripts/engine-target.mjs says why it is needed: cargo
 * gives a workspace crate one artifact slot across checkouts and trusts it by modification time).
 */
function engineTarget(args: string[], repo: string): number {
  const r = spawnSync('node', [join(repo, 'scripts', 'engine-target.mjs'), ...args], {
    env: { ...process.env, CARGO_TARGET_DIR: join(repo, 'target') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status === null || r.status > 1)
    throw new Error(`node scripts/engine-target.mjs ${args[0]} failed (exit ${r.status ?? r.signal})`);
  return r.status;
}

/**
 * Run `build` for `tree` against the target folder `repo` shares with it: this checkout's own
 * build first drops a foreign engine an interrupted build left behind; another tree's build
 * starts and ends with the engine crates cleared, and fails unless it compiled them itself.
 */
export function withEngineTarget<T>(tree: string, build: () => T, repo = REPO_ROOT): T {
  if (resolve(tree) === resolve(repo)) {
    engineTarget(['clear-foreign'], repo);
    return build();
  }
  engineTarget(['begin-foreign', tree], repo);
  try {
    const started = Date.now();
    const built = build();
    if (engineTarget(['compiled-since', String(started)], repo) !== 0)
      throw new Error(
        `the build of ${tree} did not compile its own engine crate (cargo found one fresh in ${join(repo, 'target')})`,
      );
    return built;
  } finally {
    engineTarget(['end-foreign'], repo);
  }
}
