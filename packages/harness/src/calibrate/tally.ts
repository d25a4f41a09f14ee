import type { RowResult, Scorecard, Verdict } from '../scorecard/schema.js';

/** Latency rows: the ones the A/A target and the power target speak about. */
const readRows = (card: Scorecard): RowResult[] => card.rows.filter((r) => r.unit === 'ms');

export interface AaTally {
  runId: string;
  status: Scorecard['status'];
  readRows: number;
  counts: Record<Verdict, number>;
  /** Every WIN or LOSE of an engine against itself is false: "id VERDICT (ratio, CI)". */
  falseVerdicts: string[];
  /** Read rows marked below resolution (TIE by rule, so not a test of the statistics). */
  belowResolution: number;
  remeasured: number;
}

const describe = (r: RowResult) =>
  `${r.id} ${r.verdict}${r.ratio === undefined ? '' : ` (${r.ratio}${r.ci ? ` [${r.ci[0]}, ${r.ci[1]}]` : ''})`}`;

/** A/A run (OpenSearch vs a second OpenSearch): false WIN/LOSE over its read rows. */
export function aaTally(card: Scorecard): AaTally {
  const rows = readRows(card);
  const counts: Record<Verdict, number> = { WIN: 0, LOSE: 0, TIE: 0, 'N/A': 0 };
  for (const r of rows) counts[r.verdict]++;
  return {
    runId: card.runId,
    status: card.status,
    readRows: rows.length,
    counts,
    falseVerdicts: rows.filter((r) => r.verdict === 'WIN' || r.verdict === 'LOSE').map(describe),
    belowResolution: rows.filter((r) => r.belowResolution).length,
    remeasured: rows.filter((r) => r.remeasured).length,
  };
}

export interface PowerTally {
  runId: string;
  status: Scorecard['status'];
  /** The injected slowdown as a fraction of each request's upstream time. */
  slowdown: number;
  /** Only rows whose unslowed (baseline) p50 is above this count toward power. */
  minP50Ms: number;
  /** Comparable rows above minP50Ms (N/A rows are counted apart: they decide nothing). */
  eligible: number;
  detected: number;
  /** detected / eligible, or null when nothing was eligible. */
  power: number | null;
  notComparable: number;
  /** Eligible rows not scored LOSE: "id VERDICT (ratio, CI)". */
  missed: string[];
}

/** A vs A' (A behind a delay proxy) as the candidate: the share of rows where the slowdown is a LOSE. */
export function powerTally(card: Scorecard, slowdown: number, minP50Ms = 1): PowerTally {
  const above = readRows(card).filter((r) => (r.baseline.p50 ?? 0) > minP50Ms);
  const eligible = above.filter((r) => r.verdict !== 'N/A');
  const detected = eligible.filter((r) => r.verdict === 'LOSE');
  return {
    runId: card.runId,
    status: card.status,
    slowdown,
    minP50Ms,
    eligible: eligible.length,
    detected: detected.length,
    power: eligible.length > 0 ? Math.round((detected.length / eligible.length) * 1000) / 1000 : null,
    notComparable: above.length - eligible.length,
    missed: eligible.filter((r) => r.verdict !== 'LOSE').map(describe),
  };
}
