import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { etaWords } from '../src/cli/progress.js';
import { readCommittedCards } from '../src/report/readmeFiles.js';
import { Eta, solveFactor } from '../src/run/eta.js';
import { PhaseLog } from '../src/run/phases.js';
import {
  type PlanInput,
  type PlannedPhase,
  planRun,
  price,
  startPhase,
  sweepSegments,
} from '../src/run/plan.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { planInputFromCard } from './helpers/planFromCard.js';
import { type EtaSample, type RecordedRun, replayEta } from './helpers/replayEta.js';

const input: PlanInput = {
  docs: 100_000,
  rate: 200,
  iterations: 600,
  warmup: 15,
  forks: 5,
  maxForks: 7,
  rounds: 2,
  prewarm: 200,
  cacheProbe: 50,
  bulkSize: 1000,
  ingestWarmupBatches: 20,
  readRows: 88,
  breadthRows: 70,
  engines: 2,
  baselineNodes: 1,
  knn: false,
  knnDocs: 50_000,
  sweeps: 5,
  mixedRows: 7,
  ingestCells: [],
  connections: 64,
};

const total = (plan: readonly PlannedPhase[]) => plan.reduce((s, p) => s + price(p), 0);
/** A phase that is all work (no schedule): its price is `seconds` x the factor. */
const job = (kind: PlannedPhase['kind'], seconds: number, units?: number): PlannedPhase => ({
  kind,
  segments: [{ n: 1, schedule: 0, work: seconds }],
  ...(units === undefined ? {} : { units }),
});

describe('the run plan', () => {
  it('prices every phase of the default matrix in stage order', () => {
    const plan = planRun(input);
    const kinds = plan.map((p) => p.kind);
    expect(kinds.slice(0, 6)).toEqual(['load', 'restart', 'prewarm', 'idle', 'floor', 'rows']);
    expect(kinds.filter((k) => k === 'restart')).toHaveLength(7);
    expect(kinds.slice(-15)).toEqual([
      'cacheProbe',
      'memory',
      'disk',
      ...Array(5).fill('sweep'),
      ...Array(7).fill('mixed'),
    ]);
    // A fork's rows at 200 req/s: 18 full rows x 2 rounds x 2 engines x (15 + 60) / 200 s, and
    // 70 breadth rows with 20 timed requests a round, each engine-round with its overhead.
    const rows = plan.filter((p) => p.kind === 'rows')[1] as PlannedPhase;
    expect(price(rows)).toBeCloseTo(18 * 4 * (75 / 200 + 0.03) + 70 * 4 * (35 / 200 + 0.03), 5);
    // On a machine whose engines work 10x slower, the baseline no longer keeps the schedule.
    expect(price(rows, 10)).toBeGreaterThan(1.5 * price(rows));
  });

  it('prices a sweep by its ladder: low rates last longer than 3 s, an engine stops past its knee', () => {
    // Both engines at 1 ms a request: 9 rates from 250 to 1,500 req/s, 3 s each, both engines;
    // the top rate (past 1,000 req/s) leaves each engine 64 requests in flight.
    expect(price({ segments: sweepSegments(0.001, 0.001) })).toBeCloseTo(8 + 2 * 9 * 3.2 + 2 * 2 * 0.064, 1);
    // A baseline at 20 ms a request (50 req/s) against a 1 ms candidate: the ladder climbs from
    // 12.5 to 1,500 req/s; its first three rates last 200 requests (16, 8.8 and 4.8 s), the rest
    // 3 s; the baseline stops two rates past its knee (5 points), the candidate runs all 9. Past
    // its capacity an engine ends a point with 64 requests in flight (1.3 s at 20 ms).
    expect(price({ segments: sweepSegments(0.02, 0.001) })).toBeCloseTo(92.7 + 2 * 1.28 + 0.064, 1);
  });

  it('grows with the corpus and with a third engine', () => {
    const at = (docs: number, engines = 2) => total(planRun({ ...input, docs, engines }));
    expect(at(1_000_000)).toBeGreaterThan(at(100_000));
    expect(at(10_000_000)).toBeGreaterThan(at(1_000_000));
    expect(at(100_000, 3)).toBeGreaterThan(at(100_000));
  });

  it('finds the speed factor that explains what phases took', () => {
    const rows = planRun(input).filter((p) => p.kind === 'rows')[1] as PlannedPhase;
    for (const f of [0.5, 1, 3, 20])
      expect(solveFactor([rows], price(rows, f))).toBeCloseTo(Math.max(f, 0.1), 1);
  });
});

