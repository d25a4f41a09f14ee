import type { PhaseKind, PhaseListener } from './phases.js';
import { type PlannedPhase, price } from './plan.js';

/**
 * How long the rest of a run will take: the plan's phases (plan.ts) at the speed this machine
 * does each kind of work. As phases finish, the run learns how much slower or faster than the
 * prior each kind's work is here, and a kind not yet seen takes the speed of its group. The
 * progress counter's "elapsed / done x left" could not do this: one prewarm or sweep step costs
 * as much as hundreds of read-row steps, and it weighs them alike.
 */

/**
 * Kinds of work that run on every CPU (starting and loading engines, merging) and kinds timed
 * with the engines on their own CPUs, where a busy machine costs more. A kind not yet seen takes
 * the speed of its group, then of the other group.
 */
const UNPINNED: readonly PhaseKind[] = [
  'start',
  'load',
  'restart',
  'disk',
  'ingestCells',
  'knn',
  'memory',
  'shrink',
];
const PINNED: readonly PhaseKind[] = ['prewarm', 'idle', 'floor', 'rows', 'cacheProbe', 'sweep', 'mixed'];
const FOLLOWS: Partial<Record<PhaseKind, readonly PhaseKind[]>> = {
  restart: ['start'],
  ingestCells: ['load'],
  cacheProbe: ['rows'],
  mixed: ['rows'],
};

interface Entry extends PlannedPhase {
  state: 'pending' | 'running' | 'done' | 'skipped';
  /** A fork past --forks as planned, before the read stage's forecasts resized it. */
  planned?: Pick<PlannedPhase, 'segments' | 'units'>;
}

interface Running {
  kind: PhaseKind;
  entry?: Entry;
  startMs: number;
  units?: number;
  done: number;
}

/** Finished phases of a kind its speed is taken from. */
const RECENT = 2;
const MIN_FACTOR = 0.1;
const MAX_FACTOR = 100;
const geomean = (xs: readonly number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);

/**
 * The factor f that makes the phases' price at f equal the seconds they took (the price grows
 * with f); undefined when their price does not depend on the machine (all schedule, no work).
 */
export function solveFactor(
  phases: readonly Pick<PlannedPhase, 'segments'>[],
  seconds: number,
): number | undefined {
  const at = (f: number) => phases.reduce((s, p) => s + price(p, f), 0);
  if (at(MAX_FACTOR) - at(MIN_FACTOR) < 1e-9) return undefined;
  if (at(MIN_FACTOR) >= seconds) return MIN_FACTOR;
  if (at(MAX_FACTOR) <= seconds) return MAX_FACTOR;
  let lo = MIN_FACTOR;
  let hi = MAX_FACTOR;
  for (let i = 0; i < 50; i++) {
    const mid = Math.sqrt(lo * hi);
    if (at(mid) < seconds) lo = mid;
    else hi = mid;
  }
  return Math.sqrt(lo * hi);
}

const scaled = (phase: Pick<PlannedPhase, 'segments'>, share: number): Pick<PlannedPhase, 'segments'> => ({
  segments: phase.segments.map((g) => ({ ...g, n: g.n * share })),
});

/** Follows a run's phases (as their listener) and says how long the rest will take. */
export class Eta implements PhaseListener {
  private readonly entries: Entry[];
  private current: Running | undefined;
  /** Recomputed on every phase event (between timed phases), so reading the estimate costs nothing. */
  private snapshot = { pending: 0, current: 0 };
  /** Each finished phase with a price, by kind: what it was planned as and the seconds it took. */
  private readonly finished = new Map<
    PhaseKind,
    { phase: Pick<PlannedPhase, 'segments'>; seconds: number }[]
  >();

  /** `offPlan`: phases that run before the plan is made (the start), learned when they end. */
  constructor(
    plan: readonly PlannedPhase[],
    private readonly offPlan: readonly PlannedPhase[] = [],
  ) {
    this.entries = plan.map((p) => ({ ...p, segments: p.segments.map((g) => ({ ...g })), state: 'pending' }));
  }

  begin(kind: PhaseKind, _label: string, units: number | undefined, atMs: number): void {
    this.start(kind, units, atMs);
    this.refresh(atMs);
  }

  private start(kind: PhaseKind, units: number | undefined, atMs: number): void {
    const k = this.entries.findIndex((e) => e.state === 'pending' && e.kind === kind);
    this.current = { kind, startMs: atMs, done: 0, ...(units === undefined ? {} : { units }) };
    if (k < 0) return;
    // Planned phases before this one that never began will not run (no more forks were needed).
    for (const e of this.entries.slice(0, k)) if (e.state === 'pending') e.state = 'skipped';
    const entry = this.entries[k] as Entry;
    entry.state = 'running';
    this.current.entry = entry;
    if (units === undefined || !entry.units || units === entry.units) return;
    if (kind !== 'prewarm' && kind !== 'rows') return;
    // A fork over fewer rows than planned (rows that cannot be measured drop out after the first
    // fork; later forks re-measure only the undecided): its prewarm and rows shrink with it.
    const share = units / entry.units;
    const resize = (e: Entry) => {
      e.segments = scaled(e, share).segments;
      if (e.units) e.units = Math.round(e.units * share);
    };
    resize(entry);
    if (kind === 'prewarm') {
      const rows = this.entries.slice(k + 1).find((e) => e.kind === 'rows' && e.state === 'pending');
      if (rows) resize(rows);
    }
  }

