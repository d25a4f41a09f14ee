import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (scorecards/, .runs/ and the git history live there). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** Full commit sha, or "none" before the first commit. */
export function gitRevision(): string {
  return git(['rev-parse', 'HEAD']) ?? 'none';
}

/** Uncommitted changes make a run irreproducible from its revision alone: record that. */
export function gitDirty(): boolean {
  const status = git(['status', '--porcelain', '--untracked-files=no']);
  return status === undefined || status.length > 0;
}
