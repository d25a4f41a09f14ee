import { Eta } from '../../src/run/eta.js';
import type { PhaseKind } from '../../src/run/phases.js';
import { type PlanInput, planRun, startPhase } from '../../src/run/plan.js';
import type { Manifest } from '../../src/scorecard/schema.js';

/** A finished run as its card recorded it: the plan's inputs, its phases and how long it took. */
export interface RecordedRun {
  runId: string;
  durationMs: number;
  input: PlanInput;
  phases: NonNullable<Manifest['phases']>;
}

export interface EtaSample {
  /** Ms since the run's first phase began. */
  atMs: number;
  /** What the progress line said was left, and what was left, seconds. */
  estimate: number;
  truth: number;
}

/**
 * The run again, as the progress line saw it: the estimate is made when the load begins (the
 * bench draws its progress from then on), then told every phase at its recorded time; inside a
 * phase its units are taken to finish at an even pace. Sampled every `stepMs`.
 */
export function replayEta(run: RecordedRun, stepMs = 5000): EtaSample[] {
  const eta = new Eta(planRun(run.input), [startPhase(run.input)]);
  const [first, ...rest] = run.phases;
  if (!first) return [];
  eta.begin(first.kind as PhaseKind, first.label, first.units, first.startMs);
  const shownFrom = rest[0]?.startMs ?? first.startMs;
  const lastEnd = Math.max(...run.phases.map((p) => p.startMs + p.ms));
  const samples: EtaSample[] = [];
  let next = 0;
  for (let at = shownFrom; at <= lastEnd; at += stepMs) {
    while (next < rest.length && (rest[next]?.startMs ?? Number.POSITIVE_INFINITY) <= at) {
      const p = rest[next++] as (typeof rest)[number];
      const ended = next > 1 ? rest[next - 2] : first;
      if (ended?.forecast !== undefined) eta.forecast(ended.forecast, p.startMs);
      eta.end(p.startMs);
      eta.begin(p.kind as PhaseKind, p.label, p.units, p.startMs);
    }
    const open = next > 0 ? rest[next - 1] : first;
    if (open?.units && open.ms > 0) {
      const done = Math.floor((open.units * Math.min(open.ms, at - open.startMs)) / open.ms);
      eta.tick(done, at);
    }
    samples.push({ atMs: at, estimate: eta.remainingSeconds(at), truth: (run.durationMs - at) / 1000 });
  }
  return samples;
}
