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

/** Marks a page's markup that needs React in the browser (the run page's shell). */
export const NEEDS_REACT = 'data-needs-react';

/** Marks the compare page's markup, which its own small script draws (scripts/compare-entry.tsx). */
export const COMPARE_APP = 'data-compare-app';

/** Marks the throughput page's capacity planner, which its own small script makes live (scripts/planner-entry.tsx). */
export const PLANNER_APP = 'data-planner-app';

/** The small scripts a static page may load, by what its markup holds. */
export interface PageScripts {
  /** The run tables' controls (scripts/enhance-entry.ts). */
  enhance: string;
  /** The compare picker and view, on Preact (scripts/compare-entry.tsx). */
  compare: string;
  /** The capacity planner, on Preact (scripts/planner-entry.tsx); absent: no page gets it. */
  planner?: string;
}

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
 * returned as it is. A page with table controls gets the one small script that wires them, the
 * compare page the one that draws its picker and comparisons (both deferred: they never block the
 * first paint).
 */
export function withoutReact(html: string, scripts: PageScripts): string {
  if (html.includes(NEEDS_REACT)) return html;
  let out = stripReact(html);
  const wanted = [
    ...(out.includes('data-table-controls=') ? [scripts.enhance] : []),
    ...(out.includes(`${COMPARE_APP}=`) ? [scripts.compare] : []),
    ...(scripts.planner && out.includes(`${PLANNER_APP}=`) ? [scripts.planner] : []),
  ];
  for (const src of wanted) {
    if (!out.includes(src)) out = out.replace('</head>', `<script src="${src}" defer=""></script></head>`);
  }
  if (out.includes(`${COMPARE_APP}=`) && !out.includes(COMPARE_PAIR_SCRIPT))
    out = out.replace('</head>', `<script>${COMPARE_PAIR_SCRIPT}</script></head>`);
  return out;
}

/**
 * Before the first paint of /compare/?a=..&b=..: marks the page as showing a pair, so CSS hides
 * the index and keeps the screen's height for the comparison (globals.css). Without it the index
 * painted first and the comparison then replaced it, moving everything below (layout shift).
 */
export const COMPARE_PAIR_SCRIPT =
  "if(/[?&]a=/.test(location.search)&&/[?&]b=/.test(location.search))document.documentElement.setAttribute('data-compare-pair','')";

/** The page without Next's scripts, their preloads and the RSC payload. */
export function stripReact(html: string): string {
  let out = html;
  for (const pattern of REACT_PARTS) out = out.replace(pattern, '');
  return out;
}

/** Applies withoutReact to every page of an export; returns how many pages went static. */
export function dropReactFromStaticPages(dir: string, scripts: PageScripts): number {
  let stripped = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = join(entry.parentPath, entry.name);
    const html = readFileSync(file, 'utf8');
    const out = withoutReact(html, scripts);
    if (out === html) continue;
    writeFileSync(file, out);
    stripped += 1;
  }
  return stripped;
}
