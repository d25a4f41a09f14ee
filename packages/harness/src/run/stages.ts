import type { Stage } from './context.js';
import { kindStage } from './kind.js';
import { diskKind } from './kinds/disk.js';
import { ingestCellsKind } from './kinds/ingestCells.js';
import { knnStage } from './kinds/knn.js';
import { loadStage } from './kinds/load.js';
import { memoryKind } from './kinds/memory.js';
import { mixedKind } from './kinds/mixed.js';
import { readStage } from './kinds/read.js';
import { shrinkStage } from './kinds/shrink.js';
import { sweepKind } from './kinds/sweep.js';

/**
 * The run, in order. Each stage's place is deliberate: memory after the reads (the memory of an
 * engine that has served them) and before the disk row (whose force-merge allocates buffers
 * that are no part of serving); disk after the reads (merging cannot change what they
 * measured); kNN on its own index; sweeps after disk (same index the reads measured); mixed
 * after them (its writes re-index corpus documents by id, so _count stays the corpus); the
 * multi-client ingest cells on fresh indexes no read row sees; the shrinking of mismatches last,
 * when nothing is timed any more.
 */
export const STAGES: readonly Stage[] = [
  loadStage,
  readStage,
  kindStage(memoryKind),
  kindStage(diskKind),
  knnStage,
  kindStage(sweepKind),
  kindStage(mixedKind),
  kindStage(ingestCellsKind),
  shrinkStage,
];