describe('the estimate', () => {
  it('starts from the plan and corrects a kind by what its phases cost', () => {
    const eta = new Eta([
      job('load', 10, 2),
      job('rows', 100, 10),
      job('rows', 100, 10),
      job('ingestCells', 20, 1),
    ]);
    eta.begin('load', 'ingest', 2, 0);
    expect(eta.remainingSeconds(0)).toBeCloseTo(230);
    eta.end(30_000); // the load took 3x its price: the ingest cell follows it, and so does the rest
    eta.begin('rows', 'fork 1', 10, 30_000);
    expect(eta.remainingSeconds(30_000)).toBeCloseTo(300 + 300 + 60, 3);
    // Half the rows done in 100 s: this fork and the next at twice their price.
    eta.tick(5, 130_000);
    expect(eta.remainingSeconds(130_000)).toBeCloseTo(100 + 200 + 60, 3);
  });

  it('learns the machine from the start before the plan runs, and drops forks that are not needed', () => {
    const plan = [
      job('load', 10, 2),
      job('restart', 10, 2),
      job('rows', 100, 10),
      job('restart', 10, 2),
      job('prewarm', 20, 4),
      job('rows', 30, 2),
      job('cacheProbe', 10, 10),
    ];
    let now = 0;
    const log = new PhaseLog(() => now);
    log.begin('start', 'corpus and engines');
    now = 40_000; // twice the start's price of 20 s
    const eta = new Eta(plan, [job('start', 20)]);
    log.listen(eta);
    log.begin('load', 'ingest', 2);
    // Everything at twice its price: the start is all this machine has said so far.
    expect(eta.remainingSeconds(log.at())).toBeCloseTo(2 * 190, 3);
    log.begin('restart', 'fork 1', 2);
    now = 50_000;
    log.begin('rows', 'fork 1', 10);
    now = 150_000;
    // The read stage ends without the extra fork: its phases are skipped, not waited for.
    log.begin('cacheProbe', 'cache probes', 10);
    expect(eta.remainingSeconds(log.at())).toBeCloseTo(10, 3);
    log.end();
    expect(log.list().map((p) => [p.kind, p.ms])).toEqual([
      ['start', 40_000],
      ['load', 0],
      ['restart', 10_000],
      ['rows', 100_000],
      ['cacheProbe', 0],
    ]);
  });

  it("prices the forks past --forks by the read stage's forecast of the rows still undecided", () => {
    const extra = (kind: PlannedPhase['kind'], seconds: number, extraFork: number, units?: number) => ({
      ...job(kind, seconds, units),
      extraFork,
    });
    const eta = new Eta([
      job('rows', 100, 20),
      extra('restart', 10, 1),
      extra('prewarm', 40, 1, 10),
      extra('rows', 20, 1, 5),
      extra('restart', 10, 2),
      extra('prewarm', 16, 2, 4),
      extra('rows', 8, 2, 2),
      job('cacheProbe', 10, 20),
    ]);
    eta.begin('rows', 'fork 3', 20, 0);
    expect(eta.remainingSeconds(0)).toBeCloseTo(100 + 10 + 40 + 20 + 10 + 16 + 8 + 10, 3);
    // 10 rows undecided: the first extra fork takes twice its planned rows, the next 5 (2.5x).
    eta.forecast(10, 0);
    expect(eta.remainingSeconds(0)).toBeCloseTo(100 + 10 + 80 + 40 + 10 + 40 + 20 + 10, 3);
    // None undecided: no fork past --forks at all; then 2 after all.
    eta.forecast(0, 0);
    expect(eta.remainingSeconds(0)).toBeCloseTo(100 + 10, 3);
    eta.forecast(2, 0);
    expect(eta.remainingSeconds(0)).toBeCloseTo(100 + 10 + 16 + 8 + 10 + 8 + 4 + 10, 3);
  });

  it('shrinks an extra fork to the rows it re-measures', () => {
    const eta = new Eta([job('prewarm', 40, 40), job('idle', 3), job('rows', 100, 20)]);
    eta.begin('prewarm', 'fork 6', 10, 0);
    expect(eta.remainingSeconds(0)).toBeCloseTo(10 + 3 + 25, 3);
  });
});

describe('the progress line', () => {
  it('says the estimate in seconds, minutes or hours', () => {
    expect(etaWords(45.4)).toBe('ETA 45 s');
    expect(etaWords(845)).toBe('ETA 14 min 05 s');
    expect(etaWords(2 * 3600 + 61)).toBe('ETA 2 h 01 min');
    expect(etaWords(Number.NaN)).toBe('ETA ?');
  });
});

