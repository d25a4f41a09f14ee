/** Pure formatting of scorecard numbers for display. No data access, no React. */
import type { RowResult, SideMeasurement, Verdict } from './definitions';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Latency with precision that suits its size: 0.612 ms, 12.4 ms, 1,204 ms. */
export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(3)} ms`;
  if (ms < 100) return `${ms.toPrecision(3)} ms`;
  return `${integer.format(ms)} ms`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? integer.format(value) : value.toFixed(1)} ${units[unit]}`;
}

/** The compared value(s) of one side, as the table cell shows them. */
export function formatSide(row: Pick<RowResult, 'unit'>, side: SideMeasurement): string {
  if (!side.supported) return 'unsupported';
  if (row.unit === 'ms') {
    if (side.p50 === undefined) return 'no samples';
    const p99 = side.p99 === undefined ? '' : ` · p99 ${formatMs(side.p99)}`;
    return `p50 ${formatMs(side.p50)}${p99}`;
  }
  if (side.value === undefined) return 'no value';
  if (row.unit === 'docs/s') return `${integer.format(side.value)} docs/s`;
  if (row.unit === 'bytes') return formatBytes(side.value);
  if (row.unit === 'req/s') return `${integer.format(side.value)} req/s`;
  return `recall ${side.value.toFixed(3)}`;
}

/** Ratio normalised so > 1 means the candidate is better, e.g. "2.33×". */
export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '—';
  return `${ratio.toFixed(2)}×`;
}

export function formatCi(ci: readonly [number, number] | undefined): string {
  if (!ci) return '—';
  return `${ci[0].toFixed(2)}–${ci[1].toFixed(2)}`;
}

/** "21 Nov 2026, 02:09 UTC": the runs are stamped in UTC and the site says so. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
  const time = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: 'UTC',
  }).format(date);
  return `${day}, ${time} UTC`;
}

export function formatDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return minutes > 0 ? `${minutes} min ${seconds} s` : `${seconds} s`;
}

/** What each verdict means, for badges' accessible names and the legend. */
export const VERDICT_MEANING: Record<Verdict, string> = {
  WIN: 'candidate faster or better beyond the margin',
  LOSE: 'candidate slower or worse beyond the margin',
  TIE: 'difference within the margin',
  'N/A': 'not comparable: unsupported on one side or results differ',
};

/**
 * An engine's display name. The scorecard's `product` is the human name and usually already
 * carries the version ("OpenSearch 2.19.1"); append `version` only when it does not.
 */
export function engineName(engine: { product: string; version: string }): string {
  return engine.product.includes(engine.version) ? engine.product : `${engine.product} ${engine.version}`;
}

/**
 * An engine's product without its version or build notes ("everycell 0.1.0 (tantivy-0.27, ...)"
 * -> "everycell"), for the headline, where the version is said elsewhere.
 */
export function productName(engine: { product: string; version: string }): string {
  const at = engine.product.indexOf(engine.version);
  const name = (at > 0 ? engine.product.slice(0, at) : engine.product).replace(/\s*\(.*\)\s*$/, '').trim();
  return name === '' ? engine.product : name;
}
