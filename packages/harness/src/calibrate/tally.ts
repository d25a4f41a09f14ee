import type { RowResult, Scorecard, Verdict } from '../scorecard/schema.js';

/** Latency rows: the ones the A/A target and the power target speak about. */
const readRows = (card: Scorecard): RowResult[] => card.rows.filter((r) => r.unit === 'ms');

/** Engine CPU per request called a difference: its whole interval beyond 1, its ratio beyond the margin. */
export function cpuVerdict(row: RowResult, tieMargin: number): 'WIN' | 'LOSE' | 'TIE' | undefined {
  if (row.cpuRatio === undefined || row.cpuCi === undefined) return undefined;
  if (row.cpuCi[0] > 1 && row.cpuRatio >= 1 + tieMargin) return 'WIN';
  if (row.cpuCi[1] < 1 && row.cpuRatio <= 1 / (1 + tieMargin)) return 'LOSE';
  return 'TIE';
}

export interface AaTally {
  runId: string;
  /** Which engine ran against a second process of itself. */
  engine: 'baseline' | 'candidate';
  status: Scorecard['status'];
  readRows: number;
  counts: Record<Verdict, number>;
  /** Every WIN or LOSE of an engine against itself is false: "id VERDICT (ratio, CI)". */
  falseVerdicts: string[];
  /** The same for engine CPU per request (rows where both engines' CPU was read). */
  cpuRows: number;
  falseCpuVerdicts: string[];
  /** Read rows marked below resolution (TIE by rule, so not a test of the statistics). */
  belowResolution: number;
  remeasured: number;
  /** The load's `ingest.1-client` row ("id VERDICT (ratio, CI)"): a WIN or LOSE is false too. */
  ingest?: { row: string; false: boolean };
}

const describe = (r: RowResult) =>
  `${r.id} ${r.verdict}${r.ratio === undefined ? '' : ` (${r.ratio}${r.ci ? ` [${r.ci[0]}, ${r.ci[1]}]` : ''})`}`;
const describeCpu = (r: RowResult, v: string) =>
  `${r.id} ${v} (CPU ${r.cpuRatio}${r.cpuCi ? ` [${r.cpuCi[0]}, ${r.cpuCi[1]}]` : ''})`;

/** A/A run (an engine against a second process of itself): false WIN/LOSE over its read rows. */
export function aaTally(card: Scorecard): AaTally {
  const rows = readRows(card);
  const margin = Number(card.manifest.settings.tieMargin ?? 0.05);
  const counts: Record<Verdict, number> = { WIN: 0, LOSE: 0, TIE: 0, 'N/A': 0 };
  for (const r of rows) counts[r.verdict]++;
  const cpu = rows.map((r) => [r, cpuVerdict(r, margin)] as const).filter(([, v]) => v !== undefined);
  return {
    runId: card.runId,
    engine: card.manifest.settings.aa === 'candidate' ? 'candidate' : 'baseline',
    status: card.status,
    readRows: rows.length,
    counts,
    falseVerdicts: rows.filter((r) => r.verdict === 'WIN' || r.verdict === 'LOSE').map(describe),
    cpuRows: cpu.length,
    falseCpuVerdicts: cpu.filter(([, v]) => v !== 'TIE').map(([r, v]) => describeCpu(r, v as string)),
    belowResolution: rows.filter((r) => r.belowResolution).length,
    remeasured: rows.filter((r) => r.remeasured).length,
    ...ingestOf(card),
  };
}

function ingestOf(card: Scorecard): Pick<AaTally, 'ingest'> {
  const row = card.rows.find((r) => r.id === 'ingest.1-client');
  if (!row || row.verdict === 'N/A') return {};
  return { ingest: { row: describe(row), false: row.verdict === 'WIN' || row.verdict === 'LOSE' } };
}

export interface PowerTally {
  runId: string;
  status: Scorecard['status'];
  /** The injected slowdown: extra CPU work as a fraction of each request's CPU cost. */
  slowdown: number;
  /** Latency power counts only rows whose unslowed (baseline) p50 is at least this. */
  minP50Ms: number;
  latency: { eligible: number; detected: number; power: number | null; missed: string[] };
  cpu: { eligible: number; detected: number; power: number | null; missed: string[] };
  notComparable: number;
}

const share = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 1000) / 1000 : null);

/**
 * The candidate against a second candidate process whose service adds `slowdown` of each search's
 * time as extra CPU work: the share of rows where that is found as a LOSE, by latency (rows with
 * p50 >= minP50Ms) and by engine CPU per request (every comparable row).
 */
export function powerTally(card: Scorecard, slowdown: number, minP50Ms = 1): PowerTally {
  const rows = readRows(card);
  const margin = Number(card.manifest.settings.tieMargin ?? 0.05);
  const comparable = rows.filter((r) => r.verdict !== 'N/A');
  const slowEnough = comparable.filter((r) => (r.baseline.p50 ?? 0) >= minP50Ms);
  const latencyFound = slowEnough.filter((r) => r.verdict === 'LOSE');
  const cpuRows = comparable.filter((r) => cpuVerdict(r, margin) !== undefined);
  const cpuFound = cpuRows.filter((r) => cpuVerdict(r, margin) === 'LOSE');
  return {
    runId: card.runId,
    status: card.status,
    slowdown,
    minP50Ms,
    latency: {
      eligible: slowEnough.length,
      detected: latencyFound.length,
      power: share(latencyFound.length, slowEnough.length),
      missed: slowEnough.filter((r) => r.verdict !== 'LOSE').map(describe),
    },
    cpu: {
      eligible: cpuRows.length,
      detected: cpuFound.length,
      power: share(cpuFound.length, cpuRows.length),
      missed: cpuRows
        .filter((r) => cpuVerdict(r, margin) !== 'LOSE')
        .map((r) => describeCpu(r, cpuVerdict(r, margin) as string)),
    },
    notComparable: rows.length - comparable.length,
  };
}
