import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { PARQUET_TABLES } from '@everycell/harness/parquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_PARQUET_TABLES, runDownloads, runParquetFiles } from '../lib/data';
import type { Scorecard } from '../lib/definitions';
import { writeRunParquet } from '../scripts/run-parquet';
import { fixturesDir, loadFixtures } from './load-fixtures';

let dir: string;
let card: Scorecard;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'everycell-web-parquet-'));
  card = loadFixtures().find((c) => c.runId === '2026-11-18T02-10-04Z-3f9c2ab') as Scorecard;
  await writeRunParquet([card], dir);
});

afterAll(() => {
  delete process.env.EVERYCELL_RUN_PARQUET;
  delete process.env.EVERYCELL_SCORECARDS;
  rmSync(dir, { recursive: true, force: true });
});

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

describe("each run's Parquet downloads", () => {
  it('offers the tables the harness exports, in its order', () => {
    expect(RUN_PARQUET_TABLES).toEqual(Object.keys(PARQUET_TABLES));
  });

  it('lists the files the site build wrote, only when it wrote them', () => {
    process.env.EVERYCELL_SCORECARDS = fixturesDir;
    delete process.env.EVERYCELL_RUN_PARQUET;
    expect(runDownloads(card.runId)).toEqual(['scorecard.json', 'rows.csv']);
    process.env.EVERYCELL_RUN_PARQUET = dir;
    expect(runParquetFiles(card.runId)).toEqual([
      'runs.parquet',
      'rows.parquet',
      'distributions.parquet',
      'quantiles.parquet',
    ]);
    expect(runParquetFiles('no-such-run')).toEqual([]);
  });

  it('holds the run as published: its rows, and no path of the build machine', async () => {
    const runDir = join(dir, card.runId);
    const [run] = await query(
      `SELECT run_id, CAST(scorecard AS VARCHAR) AS scorecard FROM read_parquet('${runDir}/runs.parquet')`,
    );
    expect(run?.run_id).toBe(card.runId);
    expect(run?.scorecard).not.toContain('/home/runner');
    const [rows] = await query(`SELECT count(*)::INTEGER AS n FROM read_parquet('${runDir}/rows.parquet')`);
    expect(rows?.n).toBe(card.rows.length);
    const withEcdf = card.rows.flatMap((row) => [row.candidate, row.baseline]).filter((side) => side.ecdf);
    const [quantiles] = await query(
      `SELECT count(DISTINCT (row_id, engine))::INTEGER AS n FROM read_parquet('${runDir}/quantiles.parquet')`,
    );
    expect(quantiles?.n).toBe(withEcdf.length);
  });
});
