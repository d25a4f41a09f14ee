import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureBaselineBuilt, freePort, startOpenSearch } from '../src/engines/opensearch.js';
import type { RunningEngine } from '../src/engines/types.js';

// One real OpenSearch JVM for the whole file: building (cold: ~45 s of downloads) and starting
// (~15 s) it is the slow part, the requests themselves take milliseconds.
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

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'everycell-opensearch-test-'));
  engine = await startOpenSearch({
    dataDir: join(dir, 'home'),
    logFile: join(dir, 'opensearch.log'),
    port: await freePort(),
    heapMb: 512, // plenty for a handful of documents, and kinder to a shared machine
  });
}, 5 * MINUTES);

afterAll(async () => {
  await engine?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}, MINUTES);

test(
  'starts the real OpenSearch 2.19.1 as the baseline',
  async () => {
    expect(engine.role).toBe('baseline');
    expect(engine.version).toBe('2.19.1');
    expect(engine.product).toBe('OpenSearch 2.19.1');
    expect(engine.pid).toBeGreaterThan(0);
    const log = await readFile(join(dir, 'opensearch.log'), 'utf8');
    expect(log).toContain(`everycell-baseline listening on ${engine.url}`);
  },
  MINUTES,
);

test(
  'indexes typed documents and answers a search with a terms aggregation',
  async () => {
    const created = await call('PUT', '/products', {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: {
        properties: {
          sku: { type: 'keyword' },
          title: { type: 'text' },
          stock: { type: 'long' },
          price: { type: 'double' },
          added: { type: 'date' },
          active: { type: 'boolean' },
        },
      },
    });
    expect(created.status).toBe(200);

    const docs = [
      { sku: 'a-1', title: 'red wool scarf', stock: 3, price: 19.5, added: '2026-01-02', active: true },
      { sku: 'a-2', title: 'blue wool hat', stock: 0, price: 12.0, added: '2026-02-03', active: false },
      { sku: 'b-1', title: 'red cotton shirt', stock: 7, price: 25.25, added: '2026-03-04', active: true },
      { sku: 'b-2', title: 'green wool socks', stock: 12, price: 5.0, added: '2026-04-05', active: true },
    ];
    const bulk = await call(
      'POST',
      '/products/_bulk',
      docs.flatMap((doc, i) => [{ index: { _id: String(i + 1) } }, doc]),
    );
    expect(bulk.status).toBe(200);
    expect(bulk.json.errors).toBe(false);
    expect((await call('POST', '/products/_refresh')).status).toBe(200);

    const search = await call('POST', '/products/_search', {
      track_total_hits: true,
      query: { bool: { must: [{ match: { title: 'wool' } }], filter: [{ term: { active: true } }] } },
      aggs: { by_sku: { terms: { field: 'sku' } }, max_price: { max: { field: 'price' } } },
      sort: [{ stock: 'asc' }],
    });
    expect(search.status).toBe(200);
    expect(search.json.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(search.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1', '4']);
    expect(search.json.aggregations.by_sku.buckets).toEqual([
      { key: 'a-1', doc_count: 1 },
      { key: 'b-2', doc_count: 1 },
    ]);
    expect(search.json.aggregations.max_price.value).toBe(19.5);
  },
  MINUTES,
);

test(
  'k-NN: a lucene-engine knn_vector index answers query.knn',
  async () => {
    const created = await call('PUT', '/vectors', {
      settings: { index: { knn: true, number_of_shards: 1, number_of_replicas: 0 } },
      mappings: {
        properties: {
          v: {
            type: 'knn_vector',
            dimension: 3,
            method: { name: 'hnsw', engine: 'lucene', space_type: 'l2' },
          },
        },
      },
    });
    expect(created.status).toBe(200);
    const vectors = [
      [0, 0, 1],
      [1, 0, 0],
      [0.9, 0.1, 0],
      [0, 1, 0],
    ];
    const bulk = await call(
      'POST',
      '/vectors/_bulk?refresh=true',
      vectors.flatMap((v, i) => [{ index: { _id: String(i + 1) } }, { v }]),
    );
    expect(bulk.json.errors).toBe(false);
    const search = await call('POST', '/vectors/_search', {
      size: 2,
      query: { knn: { v: { vector: [1, 0, 0], k: 2 } } },
    });
    expect(search.status).toBe(200);
    expect(search.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2', '3']);
  },
  MINUTES,
);

test(
  'stop() ends the JVM',
  async () => {
    const pid = engine.pid as number;
    await engine.stop();
    const { code, signal } = await engine.exited;
    // SIGTERM runs the launcher's shutdown hook; the JVM then exits with 128 + 15.
    expect(code === 143 || signal === 'SIGTERM').toBe(true);
    expect(() => process.kill(pid, 0)).toThrow();
  },
  MINUTES,
);

test('a missing java gives a one-line error naming the fix', async () => {
  const path = process.env.PATH;
  process.env.PATH = ''; // spawn looks `java` up in this PATH
  try {
    await expect(ensureBaselineBuilt()).rejects.toThrow(
      '`java` is not installed or not on PATH; install it with: apt-get install -y maven openjdk-17-jdk-headless',
    );
  } finally {
    process.env.PATH = path;
  }
});
