import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getComparePairs,
  getComparison,
  getLatestRun,
  getRowIds,
  getRowTrend,
  getRun,
  getRunSummaries,
  historyPath,
  readScorecards,
} from '../lib/data';
import { trendFromScorecards } from '../lib/prepare';
import { fixturesDir, loadFixtures } from './load-fixtures';
import { writeHistory } from './write-history';

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'everycell-web-'));
  cpSync(fixturesDir, dir, { recursive: true, filter: (src) => !src.endsWith('.ts') });
  process.env.EVERYCELL_SCORECARDS = dir;
  await writeHistory(historyPath(), loadFixtures());
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

  it('reads the trend from DuckDB, matching what the files say', async () => {
    const trend = await getRowTrend('query.term');
    expect(trend?.source).toBe('duckdb');
    const fromFiles = trendFromScorecards(loadFixtures(), 'query.term');
    expect(trend?.points).toEqual(fromFiles?.points);
  });

  it('shows what the database holds, not what the files hold', async () => {
    const instance = await DuckDBInstance.create(historyPath());
    const connection = await instance.connect();
    await connection.run(`UPDATE rows SET ratio = 9.5 WHERE row_id = 'query.bool'`);
    connection.closeSync();
    instance.closeSync();
    const trend = await getRowTrend('query.bool');
    expect(trend?.points.map((p) => p.ratio)).toEqual([9.5, 9.5, 9.5]);
  });

  it('falls back to the scorecard files when history.duckdb is absent', async () => {
    rmSync(historyPath());
    const trend = await getRowTrend('query.term');
    expect(trend?.source).toBe('scorecard-json');
    expect(trend?.points).toHaveLength(3);
  });
});

describe('bad scorecard files', () => {
  it('names the file and the fix for an unknown schema version', () => {
    const bad = mkdtempSync(join(tmpdir(), 'everycell-web-bad-'));
    cpSync(join(fixturesDir, '2026-11-18T02-10-04Z-3f9c2ab'), join(bad, 'run-x'), { recursive: true });
    writeFileSync(join(bad, 'run-x', 'scorecard.json'), JSON.stringify({ schemaVersion: 99 }));
    process.env.EVERYCELL_SCORECARDS = bad;
    try {
      expect(() => readScorecards()).toThrow(/run-x\/scorecard\.json has schemaVersion 99.*update apps\/web/);
    } finally {
      process.env.EVERYCELL_SCORECARDS = dir;
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
