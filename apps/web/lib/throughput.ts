/**
 * Pure preparation of the throughput page: the ingest scaling curve (rows `ingest.1-client` and
 * `ingest.<n>-clients`, packages/harness/src/verdict/ingest*RowResult.ts) and the rate sweeps
 * with their capacity rows (`throughput.<family>`, group 'throughput', unit 'req/s').
 */
import type { RowResult, Scorecard, Sweep } from './definitions';
import type { ScalingDatum } from './latency-charts';

const INGEST_CLIENTS = /^ingest\.(\d+)-clients?$/;

export interface ScalingRow {
  clients: number;
  row: RowResult;
}

/** Ingest rows that measured a client count, fewest clients first. */
export function ingestScaling(scorecard: Scorecard): ScalingRow[] {
  return scorecard.rows
    .flatMap((row) => {
      const match = row.group === 'ingest' ? INGEST_CLIENTS.exec(row.id) : null;
      const clients = match ? Number(match[1]) : Number.NaN;
      return Number.isInteger(clients) && clients > 0 ? [{ clients, row }] : [];
    })
    .sort((a, b) => a.clients - b.clients);
}

/** Chart points: each engine's docs/s at each client count it measured. */
export function scalingData(rows: readonly ScalingRow[]): ScalingDatum[] {
  return rows.flatMap(({ clients, row }) =>
    (['Candidate', 'Baseline'] as const).flatMap((engine) => {
      const side = engine === 'Candidate' ? row.candidate : row.baseline;
      return side.supported && side.value !== undefined && side.value > 0
        ? [{ engine, clients, docsPerSec: side.value }]
        : [];
    }),
  );
}

export interface SweepView {
  sweep: Sweep;
  /** The capacity row the sweep scores, when the scorecard has it. */
  row?: RowResult;
}

export function sweepViews(scorecard: Scorecard): SweepView[] {
  return (scorecard.sweeps ?? []).map((sweep) => {
    const row = scorecard.rows.find((candidate) => candidate.id === sweep.rowId);
    return row ? { sweep, row } : { sweep };
  });
}

/**
 * An engine's capacity as far as the sweep can tell: the highest offered rate it sustained. When it
 * sustained the sweep's highest rate, its real capacity is at least that (a lower bound, not a
 * measurement); when it sustained none, it is below the lowest rate tried.
 */
export interface CapacityBound {
  kind: 'measured' | 'at-least' | 'below';
  value: number;
  text: string;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function capacityBound(
  sweep: Sweep,
  side: 'candidate' | 'baseline',
  value: number | undefined,
): CapacityBound | undefined {
  if (value === undefined || sweep.points.length === 0) return undefined;
  const rates = sweep.points.map((point) => point.offeredRate);
  const highest = Math.max(...rates);
  const lowest = Math.min(...rates);
  if (value <= 0) {
    return {
      kind: 'below',
      value: lowest,
      text: `below ${integer.format(lowest)} req/s (sustained none of the offered rates)`,
    };
  }
  if (value >= highest) {
    return {
      kind: 'at-least',
      value,
      text: `at least ${integer.format(value)} req/s (sustained the sweep's highest rate; its limit lies beyond)`,
    };
  }
  void side;
  return { kind: 'measured', value, text: `${integer.format(value)} req/s` };
}
