/**
 * Point in time and scroll over HTTP, in both dialects the harness and clients use:
 * Elasticsearch's `/_pit` and OpenSearch's `/_search/point_in_time`, and the scroll API.
 * The paging logic itself is covered in engine-core's `pit_scroll_test.rs`; this checks the
 * routes, bodies and statuses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

let server: RunningServer;
let dataDir: string;
const DOCS = Array.from({ length: 45 }, (_, i) => ({ n: i, kind: i % 2 === 0 ? 'even' : 'odd' }));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-pit-'));
  server = await startServer(dataDir);
  await req(server.url, 'PUT', '/pits', {
    mappings: { properties: { n: { type: 'long' }, kind: { type: 'keyword' } } },
  });
  const bulk = await req(
    server.url,
    'POST',
    '/_bulk?refresh=true',
    ndjson('pits', DOCS),
    'application/x-ndjson',
  );
  expect(bulk.json.errors).toBe(false);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('point in time', () => {
  it('pages an Elasticsearch-style PIT with search_after, then closes it', async () => {
    const opened = await req(server.url, 'POST', '/pits/_pit?keep_alive=1m');
    expect(opened.status).toBe(200);
    const id = opened.json.id as string;
    const seen: number[] = [];
    let after: unknown[] | undefined;
    for (let page = 0; page < 10; page++) {
      const body = {
        size: 10,
        pit: { id, keep_alive: '1m' },
        sort: [{ n: 'desc' }],
        ...(after ? { search_after: after } : {}),
      };
      const res = await req(server.url, 'POST', '/_search', body);
      expect(res.status).toBe(200);
      expect(res.json.pit_id).toBe(id);
      const hits = res.json.hits.hits as { _source: { n: number }; sort: unknown[] }[];
      if (hits.length === 0) break;
      seen.push(...hits.map((h) => h._source.n));
      after = hits.at(-1)?.sort;
    }
    expect(seen).toEqual(DOCS.map((d) => d.n).reverse());
    const closed = await req(server.url, 'DELETE', '/_pit', { id });
    expect([closed.status, closed.json]).toEqual([200, { succeeded: true, num_freed: 1 }]);
    const stale = await req(server.url, 'POST', '/_search', { pit: { id } });
    expect(stale.status).toBe(404);
    expect(stale.json.error.root_cause[0].type).toBe('search_context_missing_exception');
  });

  it('speaks the OpenSearch PIT dialect', async () => {
    const opened = await req(server.url, 'POST', '/pits/_search/point_in_time?keep_alive=1m');
    const id = opened.json.pit_id as string;
    expect(opened.json._shards.successful).toBe(1);
    const res = await req(server.url, 'POST', '/_search', {
      pit: { id },
      query: { term: { kind: 'odd' } },
      track_total_hits: true,
    });
    expect(res.json.hits.total).toEqual({ value: 22, relation: 'eq' });
    const closed = await req(server.url, 'DELETE', '/_search/point_in_time', { pit_id: [id] });
    expect(closed.json).toEqual({ pits: [{ successful: true, pit_id: id }] });
  });

  it('rejects a PIT search that also names an index, and a missing keep_alive', async () => {
    const withIndex = await req(server.url, 'POST', '/pits/_search', { pit: { id: 'x' } });
    expect([withIndex.status, withIndex.json.error.type]).toEqual([
      400,
      'action_request_validation_exception',
    ]);
    const noKeepAlive = await req(server.url, 'POST', '/pits/_pit');
    expect(noKeepAlive.status).toBe(400);
  });
});

describe('scroll', () => {
  it('scrolls to the end with aggregations on the first page only, then clears', async () => {
    const first = await req(server.url, 'POST', '/pits/_search?scroll=1m', {
      size: 20,
      sort: ['_doc'],
      aggs: { kinds: { terms: { field: 'kind' } } },
    });
    expect(first.status).toBe(200);
    const scrollId = first.json._scroll_id as string;
    expect(first.json.aggregations.kinds.buckets).toHaveLength(2);
    const ids = new Set<string>(first.json.hits.hits.map((h: { _id: string }) => h._id));
    for (let page = 0; page < 5; page++) {
      const next = await req(server.url, 'POST', '/_search/scroll', { scroll: '1m', scroll_id: scrollId });
      expect(next.json.aggregations).toBeUndefined();
      if (next.json.hits.hits.length === 0) break;
      for (const h of next.json.hits.hits) ids.add(h._id);
    }
    expect(ids.size).toBe(DOCS.length);
    const cleared = await req(server.url, 'DELETE', '/_search/scroll', { scroll_id: [scrollId] });
    expect([cleared.status, cleared.json]).toEqual([200, { succeeded: true, num_freed: 1 }]);
    const again = await req(server.url, 'DELETE', '/_search/scroll', { scroll_id: scrollId });
    expect([again.status, again.json.num_freed]).toEqual([404, 0]);
  });

  it('clears every scroll with _all', async () => {
    await req(server.url, 'POST', '/pits/_search?scroll=1m', { size: 1 });
    await req(server.url, 'POST', '/pits/_search?scroll=1m', { size: 1 });
    const cleared = await req(server.url, 'DELETE', '/_search/scroll/_all');
    expect(cleared.json.num_freed).toBeGreaterThanOrEqual(2);
  });
});
