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
  await Promise.all([ctx.sides.candidate.pin(cpus), ctx.sides.baseline.pin(cpus)]);
}

export { planCpus };
