import { measureRunFloor } from '../../floor/measureFloor.js';
import { prewarm } from '../../measure/readRow.js';
import { writeSamples } from '../../scorecard/write.js';
import { measureReadRowAdaptive } from '../adaptiveReadRow.js';
import type { RunContext, Stage } from '../context.js';

/** Before any read row is timed: every selected family warmed on both engines (JIT, caches). */
export const prewarmStage: Stage = {
  name: 'prewarm',
  steps: () => 1,
  async run(ctx) {
    await ctx.guard.phase('prewarm', () =>
      prewarm(ctx.families, ctx.sides, ctx.index, ctx.settings, ctx.clock, (role, family) =>
        ctx.progress.step('prewarm', `${role} ${family.id}`),
      ),
    );
    ctx.progress.advance();
  },
};

/**
 * The harness against a null server, right before the read rows, with both engines up, warm and
 * idle: the floor under every latency row (rows within 2x of it on both sides are TIE).
 */
export const floorStage: Stage = {
  name: 'floor',
  steps: () => 0,
  async run(ctx) {
    const floor = await measureRunFloor(ctx.settings, ctx.progress.log);
    if (floor) ctx.floor = floor;
  },
};

const roundSteps = (ctx: RunContext) => ctx.settings.rounds * 2;

/** The read rows: one per selected family, each measured in paired rounds until decisive (adaptiveReadRow.ts). */
export const readStage: Stage = {
  name: 'read',
  steps: (ctx) => ctx.families.length * roundSteps(ctx),
  async run(ctx) {
    const { settings } = ctx;
    for (const family of ctx.families) {
      ctx.progress.step('read', family.id);
      let phases = 0;
      const { id, group, title } = family;
      const meta = { id, group, family: family.family, title, unit: 'ms', betterIs: 'lower' } as const;
      const row = await ctx.guard.row(meta, async () => {
        const { raw, row } = await measureReadRowAdaptive(family, ctx.sides, ctx.index, settings, ctx.clock, {
          ...(ctx.floor ? { floor: ctx.floor } : {}),
          onProgress: (what) => {
            // Called as each engine-round starts, so the one before it has just finished;
            // re-measured rounds are beyond the bar's total and do not advance it.
            if (phases++ > 0 && phases <= roundSteps(ctx)) ctx.progress.advance();
            ctx.progress.step('read', `${family.id} ${what}`);
          },
        });
        const kept = (side: typeof raw.candidate) => ({
          timed: side.timed,
          warmup: side.warmup,
          repeated: side.repeated,
        });
        await writeSamples(ctx.out, ctx.runId, family.id, {
          candidate: kept(raw.candidate),
          baseline: kept(raw.baseline),
        });
        return row;
      });
      // An unsupported (or crashed) row skips its rounds; count them done either way.
      for (let i = Math.max(Math.min(phases, roundSteps(ctx)), 1); i <= roundSteps(ctx); i++)
        ctx.progress.advance();
      ctx.rows.push(row);
    }
  },
};
