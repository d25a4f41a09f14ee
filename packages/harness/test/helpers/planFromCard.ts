import { ALL_FAMILIES } from '../../src/families/index.js';
import { clientCounts, DEFAULT_SETTINGS, type RunSettings } from '../../src/model/settings.js';
import type { PlanInput } from '../../src/run/plan.js';
import type { Scorecard } from '../../src/scorecard/schema.js';

const READ = new Set(['query', 'metric', 'bucket', 'pipeline', 'feature']);

/** What the plan of a recorded run knew when it started, rebuilt from its card. */
export function planInputFromCard(card: Scorecard): PlanInput {
  const s = { ...DEFAULT_SETTINGS, ...card.manifest.settings } as RunSettings & Record<string, unknown>;
  const breadth = new Set(ALL_FAMILIES.filter((f) => f.breadth).map((f) => f.id));
  const read = card.rows.filter((r) => r.unit === 'ms' && READ.has(r.group));
  return {
    docs: card.manifest.corpus.docs,
    rate: s.rate,
    iterations: s.iterations,
    warmup: s.warmup,
    forks: s.forks,
    maxForks: s.maxForks,
    rounds: s.rounds,
    prewarm: s.prewarm,
    cacheProbe: s.cacheProbe,
    bulkSize: s.bulkSize,
    ingestWarmupBatches: s.ingestWarmupBatches,
    readRows: read.length,
    breadthRows: read.filter((r) => breadth.has(r.id)).length,
    engines: card.manifest.base ? 3 : 2,
    baselineNodes: card.manifest.baseline.topology?.nodes ?? 1,
    knn: s.knn === true,
    knnDocs: s.knnDocs,
    sweeps: card.rows.filter((r) => r.group === 'throughput').length,
    mixedRows: card.rows.filter((r) => r.group === 'mixed').length,
    ingestCells: clientCounts(s).filter((n) => n > 1),
    connections: s.connections,
  };
}
