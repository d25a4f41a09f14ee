/**
 * Copies the files rows point at (today: `diffPath`, the full diff of an N/A row's two responses)
 * from `<scorecards>/<run>/` into `<out>/runs/<run>/`, so the row page's link works in the static
 * export. The site build has already validated every scorecard (diffPath stays inside its run folder).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export function copyRunFiles(scorecards: string, out: string): number {
  let copied = 0;
  for (const entry of readdirSync(scorecards, { withFileTypes: true })) {
    const file = join(scorecards, entry.name, 'scorecard.json');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const runDir = resolve(scorecards, entry.name);
    const card = JSON.parse(readFileSync(file, 'utf8')) as { rows?: { diffPath?: unknown }[] };
    for (const row of card.rows ?? []) {
      if (typeof row.diffPath !== 'string') continue;
      const source = resolve(runDir, row.diffPath);
      // Belt and braces: never copy from outside the run folder, whatever the file says.
      if (!source.startsWith(runDir + sep) || !existsSync(source)) continue;
      const target = join(out, 'runs', entry.name, relative(runDir, source));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(source, target);
      copied += 1;
    }
  }
  return copied;
}

/** Removes Next's client-router payloads (`index.txt`, `__next.*.txt`) from an export; returns how many. */
export function dropRouterPayloads(dir: string): number {
  let removed = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/^(index|__next\..*)\.txt$/.test(entry.name)) continue;
    rmSync(join(entry.parentPath, entry.name));
    removed += 1;
  }
  return removed;
}
