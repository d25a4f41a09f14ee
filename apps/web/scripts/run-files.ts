/**
 * The files beside each run's page, written by the site build rather than rendered by Next, so a
 * run costs a few file writes and no page render: the scorecard as published, SCORECARD.md with
 * the build machine's paths published relative, the rows as CSV, the diffs rows point at, and the
 * run's run.json (its page as data, lib/run-model.ts), which the one run page draws in the browser.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { RunOverview } from '../components/run-overview';
import type { RunModel, Scorecard } from '../lib/definitions';
import { ratioDefinition } from '../lib/headline';
import { publishedMarkdown, publishedScorecard, rowsCsv } from '../lib/publish';
import { stripReact } from './export-tidy';

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

/**
 * Copies the files rows point at (`diffPath`: the full diff of an N/A row's two responses;
 * `shrunk.path`: its difference shrunk to a conformance case); returns how many.
 */
export function copyRunDiffs(card: Scorecard, runFolder: string, target: string): number {
  const runDir = resolve(runFolder);
  let copied = 0;
  const files = card.rows.flatMap((row) => [row.diffPath, row.shrunk?.path]);
  for (const path of files) {
    if (typeof path !== 'string') continue;
    const source = resolve(runDir, path);
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
 * The run page's HTML for one run: the exported page shell with the run drawn into it as static
 * HTML (the same RunOverview the /run/?id= shell draws in the browser) and the run's own title, so
 * tabs and bookmarks say which run. No React: the shell's framework scripts and RSC payload are
 * dropped (scripts/export-tidy.ts), so the page paints its headline from the HTML instead of after
 * ~450 KB of scripts and a fetch of run.json; the table's controls get their own small script.
 */
export function runPageHtml(shell: string, model: RunModel): string {
  const body = renderToStaticMarkup(
    createElement(RunOverview, {
      model,
      label: 'Run',
      caption: `Every row of run ${model.runId}.`,
      frozen: true,
    }),
  );
  const title = `Run ${escapeHtml(model.runId)} · everycell scorecard`;
  return stripReact(shell)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
    .replace(
      /<main class="wrap" id="main">[\s\S]*<\/main>/,
      () => `<main class="wrap" id="main">${body}</main>`,
    );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Writes a run's run.json and its page into `target` (the run's folder of the export). */
export function writeRunPage(target: string, model: RunModel, shell: string): void {
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, 'run.json'), JSON.stringify(model));
  writeFileSync(join(target, 'index.html'), runPageHtml(shell, model));
}
