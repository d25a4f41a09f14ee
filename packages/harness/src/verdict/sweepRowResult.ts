import type { SweepRaw } from '../model/raw.js';
import type { RowResult, SideMeasurement, Sweep } from '../scorecard/schema.js';
import { ACHIEVED_SHARE, sustained } from '../stats/saturation.js';

export { sustained };

import { decideSingleMeasurement } from './singleMeasurement.js';

/**
 * The sweep as the scorecard records it, and its capacity row: each engine's value is the
 * highest offered rate it sustained (0 when none), from a ladder that runs past both engines'
 * closed-loop capacities; an engine that sustained the ladder's top is marked "at least". One
 * measurement per engine, so the verdict needs the ratio beyond the single-measurement margin.
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
    points: raw.points.map(({ offeredRate, requests, candidate, baseline }) => ({
      offeredRate,
      requests,
      candidate,
      baseline,
    })),
  };
  const best = (role: 'candidate' | 'baseline'): number => {
    let top = 0;
    for (const p of raw.points)
      if (!p[role].skipped && sustained(p[role], p.offeredRate, p.requests, p99BoundMs, maxFailure))
        top = Math.max(top, p.offeredRate);
    return top;
  };
  // The ladder's top rate sustained: the engine's capacity is beyond what was offered.
  const ladderTop = Math.max(0, ...raw.points.map((p) => p.offeredRate));
  const atLeast = {
    candidate: best('candidate') === ladderTop && ladderTop > 0,
    baseline: best('baseline') === ladderTop && ladderTop > 0,
  };
  sweep.highest = { candidate: best('candidate'), baseline: best('baseline') };
  sweep.atLeast = atLeast;
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
      reason: `highest sustained rate (p99 <= ${p99BoundMs} ms, >= ${ACHIEVED_SHARE * 100}% achieved): candidate ${atLeast.candidate ? 'at least ' : ''}${c}, baseline ${atLeast.baseline ? 'at least ' : ''}${b} req/s${atLeast.candidate || atLeast.baseline ? ' (at least: it sustained the top of the ladder, 1.5x the faster closed-loop capacity)' : ''}; ${d.reason}`,
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
