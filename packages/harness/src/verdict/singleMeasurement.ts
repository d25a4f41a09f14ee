import type { Mismatch, RowResult, SideMeasurement, Verdict } from '../scorecard/schema.js';

/**
 * Verdict for a row measured once per engine (disk size, multi-client ingest): there is no
 * sample to resample, so no interval. Honest rule: WIN or LOSE only when the ratio is beyond a
 * stated margin (wider than the read rows' tie margin, since one measurement carries all the
 * run-to-run noise); anything inside it is a TIE.
 */
export function decideSingleMeasurement(input: {
  candidate: SideMeasurement;
  baseline: SideMeasurement;
  /** > 1 means the candidate is better. */
  ratio?: number;
  mismatch?: Mismatch;
  margin: number;
  /** Appended to the reason, e.g. which engine could not force-merge. */
  note?: string;
}): { verdict: Verdict; reason: string } {
  const { candidate: c, baseline: b, ratio, mismatch, margin } = input;
  const note = input.note ? `; ${input.note}` : '';
  if (!c.supported || !b.supported) {
    const parts = [];
    if (!c.supported) parts.push(`candidate: ${c.error ?? 'unsupported'}`);
    if (!b.supported) parts.push(`baseline: ${b.error ?? 'unsupported'}`);
    return { verdict: 'N/A', reason: `not comparable, ${parts.join('; ')}${note}` };
  }
  if (mismatch) return { verdict: 'N/A', reason: `results differ: ${mismatch.summary}${note}` };
  if (ratio === undefined || !Number.isFinite(ratio) || ratio <= 0)
    return { verdict: 'N/A', reason: `no ratio: a side has no value${note}` };
  const winAt = 1 + margin;
  const loseAt = 1 / winAt;
  const stated = `ratio ${ratio.toFixed(3)} from one measurement per engine (no interval)`;
  if (ratio >= winAt)
    return {
      verdict: 'WIN',
      reason: `${stated}: beyond the ${margin * 100}% margin (>= ${winAt.toFixed(3)})${note}`,
    };
  if (ratio <= loseAt)
    return {
      verdict: 'LOSE',
      reason: `${stated}: beyond the ${margin * 100}% margin (<= ${loseAt.toFixed(3)})${note}`,
    };
  return { verdict: 'TIE', reason: `${stated}: within the ${margin * 100}% margin${note}` };
}

/**
 * Sets `row`'s verdict and reason from its own sides, ratio and mismatch; a row left N/A keeps
 * no ratio. The last step of every single-measurement row (disk, memory, ingest cells).
 */
export function settleSingleMeasurement(row: RowResult, margin: number, note?: string): RowResult {
  const decision = decideSingleMeasurement({
    candidate: row.candidate,
    baseline: row.baseline,
    ratio: row.ratio,
    mismatch: row.mismatch,
    margin,
    note,
  });
  row.verdict = decision.verdict;
  row.reason = decision.reason;
  if (row.verdict === 'N/A') delete row.ratio;
  return row;
}
