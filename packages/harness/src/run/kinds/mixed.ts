import type { Family } from '../../families/types.js';
import { measureMixedRow, mixedRowId } from '../../measure/mixed.js';
import type { MixedRowRaw } from '../../model/raw.js';
import { singleFork } from '../../model/settings.js';
import { mixedRowResult } from '../../verdict/mixedRowResult.js';
import type { RowKind } from '../kind.js';

/**
 * mixed.<family>: reads at the read rate while an open-loop writer re-indexes corpus documents
 * by id (so _count stays the corpus for every later check); scored on p99.
 */
export const mixedKind: RowKind<Family, MixedRowRaw> = {
  name: 'mixed',
  phase: 'mixed',
  placement: 'timed',
  select: (ctx) => ctx.mixedFamilies,
  meta: (family, ctx) => ({
    id: mixedRowId(family),
    group: 'mixed',
    family: family.family,
    title: `${family.title}, p99 under ${ctx.mixedWriteRate} docs/s of re-index writes`,
    unit: 'ms',
    betterIs: 'lower',
  }),
  measure: (family, ctx, step) =>
    measureMixedRow(
      family,
      ctx.sides,
      ctx.index,
      ctx.corpus,
      singleFork(ctx.settings),
      ctx.clock,
      { writeRate: ctx.mixedWriteRate },
      step,
    ),
  samples: (raw) => ({
    candidate: { timed: raw.candidate.timed, writes: raw.candidate.writes },
    baseline: { timed: raw.baseline.timed, writes: raw.baseline.writes },
  }),
  judge: (raw, ctx) => mixedRowResult(raw, singleFork(ctx.settings), ctx.floor),
};
