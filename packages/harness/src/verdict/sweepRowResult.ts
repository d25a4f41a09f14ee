import type { SweepRaw } from '../model/raw.js';
import type { RowResult, SideMeasurement, Sweep, SweepSide } from '../scorecard/schema.js';
import { ACHIEVED_SHARE } from '../stats/saturation.js';
import { decideSingleMeasurement } from './singleMeasurement.js';

/**
 * Did an engine sustain an offered rate: it answered at least 95% of it, at most
 * `maxFailure` of the requests failed or were dropped, and its p99 stayed within the bound.
 */
export function sustained(
  side: SweepSide,
  offered: number,
  requests: number,
  p99BoundMs: number,
  maxFailure: number,
): boolean {
  const bad = (side.errors + side.dropped) / Math.max(1, requests);
  return (
    side.achievedRate >= ACHIEVED_SHARE * offered &&
    bad <= maxFailure &&
    Number.isFinite(side.p99) &&
    side.p99 <= p99BoundMs
  );
}

/**
 * The sweep as the scorecard records it, and its capacity row: each engine's value is the
 * highest offered rate it sustained (0 when none); one measurement per engine, so the verdict
 * needs the ratio beyond the single-measurement margin. The offered rates stop at 90% of the
 * slower engine's closed-loop capacity, so the row separates the engines only below that; the
 * closed-loop capacities are in the sweep for the rest.
 */
export function sweepRowResult(
  raw: SweepRaw,
  p99BoundMs: number,
  margin: number,
  maxFailure: number,
): { sweep: Sweep; row: RowResult } {
  const f = raw.family;
  const rowId = `throughput.${f.family}`;
  const sweep: Sweep = {
    family: f.family,
    rowId,
    p99BoundMs,
    closedLoopCapacity: { candidate: raw.capacity.candidate, baseline: raw.capacity.baseline },
    points: raw.points.map(({ offeredRate, candidate, baseline }) => ({ offeredRate, candidate, baseline })),
  };
  const best = (role: 'candidate' | 'baseline'): number => {
    let top = 0;
    for (const p of raw.points)
      if (sustained(p[role], p.offeredRate, p.requests, p99BoundMs, maxFailure))
        top = Math.max(top, p.offeredRate);
    return top;
  };
  const side = (role: 'candidate' | 'baseline'): SideMeasurement => {
    const s = raw.supported[role];
    const m: SideMeasurement = { supported: s.ok, samples: raw.points.length, errors: 0 };
    if (s.error) m.error = s.error;
    if (s.ok) m.value = best(role);
    return m;
  };
  const candidate = side('candidate');
  const baseline = side('baseline');
  const c = candidate.value ?? 0;
  const b = baseline.value ?? 0;
  const ratio = c > 0 && b > 0 ? Math.round((c / b) * 1000) / 1000 : undefined;
  const skipped = raw.skipped.length > 0 ? `; not run: ${raw.skipped.join(', ')}` : '';
  const capacities = `closed-loop capacity ${raw.capacity.candidate} / ${raw.capacity.baseline} req/s`;
  let decision: { verdict: RowResult['verdict']; reason: string };
  if (candidate.supported && baseline.supported && raw.points.length > 0 && (c === 0 || b === 0)) {
    // Sustaining no rate at all is the clearest result there is: it decides the row by itself.
    decision =
      c === b
        ? { verdict: 'N/A', reason: `neither engine sustained any offered rate with p99 <= ${p99BoundMs} ms` }
        : c === 0
          ? {
              verdict: 'LOSE',
              reason: `the candidate sustained no offered rate with p99 <= ${p99BoundMs} ms; the baseline ${b} req/s`,
            }
          : {
              verdict: 'WIN',
              reason: `the baseline sustained no offered rate with p99 <= ${p99BoundMs} ms; the candidate ${c} req/s`,
            };
  } else if (candidate.supported && baseline.supported && raw.points.length === 0) {
    decision = {
      verdict: 'N/A',
      reason:
        'no offered rate could be run: the slower capacity is too low for the minimum requests per point in the time bound',
    };
  } else if (!candidate.supported || !baseline.supported) {
    decision = decideSingleMeasurement({ candidate, baseline, ratio, margin });
  } else {
    const d = decideSingleMeasurement({ candidate, baseline, ratio, margin });
    decision = {
      verdict: d.verdict,
      reason: `highest sustained rate (p99 <= ${p99BoundMs} ms, >= ${ACHIEVED_SHARE * 100}% achieved): candidate ${c}, baseline ${b} req/s; ${d.reason}`,
    };
  }
  const row: RowResult = {
    id: rowId,
    group: 'throughput',
    family: f.family,
    title: `${f.title}: highest offered rate sustained with p99 <= ${p99BoundMs} ms`,
    unit: 'req/s',
    betterIs: 'higher',
    candidate,
    baseline,
    verdict: decision.verdict,
    reason:
      candidate.supported && baseline.supported
        ? `${decision.reason}; ${capacities}${skipped}`
        : decision.reason,
  };
  if (ratio !== undefined && decision.verdict !== 'N/A') row.ratio = ratio;
  return { sweep, row };
}
