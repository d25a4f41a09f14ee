import { afterEach, describe, expect, it } from 'vitest';
import { prepareBulk } from '../src/corpus/bulk.js';
import { generateCorpus } from '../src/corpus/generate.js';
import type { RunningEngine } from '../src/engines/types.js';
import { Side } from '../src/load/side.js';
import { ingestBoth, ingestRounds, WARMUP_INDEX } from '../src/measure/ingest.js';
import { DEFAULT_SETTINGS } from '../src/model/settings.js';
import { ingestRowResult } from '../src/verdict/ingestRowResult.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const fakes: FakeEs[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

function side(role: 'candidate' | 'baseline', url: string): Side {
  const engine: RunningEngine = {
    role,
    product: role,
    version: '0',
    url,
    pid: undefined,
    exited: new Promise(() => {}),
    stop: async () => {},
  };
  return new Side(engine, 2, 5000, new AbortController().signal);
}

describe('an index body aligned for scoring', () => {
  it('goes to its engine; a build that refuses the similarity gets the corpus body, and the notes say so', async () => {
    const fc = await startFakeEs({ name: 'c', refuseSimilarity: true });
    const fb = await startFakeEs({ name: 'b' });
    fakes.push(fc, fb);
    const corpus = prepareBulk(generateCorpus(1, 1000), 500);
    const aligned = {
      ...corpus.indexBody,
      settings: { index: { similarity: { default: { type: 'LegacyBM25' } } } },
    };
    corpus.indexBodies = { candidate: aligned, baseline: corpus.indexBody };
    corpus.indexBodyNotes = { candidate: 'index.similarity.default: LegacyBM25' };
    const settings = { ...DEFAULT_SETTINGS, ingestWarmupBatches: 1, rounds: 1 };
    const raws = await ingestBoth(
      { candidate: side('candidate', fc.url), baseline: side('baseline', fb.url) },
      corpus,
      'idx',
      settings,
    );
    expect(raws.candidate).toMatchObject({ supported: true, count: 1000 });
    const puts = fc.requests.filter((r) => r.method === 'PUT' && r.url === '/idx').map((r) => r.body);
    expect(puts).toEqual([JSON.stringify(corpus.indexBody)]);
    expect(corpus.indexBodies.candidate).toBe(corpus.indexBody);
    expect(corpus.indexBodyNotes.candidate).toMatch(/refused the aligned similarity.*default scale/);
    expect(fb.requests.filter((r) => r.method === 'PUT').every((r) => !r.body.includes('similarity'))).toBe(
      true,
    );
  });
});

describe('ingestBoth', () => {
  it('warms on a throwaway index, then loads the corpus in alternating chunks and checks _count', async () => {
    const fc = await startFakeEs({ name: 'c' });
    const fb = await startFakeEs({ name: 'b' });
    fakes.push(fc, fb);
    const corpus = prepareBulk(generateCorpus(1, 4000), 500);
    const settings = { ...DEFAULT_SETTINGS, ingestWarmupBatches: 2, forks: 1, rounds: 2 };
    const raws = await ingestBoth(
      { candidate: side('candidate', fc.url), baseline: side('baseline', fb.url) },
      corpus,
      'idx',
      settings,
    );
    for (const raw of [raws.candidate, raws.baseline]) {
      expect(raw).toMatchObject({ supported: true, count: 4000, failedBulks: 0 });
      expect(raw.bulkMs).toHaveLength(8);
      expect(raw.chunks.map((c) => c.docs)).toEqual([2000, 2000]);
      expect(raw.docsPerSec).toBeGreaterThan(0);
    }
    // Warmup bulks went to the throwaway index, which was deleted before the real one was made.
    const paths = fc.requests.map((r) => `${r.method} ${r.url}`);
    expect(paths.slice(0, 5)).toEqual([
      `DELETE /${WARMUP_INDEX}`,
      `PUT /${WARMUP_INDEX}`,
      `POST /${WARMUP_INDEX}/_bulk`,
      `POST /${WARMUP_INDEX}/_bulk`,
      `POST /${WARMUP_INDEX}/_refresh`,
    ]);
    // Round 1 candidate first, round 2 baseline first: the candidate's last chunk starts after the baseline's refresh.
    const at = (f: FakeEs, pred: (r: FakeEs['requests'][number]) => boolean) =>
      f.requests.filter(pred).map((r) => r.at);
    const cBulks = at(fc, (r) => r.url === '/idx/_bulk');
    const bBulks = at(fb, (r) => r.url === '/idx/_bulk');
    expect(Math.max(...cBulks.slice(0, 4))).toBeLessThan(Math.min(...bBulks.slice(0, 4)));
    expect(Math.max(...at(fb, (r) => r.url === '/idx/_refresh'))).toBeLessThan(Math.min(...cBulks.slice(4)));

    const row = ingestRowResult(raws, corpus.docs, settings);
    expect(row.unit).toBe('docs/s');
    expect(row.candidate.value).toBeGreaterThan(0);
    expect(row.mismatch).toBeUndefined();
    expect(row.roundRatios).toHaveLength(2);
  });

  it('makes the row N/A when _count disagrees with the corpus', async () => {
    const fc = await startFakeEs({ name: 'c' });
    const fb = await startFakeEs({ name: 'b' });
    fakes.push(fc, fb);
    const corpus = prepareBulk(generateCorpus(1, 1000), 500);
    const settings = { ...DEFAULT_SETTINGS, ingestWarmupBatches: 1 };
    const raws = await ingestBoth(
      { candidate: side('candidate', fc.url), baseline: side('baseline', fb.url) },
      corpus,
      'idx',
      settings,
    );
    const row = ingestRowResult(
      { ...raws, candidate: { ...raws.candidate, count: 999 } },
      corpus.docs,
      settings,
    );
    expect(row.verdict).toBe('N/A');
    expect(row.reason).toBe('results differ: _count after ingest: 999 vs 1000 (expected 1000)');
  });
});

