/**
 * Tails in view. A read row's verdict is decided on its p50 (median latency; read-under-write rows
 * on p99): the median is what a fork estimates well from a few hundred requests, so the interval
 * over forks is tight enough to judge ~90 rows at once. The p99 rides along without an interval,
 * and it can tell another story: a row can WIN on p50 while the candidate's slowest 1% is slower
 * than the baseline's. This module says where the two quantiles disagree. Pure.
 */
import type { RowResult } from './definitions';
import { scoredPercentile } from './headline';

/** Baseline p99 / candidate p99 (above 1: the candidate's tail is faster), for p50-scored latency rows. */
export function p99Ratio(
  row: Pick<RowResult, 'unit' | 'group' | 'candidate' | 'baseline' | 'verdict'>,
): number | undefined {
  // An N/A row's engines answered differently or not at all: no ratio of any quantile means anything.
  if (row.unit !== 'ms' || scoredPercentile(row) !== 'p50' || row.verdict === 'N/A') return undefined;
  const c = row.candidate.p99;
  const b = row.baseline.p99;
  if (!row.candidate.supported || !row.baseline.supported) return undefined;
  if (c === undefined || b === undefined || !(c > 0) || !(b > 0)) return undefined;
  return b / c;
}

export type TailDisagreement = 'p99-worse' | 'p99-better';

/**
 * Where p50 and p99 point opposite ways beyond the run's tie margin: a WIN whose candidate p99 is
 * slower than the baseline's by more than the margin ('p99-worse'), or a LOSE whose candidate p99
 * is faster by more than it ('p99-better'). The p99 has no interval, so the margin keeps a few
 * percent of noise from raising the flag.
 */
export function tailDisagreement(
  row: Pick<RowResult, 'unit' | 'group' | 'candidate' | 'baseline' | 'verdict'>,
  tieMargin: number,
): TailDisagreement | undefined {
  const ratio = p99Ratio(row);
  if (ratio === undefined) return undefined;
  if (row.verdict === 'WIN' && ratio < 1 / (1 + tieMargin)) return 'p99-worse';
  if (row.verdict === 'LOSE' && ratio > 1 + tieMargin) return 'p99-better';
  return undefined;
}

/** The disagreement in words, for the marker's title and the row page. */
export function tailText(kind: TailDisagreement, ratio: number): string {
  return kind === 'p99-worse'
    ? `wins on p50, but its p99 is slower: baseline p99 / candidate p99 = ${ratio.toFixed(2)}×`
    : `loses on p50, but its p99 is faster: baseline p99 / candidate p99 = ${ratio.toFixed(2)}×`;
}

/** The run's tie margin (the harness default when a card lacks the setting). */
export function tieMarginOf(settings: Record<string, unknown>): number {
  const value = settings.tieMargin;
  return typeof value === 'number' && value >= 0 ? value : 0.05;
}
