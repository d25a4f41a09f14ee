/**
 * Sliced scroll over HTTP: on an index of several shards, the slices of one `max` are
 * disjoint and together hold every document (fewer slices than shards take whole shards, more
 * split a shard by id hash), each slice's later pages stay within it, and the section is
 * checked as Elasticsearch checks it. Also the query rewrites that read the index before the
 * search runs: `more_like_this` document items and `multi_match` field patterns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

let server: RunningServer;
let dataDir: string;
const DOCS = Array.from({ length: 60 }, (_, i) => ({ n: i }));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-slices-'));
  server = await startServer(dataDir);
  await req(server.url, 'PUT', '/sliced', {
    settings: { number_of_shards: 3 },
    mappings: { properties: { n: { type: 'long' } } },
  });
  const bulk = await req(
    server.url,
    'POST',
    '/_bulk?refresh=true',
    ndjson('sliced', DOCS),
    'application/x-ndjson',
  );
  expect(bulk.json.errors).toBe(false);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every id a slice's scroll returns, page by page (pages of 7). */
async function scrollSlice(id: number, max: number): Promise<string[]> {
  const first = await req(server.url, 'POST', '/sliced/_search?scroll=1m', {
    size: 7,
    slice: { id, max },
    sort: ['_doc'],
    track_total_hits: true,
  });
  expect(first.status).toBe(200);
  const total = first.json.hits.total.value as number;
  const ids: string[] = first.json.hits.hits.map((h: { _id: string }) => h._id);
  for (;;) {
    const next = await req(server.url, 'POST', '/_search/scroll', {
      scroll: '1m',
      scroll_id: first.json._scroll_id,
    });
    if (next.json.hits.hits.length === 0) break;
    ids.push(...next.json.hits.hits.map((h: { _id: string }) => h._id));
  }
  await req(server.url, 'DELETE', '/_search/scroll', { scroll_id: first.json._scroll_id });
  expect(ids).toHaveLength(total);
  return ids;
}

describe('sliced scroll', () => {
  for (const max of [2, 3, 5]) {
    it(`splits the index into ${max} disjoint slices that cover it`, async () => {
      const seen = new Set<string>();
      let count = 0;
      for (let id = 0; id < max; id++) {
        const ids = await scrollSlice(id, max);
        count += ids.length;
        for (const x of ids) seen.add(x);
      }
      expect(count).toBe(DOCS.length);
      expect(seen.size).toBe(DOCS.length);
    });
  }

  it('checks the section and the index limit as Elasticsearch does', async () => {
    const noScroll = await req(server.url, 'POST', '/sliced/_search', { slice: { id: 0, max: 2 } });
    expect([noScroll.status, noScroll.json.error.root_cause[0].type]).toEqual([500, 'search_exception']);
    const badId = await req(server.url, 'POST', '/sliced/_search?scroll=1m', { slice: { id: 2, max: 2 } });
    expect([badId.status, badId.json.error.reason]).toEqual([400, 'max must be greater than id']);
    const tooMany = await req(server.url, 'POST', '/sliced/_search?scroll=1m', {
      slice: { id: 0, max: 1025 },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.root_cause[0].reason).toContain('The number of slices [1025] is too large');
    await req(server.url, 'PUT', '/sliced/_settings', { index: { max_slices_per_scroll: 1025 } });
    const allowed = await req(server.url, 'POST', '/sliced/_search?scroll=1m', {
      slice: { id: 0, max: 1025 },
    });
    expect(allowed.status).toBe(200);
  });
});

describe('query rewrites that read the index', () => {
  beforeAll(async () => {
    await req(server.url, 'PUT', '/texts', {
      mappings: {
        properties: { title: { type: 'text', fields: { raw: { type: 'keyword' } } }, n: { type: 'long' } },
      },
    });
    const docs = [
      { title: 'red fox red fox' },
      { title: 'red fox jumps' },
      { title: 'a red fox' },
      { title: 'blue whale' },
    ];
    await req(server.url, 'POST', '/_bulk?refresh=true', ndjson('texts', docs), 'application/x-ndjson');
  });

  it('reads more_like_this document items as like-texts and leaves the items out', async () => {
    const res = await req(server.url, 'POST', '/texts/_search', {
      query: { more_like_this: { like: [{ _id: '1' }], fields: ['title'], min_doc_freq: 1 } },
    });
    expect(res.status).toBe(200);
    const ids = res.json.hits.hits.map((h: { _id: string }) => h._id).sort();
    expect(ids).toEqual(['2', '3']);
    const included = await req(server.url, 'POST', '/texts/_search', {
      query: { more_like_this: { like: [{ _index: 'texts', _id: '1' }], min_doc_freq: 1, include: true } },
    });
    expect(included.json.hits.hits.map((h: { _id: string }) => h._id)).toContain('1');
  });

  it('expands multi_match field patterns on the mapping', async () => {
    const res = await req(server.url, 'POST', '/texts/_search', {
      query: { multi_match: { query: 'whale', fields: ['tit*'] } },
    });
    expect(res.status).toBe(200);
    expect(res.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['4']);
    const none = await req(server.url, 'POST', '/texts/_search', {
      query: { multi_match: { query: 'whale', fields: ['nothing*'] } },
    });
    expect(none.json.hits.total.value).toBe(0);
  });
});
