import type { RowResult, Scorecard, SideMeasurement, Waterfall } from './schema.js';

/** SCORECARD.md's latency waterfall: a share per row in the results, the parts in their own section. */

const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));

/**
 * The engine's share of an engine's p50, in percent. From a `took` (whole ms rounded down) it is
 * a lower bound, marked "≥".
 */
function engineShare(w: Waterfall | undefined): string {
  if (!w || w.engineMs === undefined || w.latencyMs <= 0) return '-';
  const share = Math.round((100 * w.engineMs) / w.latencyMs);
  return `${w.engineSource === 'took' ? '≥' : ''}${share}%`;
}

/** The results table's cell: the engine's share of the p50, candidate · baseline. */
export function waterfallCell(row: RowResult): string {
  const c = row.candidate.waterfall?.p50;
  const b = row.baseline.waterfall?.p50;
  if (!c && !b) return '-';
  return `${engineShare(c)} · ${engineShare(b)}`;
}

function partsRow(id: string, role: string, w: Waterfall): string {
  const source = w.engineSource === 'took' ? ' (took)' : '';
  return `| \`${id}\` | ${role} | ${ms(w.latencyMs)} | ${ms(w.floorMs)} | ${ms(w.queueMs)} | ${ms(w.engineMs)}${source} | ${ms(w.hopMs)} | ${ms(w.serviceMs)} | ${ms(w.restMs)} |`;
}

const sideP50 = (m: SideMeasurement) => m.waterfall?.p50;

/** "Where the p50 goes": each read row's p50 split into the harness, the queue, the engine and the plumbing. */
export function waterfallLines(card: Scorecard): string[] {
  const rows = card.rows.filter((r) => sideP50(r.candidate) || sideP50(r.baseline));
  if (rows.length === 0) return [];
  const lines = [
    '## Where the p50 goes',
    '',
    "Each engine's p50 split into parts, ms: the mean of each part over the requests ranked within 5 points of the median, so the parts add up to that band's mean latency. **Floor**: the harness's own round trip against a null server. **Queue**: how late the harness sent. **Engine**: the candidate's time inside its addon (its `Server-Timing` header) or the baseline's `took` (whole milliseconds rounded down, so a lower bound, and the rest holds the remainder). **napi hop**: the addon call beyond the engine (routing, conversions, any trip through the thread pool). **HTTP service**: the candidate's HTTP handler beyond the call. **Rest**: what is left, HTTP and JSON beyond the floor's round trip (below zero when an engine answers faster than the null server). The results' \"engine share\" column is Engine over the band's latency.",
    '',
    '| Row | Engine | p50 band | Floor | Queue | Engine | napi hop | HTTP service | Rest |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const c = sideP50(row.candidate);
    const b = sideP50(row.baseline);
    if (c) lines.push(partsRow(row.id, 'candidate', c));
    if (b) lines.push(partsRow(row.id, 'baseline', b));
  }
  lines.push('');
  return lines;
}
