import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

const MAPPING = {
  settings: { index: { number_of_shards: 1, number_of_replicas: 0 } },
  mappings: {
    properties: {
      title: { type: 'text' },
      status: { type: 'keyword' },
      bytes: { type: 'long' },
      ts: { type: 'date' },
    },
  },
};

const DOCS = Array.from({ length: 20 }, (_, i) => ({
  title: i % 2 === 0 ? `quick brown fox ${i}` : `lazy dog ${i}`,
  status: ['ok', 'warn', 'error'][i % 3],
  bytes: (i + 1) * 10,
  ts: `2024-0${(i % 3) + 1}-10T00:00:00Z`,
}));

describe('everycell engine over HTTP', () => {
  let dir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-test-'));
    server = await startServer(dir, { EVERYCELL_ENABLE_DEBUG_PANIC: '1' });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers GET / like Elasticsearch, with the product header', async () => {
    const r = await req(server.url, 'GET', '/');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(r.json.tagline).toBe('You Know, for Search');
    expect(r.json.version.number).toMatch(/^8\./);
    expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
  });

  it('creates an index once and validates names', async () => {
    expect((await req(server.url, 'PUT', '/logs', MAPPING)).json).toEqual({
      acknowledged: true,
      shards_acknowledged: true,
      index: 'logs',
    });
    const again = await req(server.url, 'PUT', '/logs', MAPPING);
    expect(again.status).toBe(400);
    expect(again.json.error.type).toBe('resource_already_exists_exception');
    const bad = await req(server.url, 'PUT', '/Logs', MAPPING);
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('invalid_index_name_exception');
    expect((await fetch(`${server.url}/logs`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${server.url}/nope`, { method: 'HEAD' })).status).toBe(404);
  });

  it('bulk-loads with per-item errors, refreshes and counts', async () => {
    const body = `${ndjson('logs', DOCS)}{"index":{"_index":"logs","_id":"bad"}}\n{"bytes":"many"}\n`;
    const r = await req(server.url, 'POST', '/_bulk', body, 'application/x-ndjson');
    expect(r.status).toBe(200);
    expect(r.json.errors).toBe(true);
    expect(r.json.items).toHaveLength(21);
    expect(r.json.items[0].index).toMatchObject({
      _index: 'logs',
      _id: '1',
      _version: 1,
      result: 'created',
      status: 201,
    });
    expect(r.json.items[20].index.status).toBe(400);
    expect(r.json.items[20].index.error.type).toBe('document_parsing_exception');
    expect((await req(server.url, 'POST', '/logs/_refresh')).status).toBe(200);
    expect((await req(server.url, 'GET', '/logs/_count')).json.count).toBe(20);
    const stats = await req(server.url, 'GET', '/logs/_stats');
    expect(stats.json._all.primaries.docs.count).toBe(20);
    expect(stats.json.indices.logs.primaries.store.size_in_bytes).toBeGreaterThan(0);
    const merged = await req(server.url, 'POST', '/logs/_forcemerge?max_num_segments=1');
    expect(merged.status).toBe(200);
    expect(merged.json._shards.failed).toBe(0);
    const store = await req(server.url, 'GET', '/logs/_stats/store');
    expect(store.json._all.primaries.store.size_in_bytes).toBeGreaterThan(0);
    expect((await req(server.url, 'GET', '/logs/_count')).json.count).toBe(20);
    const bad = await req(server.url, 'POST', '/logs/_forcemerge?max_num_segments=0');
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('illegal_argument_exception');
  });

  it('searches with sort, paging and ES hit shapes', async () => {
    const r = await req(server.url, 'POST', '/logs/_search', {
      query: { bool: { filter: [{ term: { status: 'ok' } }, { range: { bytes: { gte: 20 } } }] } },
      sort: [{ bytes: 'desc' }],
      size: 2,
      from: 1,
      track_total_hits: true,
    });
    expect(r.status).toBe(200);
    expect(r.json.timed_out).toBe(false);
    expect(r.json._shards.failed).toBe(0);
    expect(r.json.hits.total).toEqual({ value: 6, relation: 'eq' });
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['16', '13']);
    expect(r.json.hits.hits[0]).toMatchObject({ _index: 'logs', _score: null, sort: [160] });
    expect(r.json.hits.hits[0]._source).toEqual(DOCS[15]);
    const text = await req(server.url, 'POST', '/logs/_search?size=1', {
      query: { match: { title: 'fox' } },
    });
    expect(text.json.hits.total.value).toBe(10);
    expect(text.json.hits.hits[0]._score).toBeGreaterThan(0);
  });

  it('aggregates: exact terms with sub-aggs and a calendar date_histogram', async () => {
    const r = await req(server.url, 'POST', '/logs/_search', {
      size: 0,
      aggs: {
        by_status: { terms: { field: 'status' }, aggs: { total: { sum: { field: 'bytes' } } } },
        per_month: { date_histogram: { field: 'ts', calendar_interval: 'month' } },
        avg_bytes: { avg: { field: 'bytes' } },
      },
    });
    expect(r.status).toBe(200);
    const terms = r.json.aggregations.by_status;
    expect(terms.buckets.map((b: { key: string; doc_count: number }) => [b.key, b.doc_count])).toEqual([
      ['ok', 7],
      ['warn', 7],
      ['error', 6],
    ]);
    expect(terms.sum_other_doc_count).toBe(0);
    expect(terms.buckets[0].total.value).toBe(700);
    expect(r.json.aggregations.per_month.buckets[0]).toMatchObject({
      key_as_string: '2024-01-01T00:00:00.000Z',
      key: 1704067200000,
      doc_count: 7,
    });
    expect(r.json.aggregations.avg_bytes.value).toBe(105);
  });

  it('answers errors with the Elasticsearch error bodies', async () => {
    const malformed = await req(server.url, 'POST', '/logs/_search', '{"query": {');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.type).toBe('json_e_o_f_exception');
    expect(malformed.json.error.root_cause[0].type).toBe('json_e_o_f_exception');
    const unknown = await req(server.url, 'POST', '/logs/_search', { query: { frobnicate: {} } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({
      type: 'parsing_exception',
      reason: 'unknown query [frobnicate]',
    });
    const missing = await req(server.url, 'POST', '/missing/_search', {});
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
    expect(missing.json.status).toBe(404);
    const window = await req(server.url, 'POST', '/logs/_search', { from: 10_000, size: 1 });
    expect(window.status).toBe(400);
    expect(window.json.error.root_cause[0].reason).toContain('Result window is too large');
    const route = await req(server.url, 'GET', '/logs/_frobnicate/x');
    expect(route.status).toBe(400);
    expect(route.json.error).toContain('no handler found for uri');
    expect((await req(server.url, 'DELETE', '/logs/_search')).status).toBe(405);
  });

  it('accepts the Elasticsearch compatibility media type', async () => {
    const type = 'application/vnd.elasticsearch+json; compatible-with=8';
    const res = await fetch(`${server.url}/logs/_count`, {
      method: 'POST',
      headers: { 'content-type': type, accept: type },
      body: JSON.stringify({ query: { term: { status: 'error' } } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('vnd.elasticsearch+json');
    expect(((await res.json()) as { count: number }).count).toBe(6);
  });

  it('turns a Rust panic into a 500 and keeps serving', async () => {
    const r = await req(server.url, 'POST', '/_everycell/debug/panic');
    expect(r.status).toBe(500);
    expect(r.json.error.type).toBe('engine_panic_exception');
    expect((await req(server.url, 'GET', '/logs/_count')).json.count).toBe(20);
  });
});

describe('durability across restarts', () => {
  it('keeps committed and translogged documents through SIGTERM and SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'everycell-restart-'));
    try {
      let server = await startServer(dir);
      await req(server.url, 'PUT', '/r', {
        settings: { index: { refresh_interval: '-1' } },
        mappings: MAPPING.mappings,
      });
      await req(server.url, 'POST', '/r/_bulk', ndjson('r', DOCS.slice(0, 5)), 'application/x-ndjson');
      expect(await server.stop('SIGTERM')).toBe(0);

      server = await startServer(dir);
      expect((await req(server.url, 'GET', '/r/_count')).json.count).toBe(5);
      // Acknowledged but never refreshed, then a hard kill: the translog must bring it back.
      const more = DOCS.slice(0, 8).map((d, i) => ({ ...d, bytes: 1000 + i }));
      const bulk = await req(server.url, 'POST', '/r/_bulk', ndjson('r', more), 'application/x-ndjson');
      expect(bulk.json.errors).toBe(false);
      await server.stop('SIGKILL');

      server = await startServer(dir);
      expect((await req(server.url, 'GET', '/r/_count')).json.count).toBe(8);
      const max = await req(server.url, 'POST', '/r/_search', {
        size: 0,
        aggs: { m: { max: { field: 'bytes' } } },
      });
      expect(max.json.aggregations.m.value).toBe(1007);
      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects bad flags with a one-line error and exit code 2', () => {
    const server = fileURLToPath(new URL('../dist/server.js', import.meta.url));
    const r = spawnSync(process.execPath, [server, '--port', 'abc', '--data-dir', tmpdir()], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--port');
    const unknown = spawnSync(process.execPath, [server, '--frob'], { encoding: 'utf8', env: {} });
    expect(unknown.status).toBe(2);
  });
});
