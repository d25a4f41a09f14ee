import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import type { Placement } from '../scorecard/schema.js';
import { descendants, procFs } from './proc.js';

const run = promisify(execFile);

/**
 * Where the harness and the engines run. The open-loop client spins while a request is in flight
 * (load/clock.ts), so it needs a core of its own: sharing one with the engine it measures puts
 * the scheduler's time slices (milliseconds) into the latency tail and lets placement differ
 * between the two engines. The harness takes the last CPU, the engines (and the null server of
 * the floor) the others; during the loads every engine gets every CPU, as a server would.
 */
export interface CpuPlan {
  harness: number[];
  engines: number[];
  all: number[];
}

/** The split for `cores` CPUs, or undefined on a single CPU (nothing to separate). */
export function planCpus(cores: number = availableParallelism()): CpuPlan | undefined {
  if (cores < 2) return undefined;
  const all = Array.from({ length: cores }, (_, i) => i);
  return { harness: [cores - 1], engines: all.slice(0, cores - 1), all };
}

/** "0-2" or "0,3": a taskset CPU list. */
export const cpuList = (cpus: readonly number[]): string =>
  cpus.length > 1 && cpus.every((c, i) => i === 0 || c === (cpus[i - 1] as number) + 1)
    ? `${cpus[0]}-${cpus[cpus.length - 1]}`
    : cpus.join(',');

/** Pin every thread of `pid` and its descendants to `cpus` (taskset -a); threads started later inherit it. */
export async function pinTree(pid: number, cpus: readonly number[]): Promise<void> {
  for (const p of [pid, ...(await descendants(pid, procFs))]) {
    await run('taskset', ['-a', '-p', '-c', cpuList(cpus), String(p)]);
  }
}

/** The CPUs a process may run on now, as taskset prints them ("0,1" / "0-3"). */
export async function affinityOf(pid: number): Promise<string> {
  const { stdout } = await run('taskset', ['-c', '-p', String(pid)]);
  return stdout.trim().split(': ').pop() ?? '';
}

/** What the scorecard says about placement. */
export function describePlacement(plan: CpuPlan | undefined, remote: boolean): Placement {
  if (!plan) return { note: 'one CPU: the harness and the engines share it (not pinned)' };
  return {
    harnessCpus: cpuList(plan.harness),
    engineCpus: cpuList(plan.engines),
    note: remote
      ? `the harness on CPU ${cpuList(plan.harness)}; engines given by URL are not pinned by the harness`
      : `timed rows: the harness on CPU ${cpuList(plan.harness)}, the engines (one timed at a time) and the floor's null server on ${cpuList(plan.engines)}; loads: engines on every CPU`,
  };
}
