import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DOUBLE,
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBType,
  type DuckDBValue,
  VARCHAR,
} from '@duckdb/node-api';
import { comparableKey } from '../scorecard/comparable.js';
import type { Scorecard } from '../scorecard/schema.js';
import { HISTORY_DDL, HISTORY_SCHEMA_VERSION } from './ddl.js';
import { insertDistributions } from './distributions.js';

export const historyPath = (outDir: string) => join(outDir, 'history.duckdb');

/** How long to wait for another process's hold on the history to end before giving up. */
const LOCK_WAIT_MS = 120_000;

const isLockConflict = (error: unknown) => /could not set lock|conflicting lock/i.test(String(error));

/**
 * DuckDB lets one process at a time open a database file for writing; a second one fails at
 * once with a lock error. Two benches finishing together must both land, so wait for the other
 * to close it, with jittered backoff (the holder keeps it for well under a second per run).
 */
async function openWithRetry(path: string): Promise<DuckDBInstance> {
  const deadline = performance.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await DuckDBInstance.create(path);
    } catch (error) {
      if (!isLockConflict(error) || performance.now() > deadline) {
        throw isLockConflict(error)
          ? new Error(`${path} is held by another process for over ${LOCK_WAIT_MS / 1000} s: ${error}`)
          : error;
      }
      const backoff = Math.min(1000, 20 * 2 ** attempt) * (0.5 + Math.random());
      await new Promise((r) => setTimeout(r, backoff));
    }
  }
}

