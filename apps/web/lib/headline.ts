/**
 * What a reader should get in five seconds: how big the wins are (the geometric mean of the read
 * rows' ratios, as ClickBench summarises), which rows did not win, engine CPU per request where the
 * run measured it, and one definition of "ratio" in words for every unit. Pure; unit-tested.
 *
 * Summary formula (written next to the code, as ClickBench does): over the read rows that have a
 * ratio, geomean = exp(mean(ln ratio)), where each ratio is baseline p50 / candidate p50.
 */
import type { RowGroup, RowResult, Scorecard } from './definitions';
import { tieExplanation } from './tie';

/** The rows that time a search or aggregation request (ingest, mixed, kNN, sweeps, disk, memory are apart). */
export const READ_GROUPS: readonly RowGroup[] = ['query', 'metric', 'bucket', 'pipeline', 'feature'];

export function isReadRow(row: RowResult): boolean {
  return row.unit === 'ms' && READ_GROUPS.includes(row.group);
}

export function geometricMean(values: readonly number[]): number | undefined {
  const usable = values.filter((value) => value > 0 && Number.isFinite(value));
  if (usable.length === 0) return undefined;
  return Math.exp(usable.reduce((sum, value) => sum + Math.log(value), 0) / usable.length);
}

export interface NamedRow {
  id: string;
  title: string;
  ratio?: number;
  reason: string;
  /** For a TIE: why it is one, from its interval, margin or resolution (lib/tie.ts). */
  why?: string;
}

export interface Headline {
  /** Geometric mean of the read rows' ratios; absent when no read row has a ratio. */
  geomean?: number;
  /** Read rows with a ratio (the geomean's n). */
  readRows: number;
  /** Read rows whose ratio is 2 or more. */
  atLeastTwice: number;
  lose: NamedRow[];
  tie: NamedRow[];
  na: NamedRow[];
  cpu?: {
    /** Geometric mean of baseline CPU / candidate CPU per request over the read rows that measured it. */
    geomean: number;
    rows: number;
  };
}

function named(row: RowResult, settings: Scorecard['manifest']['settings']): NamedRow {
  const out: NamedRow = { id: row.id, title: row.title, reason: row.reason };
  if (row.ratio !== undefined) out.ratio = row.ratio;
  const why = tieExplanation(row, settings)?.text;
  if (why) out.why = why;
  return out;
}

export function headline(card: Pick<Scorecard, 'rows' | 'manifest'>): Headline {
  const settings = card.manifest.settings;
  const read = card.rows.filter(isReadRow);
  const ratios = read.flatMap((row) => (row.ratio === undefined ? [] : [row.ratio]));
  const cpuRatios = read.flatMap((row) => (row.cpuRatio === undefined ? [] : [row.cpuRatio]));
  const cpuMean = geometricMean(cpuRatios);
  const result: Headline = {
    readRows: ratios.length,
    atLeastTwice: ratios.filter((ratio) => ratio >= 2).length,
    lose: card.rows.filter((row) => row.verdict === 'LOSE').map((row) => named(row, settings)),
    tie: card.rows.filter((row) => row.verdict === 'TIE').map((row) => named(row, settings)),
    na: card.rows.filter((row) => row.verdict === 'N/A').map((row) => named(row, settings)),
  };
  const mean = geometricMean(ratios);
  if (mean !== undefined) result.geomean = mean;
  if (cpuMean !== undefined) result.cpu = { geomean: cpuMean, rows: cpuRatios.length };
  return result;
}

/** The general rule, for table captions and the footer. */
export const RATIO_RULE =
  'Ratio: the baseline’s cost over the candidate’s (time, CPU, bytes), or the candidate’s rate over the baseline’s (docs/s, req/s, recall). Above 1 the candidate is better, for every unit.';

/** Which latency a row is scored on: read-under-write rows are scored on p99, the rest on p50. */
export function scoredPercentile(row: Pick<RowResult, 'group'>): 'p50' | 'p99' {
  return row.group === 'mixed' ? 'p99' : 'p50';
}

/** The ratio of one row, defined in words: "baseline p50 / candidate p50: above 1 the candidate is faster". */
export function ratioDefinition(row: Pick<RowResult, 'unit' | 'group'>): string {
  switch (row.unit) {
    case 'ms': {
      const p = scoredPercentile(row);
      return `baseline ${p} / candidate ${p}: above 1 the candidate is faster`;
    }
    case 'docs/s':
      return 'candidate docs/s / baseline docs/s: above 1 the candidate ingests faster';
    case 'bytes':
      return row.group === 'memory'
        ? 'baseline bytes / candidate bytes: above 1 the candidate uses less memory'
        : 'baseline bytes / candidate bytes: above 1 the candidate uses less disk';
    case 'recall':
      return 'candidate recall / baseline recall: above 1 the candidate finds more of the true neighbours';
    case 'req/s':
      return 'candidate req/s / baseline req/s: above 1 the candidate sustains a higher rate';
  }
}

export const CPU_RATIO_DEFINITION =
  'baseline CPU ms per request / candidate CPU ms per request: above 1 the candidate uses less CPU';

export const GEOMEAN_DEFINITION =
  'geometric mean of baseline p50 / candidate p50 over the read rows (queries, aggregations, search features): above 1 the candidate is faster';

/**
 * The first line of a run's page: who wins and by how much, on the read rows' p50 geometric mean
 * ("everycell is 2.92× faster than OpenSearch 2.19.1"); without read rows, just the pairing.
 */
export function claim(candidate: string, baseline: string, geomean: number | undefined): string {
  if (geomean === undefined) return `${candidate} against ${baseline}`;
  if (geomean >= 1.005) return `${candidate} is ${geomean.toFixed(2)}× faster than ${baseline}`;
  if (geomean <= 1 / 1.005) return `${candidate} is ${(1 / geomean).toFixed(2)}× slower than ${baseline}`;
  return `${candidate} is as fast as ${baseline}`;
}
