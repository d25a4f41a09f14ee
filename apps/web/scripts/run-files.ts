/**
 * The files beside each run's page, written by the site build rather than rendered by Next, so a
 * run costs a few file writes and no page render: the scorecard as published, SCORECARD.md with
 * the build machine's paths published relative, the rows as CSV, the diffs rows point at, and the
 * run's run.json (its page as data, lib/run-model.ts), which the one run page draws in the browser.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { RunModel, Scorecard } from '../lib/definitions';
import { ratioDefinition } from '../lib/headline';
import { publishedMarkdown, publishedScorecard, rowsCsv } from '../lib/publish';
import { runFileHref } from '../lib/routes';

/**
 * Writes a run's downloads into `target` and returns its published scorecard's text (the Parquet
 * cache's key). The scorecard is written without indentation: the same content at a third of the size.
 */
export function stageRunFiles(card: Scorecard, runFolder: string, target: string): string {
  mkdirSync(target, { recursive: true });
  const json = JSON.stringify(publishedScorecard(card));
  writeFileSync(join(target, 'scorecard.json'), `${json}\n`);
  const markdown = join(runFolder, 'SCORECARD.md');
  if (existsSync(markdown)) {
    writeFileSync(join(target, 'SCORECARD.md'), publishedMarkdown(readFileSync(markdown, 'utf8'), card));
  }
  writeFileSync(join(target, 'rows.csv'), rowsCsv(card, ratioDefinition));
  copyRunDiffs(card, runFolder, target);
  return json;
}

/** Copies the files rows point at (`diffPath`: the full diff of an N/A row's two responses); returns how many. */
export function copyRunDiffs(card: Scorecard, runFolder: string, target: string): number {
  const runDir = resolve(runFolder);
  let copied = 0;
  for (const row of card.rows) {
    if (typeof row.diffPath !== 'string') continue;
    const source = resolve(runDir, row.diffPath);
    // Belt and braces: never copy from outside the run folder, whatever the file says.
    if (!source.startsWith(runDir + sep) || !existsSync(source)) continue;
    const file = join(target, relative(runDir, source));
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(source, file);
    copied += 1;
  }
  return copied;
}

/**
 * The run page's HTML for one run: the exported page with the run's own title, so tabs and
 * bookmarks say which run, and its run.json fetched from the start (a preload the page's own fetch
 * then uses) rather than after the scripts have run.
 */
export function runPageHtml(shell: string, model: Pick<RunModel, 'runId'>): string {
  const preload = `<link rel="preload" href="${runFileHref(model.runId, 'run.json')}" as="fetch" crossorigin="anonymous"/>`;
  return shell.replace(
    /<title>[^<]*<\/title>/,
    `<title>Run ${model.runId} · everycell scorecard</title>${preload}`,
  );
}

/** Writes a run's run.json and its page into `target` (the run's folder of the export). */
export function writeRunPage(target: string, model: RunModel, shell: string): void {
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, 'run.json'), JSON.stringify(model));
  writeFileSync(join(target, 'index.html'), runPageHtml(shell, model));
}