  /**
   * The read stage's count of rows still undecided: the first fork past --forks will re-measure
   * about that many, the next about half (the committed cards' share), none if none is left.
   */
  forecast(rows: number, atMs: number): void {
    const pending = this.entries.filter((e) => e.state === 'pending' && e.extraFork !== undefined);
    for (const e of pending) {
      e.planned ??= { segments: e.segments, ...(e.units === undefined ? {} : { units: e.units }) };
      const target = e.extraFork === 1 ? rows : Math.round(rows / 2);
      // The fork's prewarm and rows scale with its rows (its prewarm counts rows x engines); with
      // no row to re-measure, the fork does not happen at all.
      const rowsEntry = pending.find((r) => r.kind === 'rows' && r.extraFork === e.extraFork);
      const plannedRows = rowsEntry?.planned?.units ?? rowsEntry?.units;
      const share =
        target === 0 ? 0 : e.kind === 'prewarm' || e.kind === 'rows' ? target / (plannedRows ?? target) : 1;
      e.segments = scaled(e.planned, share).segments;
      if (e.planned.units !== undefined) e.units = Math.round(e.planned.units * share);
    }
    this.refresh(atMs);
  }

  tick(done: number, atMs: number): void {
    if (this.current) this.current.done = done;
    this.refresh(atMs);
  }

  end(atMs: number): void {
    const cur = this.current;
    this.current = undefined;
    if (!cur) return;
    const phase = cur.entry ?? this.offPlan.find((p) => p.kind === cur.kind);
    if (cur.entry) cur.entry.state = 'done';
    if (phase) {
      const list = this.finished.get(cur.kind) ?? [];
      list.push({ phase, seconds: (atMs - cur.startMs) / 1000 });
      this.finished.set(cur.kind, list);
    }
    this.refresh(atMs);
  }

  /** What these kinds' work cost against the prior, with the running phase's part once a few units are done. */
  private factorOf(kinds: readonly PhaseKind[], nowMs: number): number | undefined {
    // The latest phases of each kind: a shared machine's speed drifts over a run.
    const seen = kinds.flatMap((k) => (this.finished.get(k) ?? []).slice(-RECENT));
    const cur = this.current;
    if (cur?.entry && kinds.includes(cur.kind) && cur.units && cur.done >= 2 && cur.done / cur.units >= 0.05)
      seen.push({ phase: scaled(cur.entry, cur.done / cur.units), seconds: (nowMs - cur.startMs) / 1000 });
    if (seen.length === 0) return undefined;
    return solveFactor(
      seen.map((s) => s.phase),
      seen.reduce((t, s) => t + s.seconds, 0),
    );
  }

  /** How fast this machine does a kind's work: its own phases, the kinds it follows, its group's, the other group's, or the prior. */
  factor(kind: PhaseKind, nowMs: number): number {
    const own = this.factorOf([kind], nowMs) ?? this.factorOf(FOLLOWS[kind] ?? [], nowMs);
    if (own !== undefined) return own;
    const group = (kinds: readonly PhaseKind[]) => {
      const fs = kinds.flatMap((k) => this.factorOf([k], nowMs) ?? []);
      return fs.length > 0 ? geomean(fs) : undefined;
    };
    const [mine, other] = PINNED.includes(kind) ? [PINNED, UNPINNED] : [UNPINNED, PINNED];
    return group(mine) ?? group(other) ?? 1;
  }

  /** The plan's phases still to come, and the running one, at the speeds learned by `atMs`. */
  private refresh(atMs: number): void {
    const factors = new Map<PhaseKind, number>();
    const factor = (kind: PhaseKind) => {
      const known = factors.get(kind) ?? this.factor(kind, atMs);
      factors.set(kind, known);
      return known;
    };
    const cur = this.current;
    this.snapshot = {
      current: cur?.entry ? price(cur.entry, factor(cur.kind)) : 0,
      pending: this.entries.reduce((s, e) => s + (e.state === 'pending' ? price(e, factor(e.kind)) : 0), 0),
    };
  }

  /** Seconds left, at `nowMs` on the phase clock (phases.ts). */
  remainingSeconds(nowMs: number): number {
    const cur = this.current;
    const elapsed = cur ? (nowMs - cur.startMs) / 1000 : 0;
    // A phase past its price is taken to be a tenth of its price from its end.
    const current = Math.max(this.snapshot.current - elapsed, this.snapshot.current * 0.1);
    return this.snapshot.pending + current;
  }
}
