import type { Coverage, Scorecard } from './schema.js';

export { comparable } from './comparable.js';

/**
 * Coverage of `card` against an earlier comparable run: it fell when more rows are N/A, or a
 * row the earlier run had is missing. The bench (exit 3) and the gate both use this one rule.
 */
export function coverageAgainst(card: Scorecard, previous: Scorecard): Coverage {
  const now = new Set(card.rows.map((r) => r.id));
  const na = card.rows.filter((r) => r.verdict === 'N/A').length;
  const previousNA = previous.rows.filter((r) => r.verdict === 'N/A').length;
  const missingRows = previous.rows.filter((r) => !now.has(r.id)).map((r) => r.id);
  return {
    previousRunId: previous.runId,
    previousNA,
    na,
    missingRows,
    fell: na > previousNA || missingRows.length > 0,
  };
}
