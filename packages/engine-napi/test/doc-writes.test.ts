/**
 * Single-document writes and `_cat/indices` over HTTP: delete, partial update (merge, noop,
 * upsert, missing doc, concurrent updates), delete-by-query, and the index table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-writes-'));
  server = await startServer(dataDir);
  const mappings = {
    properties: { n: { type: 'long' }, tag: { type: 'keyword' }, meta: { type: 'object' } },
  };
  await req(server.url, 'PUT', '/w', { mappings });
  const docs = Array.from({ length: 40 }, (_, i) => ({
    n: i,
    tag: i < 25 ? 'old' : 'new',
    meta: { a: 1, b: 2 },
  }));
  await req(server.url, 'POST', '/_bulk?refresh=true', ndjson('w', docs), 'application/x-ndjson');
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const source = async (id: string) => (await req(server.url, 'GET', `/w/_doc/${id}`)).json;

describe('single-document writes', () => {
  it('deletes a document, then reports not_found', async () => {
    const first = await req(server.url, 'DELETE', '/w/_doc/40?refresh=true');
    expect([first.status, first.json.result, first.json.forced_refresh]).toEqual([200, 'deleted', true]);
    const again = await req(server.url, 'DELETE', '/w/_doc/40');
    expect([again.status, again.json.result]).toEqual([404, 'not_found']);
    expect((await source('40')).found).toBe(false);
  });

  it('merges a partial doc recursively, detects a noop, and bumps the version', async () => {
    const before = await source('1');
    const updated = await req(server.url, 'POST', '/w/_update/1', {
      doc: { tag: 'patched', meta: { b: 3 } },
    });
    expect([updated.status, updated.json.result, updated.json._version]).toEqual([
      200,
      'updated',
      before._version + 1,
    ]);
    expect((await source('1'))._source).toEqual({ n: 0, tag: 'patched', meta: { a: 1, b: 3 } });
    const noop = await req(server.url, 'POST', '/w/_update/1', { doc: { tag: 'patched' } });
    expect([noop.status, noop.json.result, noop.json._version]).toEqual([200, 'noop', before._version + 1]);
    // The reads above are real-time: like ES's, they leave what search sees to a refresh.
    await req(server.url, 'POST', '/w/_refresh');
    const found = await req(server.url, 'POST', '/w/_search?track_total_hits=true', {
      query: { term: { tag: 'patched' } },
    });
    expect(found.json.hits.total.value).toBe(1);
  });

  it('upserts a missing document, and fails without an upsert like ES', async () => {
    const missing = await req(server.url, 'POST', '/w/_update/nope', { doc: { n: 1 } });
    expect([missing.status, missing.json.error.type]).toEqual([404, 'document_missing_exception']);
    const created = await req(server.url, 'POST', '/w/_update/fresh', { doc: { n: 7 }, doc_as_upsert: true });
    expect([created.status, created.json.result]).toEqual([201, 'created']);
    const viaUpsert = await req(server.url, 'POST', '/w/_update/fresh2', {
      doc: { n: 1 },
      upsert: { n: 99 },
    });
    expect([viaUpsert.status, (await source('fresh2'))._source]).toEqual([201, { n: 99 }]);
    const before = (await source('1'))._source.n;
    const script = await req(server.url, 'POST', '/w/_update/1', { script: 'ctx._source.n++' });
    expect([script.status, script.json.result, (await source('1'))._source.n]).toEqual([
      200,
      'updated',
      before + 1,
    ]);
    const loop = await req(server.url, 'POST', '/w/_update/1', { script: 'while (true) {}' });
    expect([loop.status, loop.json.error.type, loop.json.error.caused_by.type]).toEqual([
      400,
      'illegal_argument_exception',
      'script_exception',
    ]);
  });

  it('loses no update when many race on one document (retry_on_conflict)', async () => {
    const updates = Array.from({ length: 30 }, (_, i) =>
      req(server.url, 'POST', '/w/_update/2?retry_on_conflict=50', { doc: { [`k${i}`]: i } }),
    );
    const replies = await Promise.all(updates);
    expect(replies.map((r) => r.status).every((s) => s === 200)).toBe(true);
    const doc = (await source('2'))._source as Record<string, number>;
    for (let i = 0; i < 30; i++) expect(doc[`k${i}`]).toBe(i);
    // A correctness test: 30 conflicting updates retry in turn, which on a busy shared machine has
    // taken close to vitest's default 5 s.
  }, 30_000);

  it('deletes by query and reports the counts', async () => {
    const res = await req(server.url, 'POST', '/w/_delete_by_query?refresh=true', {
      query: { term: { tag: 'new' } },
    });
    expect(res.status).toBe(200);
    expect([res.json.total, res.json.deleted, res.json.version_conflicts, res.json.failures]).toEqual([
      14,
      14,
      0,
      [],
    ]);
    const count = await req(server.url, 'POST', '/w/_count', { query: { term: { tag: 'new' } } });
    expect(count.json.count).toBe(0);
    const noQuery = await req(server.url, 'POST', '/w/_delete_by_query', {});
    expect([noQuery.status, noQuery.json.error.type]).toEqual([400, 'action_request_validation_exception']);
  });
});

describe('_cat/indices', () => {
  it('lists indices as JSON and as a text table', async () => {
    const json = await req(server.url, 'GET', '/_cat/indices?format=json&bytes=b');
    const row = json.json.find((r: { index: string }) => r.index === 'w');
    const count = (await req(server.url, 'POST', '/w/_count', {})).json.count;
    // The default replica cannot be allocated on one node: yellow, as ES answers.
    expect(row).toMatchObject({
      health: 'yellow',
      status: 'open',
      pri: '1',
      rep: '1',
      'docs.count': String(count),
    });
    expect(Number(row['store.size'])).toBeGreaterThan(0);
    const res = await fetch(`${server.url}/_cat/indices?v`);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).toMatch(/^health\s+status\s+index\s+uuid/);
    expect(lines.some((l) => /^yellow\s+open\s+w\s/.test(l))).toBe(true);
  });
});
