import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../repo.js';
import type { Scorecard } from '../scorecard/schema.js';
import type { CommittedCard } from './readmeResults.js';

/** What `npm run readme` reads: the committed cards and README.md. */

/** `scorecards/<run-id>` folders whose scorecard.json git tracks; outside a checkout, every folder on disk. */
function committedFolders(root: string): string[] {
  try {
    const files = execFileSync('git', ['ls-files', '--', 'scorecards/*/scorecard.json'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter((f) => f.split('/').length === 3);
    return files.map((f) => f.slice(0, -'/scorecard.json'.length));
  } catch {
    return readdirSync(join(root, 'scorecards'))
      .map((d) => `scorecards/${d}`)
      .filter((d) => existsSync(join(root, d, 'scorecard.json')));
  }
}

/** Every committed top-level card (the ci/, by-url/ and other subfolders hold other kinds of run). */
export function readCommittedCards(root = REPO_ROOT): CommittedCard[] {
  return committedFolders(root).map((folder) => {
    const card = JSON.parse(readFileSync(join(root, folder, 'scorecard.json'), 'utf8')) as Scorecard;
    const md = join(root, folder, 'SCORECARD.md');
    return { card, folder, ...(existsSync(md) ? { markdown: readFileSync(md, 'utf8') } : {}) };
  });
}

export const README = join(REPO_ROOT, 'README.md');
