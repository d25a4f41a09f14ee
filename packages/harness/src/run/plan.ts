import { sweepRates } from '../measure/sweep.js';
import { clientCounts } from '../model/settings.js';
import type { RunContext } from './context.js';
import type { PhaseKind } from './phases.js';

/**
 * The price of a run, phase by phase, from its settings: rows x forks x rounds at the rate,
 * prewarm requests, ingest, sweep ladders, read-under-write rounds, engine restarts. A price has
 * two parts: time the schedule fixes (an open-loop phase of n requests lasts n / rate) and work
 * whose time depends on the machine (engines serving, loading, starting), which eta.ts learns as
 * the run goes.
 */

/** What the plan needs to know about a run. */
export interface PlanInput {
  docs: number;
  rate: number;
  iterations: number;
  warmup: number;
  forks: number;
  maxForks: number;
  rounds: number;
  prewarm: number;
  cacheProbe: number;
  bulkSize: number;
  ingestWarmupBatches: number;
  /** Read rows, and how many of them are breadth rows (a third of the requests, half the prewarm). */
  readRows: number;
  breadthRows: number;
  /** Engines timed on the read rows: 2, or 3 with the merge-base build. */
  engines: number;
  /** Nodes of the baseline OpenSearch (--baseline-nodes). */
  baselineNodes: number;
  knn: boolean;
  knnDocs: number;
  sweeps: number;
  mixedRows: number;
  /** Client counts of the ingest cells (those above 1). */
  ingestCells: readonly number[];
  /** Requests in flight per engine before the open loop drops (--connections). */
  connections: number;
}

/**
 * `n` like parts of a phase. A part of work lasts `work` x the kind's speed factor (1 at prior
 * prices), or `schedule` if that is longer. An open-loop part (`requests` set) lasts its
 * schedule, plus the backlog an engine too slow for the rate is left with when the schedule
 * ends (at most `inFlight` requests: the harness drops the rest, it never queues them).
 */
export interface Segment {
  n: number;
  schedule: number;
  work: number;
  requests?: number;
  inFlight?: number;
}

export interface PlannedPhase {
  kind: PhaseKind;
  segments: Segment[];
  /** The phase's size as the run reports it (phases.ts): rows, or rows x engines for a prewarm. */
  units?: number;
  /** For the forks past --forks: 1 for the first of them, 2 for the next. */
  extraFork?: number;
}

/** Seconds of a phase when its work runs `factor` times its prior time. */
export const price = (phase: Pick<PlannedPhase, 'segments'>, factor = 1): number =>
  phase.segments.reduce((s, g) => s + g.n * segmentSeconds(g, factor), 0);

function segmentSeconds(g: Segment, factor: number): number {
  if (g.requests === undefined || g.requests <= 0 || g.work <= 0)
    return Math.max(g.schedule, g.work * factor);
  const perRequest = (g.work * factor) / g.requests;
  const backlog = Math.max(0, g.requests - g.schedule / perRequest);
  return g.schedule + Math.min(backlog, g.inFlight ?? Number.POSITIVE_INFINITY) * perRequest;
}

const work = (seconds: number): Segment[] => [{ n: 1, schedule: 0, work: seconds }];

/**
 * Prior prices, seconds, from the committed cards of the 2-core project machine (their durations
 * at 100k, 1M and 10M). Only the first phases rest on them: from then on the run uses what each
 * kind of work costs on the machine it runs on.
 */
export const PRIOR = {
  /** Engine time per read request, by corpus size: a + b x millions of documents. */
  candidateRequest: { a: 0.0004, b: 0.0005 },
  baselineRequest: { a: 0.0015, b: 0.0025 },
  /** Bulk ingest, documents per second, one client. */
  candidateIngest: 80_000,
  baselineIngest: 40_000,
  /** An engine (re)started on its data: a + b x millions of documents. */
  candidateStart: { a: 1.5, b: 0.2 },
  baselineStart: { a: 12, b: 2 },
  /** Building the corpus's bulk bodies, per document. */
  corpusPerDoc: 0.000004,
  /** A fork's idle wait: at least 1.5 s quiet, in 0.5 s windows. */
  idle: 3,
  /** Around every timed phase of a row: the engines' CPU read over their threads, the last responses. */
  phaseOverhead: 0.03,
  /** Per row and engine in the prewarm and cache-probe loops (bodies built, samples written). */
  rowOverhead: 0.02,
  /** The cache probe's one request repeated, against a varied read request. */
  repeatedRequest: 0.5,
  /**
   * Share of the read rows each fork beyond --forks re-measures: 20-25%, then 7-17% on the quiet
   * machine's 100k cards, 5% and 2% on a busy one; the read stage's forecast replaces it (eta.ts).
   */
  extraForkShare: [0.15, 0.08],
  /** A sweep's closed-loop capacity (2 x (1 + 3) s), and the gap between its points. */
  sweepCapacity: 8,
  sweepPointOverhead: 0.2,
  /** Each read-under-write round and engine: the writer's last bulks after the reads. */
  mixedOverhead: 0.2,
  /** Force-merge and _stats of both engines, per million documents. */
  diskPerMillion: 15,
  /** kNN (vectors, exact neighbours, load with OpenSearch's graph build, recall, rounds), per thousand vectors. */
  knnPerThousand: 1.5,
} as const;

