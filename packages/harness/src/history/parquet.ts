import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Scorecard } from '../scorecard/schema.js';
import { appendRun, withHistory } from './db.js';

/**
 * The history tables a warehouse takes away, each with the order its file is written in: the same
 * history gives the same rows in the same order.
 */
export const PARQUET_TABLES = {
  runs: 'created_at, run_id',
  rows: 'run_id, row_id',
  distributions: 'run_id, row_id, engine',
  quantiles: 'run_id, row_id, engine, q',
} as const;

export type ParquetTable = keyof typeof PARQUET_TABLES;

export interface ParquetFile {
  table: ParquetTable;
  file: string;
  rows: number;
}

/** COPY takes its target as a literal, not a parameter. */
const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Write each history table as <dir>/<table>.parquet with DuckDB's own Parquet writer. */
export async function exportParquet(conn: DuckDBConnection, dir: string): Promise<ParquetFile[]> {
  await mkdir(dir, { recursive: true });
  const written: ParquetFile[] = [];
  for (const [table, order] of Object.entries(PARQUET_TABLES) as [ParquetTable, string][]) {
    const file = join(dir, `${table}.parquet`);
    await conn.run(
      `COPY (SELECT * FROM ${table} ORDER BY ${order}) TO ${sqlString(file)} (FORMAT PARQUET, COMPRESSION ZSTD)`,
    );
    const count = await conn.runAndReadAll(`SELECT count(*) FROM ${table}`);
    written.push({ table, file, rows: Number(count.getRows()[0]?.[0] ?? 0) });
  }
  return written;
}

/**
 * One run's tables as Parquet, through an in-memory history that holds only that run: the same
 * files, columns and types as the whole history's export, so a reader can stack them.
 */
export async function exportRunParquet(card: Scorecard, dir: string): Promise<ParquetFile[]> {
  return withHistory(':memory:', async (conn) => {
    await appendRun(conn, card);
    return exportParquet(conn, dir);
  });
}
