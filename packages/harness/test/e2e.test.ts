import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_SERVER } from '../src/engines/candidate.js';
import { historyPath, listRuns, withHistory } from '../src/history/db.js';
import { SCORECARD_SCHEMA_VERSION, type Scorecard } from '../src/scorecard/schema.js';
import { runCli } from './helpers/runCli.js';

/**
 * The whole loop through the real CLI against the real candidate and the real OpenSearch:
 * a tiny matrix, but every step real. Needs `npm run build` first (engine-napi dist/ and the
 * Maven-built baseline); without the candidate build it is skipped, and says so.
 */
const candidateBuilt = existsSync(CANDIDATE_SERVER);
if (!candidateBuilt)
  console.warn(`e2e skipped: ${CANDIDATE_SERVER} is missing (npm run build -w packages/engine-napi)`);

describe.skipIf(!candidateBuilt)('bench end to end (real engines)', () => {
  let out: string;
  let result: Awaited<ReturnType<typeof runCli>>;
  let card: Scorecard;
  let runId: string;

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'everycell-e2e-'));
    result = await runCli(
      [
        '--docs',
        '2000',
        '--iterations',
        '60',
        '--warmup',
        '3',
        '--rate',
        '100',
        '--forks',
        '3',
        '--max-forks',
        '3',
        '--rounds',
        '2',
        '--families',
        'query.term,metric.avg,bucket.date_histogram_day,query.prefix,metric.percentiles,feature.mget',
        '--clients',
        '1,2',
        '--out',
        out,
      ],
      300_000,
    );
    runId = (await readdir(out)).find((f) => /^\d{8}T\d{6}Z-/.test(f)) as string;
    if (runId) card = JSON.parse(await readFile(join(out, runId, 'scorecard.json'), 'utf8')) as Scorecard;
  }, 320_000);

  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('completes with exit 0 or 1 and a complete scorecard', () => {
    expect(result.code, `${result.stdout}\n${result.stderr}`).not.toBe(2);
    expect(card.schemaVersion).toBe(SCORECARD_SCHEMA_VERSION);
    expect(card.status).toBe('complete');
    expect(card.exitCode).toBe(result.code);
  });

  it('measured both engines, started by the harness', () => {
    expect(card.manifest.candidate.startedByHarness).toBe(true);
    expect(card.manifest.baseline.startedByHarness).toBe(true);
    expect(card.manifest.baseline.product).toBe('OpenSearch 2.19.1');
    expect(card.manifest.corpus.docs).toBe(2000);
    expect(card.rows.map((r) => r.id)).toEqual([
      'ingest.1-client',
      'query.term',
      'query.prefix',
      'metric.avg',
      'metric.percentiles',
      'bucket.date_histogram_day',
      'feature.mget',
      'memory.rss',
      'disk.store',
      'ingest.2-clients',
    ]);
    const ingest = card.rows[0] as Scorecard['rows'][number];
    expect(ingest.baseline.value).toBeGreaterThan(0);
    const byId = (id: string) => card.rows.find((r) => r.id === id) as Scorecard['rows'][number];
    // OpenSearch force-merges and reports its store; the candidate either does or says why not.
    expect(byId('disk.store').baseline.value).toBeGreaterThan(0);
    expect(byId('disk.store').reason).toMatch(/B\/doc/);
    expect(byId('ingest.2-clients').baseline.value).toBeGreaterThan(0);
    // Both processes were started here, so both have a /proc entry; the baseline is the JVM itself.
    const memory = byId('memory.rss');
    expect(memory.candidate.memory?.processes[0]?.name).toBe('node');
    expect(memory.baseline.memory?.processes[0]?.name).toBe('java');
    expect(memory.baseline.memory?.jvmHeap).toBe('-Xms1024m -Xmx1024m -XX:+AlwaysPreTouch');
    // AlwaysPreTouch commits the 1 GiB heap at start: the JVM is resident beyond it.
    expect(memory.baseline.value).toBeGreaterThan(2 ** 30);
    expect(memory.candidate.value).toBeGreaterThan(0);
    expect(memory.verdict).not.toBe('N/A');
    expect(memory.reason).toMatch(/JVM heap -Xms1024m -Xmx1024m -XX:\+AlwaysPreTouch: the whole heap/);
    for (const row of card.rows.slice(1, -3)) {
      // Both supported: both measured every timed request (breadth rows a third of them).
      // Otherwise the refusing side says why.
      expect(row.baseline.supported, row.reason).toBe(true);
      const timed = ['query.prefix', 'metric.percentiles', 'feature.mget'].includes(row.id) ? 20 : 60;
      if (row.candidate.supported) {
        // Three forks of two rounds (--max-forks 3: no re-measuring fork), each engine restarted
        // per fork; every timed phase also read each engine's CPU from /proc.
        expect(row.forks, row.reason).toBe(3);
        expect(row.rounds, row.reason).toBe(6);
        expect(row.candidate.samples).toBe(Math.ceil(timed / 6) * 6);
        expect(row.baseline.samples).toBe(Math.ceil(timed / 6) * 6);
        expect(row.candidate.cpuMsPerRequest, row.id).toBeGreaterThan(0);
        expect(row.baseline.cpuMsPerRequest, row.id).toBeGreaterThan(0);
        expect(row.candidate.cpuSource).toBe('proc-schedstat');
        expect(row.candidate.idleCpuMsPerSecond, row.id).toBeGreaterThanOrEqual(0);
        expect(row.forkRatios ?? [], row.reason).toHaveLength(row.verdict === 'N/A' ? 0 : 3);
        // Per-side quality fields for the site's drill-downs and the markers.
        expect(row.candidate.ecdf?.q.length).toBeGreaterThan(10);
        expect(row.baseline.timeline?.count.reduce((a, n) => a + n, 0)).toBeGreaterThan(0);
        expect(typeof row.candidate.collapsed).toBe('boolean');
        expect(typeof row.baseline.saturated).toBe('boolean');
        expect(row.candidate.cache?.variedP50).toBe(row.candidate.p50);
      } else {
        expect(row.candidate.error).toBeTruthy();
        expect(row.verdict).toBe('N/A');
      }
    }
  });

  it('measured the harness floor against a null server before the reads', () => {
    expect(card.floor?.rate).toBe(100);
    expect(card.floor?.p50).toBeGreaterThan(0);
    expect(card.floor?.sendLagP99).toBeGreaterThanOrEqual(0);
  });

  it("splits each read row's p50 and p99 into the floor, the queue, the engine and the rest", () => {
    const read = card.rows.filter((r) => r.unit === 'ms' && r.candidate.p50 !== undefined);
    expect(read.length).toBeGreaterThan(0);
    for (const row of read) {
      const c = row.candidate.waterfall;
      expect(c, row.id).toBeDefined();
      // The candidate's own timers: the addon's time, the napi hop and the HTTP handler.
      expect(c?.p50.engineSource, row.id).toBe('server-timing');
      expect(c?.p50.engineMs, row.id).toBeGreaterThan(0);
      expect(c?.p50.hopMs, row.id).toBeDefined();
      expect(c?.p50.serviceMs, row.id).toBeDefined();
      for (const w of [c?.p50, c?.p99, row.baseline.waterfall?.p50, row.baseline.waterfall?.p99]) {
        if (!w) continue;
        const parts =
          w.floorMs + w.queueMs + (w.engineMs ?? 0) + (w.hopMs ?? 0) + (w.serviceMs ?? 0) + w.restMs;
        expect(parts, row.id).toBeCloseTo(w.latencyMs, 2);
      }
      // Searches carry OpenSearch's took; _mget carries none.
      if (row.id !== 'feature.mget') expect(row.baseline.waterfall?.p50.engineSource, row.id).toBe('took');
    }
  });

  it('counts add up to the rows and every verdict has a reason', () => {
    const total = Object.values(card.counts).reduce((a, b) => a + b, 0);
    expect(total).toBe(card.rows.length);
    for (const row of card.rows) expect(row.reason.length).toBeGreaterThan(0);
  });

  it('wrote SCORECARD.md and a history row', async () => {
    const md = await readFile(join(out, runId, 'SCORECARD.md'), 'utf8');
    expect(md).toContain(`# everycell scorecard \`${runId}\``);
    expect(md).toContain('OpenSearch 2.19.1');
    const runs = await withHistory(historyPath(out), (conn) => listRuns(conn));
    expect(runs.map((r) => r.run_id)).toEqual([runId]);
  });
});