describe('the ingest row interval over paired rounds', () => {
  const settings = { ...DEFAULT_SETTINGS, confidence: 0.99, tieMargin: 0.05 };
  const raw = (msPerRound: number[], docs = 1000) => ({
    supported: true,
    bulkMs: msPerRound,
    elapsedMs: msPerRound.reduce((a, b) => a + b, 0),
    chunks: msPerRound.map((ms) => ({ docs, ms })),
    docsPerSec: (docs * msPerRound.length) / (msPerRound.reduce((a, b) => a + b, 0) / 1000),
    count: docs * msPerRound.length,
    failedBulks: 0,
    failedItems: 0,
  });

  it('is the whole-run docs/s ratio, with one ratio per round', () => {
    const row = ingestRowResult(
      { candidate: raw([100, 110, 90, 100]), baseline: raw([300, 320, 290, 310]) },
      4000,
      settings,
    );
    expect(row.ratio).toBeCloseTo(1220 / 400, 3);
    expect(row.roundRatios).toEqual([3, 2.909, 3.222, 3.1]);
    expect(row.verdict).toBe('WIN');
    expect(row.reason).toMatch(/99% CI/);
  });

  it('ties two engines whose rounds go either way, however many bulks each round held', () => {
    const row = ingestRowResult(
      { candidate: raw([100, 140, 90, 130, 95, 150]), baseline: raw([130, 100, 125, 95, 140, 100]) },
      6000,
      settings,
    );
    expect(row.ci?.[0]).toBeLessThan(1);
    expect(row.ci?.[1]).toBeGreaterThan(1);
    expect(row.verdict).toBe('TIE');
  });

  it('has no interval, and no WIN, from a single round', () => {
    const row = ingestRowResult({ candidate: raw([100]), baseline: raw([300]) }, 1000, settings);
    expect(row.ratio).toBe(3);
    expect(row.ci).toBeUndefined();
    expect(row.verdict).toBe('TIE');
  });

  it('cannot call a WIN on one extreme round', () => {
    const row = ingestRowResult(
      { candidate: raw([100, 100, 100, 20]), baseline: raw([101, 99, 100, 400]) },
      4000,
      settings,
    );
    expect(row.ratio).toBeGreaterThan(1.5);
    expect(row.verdict).toBe('TIE');
  });
});

describe('the load cut into rounds', () => {
  it("has every planned round of the read rows' forks, at most one per bulk", () => {
    expect(ingestRounds({ ...DEFAULT_SETTINGS, forks: 5, rounds: 2 }, 100)).toBe(10);
    expect(ingestRounds({ ...DEFAULT_SETTINGS, forks: 5, rounds: 2 }, 4)).toBe(4);
    expect(ingestRounds({ ...DEFAULT_SETTINGS, forks: 1, rounds: 1 }, 100)).toBe(1);
  });
});
