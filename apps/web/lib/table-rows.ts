/**
 * The run table's rows, cut down to what the table and the compare page show (text already
 * formatted), so a run's run.json and the filterable table carry no latency distributions,
 * timelines or request bodies. Every label is derived here from the row and its run's settings:
 * the interval's level, the p99 beside the p50 the verdict used, why a TIE is a TIE. Pure.
 */
import type { Manifest, RowGroup, RowGroupSection, RowResult, Verdict } from './definitions';
import { formatCi, formatMs, formatRatio, formatSide } from './format';
import { isReadRow, ratioDefinition } from './headline';
import { intervalLevel, intervalName } from './interval';
import { lagLimit, type RowMarker, rowMarkers, TABLE_MARKERS } from './markers';
import { p99Ratio, type TailDisagreement, tailDisagreement, tailText, tieMarginOf } from './tails';
import { TIE_SHORT, tieExplanation } from './tie';

export interface TableRow {
  id: string;
  title: string;
  group: RowGroup;
  family: string;
  verdict: Verdict;
  ratio?: number;
  ratioText: string;
  ci?: [number, number];
  /** The interval's confidence (0.99); absent when the row has no interval. */
  level?: number;
  /** Degrees of freedom of the interval (forks - 1, rounds - 1); absent for a bootstrap. */
  df?: number;
  /** "99% CI 2.21–4.20", or "no interval". */
  ciText: string;
  /** "baseline p50 / candidate p50: above 1 the candidate is faster" */
  ratioMeaning: string;
  /** Baseline p99 / candidate p99, for rows the verdict judges on p50. */
  p99Ratio?: number;
  p99Text?: string;
  /** Where p50 and p99 point opposite ways (lib/tails.ts). */
  tail?: { kind: TailDisagreement; text: string };
  /** Why a TIE is a TIE (lib/tie.ts), in a sentence and in a few words. */
  tieWhy?: string;
  tieShort?: string;
  candidate: string;
  baseline: string;
  candidateError?: string;
  baselineError?: string;
  /** Engine CPU per request of each side and its ratio, when the run measured it. */
  cpu?: string;
  reason: string;
  markers: RowMarker[];
  mismatch?: { summary: string; candidate: string; baseline: string };
  /** A read row: the headline's geometric mean and the compare page's overall line average these. */
  read: boolean;
}

export interface TableSection {
  group: RowGroup;
  label: string;
  rows: TableRow[];
}

function cpuText(row: RowResult): string | undefined {
  const c = row.candidate.cpuMsPerRequest;
  const b = row.baseline.cpuMsPerRequest;
  if (c === undefined || b === undefined) return undefined;
  const ratio = row.cpuRatio === undefined ? '' : ` (${formatRatio(row.cpuRatio)})`;
  return `${formatMs(c)} vs ${formatMs(b)}${ratio}`;
}

/**
 * Degrees of freedom of a row's interval: a t interval over forks (forks - 1) or, measured in one
 * process, over rounds (rounds - 1) on cards with a measurement design; older cards and the fixed
 * 95% rows used a bootstrap.
 */
export function intervalDf(
  row: RowResult,
  manifest: Pick<Manifest, 'design'>,
  level: number | undefined,
): number | undefined {
  if (level === undefined || !manifest.design || row.id === 'ingest.1-client' || row.id === 'knn.recall')
    return undefined;
  if (row.forkRatios && row.forkRatios.length >= 2) return row.forkRatios.length - 1;
  if (row.roundRatios && row.roundRatios.length >= 2) return row.roundRatios.length - 1;
  return undefined;
}

export function tableRow(row: RowResult, manifest: Pick<Manifest, 'settings' | 'design'>): TableRow {
  const settings = manifest.settings;
  const level = intervalLevel(row, settings);
  const out: TableRow = {
    id: row.id,
    title: row.title,
    group: row.group,
    family: row.family,
    verdict: row.verdict,
    ratioText: formatRatio(row.ratio),
    ciText: row.ci ? `${intervalName(level)} ${formatCi(row.ci)}` : 'no interval',
    ratioMeaning: ratioDefinition(row),
    candidate: formatSide(row, row.candidate),
    baseline: formatSide(row, row.baseline),
    reason: row.reason,
    markers: rowMarkers(row, { maxSendLagP99Ms: lagLimit(settings) }).filter((marker) =>
      TABLE_MARKERS.includes(marker.kind),
    ),
    read: isReadRow(row),
  };
  if (row.ratio !== undefined) out.ratio = row.ratio;
  if (row.ci) out.ci = row.ci;
  if (level !== undefined) out.level = level;
  const df = intervalDf(row, manifest, level);
  if (df !== undefined) out.df = df;
  const p99 = p99Ratio(row);
  if (p99 !== undefined) {
    out.p99Ratio = p99;
    out.p99Text = formatRatio(p99);
    const tail = tailDisagreement(row, tieMarginOf(settings));
    if (tail) out.tail = { kind: tail, text: tailText(tail, p99) };
  }
  const tie = tieExplanation(row, settings);
  if (tie) {
    out.tieWhy = tie.text;
    out.tieShort =
      tie.kind === 'interval-reaches-one' && (row.ratio ?? 1) < 1
        ? 'interval reaches 1'
        : TIE_SHORT[tie.kind];
  }
  if (row.candidate.error) out.candidateError = row.candidate.error;
  if (row.baseline.error) out.baselineError = row.baseline.error;
  const cpu = cpuText(row);
  if (cpu) out.cpu = cpu;
  if (row.mismatch) {
    out.mismatch = {
      summary: row.mismatch.summary,
      candidate: JSON.stringify(row.mismatch.candidate, null, 2),
      baseline: JSON.stringify(row.mismatch.baseline, null, 2),
    };
  }
  return out;
}

export function tableSections(
  sections: readonly RowGroupSection[],
  manifest: Pick<Manifest, 'settings' | 'design'>,
): TableSection[] {
  return sections.map((section) => ({
    group: section.group,
    label: section.label,
    rows: section.rows.map((row) => tableRow(row, manifest)),
  }));
}