describe('the estimate against what runs took', () => {
  // Cards since forks (the design), of the default corpus, both engines started by the harness.
  const defaultCards = () =>
    readCommittedCards()
      .map((c) => c.card)
      .filter(
        (c) => c.status === 'complete' && c.manifest.design && c.manifest.corpus.name === 'llm-telemetry-v1',
      )
      .filter((c) => c.manifest.candidate.startedByHarness && c.manifest.baseline.startedByHarness);

  /**
   * The prior prices the project machine at the speed its cards were taken at: a harness floor p50
   * of 0.15-0.84 ms. On 29 Nov the same machine ran 2-3.5x slower (floor p50 1.06 ms, every engine's
   * CPU per request up about 3x, no steal recorded): no prior knows that before the run has begun,
   * so such a card is held to the estimate the run learns as it goes (the test below).
   */
  const usualSpeed = (c: Scorecard) => (c.floor?.p50 ?? 0) < 1;

  it('prices every committed card of the default corpus within 1.5x of its duration, before any phase ran', () => {
    const cards = defaultCards().filter(usualSpeed);
    expect(cards.length).toBeGreaterThanOrEqual(20);
    const ratios = cards.map((c) => {
      const input = planInputFromCard(c);
      const seconds = planRun(input).reduce((s, p) => s + price(p), 0) + price(startPhase(input));
      return seconds / (c.durationMs / 1000);
    });
    // 100k, 1M with kNN and 8 clients, 10M at the lighter load, a 3-node baseline: 0.73-1.19.
    expect(Math.min(...ratios)).toBeGreaterThan(1 / 1.5);
    expect(Math.max(...ratios)).toBeLessThan(1.5);
  });

  it('learns a slowed machine as it goes, though not yet within 1.5x everywhere', () => {
    const slow = defaultCards().filter((c) => !usualSpeed(c) && c.manifest.phases);
    expect(slow.length).toBeGreaterThan(0);
    for (const card of slow) {
      const phases = card.manifest.phases ?? [];
      const samples = replayEta({
        runId: card.runId,
        durationMs: card.durationMs,
        input: planInputFromCard(card),
        phases,
      });
      const loaded = phases.find((p) => p.kind === 'load');
      const fromMs = loaded ? loaded.startMs + loaded.ms : 0;
      const after = samples.filter((s) => s.atMs >= fromMs && s.truth >= 60).map((s) => s.estimate / s.truth);
      // 20261129T102105Z-059008a (1M, 58.5 min): from the end of the load, 0.48-1.24. Low while the
      // first fork restarts and prewarms (no timed phase has shown the machine's pace yet: 0.48)
      // and in the last sweeps (0.63); outside 1/1.5-1.5 in 5% of the samples. Held here so the
      // estimate cannot get worse; issue 39 asks for 1.5x throughout.
      expect(Math.min(...after), card.runId).toBeGreaterThan(0.45);
      expect(Math.max(...after), card.runId).toBeLessThan(1.5);
      expect(after.filter((r) => r < 1 / 1.5).length / after.length, card.runId).toBeLessThan(0.06);
    }
  });
});

describe('the estimate on recorded runs', () => {
  const run = (name: string) =>
    JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as RecordedRun;
  /** Estimate over truth while at least a minute is left, from `fromS` seconds into the run. */
  const ratios = (samples: EtaSample[], fromS: number) =>
    samples.filter((s) => s.atMs >= fromS * 1000 && s.truth >= 60).map((s) => s.estimate / s.truth);

  it('follows a 20k run on a machine 7-30x slower than the prior (load average 20 on 2 cores)', () => {
    // 5,415 s in all: the engines started in 93 s (prior 14 s), loaded 20k documents in 112 s
    // (prior 3.5 s) and prewarmed each fork 19-24x slower than the prior.
    const samples = replayEta(run('eta-run-20k-busy.json'));
    const early = ratios(samples, 0);
    // While the engines load, the estimate knows only the start (6.8x): about half the truth.
    expect(Math.min(...early)).toBeGreaterThan(0.5);
    // From the end of the load (205 s) to the end: 0.67-1.56. It exceeds 1.5 only late in the
    // fourth fork, when the machine's load fell (the fifth fork ran 25-40% faster than the others)
    // and the forks past --forks re-measured 4 and 2 rows, not the prior's 13 and 7 (this run
    // predates the read stage's forecast of them).
    const after = ratios(samples, 205);
    expect(Math.min(...after)).toBeGreaterThan(1 / 1.5);
    expect(Math.max(...after)).toBeLessThan(1.6);
    // Over 1.5 for 7% of the run after its load (about 6 minutes of 86).
    expect(after.filter((r) => r > 1.5).length / after.length).toBeLessThan(0.08);
    // The last minute: within 10 s.
    for (const s of samples.filter((x) => x.truth < 60))
      expect(Math.abs(s.estimate - s.truth)).toBeLessThan(10);
  });
});
