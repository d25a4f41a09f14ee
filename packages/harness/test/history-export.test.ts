import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyPath, rebuildHistory, withHistory } from '../src/history/db.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { ecdf } from '../src/stats/distribution.js';
import { hdrDecode, hdrEncode } from '../src/stats/hdr.js';
import { percentile } from '../src/stats/percentile.js';
import { sampleCard } from './helpers/card.js';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));
const RUNS = ['20261122T010000Z-aaaaaaa', '20261122T020000Z-bbbbbbb'];

/** n latencies spread evenly over [lowMs, 2 lowMs), in a shuffled order. */
function latencies(n: number, lowMs: number): number[] {
  return Array.from({ length: n }, (_, i) => lowMs * (1 + ((i * 7919) % n) / n));
}

/** The sample card with its latency row (query.term) carrying real distributions on both sides. */
function cardWithDistributions(runId: string, lowMs: number): Scorecard {
  const card = sampleCard(runId);
  const row = card.rows.find((r) => r.id === 'query.term') as Scorecard['rows'][number];
  for (const [side, low] of [
    [row.candidate, lowMs],
    [row.baseline, lowMs / 2],
  ] as const) {
    const lat = latencies(side.samples, low);
    side.p50 = percentile(lat, 50);
    side.ecdf = ecdf(lat);
    side.hdr = hdrEncode(lat);
  }
  return card;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'everycell-history-export-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeCards(cards: Scorecard[]) {
  for (const card of cards) {
    await mkdir(join(dir, card.runId), { recursive: true });
    await writeFile(join(dir, card.runId, 'scorecard.json'), JSON.stringify(card));
  }
}

function historyCli(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/history/cli.ts', ...args], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Rows of a query over the exported files, through DuckDB's own Parquet reader. */
async function readBack(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

describe('history export --parquet', () => {
  it('writes runs, rows, distributions and quantiles that read back as they were stored', async () => {
    const cards = [cardWithDistributions(RUNS[0] as string, 2), cardWithDistributions(RUNS[1] as string, 3)];
    await writeCards(cards);
    expect(await rebuildHistory(dir)).toBe(2);
    const parquet = join(dir, 'export');
    const cli = historyCli('export', '--parquet', parquet, '--out', dir);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('quantiles.parquet');

    const file = (table: string) => `read_parquet('${join(parquet, `${table}.parquet`)}')`;
    const counts = await readBack(
      `SELECT (SELECT count(*) FROM ${file('runs')})::INTEGER AS runs,
              (SELECT count(*) FROM ${file('rows')})::INTEGER AS rows,
              (SELECT count(*) FROM ${file('distributions')})::INTEGER AS distributions,
              (SELECT count(*) FROM ${file('quantiles')})::INTEGER AS quantiles`,
    );
    const ecdfLength = cards[0]?.rows[1]?.candidate.ecdf?.q.length as number;
    // Each card: 3 rows, one of them with a distribution on both sides.
    expect(counts[0]).toEqual({ runs: 2, rows: 6, distributions: 4, quantiles: 4 * ecdfLength });

    const runs = await readBack(`SELECT run_id, wins, loses FROM ${file('runs')} ORDER BY run_id`);
    expect(runs).toEqual(RUNS.map((run_id) => ({ run_id, wins: 1, loses: 1 })));
    const [row] = await readBack(
      `SELECT verdict, ratio, ci_low, candidate_value FROM ${file('rows')}
       WHERE run_id = '${RUNS[1]}' AND row_id = 'ingest.1-client'`,
    );
    expect(row).toEqual({ verdict: 'WIN', ratio: 3, ci_low: 2.5, candidate_value: 30000 });

    for (const card of cards) {
      const side = card.rows[1]?.candidate as Scorecard['rows'][number]['candidate'];
      const [dist] = await readBack(
        `SELECT samples::INTEGER AS samples, hdr FROM ${file('distributions')}
         WHERE run_id = '${card.runId}' AND row_id = 'query.term' AND engine = 'candidate'`,
      );
      expect(dist?.samples).toBe(side.samples);
      expect(dist?.hdr).toBe(side.hdr);
      // 3 significant digits keep a value within 0.1% (one bucket); HDR takes the nearest-rank
      // sample where percentile() interpolates: one sample step (about 0.1% here) further at most.
      const decoded = hdrDecode(dist?.hdr as string);
      expect(decoded.count).toBe(side.samples);
      const p50 = side.p50 as number;
      expect(Math.abs(decoded.percentileMs(50) - p50) / p50).toBeLessThan(0.003);
      const [median] = await readBack(
        `SELECT ms FROM ${file('quantiles')}
         WHERE run_id = '${card.runId}' AND row_id = 'query.term' AND engine = 'candidate' AND q = 0.5`,
      );
      expect(median?.ms).toBe(side.ecdf?.ms[side.ecdf.q.indexOf(0.5)]);
    }
  });

  it('says how to fix a missing folder or a missing history, exit 2', async () => {
    const missingDir = historyCli('export', '--parquet', '--out', dir);
    expect(missingDir.code).toBe(2);
    expect(missingDir.stderr.trim().split('\n')).toHaveLength(1);
    expect(missingDir.stderr).toContain('export --parquet DIR');
    expect(historyCli('export', '--out', dir).stderr).toContain('export --parquet DIR');

    const noHistory = historyCli('export', '--parquet', join(dir, 'export'), '--out', dir);
    expect(noHistory.code).toBe(2);
    expect(noHistory.stderr.trim().split('\n')).toHaveLength(1);
    expect(noHistory.stderr).toContain('npm run history -- rebuild');
    // An empty history is no history either.
    await withHistory(historyPath(dir), async () => undefined);
    const empty = historyCli('export', '--parquet', join(dir, 'export'), '--out', dir);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no runs in the history');
  });
});
