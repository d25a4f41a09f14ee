import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './repo.js';

/** Git of this repository (or another, `cwd`), its output trimmed; throws on a non-zero exit. */
export const git = (args: string[], cwd = REPO_ROOT) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** The full commit a revision names, or undefined. */
export const revParse = (rev: string, cwd = REPO_ROOT): string | undefined => {
  try {
    return git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], cwd);
  } catch {
    return undefined;
  }
};

/**
 * The worktree of `revision` under .runs/base-builds/ (created once, kept between runs), sharing
 * this checkout's node_modules. The count check builds its runner there without the addon.
 */
export function worktreeAt(revision: string, repo = REPO_ROOT): string {
  const full = revParse(revision, repo);
  if (!full) throw new Error(`${revision} is not a commit of ${repo}`);
  const builds = join(repo, '.runs', 'base-builds');
  const tree = join(builds, full);
  mkdirSync(builds, { recursive: true });
  // --force: a worktree left registered by an interrupted run would refuse the path.
  if (!existsSync(tree)) git(['worktree', 'add', '--force', '--detach', tree, full], repo);
  if (!existsSync(join(tree, 'node_modules')) && existsSync(join(repo, 'node_modules')))
    symlinkSync(join(repo, 'node_modules'), join(tree, 'node_modules'));
  return tree;
}
