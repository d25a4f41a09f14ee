import { measureDisk } from '../../measure/disk.js';
import type { DiskSideRaw } from '../../model/raw.js';
import type { Role } from '../../scorecard/schema.js';
import { DISK_ROW_ID, diskRowResult } from '../../verdict/diskRowResult.js';
import type { RowKind } from '../kind.js';

/** disk.store: store size after refresh and a force-merge, after the reads so merging cannot change them. */
export const diskKind: RowKind<'store', Record<Role, DiskSideRaw>> = {
  name: 'disk',
  phase: 'disk',
  placement: 'load',
  select: () => ['store'],
  meta: (_plan, ctx) => ({
    id: DISK_ROW_ID,
    group: 'disk',
    family: 'store',
    title: `index store size of ${ctx.corpus.docs} docs after refresh and force-merge to 1 segment`,
    unit: 'bytes',
    betterIs: 'lower',
  }),
  measure: async (_plan, ctx, step) => {
    step('refresh, force-merge, _stats');
    return {
      candidate: await measureDisk(ctx.sides.candidate, ctx.index, ctx.settings.forceMergeTimeoutMs),
      baseline: await measureDisk(ctx.sides.baseline, ctx.index, ctx.settings.forceMergeTimeoutMs),
    };
  },
  judge: (raw, ctx) => diskRowResult(raw, ctx.corpus.docs, ctx.settings.singleMeasurementMargin),
};
