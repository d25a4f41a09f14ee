import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getComparePairs,
  getComparison,
  getLatestRun,
  getRowParams,
  getRowView,
  getRun,
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
    expect(readScorecards()).toHaveLength(4);
    expect(getLatestRun()?.scorecard.runId).toBe('2026-11-21T02-09-58Z-c4a7b19');
    const sets = getSets();
    expect(sets.map((set) => set.runs.length)).toEqual([3, 1]);
    expect(sets.map((set) => set.slug)).toEqual([
      expect.stringMatching(/^logs-zipf-200k-[0-9a-f]{6}$/),
      expect.stringMatching(/^logs-zipf-2m-[0-9a-f]{6}$/),
    ]);
    expect(getLatestRun(sets[1]?.slug)?.scorecard.runId).toBe(BIG);
    expect(getRowParams()).toContainEqual({ set: sets[0]?.slug, id: 'query.phrase' });
  });

  it('serves the run pages: each run by id, previous and next within its own set', () => {
    expect(getRunSummaries()).toHaveLength(4);
    expect(getRun('2026-11-18T02-10-04Z-3f9c2ab')?.sections.map((section) => section.group)).toEqual([
      'ingest',
      'query',
      'bucket',
      'feature',
    ]);
    expect(getRun('no-such-run')).toBeUndefined();
    const middle = getRun('2026-11-20T02-12-41Z-8d01e77');
    expect(middle?.previous?.runId).toBe('2026-11-18T02-10-04Z-3f9c2ab');
    expect(middle?.next?.runId).toBe('2026-11-21T02-09-58Z-c4a7b19');
    expect(getRun(BIG)?.previous).toBeUndefined();
    const pairs = getComparePairs();
    expect(pairs).toEqual([
      { before: '2026-11-18T02-10-04Z-3f9c2ab', after: '2026-11-20T02-12-41Z-8d01e77' },
      { before: '2026-11-20T02-12-41Z-8d01e77', after: '2026-11-21T02-09-58Z-c4a7b19' },
    ]);
    const last = pairs[1] as { before: string; after: string };
    expect(getComparison(last.before, last.after)?.changes[0]?.kind).toBe('flipped');
    expect(getComparison(last.before, 'no-such-run')).toBeUndefined();
    // Same commit, 200k against 2M: not comparable, so no comparison at all.
    expect(getComparison(BIG, '2026-11-20T02-12-41Z-8d01e77')).toBeUndefined();
  });

  it('builds a row trend from the runs of its set only', () => {
    const [small, large] = getSets();
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
