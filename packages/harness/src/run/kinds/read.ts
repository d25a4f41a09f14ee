import { cp, rm } from 'node:fs/promises';
import type { Family } from '../../families/types.js';
import { measureRunFloor } from '../../floor/measureFloor.js';
import { EngineFailure } from '../../load/errors.js';
import { type Side, whileFrozen } from '../../load/side.js';
import { probeCache } from '../../measure/cacheProbe.js';
import { waitIdle } from '../../measure/idle.js';
import { measurable, measureRounds, prewarm, probeReadRow, type RowSides } from '../../measure/readRow.js';
import type { ReadRowRaw } from '../../model/raw.js';
import { Rng } from '../../rng.js';
import type { Role, RowResult } from '../../scorecard/schema.js';
import { writeSamples } from '../../scorecard/write.js';
import { collapseSides, crashedRowResult } from '../../verdict/crashedRowResult.js';
import { readRowResult } from '../../verdict/readRowResult.js';
import { wantsMoreRounds } from '../../verdict/remeasure.js';
import type { RunContext, Stage } from '../context.js';
import { placeEngines } from '../placement.js';

/** One read row as the forks go by: what was measured, and any crash the guard recorded. */
interface RowState {
  family: Family;
  raw?: ReadRowRaw;
  crashed?: Partial<Record<Role, string>>;
}

