import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyPath, withHistory } from '../src/history/db.js';
import { comparableKey } from '../src/scorecard/comparable.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { ecdf } from '../src/stats/distribution.js';
import { hdrEncode } from '../src/stats/hdr.js';
import { sampleCard } from './helpers/card.js';

/** The history as a harness of history schema 2 created it, before distributions and quantiles. */
const VERSION_2_DDL = `
CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE runs (
  run_id VARCHAR PRIMARY KEY, created_at TIMESTAMP, status VARCHAR, git_revision VARCHAR,
  corpus VARCHAR, docs BIGINT, candidate VARCHAR, baseline VARCHAR,
  wins INTEGER, loses INTEGER, ties INTEGER, na INTEGER, exit_code INTEGER, scorecard JSON,
  comparable_key VARCHAR
);
CREATE TABLE rows (
  run_id VARCHAR, row_id VARCHAR, grp VARCHAR, family VARCHAR, title VARCHAR, unit VARCHAR,
  verdict VARCHAR, ratio DOUBLE, ci_low DOUBLE, ci_high DOUBLE,
  candidate_p50 DOUBLE, candidate_p99 DOUBLE, baseline_p50 DOUBLE, baseline_p99 DOUBLE,
  candidate_value DOUBLE, baseline_value DOUBLE, reason VARCHAR,
  PRIMARY KEY (run_id, row_id)
);
INSERT INTO meta VALUES ('history_schema_version', '2');
`;

/** The sample card with distributions on its latency row's two sides (2 ms and 1 ms lows). */
function card(runId: string): Scorecard {
  const c = sampleCard(runId);
  const row = c.rows.find((r) => r.id === 'query.term') as Scorecard['rows'][number];
  for (const [side, low] of [
    [row.candidate, 2],
    [row.baseline, 1],
  ] as const) {
    const lat = Array.from({ length: side.samples }, (_, i) => low * (1 + i / side.samples));
    side.ecdf = ecdf(lat);
    side.hdr = hdrEncode(lat);
  }
  return c;
}

/** A version-2 history holding the cards (runs only: the migration reads their stored JSON). */
async function version2History(path: string, cards: Scorecard[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  try {
    await conn.run(VERSION_2_DDL);
    for (const c of cards)
      await conn.run(
        `INSERT INTO runs (run_id, created_at, status, scorecard, comparable_key)
         VALUES ($1, CAST($2 AS TIMESTAMP), $3, $4, $5)`,
        [c.runId, c.createdAt, c.status, JSON.stringify(c), comparableKey(c)],
      );
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function tables(path: string) {
  return withHistory(path, async (conn) => {
    const read = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
    return {
      version: (await read(`SELECT value FROM meta WHERE key = 'history_schema_version'`))[0]?.value,
      distributions: await read(
        'SELECT run_id, row_id, engine, samples::INTEGER AS samples, hdr FROM distributions ORDER BY ALL',
      ),
      quantiles: (await read('SELECT count(*)::INTEGER AS n FROM quantiles'))[0]?.n,
    };
  });
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'everycell-history-migrate-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('history migration 2 -> 3', () => {
  it('gains distributions and quantiles, filled from each stored scorecard, in place', async () => {
    const path = historyPath(dir);
    const cards = [card('20261122T010000Z-aaaaaaa'), card('20261122T020000Z-bbbbbbb')];
    await version2History(path, cards);
    const after = await tables(path);
    expect(after.version).toBe('3');
    expect(after.distributions).toEqual(
      cards.flatMap((c) =>
        (['baseline', 'candidate'] as const).map((engine) => ({
          run_id: c.runId,
          row_id: 'query.term',
          engine,
          samples: 600,
          hdr: c.rows[1]?.[engine].hdr,
        })),
      ),
    );
    const ecdfLength = cards[0]?.rows[1]?.candidate.ecdf?.q.length as number;
    expect(after.quantiles).toBe(4 * ecdfLength);
  });

  it('refills rather than duplicates when a version-2 harness wrote to a migrated file', async () => {
    const path = historyPath(dir);
    await version2History(path, [card('20261122T010000Z-aaaaaaa')]);
    const first = await tables(path);
    // An older harness opening the file sets the version back to 2 (and appends no distributions).
    await withHistory(path, (conn) =>
      conn.run(`UPDATE meta SET value = '2' WHERE key = 'history_schema_version'`).then(() => undefined),
    );
    expect(await tables(path)).toEqual(first);
  });
});
