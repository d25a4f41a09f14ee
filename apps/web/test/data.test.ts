import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getComparePairs,
  getLatestModel,
  getLatestScorecard,
  getLines,
  getRowHomes,
  getRowParams,
  getRowView,
  getRunModel,
  getRunSummaries,
  getSets,
  loadAll,
  readScorecards,
} from '../lib/data';
import { trendFromScorecards } from '../lib/prepare';
import { fixturesDir } from './load-fixtures';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'everycell-web-'));
  cpSync(fixturesDir, dir, { recursive: true, filter: (src) => !src.endsWith('.ts') });
  process.env.EVERYCELL_SCORECARDS = dir;
});

afterAll(() => {
  delete process.env.EVERYCELL_SCORECARDS;
  rmSync(dir, { recursive: true, force: true });
});

const BIG = '2026-11-19T03-30-12Z-8d01e77';

describe('data layer over the fixture scorecards', () => {
  it('reads every run, groups comparable runs, and picks the newest as the latest', () => {
    expect(readScorecards()).toHaveLength(6);
    expect(getLatestScorecard()?.scorecard.runId).toBe('2026-11-21T02-09-58Z-c4a7b19');
    const sets = getSets();
    expect(sets.map((set) => set.runs.length)).toEqual([3, 1, 1, 1]);
    expect(sets.map((set) => set.slug)).toEqual([
      expect.stringMatching(/^logs-zipf-200k-[0-9a-f]{6}$/),
      expect.stringMatching(/^logs-zipf-200k-[0-9a-f]{6}$/),
      expect.stringMatching(/^logs-zipf-20m-[0-9a-f]{6}$/),
      expect.stringMatching(/^logs-zipf-2m-[0-9a-f]{6}$/),
    ]);
    const big = sets.find((set) => set.set.docs === 2_000_000);
    expect(getLatestScorecard(big?.slug)?.scorecard.runId).toBe(BIG);
    expect(getRowParams()).toContainEqual({ set: sets[0]?.slug, id: 'query.phrase' });
    expect(getLines().map((line) => line.sets.length)).toEqual([3, 1]);
  });

  it('models each run: previous and next within its own set, its own conformance and the calibration', () => {
    expect(getRunSummaries()).toHaveLength(6);
    const oldest = getRunModel('2026-11-18T02-10-04Z-3f9c2ab');
    expect([...new Set(oldest?.rows.map((row) => row.group))]).toEqual([
      'ingest',
      'query',
      'bucket',
      'feature',
    ]);
    expect(getRunModel('no-such-run')).toBeUndefined();
    const middle = getRunModel('2026-11-20T02-12-41Z-8d01e77');
    expect(middle?.previous?.runId).toBe('2026-11-18T02-10-04Z-3f9c2ab');
    expect(middle?.next?.runId).toBe('2026-11-21T02-09-58Z-c4a7b19');
    expect(getRunModel(BIG)?.previous).toBeUndefined();
    // A run shows the conformance it recorded: none for a schema-1 card, its own for the 20M card.
    expect(middle?.conformance).toEqual([]);
    const twenty = getRunModel('2026-11-20T01-05-30Z-8d01e77');
    expect(twenty?.conformance[0]?.candidatePass).toBe(380);
    expect(getLatestModel()?.conformance[0]?.candidatePass).toBe(398);
    expect(getLatestModel()?.calibration?.stale.length).toBeGreaterThan(0);
    expect(getComparePairs()).toEqual([
      { before: '2026-11-20T02-12-41Z-8d01e77', after: '2026-11-21T02-09-58Z-c4a7b19' },
      { before: '2026-11-18T02-10-04Z-3f9c2ab', after: '2026-11-20T02-12-41Z-8d01e77' },
    ]);
    expect(getComparePairs(1)).toHaveLength(1);
    // Every row id the harness links as /rows/<id>/ has a home in the newest set that measured it.
    expect(getRowHomes()).toContainEqual({ id: 'query.term', set: getSets()[0]?.slug });
  });

  it('builds a row trend from the runs of its set only', () => {
    const sets = getSets();
    const small = sets[0];
    const large = sets.find((set) => set.set.docs === 2_000_000);
    const view = getRowView(small?.slug ?? '', 'query.term');
    expect(view?.trend.points.map((point) => point.runId)).toEqual(
      trendFromScorecards(small?.runs ?? [], 'query.term')?.points.map((point) => point.runId),
    );
    expect(view?.trend.points).toHaveLength(3);
    expect(view?.trend.points.some((point) => point.runId === BIG)).toBe(false);
    expect(getRowView(large?.slug ?? '', 'query.term')?.trend.points.map((point) => point.runId)).toEqual([
      BIG,
    ]);
  });
});

describe('bad scorecard files', () => {
  it('lists every problem of every file before anything is built', () => {
    const bad = mkdtempSync(join(tmpdir(), 'everycell-web-bad-'));
    cpSync(join(fixturesDir, '2026-11-18T02-10-04Z-3f9c2ab'), join(bad, 'run-x'), { recursive: true });
    cpSync(join(fixturesDir, '2026-11-20T02-12-41Z-8d01e77'), join(bad, 'run-y'), { recursive: true });
    writeFileSync(join(bad, 'run-x', 'scorecard.json'), JSON.stringify({ schemaVersion: 99 }));
    writeFileSync(join(bad, 'waivers.json'), '{"waivers": [{"row": ""}]}');
    try {
      const { problems, scorecards } = loadAll(bad);
      expect(scorecards).toHaveLength(0);
      const name = bad.split('/').at(-1);
      expect(problems).toEqual([
        `${name}/run-x/scorecard.json: schemaVersion: version 99 is not one this reader knows (1 or 2): update @everycell/harness/validate`,
        `${name}/run-y/scorecard.json: runId: "2026-11-20T02-12-41Z-8d01e77" is not the name of its folder "run-y"`,
        `${name}/waivers.json: waivers[0].row must be a non-empty string, got ""`,
      ]);
      process.env.EVERYCELL_SCORECARDS = bad;
      expect(() => readScorecards()).toThrow(problems.join('\n'));
    } finally {
      process.env.EVERYCELL_SCORECARDS = dir;
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
