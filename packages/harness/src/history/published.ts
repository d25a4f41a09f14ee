import { execFileSync } from 'node:child_process';
import { basename, dirname } from 'node:path';
import type { Published } from './recent.js';

/**
 * Runs whose scorecard.json under `outDir` is tracked by git in the checkout that holds it: the
 * published ones. Outside a git checkout nothing is published and nothing compares.
 */
export function publishedRuns(outDir: string): Published {
  let files: string[] = [];
  try {
    files = execFileSync('git', ['ls-files', '--', '*/scorecard.json'], {
      cwd: outDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter(Boolean);
  } catch {
    files = [];
  }
  const ids = new Set(files.map((f) => basename(dirname(f))));
  return (runId) => ids.has(runId);
}
