/**
 * What a run spent its time on, phase by phase: recorded in the card's manifest (`phases`) and
 * fed to the run's time estimate (eta.ts) as it happens. A phase ends when the next one begins.
 */

/** Every kind of phase a run goes through, in the order a run meets them. */
export const PHASE_KINDS = [
  'start',
  'load',
  'restart',
  'prewarm',
  'idle',
  'floor',
  'rows',
  'cacheProbe',
  'memory',
  'disk',
  'knn',
  'sweep',
  'mixed',
  'ingestCells',
  'shrink',
] as const;
export type PhaseKind = (typeof PHASE_KINDS)[number];

export interface PhaseTiming {
  kind: PhaseKind;
  /** Which one: `fork 2`, a row id, a client count. */
  label: string;
  /** From the start of the first phase, ms. */
  startMs: number;
  ms: number;
  /** The phase's size in the estimate's units (rows, requests, engines); absent when it has none. */
  units?: number;
  /** Read rows the forks past --forks were expected to re-measure, as judged when this phase ended. */
  forecast?: number;
}

export interface PhaseListener {
  begin(kind: PhaseKind, label: string, units: number | undefined, atMs: number): void;
  /** `done` of the phase's units finished. */
  tick(done: number, atMs: number): void;
  end(atMs: number): void;
  /** How many read rows the forks past --forks will re-measure, as judged so far. */
  forecast?(rows: number, atMs: number): void;
}

export class PhaseLog {
  private readonly done: PhaseTiming[] = [];
  private open: Omit<PhaseTiming, 'ms'> | undefined;
  private readonly t0: number;
  private listener: PhaseListener | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.t0 = now();
  }

  /** From now on, tell `listener` every phase; the one running now is told first. */
  listen(listener: PhaseListener): void {
    this.listener = listener;
    const open = this.open;
    if (open) listener.begin(open.kind, open.label, open.units, open.startMs);
  }

  /** Ms since the first phase began: the clock every listener's times are on. */
  at(): number {
    return this.now() - this.t0;
  }

  begin(kind: PhaseKind, label: string, units?: number): void {
    this.end();
    const startMs = this.at();
    this.open = { kind, label, startMs, ...(units === undefined ? {} : { units }) };
    this.listener?.begin(kind, label, units, startMs);
  }

  tick(done: number): void {
    if (this.open) this.listener?.tick(done, this.at());
  }

  /** The read rows still undecided, recorded on the running phase and told to the listener. */
  forecast(rows: number): void {
    if (this.open) this.open.forecast = rows;
    this.listener?.forecast?.(rows, this.at());
  }

  end(): void {
    if (!this.open) return;
    const atMs = this.at();
    this.done.push({ ...this.open, ms: Math.round(atMs - this.open.startMs) });
    this.open = undefined;
    this.listener?.end(atMs);
  }

  /** The finished phases, rounded to whole ms for the manifest. */
  list(): PhaseTiming[] {
    return this.done.map((p) => ({ ...p, startMs: Math.round(p.startMs) }));
  }
}
