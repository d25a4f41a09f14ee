import type { Coverage, Scorecard } from './schema.js';

/**
 * Same corpus, same size, same row selection, same baseline product: only then is a missing row or
 * extra N/A a coverage loss (an Elasticsearch run and an OpenSearch run are different comparisons).
 */
export function comparable(a: Scorecard, b: Scorecard): boolean {
  const ca = a.manifest.corpus;
  const cb = b.manifest.corpus;
  return (
    a.manifest.baseline.product === b.manifest.baseline.product &&
    ca.name === cb.name &&
    ca.docs === cb.docs &&
    String(a.manifest.settings?.families ?? '*') === String(b.manifest.settings?.families ?? '*')
  );
}

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