/** The rows in a fork's order: shuffled per fork (seeded), so no row always follows the same one. */
function forkOrder<T>(items: readonly T[], seed: number, fork: number): T[] {
  const rng = Rng.derive(seed, 'fork-order', fork);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** (source, twin) pairs whose twin should serve a copy of the source's data. */
function twinPairs(ctx: RunContext): [Side, Side][] {
  const pairs: [Side, Side][] = [];
  if (ctx.base) pairs.push([ctx.sides.candidate, ctx.base]);
  if (ctx.settings.aa === 'candidate') pairs.push([ctx.sides.candidate, ctx.sides.baseline]);
  if (ctx.settings.aa === 'baseline') pairs.push([ctx.sides.baseline, ctx.sides.candidate]);
  return pairs.filter(([source, twin]) => source.engine.dataDir && twin.engine.dataDir);
}

/** Replace the twin's data folder with a copy of the source's, both stopped (the fork's restarts start them). */
async function copyData(source: Side, twin: Side, log: (line: string) => void): Promise<void> {
  const from = source.engine.dataDir as string;
  const to = twin.engine.dataDir as string;
  await source.pause();
  await twin.pause();
  await rm(to, { recursive: true, force: true });
  await cp(from, to, { recursive: true });
  log(`fork 1: the ${twin.role} serves a copy of the ${source.role}'s index (the same segments)`);
}

/** The engines the read rows are timed on: both sides, and the merge-base build if the gate runs one. */
const rowSides = (ctx: RunContext): RowSides => ({ ...ctx.sides, ...(ctx.base ? { base: ctx.base } : {}) });

const judge = (ctx: RunContext, state: RowState): RowResult | undefined => {
  if (!state.raw) return undefined;
  const row = readRowResult(state.raw, ctx.settings, ctx.floor, ctx.baseRevision);
  return state.crashed ? collapseSides(row, state.crashed) : row;
};

/**
 * A fork: a fresh process of each engine on the same data (except the first fork, whose
 * processes loaded it... and are restarted too, so every fork starts the same way), pinned,
 * prewarmed on the rows it will time, then left until both are idle.
 */
async function startFork(ctx: RunContext, fork: number, families: readonly Family[]): Promise<void> {
  const { progress } = ctx;
  const sides = rowSides(ctx);
  const engines = [sides.candidate, sides.baseline, ...(sides.base ? [sides.base] : [])];
  ctx.phases.begin('restart', `fork ${fork + 1}`, engines.length);
  // Twins (the merge-base build; an A/A twin) serve an exact copy of their source's index from the
  // first fork on: two loads of the same documents leave different segments, and a comparison of
  // two processes on different segments measures the segments, not the code.
  if (fork === 0)
    for (const [source, twin] of twinPairs(ctx))
      await ctx.guard.phase('fork 1 copy', () => copyData(source, twin, progress.log));
  for (const side of engines) {
    progress.step('fork', `${fork + 1}: restarting the ${side.role} on its data`);
    const loaded = side.role === 'base' || ctx.loaded[side.role];
    await ctx.guard.phase(`fork ${fork + 1} restart`, async () => {
      if (await side.fork(ctx.index, loaded ? ctx.corpus.docs : undefined))
        progress.log(`fork ${fork + 1}: ${side.role} restarted on its data (pid ${side.engine.pid})`);
    });
  }
  await placeEngines(ctx, 'timed');
  // Units: one row on one engine; the estimate learns the prewarm's pace from them.
  ctx.phases.begin('prewarm', `fork ${fork + 1}`, families.length * engines.length);
  let warmed = 0;
  await ctx.guard.phase(`fork ${fork + 1} prewarm`, () =>
    prewarm(families, sides, ctx.index, ctx.settings, fork, (role, family) => {
      ctx.phases.tick(warmed++);
      progress.step('prewarm', `fork ${fork + 1} ${role} ${family.id}`);
    }),
  );
  ctx.phases.begin('idle', `fork ${fork + 1}`);
  progress.step('fork', `${fork + 1}: waiting until the engines are idle`);
  const idle = await waitIdle(sides, ctx.clock);
  ctx.idle.push(idle);
  const cpu = Object.entries(idle.cpuMsPerSecond)
    .map(([role, ms]) => `${role} ${ms} ms/s`)
    .join(', ');
  if (idle.checked)
    progress.log(
      `fork ${fork + 1}: ${idle.quiet ? 'idle' : 'still busy'} after ${(idle.waitedMs / 1000).toFixed(1)} s (CPU ${cpu})`,
    );
}

/**
 * The read rows, measured in forks (Kalibera & Jones's levels: forks x rounds x requests). Each
 * fork restarts both engines, waits until they are idle, prewarms, and times every row still
 * being measured, in an order shuffled per fork; the first fork also probes each row (a 4xx is
 * N/A). After the planned forks, rows whose interval is not yet decisive get more forks, up to
 * --max-forks, whichever way they lean. Then each row is judged on all its forks, and its cache
 * probe runs in the last fork's processes. The harness's floor is measured once, in the first
 * fork, with both engines up, warm and idle.
 */
export const readStage: Stage = {
  name: 'read',
  steps: (ctx) => ctx.families.length * ctx.settings.forks,
  async run(ctx) {
    const { settings, progress } = ctx;
    const states = ctx.families.map((family): RowState => ({ family }));
    let live = states;
    for (let fork = 0; fork < settings.maxForks && live.length > 0; fork++) {
      if (fork >= settings.forks) {
        live = live.filter((s) => {
          const row = judge(ctx, s);
          return row !== undefined && !s.crashed && wantsMoreRounds(row, settings.tieMargin);
        });
        if (live.length === 0) break;
        progress.log(
          `fork ${fork + 1}: re-measuring ${live.length} undecided rows (${live.map((s) => s.family.id).join(', ')})`,
        );
      }
      await startFork(
        ctx,
        fork,
        live.map((s) => s.family),
      );
      if (fork === 0) {
        ctx.phases.begin('floor', 'harness floor');
        // Every engine frozen, as the idle ones are while a row is timed: the floor is the harness alone.
        ctx.floor = await whileFrozen(Object.values(rowSides(ctx)), () =>
          measureRunFloor(settings, progress.log, ctx.cpus?.engines),
        );
      }
      ctx.phases.begin('rows', `fork ${fork + 1}`, live.length);
      let timed = 0;
      for (const state of forkOrder(live, settings.seed, fork)) {
        const { family } = state;
        ctx.phases.tick(timed++);
        progress.step('read', `${family.id} fork ${fork + 1}`);
        const crash = await ctx.guard.attempt(`${family.id} (fork ${fork + 1})`, async () => {
          state.raw ??= await probeReadRow(family, rowSides(ctx), ctx.index, settings);
          if (!measurable(state.raw) || state.crashed) return;
          const { raw } = state;
          try {
            await measureRounds(
              raw,
              rowSides(ctx),
              ctx.index,
              settings,
              ctx.clock,
              { fork, rounds: settings.rounds },
              (what) => progress.step('read', `${family.id} ${what}`),
            );
          } catch (error) {
            // The merge-base build failing costs only the regression check of this row on.
            if (!(error instanceof EngineFailure && error.role === 'base' && raw.base)) throw error;
            raw.base.supported = false;
            raw.base.error = `the merge-base build failed: ${error.message}`;
            progress.log(
              `${family.id}: ${raw.base.error}; ${await ctx.base?.recover(ctx.index, ctx.corpus.docs)}`,
            );
          }
        });
        if (crash) state.crashed = { ...state.crashed, ...crash };
        if (fork < settings.forks) progress.advance();
      }
      // A row that crashed or cannot be measured is done.
      live = live.filter((s) => s.raw !== undefined && measurable(s.raw) && !s.crashed);
      // From the third fork on, the rows still undecided say how much the forks past --forks will
      // re-measure (for the time estimate; the decision itself is taken after the last fork).
      if (fork >= 2 && fork < settings.forks - 1)
        ctx.phases.forecast(
          live.filter((s) => {
            const row = judge(ctx, s);
            return row !== undefined && wantsMoreRounds(row, settings.tieMargin);
          }).length,
        );
    }
    ctx.phases.begin('cacheProbe', 'cache probes', states.length);
    for (const [k, state] of states.entries()) {
      ctx.phases.tick(k);
      const meta = {
        id: state.family.id,
        group: state.family.group,
        family: state.family.family,
        title: state.family.title,
        unit: 'ms',
        betterIs: 'lower',
      } as const;
      const { raw } = state;
      if (raw && measurable(raw) && !state.crashed) {
        const crash = await ctx.guard.attempt(`${meta.id} cache probe`, () =>
          probeCache(raw, ctx.sides, ctx.index, settings, ctx.clock),
        );
        if (crash) state.crashed = crash;
      }
      // No raw at all: an engine died before the row's probe in the first fork.
      const row = judge(ctx, state) ?? crashedRowResult(meta, state.crashed ?? {});
      if (raw) {
        const kept = (side: ReadRowRaw['candidate']) => ({
          timed: side.timed,
          warmup: side.warmup,
          repeated: side.repeated,
          cpu: side.cpu,
          idle: side.idle,
        });
        await writeSamples(ctx.out, ctx.runId, meta.id, {
          candidate: kept(raw.candidate),
          baseline: kept(raw.baseline),
        });
      }
      ctx.rows.push(row);
    }
  },
};
