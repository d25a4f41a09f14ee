import type { Family } from '../../families/types.js';
import { DEFAULT_SWEEP, measureSweep, sweepRowId } from '../../measure/sweep.js';
import type { SweepRaw } from '../../model/raw.js';
import { sweepRowResult } from '../../verdict/sweepRowResult.js';
import type { RowKind } from '../kind.js';

/**
 * throughput.<family>: latency at target throughput (closed-loop capacity, then open loop at
 * shares of it); the row scores the highest offered rate each engine sustains under the p99 bound.
 * After the disk row, so its numbers are of the index the read rows measured.
 */
export const sweepKind: RowKind<Family, SweepRaw> = {
  name: 'sweep',
  phase: 'sweep',
  placement: 'timed',
  select: (ctx) => ctx.sweepFamilies,
  meta: (family, ctx) => ({
    id: sweepRowId(family),
    group: 'throughput',
    family: family.family,
    title: `${family.title}: highest offered rate sustained with p99 <= ${ctx.sweepP99Ms} ms`,
    unit: 'req/s',
    betterIs: 'higher',
  }),
  measure: (family, ctx, step) =>
    measureSweep(
      family,
      ctx.sides,
      ctx.index,
      ctx.settings,
      ctx.clock,
      { ...DEFAULT_SWEEP, p99BoundMs: ctx.sweepP99Ms },
      step,
    ),
  judge: (raw, ctx) => {
    const { sweep, row } = sweepRowResult(
      raw,
      ctx.sweepP99Ms,
      ctx.settings.singleMeasurementMargin,
      ctx.settings.collapseErrorRate,
    );
    ctx.sweeps.push(sweep);
    return row;
  },
};
