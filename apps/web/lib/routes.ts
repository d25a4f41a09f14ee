/**
 * Links between the site's pages. Row ids contain dots ("query.term"), which Next's client router
 * takes for file extensions: it drops the trailing slash and fetches `/rows/query.term.txt`, which
 * a static export does not have. Every page link is therefore a plain <a> (a full load of static
 * HTML), so the base path is added here rather than by next/link.
 */
const basePath = process.env.EVERYCELL_BASE_PATH ?? '';

export function homeHref(): string {
  return `${basePath}/`;
}

export function rowHref(rowId: string): string {
  return `${basePath}/rows/${encodeURIComponent(rowId)}/`;
}

export function runsHref(): string {
  return `${basePath}/runs/`;
}

export function runHref(runId: string): string {
  return `${basePath}/runs/${encodeURIComponent(runId)}/`;
}

/** The pre-rendered comparison of run `after` against run `before` (its predecessor). */
export function compareHref(before: string, after: string): string {
  return `${basePath}/compare/${encodeURIComponent(before)}/${encodeURIComponent(after)}/`;
}

export function compareIndexHref(): string {
  return `${basePath}/compare/`;
}

export function methodologyHref(): string {
  return `${basePath}/methodology/`;
}

/** A file the harness kept in a run's folder (e.g. a diff), copied into the export by build-site. */
export function runFileHref(runId: string, path: string): string {
  return `${runHref(runId)}${path.split('/').map(encodeURIComponent).join('/')}`;
}

export function throughputHref(): string {
  return `${basePath}/throughput/`;
}
