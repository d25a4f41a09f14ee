/**
 * Links between the site's pages. Row ids contain dots ("query.term"), which Next's client router
 * takes for file extensions: it drops the trailing slash and fetches `/rows/query.term.txt`, which
 * a static export does not have. Every page link is therefore a plain <a> (a full load of static
 * HTML), so the base path is added here rather than by next/link.
 *
 * A comparable set (lib/sets.ts) is part of the URL: `/sets/<slug>/...` pages show only its runs.
 */
const basePath = process.env.EVERYCELL_BASE_PATH ?? '';

const seg = encodeURIComponent;

export function homeHref(): string {
  return `${basePath}/`;
}

export function setHref(set: string): string {
  return `${basePath}/sets/${seg(set)}/`;
}

export function setRunsHref(set: string): string {
  return `${setHref(set)}runs/`;
}

/** A chart of a set's newest run (`ratios.svg`, `scaling.narrow.svg`, `sweep-term.svg`). */
export function setChartHref(set: string, file: string): string {
  return `${setHref(set)}charts/${seg(file)}`;
}

export function setThroughputHref(set: string): string {
  return `${setHref(set)}throughput/`;
}

export function rowHref(set: string, rowId: string): string {
  return `${setHref(set)}rows/${seg(rowId)}/`;
}

/** A chart file of a row page (`trend.svg`, `trend.narrow.svg`). */
export function rowFileHref(set: string, rowId: string, file: string): string {
  return `${rowHref(set, rowId)}${seg(file)}`;
}

export function runsHref(): string {
  return `${basePath}/runs/`;
}

export function runHref(runId: string): string {
  return `${basePath}/runs/${seg(runId)}/`;
}

/** A file the site build writes beside a run's page (downloads, run.json) or the harness kept in its folder (a diff). */
export function runFileHref(runId: string, path: string): string {
  return `${runHref(runId)}${path.split('/').map(seg).join('/')}`;
}

/** Any two comparable runs, drawn in the browser from the two runs' run.json. */
export function compareAnyHref(before: string, after: string): string {
  return `${basePath}/compare/?a=${seg(before)}&b=${seg(after)}`;
}

export function compareIndexHref(): string {
  return `${basePath}/compare/`;
}

export function methodologyHref(): string {
  return `${basePath}/methodology/`;
}

export function throughputHref(): string {
  return `${basePath}/throughput/`;
}

/** A scaling line: the same options at every corpus size the runs have. */
export function lineHref(line: string): string {
  return `${basePath}/scaling/${seg(line)}/`;
}

/** The harness's row links (`/rows/<id>/`): a page that sends the reader to the row in its newest set. */
export function rowHomeHref(rowId: string): string {
  return `${basePath}/rows/${seg(rowId)}/`;
}

export function badgeHref(set?: string): string {
  return set === undefined ? `${basePath}/badge.svg` : `${setHref(set)}badge.svg`;
}
