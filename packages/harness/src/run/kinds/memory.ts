import { measureSideMemory } from '../../measure/memory.js';
import type { MemorySideRaw } from '../../model/raw.js';
import type { Role } from '../../scorecard/schema.js';
import { MEMORY_ROW_META, memoryRowResult } from '../../verdict/memoryRowResult.js';
import type { RowKind } from '../kind.js';

/**
 * memory.rss: each engine's resident memory once the reads are done, so it is the memory of an
 * engine that has served them; before the disk row, whose force-merge allocates merge buffers
 * that are no part of serving.
 */
export const memoryKind: RowKind<'rss', Record<Role, MemorySideRaw>> = {
  name: 'memory',
  phase: 'memory',
  select: () => ['rss'],
  meta: () => MEMORY_ROW_META,
  measure: async (_plan, ctx) => ({
    candidate: await measureSideMemory(ctx.sides.candidate),
    baseline: await measureSideMemory(ctx.sides.baseline),
  }),
  judge: (raw, ctx) => memoryRowResult(raw, ctx.settings.singleMeasurementMargin),
};
