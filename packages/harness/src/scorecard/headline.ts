import type { RowGroup, RowResult, Scorecard } from './schema.js';

/**
 * The headline figures of one card, computed from its rows alone. The read-row summary is the
 * site's (apps/web/lib/headline.ts): over the read rows with a ratio,
 * geomean = exp(mean(ln ratio)), each ratio being baseline p50 / candidate p50.
 */

/** The rows that time a search or aggregation request (ingest, mixed, kNN, sweeps, disk, memory are apart). */
export const READ_GROUPS: readonly RowGroup[] = ['query', 'metric', 'bucket', 'pipeline', 'feature'];

export const isReadRow = (row: RowResult): boolean => row.unit === 'ms' && READ_GROUPS.includes(row.group);

export function geometricMean(values: readonly number[]): number | undefined {
  const usable = values.filter((v) => v > 0 && Number.isFinite(v));
  if (usable.length === 0) return undefined;
  return Math.exp(usable.reduce((sum, v) => sum + Math.log(v), 0) / usable.length);
}

/** One row measured once per engine (ingest, disk, memory) or a kNN row: both values and the ratio. */
export interface PairFigure {
  id: string;
  candidate?: number;
  baseline?: number;
  ratio?: number;
  verdict: RowResult['verdict'];
}

export interface CardFigures {
  counts: Scorecard['counts'];
  read?: { rows: number; geomean: number; atLeastTwice: number };
  cpu?: { rows: number; geomean: number; lowest: { id: string; ratio: number } };
  /** `ingest.1-client`, `ingest.8-clients`, ... by client count. */
  ingest: (PairFigure & { clients: number })[];
  disk?: PairFigure;
  memory?: PairFigure;
  /** `throughput.*` (highest rate at the p99 bound) and `mixed.*` (p99 under writes): each row's ratio. */
  throughput: PairFigure[];
  mixed: PairFigure[];
  knnLatency?: PairFigure;
  knnRecall?: PairFigure;
  conformance?: { candidatePass: number; baselinePass: number };
  restSuite?: { candidatePass: number; baselinePass: number };
  /** The harness against a null server in the same run: what every latency includes. */
  floor?: { p50: number; p99: number; sendLagP99: number };
  /**
   * What the read rows' intervals could decide: rows with a ratio, those forced to a TIE because
   * both engines sat within twice the floor, and those scored on service time because the harness
   * fell behind its schedule on both sides.
   */
  resolution?: { rows: number; resolved: number; belowResolution: number; onServiceTime: number };
}

const clientsOf = (id: string): number => Number(/^ingest\.(\d+)-clients?$/.exec(id)?.[1] ?? Number.NaN);

function pair(row: RowResult | undefined, value: 'value' | 'p50' | 'p99'): PairFigure | undefined {
  if (!row) return undefined;
  const c = row.candidate.supported ? row.candidate[value] : undefined;
  const b = row.baseline.supported ? row.baseline[value] : undefined;
  return {
    id: row.id,
    verdict: row.verdict,
    ...(c === undefined ? {} : { candidate: c }),
    ...(b === undefined ? {} : { baseline: b }),
    ...(row.ratio === undefined ? {} : { ratio: row.ratio }),
  };
}

export function cardFigures(card: Scorecard): CardFigures {
  const byId = new Map(card.rows.map((r) => [r.id, r]));
  const read = card.rows.filter(isReadRow);
  const ratios = read.flatMap((r) => (r.ratio === undefined ? [] : [r.ratio]));
  const withCpu = read.filter((r) => r.cpuRatio !== undefined);
  const cpuMean = geometricMean(withCpu.map((r) => r.cpuRatio as number));
  const readMean = geometricMean(ratios);
  const lowest = [...withCpu].sort((a, b) => (a.cpuRatio as number) - (b.cpuRatio as number))[0];
  const out: CardFigures = {
    counts: card.counts,
    ingest: card.rows
      .filter((r) => r.group === 'ingest' && Number.isFinite(clientsOf(r.id)))
      .map((r) => ({ ...(pair(r, 'value') as PairFigure), clients: clientsOf(r.id) }))
      .sort((a, b) => a.clients - b.clients),
    throughput: card.rows.filter((r) => r.group === 'throughput').map((r) => pair(r, 'value') as PairFigure),
    mixed: card.rows.filter((r) => r.group === 'mixed').map((r) => pair(r, 'p99') as PairFigure),
  };
  if (readMean !== undefined)
    out.read = { rows: ratios.length, geomean: readMean, atLeastTwice: ratios.filter((r) => r >= 2).length };
  if (cpuMean !== undefined && lowest)
    out.cpu = {
      rows: withCpu.length,
      geomean: cpuMean,
      lowest: { id: lowest.id, ratio: lowest.cpuRatio as number },
    };
  const set = <K extends 'disk' | 'memory' | 'knnLatency' | 'knnRecall'>(key: K, figure?: PairFigure) => {
    if (figure) out[key] = figure;
  };
  set('disk', pair(byId.get('disk.store'), 'value'));
  set('memory', pair(byId.get('memory.rss'), 'value'));
  set('knnLatency', pair(byId.get('knn.latency'), 'p50'));
  set('knnRecall', pair(byId.get('knn.recall'), 'value'));
  if (card.floor) out.floor = { p50: card.floor.p50, p99: card.floor.p99, sendLagP99: card.floor.sendLagP99 };
  const scored = read.filter((r) => r.ratio !== undefined);
  if (scored.length > 0) {
    const maxLag = Number(card.manifest.settings.maxSendLagP99Ms);
    const lagging = (r: RowResult) =>
      Number.isFinite(maxLag) &&
      (r.candidate.sendLagP99 ?? 0) > maxLag &&
      (r.baseline.sendLagP99 ?? 0) > maxLag;
    const below = scored.filter((r) => r.belowResolution === true).length;
    out.resolution = {
      rows: scored.length,
      resolved: scored.length - below,
      belowResolution: below,
      onServiceTime: scored.filter(lagging).length,
    };
  }
  if (card.conformance)
    out.conformance = {
      candidatePass: card.conformance.candidatePass,
      baselinePass: card.conformance.baselinePass,
    };
  if (card.restSuite)
    out.restSuite = {
      candidatePass: card.restSuite.candidatePass,
      baselinePass: card.restSuite.baselinePass,
    };
  return out;
}
