import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderMarkdown } from './markdown.js';
import type { Scorecard } from './schema.js';

/** Write scorecard.json and SCORECARD.md into <out>/<runId>/; returns that folder. */
export async function writeScorecard(outDir: string, card: Scorecard): Promise<string> {
  const dir = join(outDir, card.runId);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'scorecard.json'), `${JSON.stringify(card, null, 2)}\n`);
  await writeFile(join(dir, 'SCORECARD.md'), renderMarkdown(card));
  return dir;
}

/** Raw per-row samples (git-ignored): <out>/<runId>/samples/<rowId>.json. */
export async function writeSamples(
  outDir: string,
  runId: string,
  rowId: string,
  samples: unknown,
): Promise<void> {
  const dir = join(outDir, runId, 'samples');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${rowId}.json`), JSON.stringify(samples));
}
