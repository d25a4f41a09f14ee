/**
 * The figures the capacity planner reads from a run (lib/planner.ts computes with them): each
 * sweep's points per engine, and the CPU per request of the read row the sweep sends.
 */
import { SWEEP_SOURCE_FAMILIES } from '@everycell/harness/sweepSources';
import type { Scorecard } from './definitions';
import { type Engine, type PlannerData, type PlannerSide, pointRequests } from './planner';

export function plannerData(scorecard: Scorecard): PlannerData | undefined {
  const sweeps = scorecard.sweeps ?? [];
  if (sweeps.length === 0) return undefined;
  const collapse = scorecard.manifest.settings.collapseErrorRate;
  return {
    cores: scorecard.manifest.machine.cores,
    cpuModel: scorecard.manifest.machine.cpuModel,
    runId: scorecard.runId,
    maxFailure: typeof collapse === 'number' ? collapse : 0.01,
    families: sweeps.map((sweep) => {
      const source = scorecard.rows.find(
        (row) => SWEEP_SOURCE_FAMILIES.includes(row.id) && row.family === sweep.family,
      );
      const side = (engine: Engine): PlannerSide => {
        const cpu = source?.[engine].supported ? source[engine].cpuMsPerRequest : undefined;
        return {
          ...(cpu === undefined ? {} : { cpuMsPerRequest: cpu }),
          points: sweep.points.map((p) => ({
            offeredRate: p.offeredRate,
            requests: pointRequests(p.offeredRate, p.requests),
            side: p[engine],
          })),
        };
      };
      return {
        family: sweep.family,
        ...(source ? { sourceRowId: source.id } : {}),
        candidate: side('candidate'),
        baseline: side('baseline'),
      };
    }),
  };
}
