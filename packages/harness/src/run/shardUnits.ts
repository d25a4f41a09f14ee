import { mixedRowId } from '../measure/mixed.js';
import { sweepRowId } from '../measure/sweep.js';
import { clientCounts } from '../model/settings.js';
import { DISK_ROW_ID } from '../verdict/diskRowResult.js';
import { ingestCellRowId } from '../verdict/ingestCellRowResult.js';
import { INGEST_ROW_ID } from '../verdict/ingestRowResult.js';
import { MEMORY_ROW_ID } from '../verdict/memoryRowResult.js';
import type { PhaseKind } from './phases.js';
import { type PlanSource, planInput, planRun, price } from './plan.js';
import {
  assignShards,
  KNN_UNIT,
  parseShard,
  type ShardPlan,
  type ShardUnit,
  shardSeconds,
  unitsOf,
} from './shard.js';

/**
 * The measurements of a whole run with these settings and rows, each priced from the run's plan
 * (plan.ts): a read row's open-loop schedule over every planned fork and round on each engine
 * (a breadth row runs a third of the requests), and each other kind's planned phase. The load
 * is in every shard, so its row is dealt at no cost.
 */
export function shardUnits(run: PlanSource): ShardUnit[] {
  const p = planInput(run);
  const phases = planRun(p);
  const priced = (kind: PhaseKind): number => {
    const phase = phases.find((x) => x.kind === kind);
    return phase ? price(phase) : 0;
  };
  const s = run.settings;
  const levels = s.forks * s.rounds;
  const perRoundFull = Math.ceil(s.iterations / levels);
  const perRoundBreadth = Math.ceil(Math.max(levels, Math.ceil(s.iterations / 3)) / levels);
  const readSeconds = (breadth: boolean) =>
    (levels * (s.warmup + (breadth ? perRoundBreadth : perRoundFull)) * p.engines) / s.rate;
  return [
    ...(clientCounts(s).includes(1) ? [{ id: INGEST_ROW_ID, seconds: 0 }] : []),
    ...run.families.map((f) => ({ id: f.id, seconds: readSeconds(f.breadth === true) })),
    { id: MEMORY_ROW_ID, seconds: priced('memory') },
    { id: DISK_ROW_ID, seconds: priced('disk') },
    ...(s.knn ? [{ id: KNN_UNIT, seconds: priced('knn') }] : []),
    ...run.sweepFamilies.map((f) => ({ id: sweepRowId(f), seconds: priced('sweep') })),
    ...run.mixedFamilies.map((f) => ({ id: mixedRowId(f), seconds: priced('mixed') })),
    ...clientCounts(s)
      .filter((n) => n > 1)
      .map((n) => ({ id: ingestCellRowId(n), seconds: priced('ingestCells') })),
  ];
}

/** This run's shard of the deal (settings.shard is "K/N", checked by the CLI). */
export function dealShard(run: PlanSource): ShardPlan & { seconds: number[] } {
  const spec = parseShard(run.settings.shard);
  if (typeof spec === 'string') throw new Error(spec);
  const units = shardUnits(run);
  const assignment = assignShards(units, spec.count);
  return { ...spec, assignment, seconds: shardSeconds(units, assignment, spec.count) };
}

/** One log line: what this shard measures and how the deal balanced the shards. */
export function shardLine(shard: ShardPlan & { seconds: number[] }): string {
  const mine = unitsOf(shard).length;
  const all = Object.keys(shard.assignment).length;
  const minutes = shard.seconds.map((s) => `${(s / 60).toFixed(1)}`).join(' / ');
  return `shard ${shard.index}/${shard.count}: ${mine} of the matrix's ${all} measurements (expected minutes per shard beyond the load: ${minutes})`;
}
