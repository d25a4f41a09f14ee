import {
  type BaseOverall,
  type Coverage,
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

/**
 * Exit status of a run: 2 unless it completed, then 1 if anything lost, then 4 if a row regressed
 * against the merge-base build, then 3 if coverage fell against the previous comparable run,
 * else 0 (the gate's order: a failed run trumps a LOSE, a LOSE a regression, a regression lost
 * coverage).
 */
export function exitCodeFor(
  status: Scorecard['status'],
  counts: Record<Verdict, number>,
  coverage?: Coverage,
  regressed = false,
): Scorecard['exitCode'] {
  if (status !== 'complete') return 2;
  if (counts.LOSE > 0) return 1;
  if (regressed) return 4;
  return coverage?.fell ? 3 : 0;
}

/**
 * Whether the candidate regressed against the merge-base build enough to fail (waivers are the
 * gate's call): one row past the fail margin, or the rows' median CPU per request
 * (verdict/baseOverall.ts). Smaller single-row regressions are listed, not failed: the A/A runs
 * flag about one such row per run.
 */
export const regressedAgainstBase = (rows: readonly RowResult[], overall?: BaseOverall) =>
  overall?.verdict === 'REGRESSED' ||
  rows.some((r) => r.versusBase?.verdict === 'REGRESSED' && r.versusBase.blocking);

/** Attach the coverage comparison and settle the exit status again. */
export function setCoverage(card: Scorecard, coverage: Coverage): void {
  card.coverage = coverage;
  card.exitCode = exitCodeFor(
    card.status,
    card.counts,
    coverage,
    regressedAgainstBase(card.rows, card.versusBaseOverall),
  );
}

export function buildScorecard(args: {
  runId: string;
  createdAt: Date;
  durationMs: number;
  status: Scorecard['status'];
  failure?: string;
  manifest: Manifest;
  rows: RowResult[];
  versusBaseOverall?: BaseOverall;
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
    exitCode: exitCodeFor(
      args.status,
      counts,
      undefined,
      regressedAgainstBase(args.rows, args.versusBaseOverall),
    ),
  };
  if (args.versusBaseOverall) card.versusBaseOverall = args.versusBaseOverall;
  if (args.failure) card.failure = args.failure;
  return card;
}