const perMillion = (p: { a: number; b: number }, docs: number) => p.a + (p.b * docs) / 1e6;

/** `n` open-loop phases of `requests` on one engine, and the harness's work around each (a read row's CPU readings). */
const openLoop = (n: number, requests: number, p: PlanInput, perRequest: number, overhead = 0): Segment[] => [
  { n, schedule: requests / p.rate, work: requests * perRequest, requests, inFlight: p.connections },
  ...(overhead > 0 ? [{ n, schedule: 0, work: overhead }] : []),
];

/** What planInput reads of a run: its settings, corpus size, selected rows and engines. */
export type PlanSource = Pick<RunContext, 'settings' | 'families' | 'mixedFamilies' | 'sweepFamilies'> & {
  corpus: { docs: number };
  base?: unknown;
};

/** The plan's view of a run about to start its stages. */
export function planInput(ctx: PlanSource): PlanInput {
  const s = ctx.settings;
  return {
    docs: ctx.corpus.docs,
    rate: s.rate,
    iterations: s.iterations,
    warmup: s.warmup,
    forks: s.forks,
    maxForks: s.maxForks,
    rounds: s.rounds,
    prewarm: s.prewarm,
    cacheProbe: s.cacheProbe,
    bulkSize: s.bulkSize,
    ingestWarmupBatches: s.ingestWarmupBatches,
    readRows: ctx.families.length,
    breadthRows: ctx.families.filter((f) => f.breadth).length,
    engines: ctx.base ? 3 : 2,
    baselineNodes: s.baselineNodes,
    knn: s.knn,
    knnDocs: s.knnDocs,
    sweeps: ctx.sweepFamilies.length,
    mixedRows: ctx.mixedFamilies.length,
    ingestCells: clientCounts(s).filter((n) => n > 1),
    connections: s.connections,
  };
}

/**
 * A sweep (measure/sweep.ts): each engine's capacity taken as one request at a time on its core;
 * the faster engine runs every rate of the ladder, the slower one up to its knee and two more; a
 * point lasts its requests (3 s of them, at least 200, at most 6,000), or the engine's work.
 */
export function sweepSegments(slowerPerRequest: number, fasterPerRequest: number, inFlight = 64): Segment[] {
  const slowerCapacity = 1 / slowerPerRequest;
  const rates = sweepRates(slowerCapacity, 1 / fasterPerRequest);
  const point = (rate: number, perRequest: number): Segment => {
    const requests = Math.min(6000, Math.max(200, rate * 3));
    return {
      n: 1,
      schedule: requests / rate + PRIOR.sweepPointOverhead,
      work: requests * perRequest,
      requests,
      inFlight,
    };
  };
  const knee = rates.findIndex((r) => r > slowerCapacity);
  const slower = knee < 0 ? rates : rates.slice(0, knee + 2);
  return [
    { n: 1, schedule: PRIOR.sweepCapacity, work: 0 },
    ...rates.map((r) => point(r, fasterPerRequest)),
    ...slower.map((r) => point(r, slowerPerRequest)),
  ];
}

/** Per-request engine time of each engine timed on the read rows: candidate, baseline, base build. */
function requestCosts(p: PlanInput): number[] {
  // A baseline cluster coordinates every request and runs its JVMs on the same cores.
  const nodes = Math.max(1, p.baselineNodes);
  const candidate = perMillion(PRIOR.candidateRequest, p.docs);
  const baseline = perMillion(PRIOR.baselineRequest, p.docs) * (1 + 0.5 * (nodes - 1));
  return [candidate, baseline, ...(p.engines > 2 ? [candidate] : [])];
}

/** Starting every engine on its data: the run's start, and each fork's restart. */
function startEngines(p: Pick<PlanInput, 'docs' | 'engines' | 'baselineNodes'>): number {
  return (
    perMillion(PRIOR.candidateStart, p.docs) * (p.engines - 1) +
    perMillion(PRIOR.baselineStart, p.docs) * Math.max(1, p.baselineNodes)
  );
}

/** The run's first phase (corpus and engines), which ends before the plan is shown. */
export function startPhase(p: Pick<PlanInput, 'docs' | 'engines' | 'baselineNodes'>): PlannedPhase {
  return { kind: 'start', segments: work(p.docs * PRIOR.corpusPerDoc + startEngines(p)) };
}

