import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getComparePairs,
  getComparison,
  getLatestRun,
  getRowIds,
  getRowTrend,
  getRun,
  getRunSummaries,
  loadAll,
  readScorecards,
} from '../lib/data';
import { trendFromScorecards } from '../lib/prepare';
import { fixturesDir, loadFixtures } from './load-fixtures';

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

describe('data layer over the fixture scorecards', () => {
  it('reads every run and picks the newest as the latest', () => {
    expect(readScorecards()).toHaveLength(3);
    expect(getLatestRun()?.scorecard.runId).toBe('2026-11-21T02-09-58Z-c4a7b19');
    expect(getRowIds()).toContain('query.phrase');
  });

  it('serves the run pages: each run by id, and each run against its predecessor', () => {
    expect(getRunSummaries()).toHaveLength(3);
    expect(getRun('2026-11-18T02-10-04Z-3f9c2ab')?.sections.map((section) => section.group)).toEqual([
      'ingest',
      'query',
      'bucket',
      'feature',
    ]);
    expect(getRun('no-such-run')).toBeUndefined();
    const pairs = getComparePairs();
    expect(pairs).toEqual([
      { before: '2026-11-18T02-10-04Z-3f9c2ab', after: '2026-11-20T02-12-41Z-8d01e77' },
      { before: '2026-11-20T02-12-41Z-8d01e77', after: '2026-11-21T02-09-58Z-c4a7b19' },
    ]);
    const last = pairs[1] as { before: string; after: string };
    expect(getComparison(last.before, last.after)?.changes[0]?.kind).toBe('flipped');
    expect(getComparison(last.before, 'no-such-run')).toBeUndefined();
  });

  it('builds a trend from the files', () => {
    const trend = getRowTrend('query.term');
    expect(trend?.points).toEqual(trendFromScorecards(loadFixtures(), 'query.term')?.points);
    expect(trend?.points).toHaveLength(3);
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
