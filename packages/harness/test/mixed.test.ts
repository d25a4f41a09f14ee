import { afterEach, describe, expect, it } from 'vitest';
import { prepareBulk } from '../src/corpus/bulk.js';
import { generateCorpus } from '../src/corpus/generate.js';
import type { RunningEngine } from '../src/engines/types.js';
import { ALL_FAMILIES } from '../src/families/index.js';
import type { Family } from '../src/families/types.js';
import { realClock } from '../src/load/clock.js';
import { Side } from '../src/load/side.js';
import { measureMixedRow, rewriteBodies, selectMixed } from '../src/measure/mixed.js';
import type { MixedRowRaw } from '../src/model/raw.js';
import type { Sample } from '../src/model/samples.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../src/model/settings.js';
import { mixedRowResult } from '../src/verdict/mixedRowResult.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const fakes: FakeEs[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const family = (id: string) => ALL_FAMILIES.find((f) => f.id === id) as Family;
const settings: RunSettings = {
  ...DEFAULT_SETTINGS,
  rate: 400,
  iterations: 240,
  warmup: 5,
  forks: 1,
  rounds: 2,
  maxSendLagP99Ms: 10_000,
};
const corpus = prepareBulk(generateCorpus(1, 500), 100);

function engine(role: 'candidate' | 'baseline', url: string): RunningEngine {
  return {
    role,
    product: role,
    version: '0',
    url,
    pid: undefined,
    exited: new Promise(() => {}),
    stop: async () => {},
  };
}

/** Timed samples with a given latency, as the open loop would record them: 4 rounds in order. */
function timed(n: number, latencyMs: (i: number) => number): Sample[] {
  return Array.from({ length: n }, (_, i) => ({
    i,
    phase: 'timed' as const,
    round: Math.floor((i * 4) / n),
    atMs: i * 2.5,
    outcome: 'ok' as const,
    status: 200,
    lagMs: 0.1,
    latencyMs: latencyMs(i),
    serviceMs: latencyMs(i),
  }));
}

function raw(cAcked: number, bAcked: number, cP99: number, bP99: number): MixedRowRaw {
  const side = (acked: number, tail: number) => ({
    supported: true,
    warmup: [],
    // One request in 20 is slow: p99 rests on the slow ones in every resample, not on luck.
    timed: timed(400, (i) => (i % 20 === 0 ? tail : 2 + (i % 7) * 0.1)),
    writes: [{ offeredDocs: 2000, ackedDocs: acked, failedBulks: 0, droppedBulks: 0, elapsedMs: 1000 }],
  });
  return {
    family: family('query.term'),
    probeBody: {},
    writeRate: 2000,
    candidate: side(cAcked, cP99),
    baseline: side(bAcked, bP99),
  };
}

describe('mixed read-under-write rows', () => {
  it('are selected by the --families globs against their own ids', () => {
    expect(selectMixed('*').map((f) => f.id)).toEqual([
      'query.match_all',
      'query.term',
      'query.range_numeric',
      'query.match',
      'query.bool',
      'metric.cardinality',
      'bucket.terms',
    ]);
    expect(selectMixed('mixed.terms').map((f) => f.id)).toEqual(['bucket.terms']);
    expect(selectMixed('query.*')).toEqual([]);
  });

  it('re-index corpus documents by id, in bulks of the asked size', () => {
    const bodies = rewriteBodies(corpus, 100, 7);
    expect(bodies).toHaveLength(7);
    const lines = (bodies[6] as string).trim().split('\n');
    expect(lines).toHaveLength(200);
    // 7 bulks of 100 over a 500-doc corpus: the sixth bulk starts over at the first document.
    expect(bodies[5]).toBe(bodies[0]);
    expect(JSON.parse(lines[0] as string)).toHaveProperty('index._id');
  });

  it('score p99 with the read rows statistics when the write loads match', () => {
    const row = mixedRowResult(raw(2000, 1980, 4, 40), settings);
    expect(row.id).toBe('mixed.term');
    expect(row.group).toBe('mixed');
    expect(row.verdict).toBe('WIN');
    expect(row.ratio).toBeCloseTo(10, 0);
    expect(row.reason).toMatch(/^p99 ratio .*; write load acked 2000 \/ 1980 docs\/s \(offered 2000\)$/);
    expect(row.candidate.writeLoad).toEqual({
      offeredDocsPerSec: 2000,
      ackedDocsPerSec: 2000,
      failedBulks: 0,
      droppedBulks: 0,
    });
  });

  it('are N/A when the engines took write loads more than 5% apart', () => {
    const row = mixedRowResult(raw(2000, 1800, 4, 40), settings);
    expect(row.verdict).toBe('N/A');
    expect(row.ratio).toBeUndefined();
    expect(row.reason).toBe(
      'not comparable, the engines took different write loads: write load acked 2000 / 1800 docs/s (offered 2000), 10.0% apart (limit 5%)',
    );
  });

  it('write at the offered rate into each engine while its reads run', async () => {
    const fc = await startFakeEs({ name: 'c' });
    const fb = await startFakeEs({ name: 'b', delayMs: 20 });
    fakes.push(fc, fb);
    const abort = new AbortController().signal;
    const sides = {
      candidate: new Side(engine('candidate', fc.url), 16, 5000, abort),
      baseline: new Side(engine('baseline', fb.url), 16, 5000, abort),
    };
    const r = await measureMixedRow(family('query.term'), sides, 'idx', corpus, settings, realClock, {
      writeRate: 1000,
      bulkDocs: 50,
    });
    for (const role of ['candidate', 'baseline'] as const) {
      expect(r[role].timed).toHaveLength(240);
      expect(r[role].writes).toHaveLength(2);
      const bulks = (role === 'candidate' ? fc : fb).requests.filter((q) => q.url.endsWith('/_bulk'));
      // 0.3 s of reads per round at 1000 docs/s in bulks of 50: about 6 bulks a round, 2 rounds.
      expect(bulks.length).toBeGreaterThanOrEqual(4);
      expect(bulks.length).toBeLessThanOrEqual(40);
      expect(bulks[0]?.body.trim().split('\n')).toHaveLength(100);
    }
    const row = mixedRowResult(r, settings);
    // Acked per scheduled second: never above the offer; how close to it depends on the machine's load.
    expect(row.candidate.writeLoad?.ackedDocsPerSec).toBeGreaterThan(0);
    expect(row.candidate.writeLoad?.ackedDocsPerSec).toBeLessThanOrEqual(1000);
    // The fake baseline answers reads 20 ms slower, so the candidate must never LOSE on p99. Neither
    // a WIN nor even a ratio above 1 is owed: both fakes share this process's event loop with the
    // load generator, and p99 of 240 samples is the third-worst request, so a few event-loop stalls
    // of 30-50 ms on a loaded 2-core machine can put the candidate's p99 above the baseline's (seen
    // in a third of runs). The interval then straddles 1 and the row ties; the verdict rules
    // themselves are tested above with fixed samples.
    if (row.verdict !== 'N/A') expect(['WIN', 'TIE']).toContain(row.verdict);
  }, 30_000);
});
