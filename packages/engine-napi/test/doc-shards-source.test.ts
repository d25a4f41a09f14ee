/**
 * Document addressing over HTTP: a routed document on an index of several shards is reached
 * only through its shard; `terms` lookups read another document's values; the older `range`
 * bounds `from`/`to`; and a mapping with `_source` disabled keeps no source to show.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-shards-'));
  server = await startServer(dataDir);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('routing on several shards', () => {
  it('reads, updates and deletes a routed document only through its shard', async () => {
    await req(server.url, 'PUT', '/five', { settings: { number_of_shards: 5, number_of_replicas: 0 } });
    await req(server.url, 'PUT', '/five/_doc/1?routing=5', { foo: 'bar' });
    expect((await req(server.url, 'GET', '/five/_doc/1?routing=5')).json._routing).toBe('5');
    // Id `1` and routing `4` route elsewhere than routing `5` on five shards.
    expect((await req(server.url, 'GET', '/five/_doc/1')).status).toBe(404);
    expect((await req(server.url, 'GET', '/five/_source/1')).status).toBe(404);
    expect((await req(server.url, 'POST', '/five/_update/1', { doc: { foo: 'baz' } })).status).toBe(404);
    const wrong = await req(server.url, 'DELETE', '/five/_doc/1?routing=4');
    expect([wrong.status, wrong.json.result]).toEqual([404, 'not_found']);
    const deleted = await req(server.url, 'DELETE', '/five/_doc/1?routing=5');
    expect([deleted.status, deleted.json.result]).toEqual([200, 'deleted']);
  });

  it('leaves a one-shard index reachable by any routing', async () => {
    await req(server.url, 'PUT', '/one', { settings: { number_of_shards: 1 } });
    await req(server.url, 'PUT', '/one/_doc/1?routing=5', { foo: 'bar' });
    expect((await req(server.url, 'GET', '/one/_doc/1')).json.found).toBe(true);
  });
});

describe('search by values read elsewhere', () => {
  it('runs a terms lookup and the from/to range bounds', async () => {
    const mappings = {
      properties: { user: { type: 'keyword' }, followers: { type: 'keyword' }, n: { type: 'long' } },
    };
    await req(server.url, 'PUT', '/people', { settings: { 'index.max_terms_count': 2 }, mappings });
    const docs = [
      { user: 'u1', followers: ['u2', 'u3'], n: 1 },
      { user: 'u2', followers: ['u1', 'u3', 'u4'], n: 2 },
      { user: 'u3', followers: ['u1'], n: 3 },
    ];
    await req(server.url, 'POST', '/_bulk?refresh=true', ndjson('people', docs), 'application/x-ndjson');
    // `ndjson` gives the documents ids 1, 2, 3.
    const lookup = (id: string) => ({ terms: { user: { index: 'people', id, path: 'followers' } } });
    const found = await req(server.url, 'POST', '/people/_search', { query: lookup('1') });
    expect(found.json.hits.total.value).toBe(2);
    // The values read count against the index's max_terms_count like values given.
    expect((await req(server.url, 'POST', '/people/_search', { query: lookup('2') })).status).toBe(400);
    const missing = await req(server.url, 'POST', '/people/_search', { query: lookup('nope') });
    expect(missing.json.hits.total.value).toBe(0);
    const range = await req(server.url, 'POST', '/people/_search', {
      query: { range: { n: { from: 2, to: 3, include_upper: false } } },
    });
    expect(range.json.hits.total.value).toBe(1);
  });
});

describe('stored fields', () => {
  it('shows fields mapped with store by stored_fields, and _source only when named', async () => {
    await req(server.url, 'PUT', '/stored', {
      mappings: {
        properties: { foo: { type: 'keyword', store: true }, n: { type: 'integer', store: true } },
      },
    });
    await req(server.url, 'PUT', '/stored/_doc/1?refresh=true', { foo: 'bar', n: '42' });
    const only = await req(server.url, 'GET', '/stored/_doc/1?stored_fields=foo,n');
    expect([only.json.fields, only.json._source]).toEqual([{ foo: ['bar'], n: [42] }, undefined]);
    const both = await req(server.url, 'POST', '/stored/_mget', {
      docs: [{ _id: '1', stored_fields: ['foo', '_source'] }],
    });
    expect([both.json.docs[0].fields, both.json.docs[0]._source]).toEqual([
      { foo: ['bar'] },
      { foo: 'bar', n: '42' },
    ]);
    const hits = await req(server.url, 'POST', '/stored/_search', { stored_fields: ['n'], _source: false });
    expect(hits.json.hits.hits[0].fields).toEqual({ n: [42] });
  });
});

describe('_source disabled', () => {
  it('indexes the document but shows no source', async () => {
    await req(server.url, 'PUT', '/nosrc', {
      mappings: { _source: { enabled: false }, properties: { k: { type: 'keyword' } } },
    });
    await req(server.url, 'PUT', '/nosrc/_doc/1?refresh=true', { k: 'a' });
    const doc = await req(server.url, 'GET', '/nosrc/_doc/1');
    expect([doc.json.found, doc.json._source]).toEqual([true, undefined]);
    expect((await req(server.url, 'GET', '/nosrc/_source/1')).status).toBe(404);
    const hits = await req(server.url, 'POST', '/nosrc/_search', { query: { term: { k: 'a' } } });
    expect([hits.json.hits.total.value, hits.json.hits.hits[0]._source]).toEqual([1, undefined]);
    const fields = await req(server.url, 'POST', '/nosrc/_search', { fields: ['k'] });
    expect(fields.status).toBe(400);
    expect((await req(server.url, 'POST', '/nosrc/_update/1', { doc: { k: 'b' } })).status).toBe(400);
  });
});
