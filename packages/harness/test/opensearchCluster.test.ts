import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { clusterIndexShape, shardedIndexBody } from '../src/corpus/clusterShards.js';
import { freePort } from '../src/engines/opensearch.js';
import { startOpenSearchCluster } from '../src/engines/opensearchCluster.js';
import { descendants, procFs, treeCpuNs } from '../src/engines/proc.js';
import type { RunningEngine } from '../src/engines/types.js';

// One real 2-node cluster (two JVMs, 512 MiB heap each) for the whole file: starting it is the
// slow part (~30-60 s on 2 cores), the requests take milliseconds. Every node binds 127.0.0.1,
// and stops with the test process if it dies (stdin end-of-file), as the single node does.
const MINUTES = 60_000;
let dir: string;
let engine: RunningEngine;

async function call(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown) {
  const ndjson = Array.isArray(body);
  const response = await request(`${engine.url}${path}`, {
    method,
    headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' },
    body:
      body === undefined
        ? undefined
        : ndjson
          ? `${body.map((l) => JSON.stringify(l)).join('\n')}\n`
          : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test reads loosely typed ES responses
  const json = (await response.body.json()) as any;
  return { status: response.statusCode, json };
}

/** Which node holds each primary shard of `index`. */
async function primaries(index: string): Promise<{ shard: string; state: string; node: string }[]> {
  const shards = await call('GET', `/_cat/shards/${index}?format=json&h=shard,prirep,state,node`);
  expect(shards.status).toBe(200);
  return (shards.json as { shard: string; prirep: string; state: string; node: string }[])
    .filter((s) => s.prirep === 'p')
    .map(({ shard, state, node }) => ({ shard, state, node }));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'everycell-opensearch-cluster-test-'));
  engine = await startOpenSearchCluster({
    nodes: 2,
    dataDir: join(dir, 'home'),
    logFile: join(dir, 'engine.log'),
    port: await freePort(),
    heapMb: 512, // plenty for a handful of documents, and kinder to a shared machine
  });
}, 6 * MINUTES);

afterAll(async () => {
  await engine?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, MINUTES);

test(
  'two JVMs under one supervisor form a green 2-node cluster on 127.0.0.1',
  async () => {
    expect(engine.product).toBe('OpenSearch 2.19.1');
    expect(engine.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(engine.cluster).toEqual({ nodes: 2, heapMbPerNode: 512 });
    const health = await call('GET', '/_cluster/health');
    expect(health.json).toMatchObject({ status: 'green', number_of_nodes: 2, number_of_data_nodes: 2 });
    const nodes = await call('GET', '/_cat/nodes?format=json&h=name,ip');
    expect((nodes.json as { name: string }[]).map((n) => n.name).sort()).toEqual([
      'baseline-1',
      'baseline-2',
    ]);
    expect(new Set((nodes.json as { ip: string }[]).map((n) => n.ip))).toEqual(new Set(['127.0.0.1']));
    // The harness reads CPU and memory through the supervisor's process tree: both JVMs are in it.
    const children = await descendants(engine.pid as number, procFs);
    const names = await Promise.all(children.map((pid) => readFile(`/proc/${pid}/comm`, 'utf8')));
    expect(names.map((n) => n.trim())).toEqual(['java', 'java']);
    expect(await treeCpuNs(engine.pid as number)).toBeGreaterThan(0);
  },
  MINUTES,
);

test(
  'an index with one shard per node is green with a primary on each node',
  async () => {
    const body = shardedIndexBody(
      {
        settings: { index: { number_of_shards: 1, number_of_replicas: 0 } },
        mappings: { properties: { tenant: { type: 'keyword' }, n: { type: 'long' } } },
      },
      clusterIndexShape(2),
    );
    expect((await call('PUT', '/spread', body)).status).toBe(200);
    const bulk = await call(
      'POST',
      '/spread/_bulk?refresh=true',
      Array.from({ length: 40 }, (_, i) => [
        { index: { _id: String(i) } },
        { tenant: `t${i % 4}`, n: i },
      ]).flat(),
    );
    expect(bulk.json.errors).toBe(false);
    const health = await call('GET', '/_cluster/health/spread?wait_for_status=green&timeout=30s');
    expect(health.json).toMatchObject({ status: 'green', active_primary_shards: 2, active_shards: 2 });
    const placed = await primaries('spread');
    expect(placed.map((p) => p.state)).toEqual(['STARTED', 'STARTED']);
    expect(new Set(placed.map((p) => p.node))).toEqual(new Set(['baseline-1', 'baseline-2']));
    // A search through the first node gathers from both shards.
    const search = await call('POST', '/spread/_search', {
      size: 0,
      track_total_hits: true,
      aggs: { tenants: { terms: { field: 'tenant' } } },
    });
    expect(search.json._shards).toMatchObject({ total: 2, successful: 2 });
    expect(search.json.hits.total.value).toBe(40);
    expect(search.json.aggregations.tenants.buckets).toHaveLength(4);
  },
  MINUTES,
);

test(
  'a restart (a fork) brings every node back on its data: green, the documents, the same spread',
  async () => {
    const before = engine;
    await before.stop();
    engine = await (before.restart as () => Promise<RunningEngine>)();
    expect(engine.url).toBe(before.url);
    const count = await call('GET', '/spread/_count');
    expect(count.json.count).toBe(40);
    expect((await call('GET', '/_cluster/health')).json).toMatchObject({
      status: 'green',
      number_of_nodes: 2,
    });
    expect(new Set((await primaries('spread')).map((p) => p.node))).toEqual(
      new Set(['baseline-1', 'baseline-2']),
    );
  },
  6 * MINUTES,
);

test(
  'stop() ends the supervisor and every node',
  async () => {
    const nodes = await descendants(engine.pid as number, procFs);
    expect(nodes).toHaveLength(2);
    await engine.stop();
    const { code, signal } = await engine.exited;
    expect(code === 143 || signal === 'SIGTERM').toBe(true);
    for (const pid of [engine.pid as number, ...nodes]) expect(() => process.kill(pid, 0)).toThrow();
  },
  MINUTES,
);