/** Open (creating if needed) the history database and make sure its tables exist. */
export async function withHistory<T>(path: string, fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await openWithRetry(path);
  const conn = await instance.connect();
  try {
    await conn.run(HISTORY_DDL);
    await migrate(conn);
    await conn.run('INSERT OR REPLACE INTO meta VALUES ($1, $2)', [
      'history_schema_version',
      String(HISTORY_SCHEMA_VERSION),
    ]);
    return await fn(conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

const orNull = (x: number | undefined): DuckDBValue => (x === undefined ? null : x);

/**
 * The rows table's parameter types, stated: left to inference, a whole-number double (the upper
 * bound of a two-fork interval can be 1e29) is bound as BIGINT and the insert fails.
 */
const ROW_TYPES: DuckDBType[] = [
  ...Array.from({ length: 7 }, () => VARCHAR),
  ...Array.from({ length: 9 }, () => DOUBLE),
  VARCHAR,
];

/** Every stored run with its scorecard, as the run that wrote it kept it. */
async function storedCards(conn: DuckDBConnection): Promise<Scorecard[]> {
  const runs = await conn.runAndReadAll('SELECT CAST(scorecard AS VARCHAR) FROM runs ORDER BY run_id');
  return runs.getRows().map(([json]) => JSON.parse(String(json)) as Scorecard);
}

/**
 * Bring a history written by an older harness up to HISTORY_SCHEMA_VERSION in place, from each
 * run's stored scorecard (HISTORY_DDL has already created any missing table).
 * 1 -> 2: runs gain comparable_key (comparable.ts).
 * 2 -> 3: distributions and quantiles are filled. Emptied first, in one transaction: a harness of
 * version 2 that appended to this file since left them short and set the version back to 2.
 */
export async function migrate(conn: DuckDBConnection): Promise<void> {
  const reader = await conn.runAndReadAll(`SELECT value FROM meta WHERE key = 'history_schema_version'`);
  const version = Number(reader.getRows()[0]?.[0] ?? HISTORY_SCHEMA_VERSION);
  if (version < 2) {
    await conn.run('ALTER TABLE runs ADD COLUMN IF NOT EXISTS comparable_key VARCHAR');
    for (const card of await storedCards(conn))
      await conn.run('UPDATE runs SET comparable_key = $1 WHERE run_id = $2', [
        comparableKey(card),
        card.runId,
      ]);
  }
  if (version < 3) {
    await conn.run('BEGIN TRANSACTION');
    try {
      await conn.run('DELETE FROM distributions');
      await conn.run('DELETE FROM quantiles');
      for (const card of await storedCards(conn)) await insertDistributions(conn, card);
      await conn.run('COMMIT');
    } catch (error) {
      await conn.run('ROLLBACK');
      throw error;
    }
  }
}

/**
 * Insert one run, its rows and its distributions in a single transaction: either all of it lands
 * or none, even when the process is killed half way (DuckDB writes its WAL at commit).
 * `beforeCommit` runs with everything inserted and nothing committed: the seam the crash-safety
 * test kills at.
 */
export async function appendRun(
  conn: DuckDBConnection,
  card: Scorecard,
  hooks: { beforeCommit?: () => Promise<void> } = {},
): Promise<void> {
  await conn.run('BEGIN TRANSACTION');
  try {
    await conn.run(
      `INSERT INTO runs (run_id, created_at, status, git_revision, corpus, docs, candidate, baseline,
         wins, loses, ties, na, exit_code, scorecard, comparable_key)
       VALUES ($1, CAST($2 AS TIMESTAMP), $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        card.runId,
        card.createdAt,
        card.status,
        card.manifest.gitRevision,
        card.manifest.corpus.name,
        card.manifest.corpus.docs,
        card.manifest.candidate.product,
        card.manifest.baseline.product,
        card.counts.WIN,
        card.counts.LOSE,
        card.counts.TIE,
        card.counts['N/A'],
        card.exitCode,
        JSON.stringify(card),
        comparableKey(card),
      ],
    );
    for (const row of card.rows) {
      await conn.run(
        `INSERT INTO rows VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
        [
          card.runId,
          row.id,
          row.group,
          row.family,
          row.title,
          row.unit,
          row.verdict,
          orNull(row.ratio),
          orNull(row.ci?.[0]),
          orNull(row.ci?.[1]),
          orNull(row.candidate.p50),
          orNull(row.candidate.p99),
          orNull(row.baseline.p50),
          orNull(row.baseline.p99),
          orNull(row.candidate.value),
          orNull(row.baseline.value),
          row.reason,
        ],
        ROW_TYPES,
      );
    }
    await insertDistributions(conn, card);
    await hooks.beforeCommit?.();
    await conn.run('COMMIT');
  } catch (error) {
    await conn.run('ROLLBACK');
    throw error;
  }
}

/** Every <out>/<run>/scorecard.json, oldest run first (run ids sort by time). */
export async function findScorecards(outDir: string): Promise<string[]> {
  if (!existsSync(outDir)) return [];
  const entries = await readdir(outDir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && existsSync(join(outDir, e.name, 'scorecard.json')))
    .map((e) => join(outDir, e.name, 'scorecard.json'))
    .sort();
}

/** Recreate the history from the committed scorecard.json files; returns how many runs went in. */
export async function rebuildHistory(outDir: string): Promise<number> {
  const path = historyPath(outDir);
  await rm(path, { force: true });
  await rm(`${path}.wal`, { force: true });
  const files = await findScorecards(outDir);
  return withHistory(path, async (conn) => {
    for (const file of files) {
      const card = JSON.parse(await readFile(file, 'utf8')) as Scorecard;
      try {
        await appendRun(conn, card);
      } catch (error) {
        throw new Error(`${file}: ${(error as Error).message}`);
      }
    }
    return files.length;
  });
}

export interface RunSummary {
  run_id: string;
  created_at: string;
  status: string;
  wins: number;
  loses: number;
  ties: number;
  na: number;
  exit_code: number;
  candidate: string;
  baseline: string;
}

export async function listRuns(conn: DuckDBConnection, limit = 20): Promise<RunSummary[]> {
  const reader = await conn.runAndReadAll(
    `SELECT run_id, CAST(created_at AS VARCHAR) AS created_at, status, wins, loses, ties, na, exit_code, candidate, baseline
     FROM runs ORDER BY created_at DESC, run_id DESC LIMIT $1`,
    [limit],
  );
  return reader.getRowObjectsJson() as unknown as RunSummary[];
}
