import type { RowMeta } from '../model/rowMeta.js';
import type { RowResult } from '../scorecard/schema.js';
import { writeSamples } from '../scorecard/write.js';
import type { RunContext, Stage } from './context.js';
import type { PhaseKind } from './phases.js';
import { placeEngines } from './placement.js';
import { ownsUnit } from './shard.js';

/**
 * A kind of row measured one row at a time: which rows the run has, what each is, how it is
 * measured (against the engines) and how it is judged (a pure function of what was measured).
 * kindStage turns it into a stage: each row is measured under the run's guard, its raw samples
 * written beside the scorecard, then judged.
 */
export interface RowKind<Plan, Raw> {
  readonly name: string;
  /** The phase its rows are timed as (phases.ts, eta.ts). */
  readonly phase: PhaseKind;
  select(ctx: RunContext): readonly Plan[];
  meta(plan: Plan, ctx: RunContext): RowMeta;
  measure(plan: Plan, ctx: RunContext, step: (what: string) => void): Promise<Raw>;
  judge(raw: Raw, ctx: RunContext): RowResult;
  /** The raw samples kept for the row (samples/<row>.json); absent: nothing to keep. */
  samples?(raw: Raw): unknown;
  /** Where the engines run while it measures (engines/placement.ts); absent: left as they are. */
  placement?: 'timed' | 'load';
}

export function kindStage<Plan, Raw>(kind: RowKind<Plan, Raw>): Stage {
  // A shard of a split run measures only the rows dealt to it (shard.ts).
  const select = (ctx: RunContext) =>
    kind.select(ctx).filter((plan) => ownsUnit(ctx.shard, kind.meta(plan, ctx).id));
  return {
    name: kind.name,
    steps: (ctx) => select(ctx).length,
    async run(ctx) {
      const plans = select(ctx);
      if (kind.placement && plans.length > 0) await placeEngines(ctx, kind.placement);
      for (const plan of plans) {
        const meta = kind.meta(plan, ctx);
        ctx.phases.begin(kind.phase, meta.id, 1);
        ctx.progress.step(kind.name, meta.id);
        const row = await ctx.guard.row(meta, async () => {
          const raw = await kind.measure(plan, ctx, (what) =>
            ctx.progress.step(kind.name, `${meta.id} ${what}`),
          );
          const samples = kind.samples?.(raw);
          if (samples !== undefined) await writeSamples(ctx.out, ctx.runId, meta.id, samples);
          return kind.judge(raw, ctx);
        });
        ctx.rows.push(row);
        ctx.progress.advance();
      }
    },
  };
}
