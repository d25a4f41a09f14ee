import { describe, expect, it } from 'vitest';
import type { SweepSide } from '../lib/definitions';
import { answerFor, machinesFor, type PlannerSide, parsePlannerInput, pointRequests } from '../lib/planner';
import { plannerData } from '../lib/planner-data';
import { loadFixtures } from './load-fixtures';

const latestFixture = () =>
  loadFixtures().sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0] as ReturnType<
    typeof loadFixtures
  >[number];

const point = (rate: number, p99: number, over: Partial<SweepSide> = {}) => ({
  offeredRate: rate,
  requests: 1000,
  side: {
    achievedRate: rate,
    p50: p99 / 2,
    p99,
    p999: null,
    errors: 0,
    dropped: 0,
    meanMs: p99 / 3,
    ...over,
  },
});

// Meets 50 ms up to 400 req/s, misses at 800 (p99 over), skipped past its knee.
const side: PlannerSide = {
  cpuMsPerRequest: 2,
  points: [
    point(100, 5),
    point(200, 8),
    point(400, 30),
    point(800, 90),
    point(1600, 0, { skipped: true, p99: null }),
  ],
};

describe('capacity planner', () => {
  it('holds a rate when every offered rate up to one at or above it met the target', () => {
    const a = answerFor(side, { rate: 300, p99Ms: 50 }, 0.01);
    expect(a.holds).toBe('yes');
    expect(a.sustainedRate).toBe(400);
    expect(a.headroom).toBeCloseTo(400 / 300);
    // Utilization law: 300 req/s x 2 ms = 0.6 cores; Little's law at 400 req/s (mean 10 ms): 3 in flight.
    expect(a.cores).toBeCloseTo(0.6);
    expect(a.meanAt).toBe(400);
    expect(a.inFlight).toBeCloseTo((300 * 10) / 1000);
  });

  it('does not hold past the last rate met, nor at a tighter target', () => {
    expect(answerFor(side, { rate: 600, p99Ms: 50 }, 0.01)).toMatchObject({
      holds: 'no',
      sustainedRate: 400,
    });
    const tight = answerFor(side, { rate: 150, p99Ms: 6 }, 0.01);
    expect(tight).toMatchObject({ holds: 'no', sustainedRate: 100 });
    expect(tight.inFlight).toBeUndefined();
    expect(answerFor(side, { rate: 50, p99Ms: 1 }, 0.01)).toMatchObject({ holds: 'no' });
    expect(answerFor(side, { rate: 50, p99Ms: 1 }, 0.01).sustainedRate).toBeUndefined();
  });

  it('applies the harness rule: achieved rate and failures count, not only the p99', () => {
    const slow: PlannerSide = { points: [point(100, 5), point(200, 5, { achievedRate: 180 })] };
    expect(answerFor(slow, { rate: 200, p99Ms: 50 }, 0.01)).toMatchObject({
      holds: 'no',
      sustainedRate: 100,
    });
    const failing: PlannerSide = { points: [point(100, 5, { errors: 11 })] };
    expect(answerFor(failing, { rate: 100, p99Ms: 50 }, 0.01).holds).toBe('no');
    expect(answerFor(failing, { rate: 100, p99Ms: 50 }, 0.02).holds).toBe('yes');
    expect(answerFor(slow, { rate: 100, p99Ms: 50 }, 0.01).cores).toBeUndefined();
  });

  it('says beyond, not yes or no, above every rate the sweep offered', () => {
    const strong: PlannerSide = { points: [point(100, 2), point(200, 3)] };
    expect(answerFor(strong, { rate: 5000, p99Ms: 50 }, 0.01)).toMatchObject({
      holds: 'beyond',
      sustainedRate: 200,
    });
  });

  it('reads the form and names what to fix', () => {
    expect(parsePlannerInput('500', '50')).toEqual({ rate: 500, p99Ms: 50 });
    expect(parsePlannerInput('', '50')).toMatch(/request rate above 0/);
    expect(parsePlannerInput('-3', '50')).toMatch(/request rate above 0/);
    expect(parsePlannerInput('10', '0')).toMatch(/p99 target above 0/);
    expect(pointRequests(100)).toBe(300);
    expect(pointRequests(10)).toBe(200);
    expect(pointRequests(9000)).toBe(6000);
    expect(pointRequests(100, 321)).toBe(321);
  });

  it("takes each sweep's CPU per request from the read row the sweep sends", () => {
    const card = latestFixture();
    const data = plannerData(card);
    expect(data?.families.map((f) => f.family)).toEqual((card.sweeps ?? []).map((s) => s.family));
    const term = data?.families.find((f) => f.family === 'term');
    const row = card.rows.find((r) => r.id === 'query.term');
    expect(term?.sourceRowId).toBe('query.term');
    expect(term?.candidate.cpuMsPerRequest).toBe(row?.candidate.cpuMsPerRequest);
    expect(term?.baseline.cpuMsPerRequest).toBe(row?.baseline.cpuMsPerRequest);
    expect(data?.cores).toBe(card.manifest.machine.cores);
  });
});

describe('machines for a core count', () => {
  it('counts from the figure as shown, so 4.00 cores fit two machines of two', () => {
    expect(machinesFor(4.002, 2)).toBe(2);
    expect(machinesFor(4.006, 2)).toBe(3);
    expect(machinesFor(0.3, 2)).toBe(1);
  });
});
