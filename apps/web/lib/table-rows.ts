/**
 * The run table's rows, cut down to what the table shows (text already formatted), so the
 * filterable client table carries no latency distributions, timelines or request bodies into
 * the page's data. Pure.
 */
import type { RowGroup, RowGroupSection, RowResult, Verdict } from './definitions';
import { formatCi, formatMs, formatRatio, formatSide } from './format';
import { ratioDefinition } from './headline';
import { type RowMarker, rowMarkers, TABLE_MARKERS } from './markers';

export interface TableRow {
  id: string;
  title: string;
  group: RowGroup;
  family: string;
  verdict: Verdict;
  ratio?: number;
  ratioText: string;
  ciText: string;
  /** "baseline p50 / candidate p50: above 1 the candidate is faster" */
  ratioMeaning: string;
  candidate: string;
  baseline: string;
  candidateError?: string;
  baselineError?: string;
  /** Engine CPU per request of each side and its ratio, when the run measured it. */
  cpu?: string;
  reason: string;
  markers: RowMarker[];
  mismatch?: { summary: string; candidate: string; baseline: string };
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

export function tableRow(row: RowResult): TableRow {
  const out: TableRow = {
    id: row.id,
    title: row.title,
    group: row.group,
    family: row.family,
    verdict: row.verdict,
    ratioText: formatRatio(row.ratio),
    ciText: formatCi(row.ci),
    ratioMeaning: ratioDefinition(row),
    candidate: formatSide(row, row.candidate),
    baseline: formatSide(row, row.baseline),
    reason: row.reason,
    markers: rowMarkers(row).filter((marker) => TABLE_MARKERS.includes(marker.kind)),
  };
  if (row.ratio !== undefined) out.ratio = row.ratio;
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

export function tableSections(sections: readonly RowGroupSection[]): TableSection[] {
  return sections.map((section) => ({
    group: section.group,
    label: section.label,
    rows: section.rows.map(tableRow),
  }));
}
