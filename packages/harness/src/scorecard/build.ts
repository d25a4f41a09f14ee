import {
  type Manifest,
  type RowResult,
  SCORECARD_SCHEMA_VERSION,
  type Scorecard,
  VERDICTS,
  type Verdict,
} from './schema.js';

export function countVerdicts(rows: readonly RowResult[]): Record<Verdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  for (const row of rows) counts[row.verdict]++;
  return counts;
}

/** Exit status of a run: 2 unless it completed, then 1 if anything lost, else 0. */
export function exitCodeFor(status: Scorecard['status'], counts: Record<Verdict, number>): 0 | 1 | 2 {
  if (status !== 'complete') return 2;
  return counts.LOSE > 0 ? 1 : 0;
}

export function buildScorecard(args: {
  runId: string;
  createdAt: Date;
  durationMs: number;
  status: Scorecard['status'];
  failure?: string;
  manifest: Manifest;
  rows: RowResult[];
}): Scorecard {
  const counts = countVerdicts(args.rows);
  const card: Scorecard = {
    schemaVersion: SCORECARD_SCHEMA_VERSION,
    runId: args.runId,
    createdAt: args.createdAt.toISOString(),
    status: args.status,
    durationMs: Math.round(args.durationMs),
    manifest: args.manifest,
    counts,
    rows: args.rows,
    exitCode: exitCodeFor(args.status, counts),
  };
  if (args.failure) card.failure = args.failure;
  return card;
}
