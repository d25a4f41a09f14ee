/** Tidying of Next's static export after it is written. */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** Marks a page's markup that needs React in the browser (the run page's shell, the compare picker). */
export const NEEDS_REACT = 'data-needs-react';

/** What a static page carries of React: the framework's scripts, their preloads and the RSC payload. */
const REACT_PARTS = [
  // Every script element: Next's chunks (src, async or noModule) and the inline RSC payload
  // (self.__next_f.push), which repeats the whole page's content a second time as data.
  /<script\b[^>]*>[\s\S]*?<\/script>/g,
  /<link\b[^>]*\bas="script"[^>]*\/?>/g,
];

/**
 * A static page without React: every page is plain HTML whose links are plain <a> (lib/routes.ts)
 * and whose only live part is the run table's controls, so hydrating it buys nothing but costs
 * its main thread: parsing ~450 KB of framework scripts and the RSC payload that repeats the
 * page (most of the home page's bytes). A page whose markup says it needs React (NEEDS_REACT) is
 * returned as it is. A page with table controls gets the one small script that wires them
 * (`enhanceSrc`, deferred: it never blocks the first paint).
 */
export function withoutReact(html: string, enhanceSrc: string): string {
  if (html.includes(NEEDS_REACT)) return html;
  const out = stripReact(html);
  if (out.includes('data-table-controls=') && !out.includes(enhanceSrc)) {
    return out.replace('</head>', `<script src="${enhanceSrc}" defer=""></script></head>`);
  }
  return out;
}

/** The page without Next's scripts, their preloads and the RSC payload. */
export function stripReact(html: string): string {
  let out = html;
  for (const pattern of REACT_PARTS) out = out.replace(pattern, '');
  return out;
}

/** Applies withoutReact to every page of an export; returns how many pages went static. */
export function dropReactFromStaticPages(dir: string, enhanceSrc: string): number {
  let stripped = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = join(entry.parentPath, entry.name);
    const html = readFileSync(file, 'utf8');
    const out = withoutReact(html, enhanceSrc);
    if (out === html) continue;
    writeFileSync(file, out);
    stripped += 1;
  }
  return stripped;
}
