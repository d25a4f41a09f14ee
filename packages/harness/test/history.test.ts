import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendRun, historyPath, listRuns, rebuildHistory, withHistory } from '../src/history/db.js';
import { sampleCard } from './helpers/card.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'everycell-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rowCount(path: string): Promise<{ runs: number; rows: number }> {
  return withHistory(path, async (conn) => {
    const r = await conn.runAndReadAll(
      'SELECT (SELECT count(*) FROM runs) AS runs, (SELECT count(*) FROM rows) AS rows',
    );
    const [runs, rows] = r.getRows()[0] as [bigint, bigint];
    return { runs: Number(runs), rows: Number(rows) };
  });
}

describe('history', () => {
  it('appends a run with its rows and lists it', async () => {
    const path = historyPath(dir);
    await withHistory(path, (conn) => appendRun(conn, sampleCard()));
    expect(await rowCount(path)).toEqual({ runs: 1, rows: 3 });
    const runs = await withHistory(path, (conn) => listRuns(conn));
    expect(runs[0]).toMatchObject({
      run_id: '20261122T023000Z-abcdef1',
      wins: 1,
      loses: 1,
      ties: 0,
      na: 1,
      exit_code: 1,
    });
    const row = await withHistory(path, async (conn) =>
      (
        await conn.runAndReadAll(
          "SELECT verdict, ratio, ci_low, candidate_value FROM rows WHERE row_id = 'ingest.1-client'",
        )
      ).getRowObjectsJson(),
    );
    expect(row[0]).toEqual({ verdict: 'WIN', ratio: 3, ci_low: 2.5, candidate_value: 30000 });
  });

  it('stores a whole-number interval bound past 2^63 (a two-fork interval) as a double', async () => {
    const path = historyPath(dir);
    const card = sampleCard();
    const row = card.rows[0] as (typeof card.rows)[number];
    row.ci = [0, 1.0342061300254554e29];
    await withHistory(path, (conn) => appendRun(conn, card));
    const stored = await withHistory(path, async (conn) =>
      (await conn.runAndReadAll(`SELECT ci_high FROM rows WHERE row_id = '${row.id}'`)).getRows(),
    );
    expect(stored[0]?.[0]).toBe(1.0342061300254554e29);
  });

  it('a failing append leaves the database unchanged (one transaction)', async () => {
    const path = historyPath(dir);
    await withHistory(path, (conn) => appendRun(conn, sampleCard('20261122T010000Z-aaaaaaa')));
    // Two rows with the same id violate the (run_id, row_id) key after the runs row went in.
    const bad = sampleCard('20261122T020000Z-bbbbbbb');
    bad.rows.push({ ...(bad.rows[0] as (typeof bad.rows)[number]) });
    await expect(withHistory(path, (conn) => appendRun(conn, bad))).rejects.toThrow();
    expect(await rowCount(path)).toEqual({ runs: 1, rows: 3 });
  });

  it('rebuilds from every <out>/*/scorecard.json', async () => {
    for (const id of ['20261122T010000Z-aaaaaaa', '20261122T020000Z-bbbbbbb']) {
      await mkdir(join(dir, id), { recursive: true });
      await writeFile(join(dir, id, 'scorecard.json'), JSON.stringify(sampleCard(id)));
    }
    await mkdir(join(dir, 'not-a-run'));
    // A stale database is replaced, not appended to.
    await withHistory(historyPath(dir), (conn) => appendRun(conn, sampleCard('20261101T000000Z-stale00')));
    expect(await rebuildHistory(dir)).toBe(2);
    const runs = await withHistory(historyPath(dir), (conn) => listRuns(conn));
    expect(runs.map((r) => r.run_id)).toEqual(['20261122T020000Z-bbbbbbb', '20261122T010000Z-aaaaaaa']);
  });
});
