import { planCpus } from '../engines/placement.js';
import type { RunContext } from './context.js';

/**
 * Engines on the engine CPUs while anything is timed, on every CPU while they load (see
 * engines/placement.ts). Engines restart (forks, recovery) as children of the pinned harness,
 * so every stage pins again rather than trusting an earlier call. Engines given by URL are
 * not touched.
 */
export async function placeEngines(ctx: RunContext, mode: 'timed' | 'load'): Promise<void> {
  const plan = ctx.cpus;
  if (!plan) return;
  const cpus = mode === 'timed' ? plan.engines : plan.all;
  // The merge-base build too: left alone it inherits the harness's own CPU (it starts as the
  // pinned harness's child), and an A/A against the same build then read 7.5% less CPU per
  // request and 7% more latency on it than on the candidate (median over 85 rows).
  const sides = [ctx.sides.candidate, ctx.sides.baseline, ...(ctx.base ? [ctx.base] : [])];
  await Promise.all(sides.map((side) => side.pin(cpus)));
}

export { planCpus };