/** The phases of a run in the order the stages run them (stages.ts), each priced. */
export function planRun(p: PlanInput): PlannedPhase[] {
  const request = requestCosts(p);
  const [candidate = 0, baseline = 0] = request;
  const levels = p.forks * p.rounds;
  const perRoundFull = Math.ceil(p.iterations / levels);
  const perRoundBreadth = Math.ceil(Math.max(levels, Math.ceil(p.iterations / 3)) / levels);
  const full = p.readRows - p.breadthRows;
  const ingestDocs = p.docs + p.ingestWarmupBatches * p.bulkSize;
  const ingestOnce = p.docs / PRIOR.candidateIngest + p.docs / PRIOR.baselineIngest;

  // A fork over a share of the read rows (forks past --forks re-measure the undecided ones).
  const fork = (share: number, first: boolean, extraFork?: number): PlannedPhase[] => {
    const rows = Math.max(1, Math.round(p.readRows * share));
    const prewarmRequests = full * p.prewarm + p.breadthRows * Math.ceil(p.prewarm / 2);
    const prewarm = request.reduce((s, r) => s + prewarmRequests * r, 0) * share;
    const rowSegments = (count: number, perRound: number) =>
      request.flatMap((r) =>
        openLoop(count * share * p.rounds, p.warmup + perRound, p, r, PRIOR.phaseOverhead),
      );
    const floor = (Math.min(200, Math.max(50, p.prewarm)) + Math.min(1000, p.iterations)) / p.rate;
    const phases: PlannedPhase[] = [
      { kind: 'restart', segments: work(startEngines(p)), units: p.engines },
      {
        kind: 'prewarm',
        segments: work(prewarm + rows * p.engines * PRIOR.rowOverhead),
        units: rows * p.engines,
      },
      { kind: 'idle', segments: work(PRIOR.idle) },
      // The floor: a null server started, then its requests on the schedule.
      ...(first
        ? [{ kind: 'floor' as const, segments: [...work(1), { n: 1, schedule: floor, work: 0 }] }]
        : []),
      {
        kind: 'rows',
        segments: [
          ...rowSegments(full, perRoundFull),
          ...rowSegments(p.breadthRows, perRoundBreadth),
          // The first fork probes each row once on each engine.
          ...(first ? work(p.readRows * request.reduce((s, r) => s + r, 0)) : []),
        ],
        units: rows,
      },
    ];
    return extraFork === undefined ? phases : phases.map((phase) => ({ ...phase, extraFork }));
  };

  const mixedPerRound = Math.ceil(p.iterations / levels);
  const each = (n: number, phase: () => PlannedPhase) => Array.from({ length: n }, phase);
  return [
    {
      kind: 'load',
      segments: work(
        2 + (ingestDocs / PRIOR.candidateIngest) * (p.engines - 1) + ingestDocs / PRIOR.baselineIngest,
      ),
      units:
        2 * (Math.min(p.ingestWarmupBatches * p.bulkSize, p.docs) + p.docs) + (p.engines > 2 ? p.docs : 0),
    },
    ...Array.from({ length: p.forks }, (_, k) => fork(1, k === 0)).flat(),
    ...PRIOR.extraForkShare
      .slice(0, Math.max(0, p.maxForks - p.forks))
      .flatMap((share, k) => fork(share, false, k + 1)),
    {
      kind: 'cacheProbe',
      segments: [
        // One request repeated: both engines' caches answer most of it.
        ...openLoop(p.readRows, p.cacheProbe, p, candidate * PRIOR.repeatedRequest),
        ...openLoop(p.readRows, p.cacheProbe, p, baseline * PRIOR.repeatedRequest),
        { n: p.readRows, schedule: 0, work: PRIOR.rowOverhead },
      ],
      units: p.readRows,
    },
    { kind: 'memory', segments: work(0.5), units: 1 },
    { kind: 'disk', segments: work(2 + (PRIOR.diskPerMillion * p.docs) / 1e6), units: 1 },
    ...(p.knn
      ? [{ kind: 'knn' as const, segments: work(5 + (PRIOR.knnPerThousand * p.knnDocs) / 1000), units: 1 }]
      : []),
    ...each(p.sweeps, () => ({
      kind: 'sweep',
      segments: sweepSegments(baseline, candidate, p.connections),
      units: 1,
    })),
    ...each(p.mixedRows, () => ({
      kind: 'mixed',
      segments: [
        ...openLoop(levels, p.warmup + mixedPerRound, p, candidate),
        ...openLoop(levels, p.warmup + mixedPerRound, p, baseline),
        { n: 2 * levels, schedule: PRIOR.mixedOverhead, work: 0 },
      ],
      units: 1,
    })),
    // Several clients load faster than one: about a third.
    ...p.ingestCells.map(
      (): PlannedPhase => ({ kind: 'ingestCells', segments: work(2 + ingestOnce / 1.3), units: 1 }),
    ),
  ];
}
