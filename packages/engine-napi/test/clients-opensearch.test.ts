/**
 * The official OpenSearch client (opensearch-js 3) against the candidate, used as an application
 * uses it: index management, aliases, document CRUD with optimistic concurrency control, bulk
 * with every action, search, the scroll and point-in-time helpers, and `exists`.
 *
 * A test marked `it.fails` exercises behaviour the candidate lacks today (its comment names it):
 * it passes while the candidate falls short and fails once the engine gains the behaviour, when
 * the marker must be removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, errors } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './server-process.js';

let server: RunningServer;
let client: Client;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-clients-opensearch-'));
  server = await startServer(dataDir);
  client = new Client({ node: server.url, requestTimeout: 10_000, maxRetries: 0 });
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const MAPPINGS = {
  properties: { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } },
} as const;

interface Doc {
  title: string;
  tag: string;
  n: number;
}

const docs = (count: number): Doc[] =>
  Array.from({ length: count }, (_, i) => ({
    title: i % 2 === 0 ? 'quick brown fox' : 'lazy dog',
    tag: `t${i % 3}`,
    n: i,
  }));

/** A fresh index of `count` documents with ids d0..d{count-1}, refreshed. */
async function seeded(index: string, count = 0): Promise<void> {
  await client.indices.create({ index, body: { mappings: MAPPINGS } });
  if (count === 0) return;
  const { body } = await client.bulk({
    refresh: 'true',
    body: docs(count).flatMap((doc, i) => [{ index: { _index: index, _id: `d${i}` } }, doc]),
  });
  expect(body.errors).toBe(false);
}

/** The HTTP status of a rejected client call. */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    if (error instanceof errors.ResponseError) return error.statusCode;
    throw error;
  }
}

describe('opensearch-js: index management', () => {
  it('creates, inspects and deletes an index', async () => {
    const created = await client.indices.create({
      index: 'os-im',
      body: { settings: { number_of_shards: 1 }, mappings: MAPPINGS },
    });
    expect(created.body).toMatchObject({ acknowledged: true, index: 'os-im' });
    expect((await client.indices.exists({ index: 'os-im' })).body).toBe(true);
    const mapping = await client.indices.getMapping({ index: 'os-im' });
    expect(mapping.body['os-im']?.mappings.properties?.tag).toEqual({ type: 'keyword' });
    expect(await statusOf(client.indices.create({ index: 'os-im' }))).toBe(400);
    expect((await client.indices.delete({ index: 'os-im' })).body).toMatchObject({ acknowledged: true });
    expect((await client.indices.exists({ index: 'os-im' })).body).toBe(false);
    expect(await statusOf(client.indices.delete({ index: 'os-im' }))).toBe(404);
  });

  it('refreshes an index', async () => {
    await client.indices.create({
      index: 'os-refresh',
      body: { settings: { refresh_interval: '-1' }, mappings: MAPPINGS },
    });
    await client.index({ index: 'os-refresh', id: '1', body: docs(1)[0] });
    await client.indices.refresh({ index: 'os-refresh' });
    expect((await client.count({ index: 'os-refresh' })).body.count).toBe(1);
  });

  it('adds a field with putMapping', async () => {
    await seeded('os-putmap');
    await client.indices.putMapping({
      index: 'os-putmap',
      body: { properties: { color: { type: 'keyword' } } },
    });
    const mapping = await client.indices.getMapping({ index: 'os-putmap' });
    expect(mapping.body['os-putmap']?.mappings.properties?.color).toEqual({ type: 'keyword' });
  });

  it('reads and changes index settings', async () => {
    await seeded('os-settings');
    await client.indices.putSettings({ index: 'os-settings', body: { index: { number_of_replicas: 0 } } });
    const settings = await client.indices.getSettings({ index: 'os-settings' });
    expect(settings.body['os-settings']?.settings?.index?.number_of_replicas).toBe('0');
  });

  it('creates an index on the first write', async () => {
    await client.index({ index: 'os-auto', id: '1', body: { title: 'hello', n: 1 }, refresh: 'true' });
    expect((await client.indices.exists({ index: 'os-auto' })).body).toBe(true);
  });
});

describe('opensearch-js: aliases', () => {
  it('adds an alias and searches through it', async () => {
    await seeded('os-alias', 4);
    await client.indices.putAlias({ index: 'os-alias', name: 'os-alias-read' });
    expect((await client.indices.existsAlias({ name: 'os-alias-read' })).body).toBe(true);
    const found = await client.search({ index: 'os-alias-read', body: { query: { match_all: {} } } });
    expect(found.body.hits.hits).toHaveLength(4);
  });

  it('swaps an alias atomically with updateAliases', async () => {
    await seeded('os-swap-1', 1);
    await seeded('os-swap-2', 2);
    await client.indices.updateAliases({
      body: { actions: [{ add: { index: 'os-swap-1', alias: 'os-current' } }] },
    });
    await client.indices.updateAliases({
      body: {
        actions: [
          { remove: { index: 'os-swap-1', alias: 'os-current' } },
          { add: { index: 'os-swap-2', alias: 'os-current' } },
        ],
      },
    });
    const aliases = await client.indices.getAlias({ name: 'os-current' });
    expect(Object.keys(aliases.body)).toEqual(['os-swap-2']);
  });

  it('creates an index with an alias and writes through it', async () => {
    await client.indices.create({
      index: 'os-alias-w',
      body: { mappings: MAPPINGS, aliases: { 'os-alias-write': {} } },
    });
    const written = await client.index({ index: 'os-alias-write', id: '1', body: docs(1)[0] });
    expect(written.body._index).toBe('os-alias-w');
  });
});

describe('opensearch-js: documents', () => {
  it('indexes, gets, updates and deletes a document', async () => {
    await seeded('os-crud');
    const created = await client.index({ index: 'os-crud', id: '1', body: docs(1)[0] });
    expect(created.body).toMatchObject({ result: 'created', _version: 1 });
    const got = await client.get<Doc>({ index: 'os-crud', id: '1' });
    expect(got.body._source).toEqual(docs(1)[0]);
    const updated = await client.update({ index: 'os-crud', id: '1', body: { doc: { tag: 'changed' } } });
    expect(updated.body).toMatchObject({ result: 'updated', _version: 2 });
    expect((await client.get<Doc>({ index: 'os-crud', id: '1' })).body._source?.tag).toBe('changed');
    const upserted = await client.update({
      index: 'os-crud',
      id: '2',
      body: { doc: { n: 2 }, doc_as_upsert: true },
    });
    expect(upserted.body.result).toBe('created');
    expect((await client.delete({ index: 'os-crud', id: '1' })).body).toMatchObject({ result: 'deleted' });
    expect(await statusOf(client.get({ index: 'os-crud', id: '1' }))).toBe(404);
    expect(await statusOf(client.delete({ index: 'os-crud', id: '1' }))).toBe(404);
  });

  it('reads several documents with mget', async () => {
    await seeded('os-mget', 3);
    const got = await client.mget({ index: 'os-mget', body: { ids: ['d0', 'd2', 'nope'] } });
    expect(got.body.docs.map((d) => ('found' in d ? d.found : false))).toEqual([true, true, false]);
  });

  it('writes with if_seq_no/if_primary_term taken from a read', async () => {
    await seeded('os-occ-ok', 1);
    const read = await client.get({ index: 'os-occ-ok', id: 'd0' });
    const written = await client.index({
      index: 'os-occ-ok',
      id: 'd0',
      body: { title: 'new', tag: 'x', n: 9 },
      if_seq_no: read.body._seq_no,
      if_primary_term: read.body._primary_term,
    });
    expect(written.body.result).toBe('updated');
  });

  it('refuses a write with a stale if_seq_no', async () => {
    await seeded('os-occ', 1);
    const read = await client.get({ index: 'os-occ', id: 'd0' });
    await client.index({ index: 'os-occ', id: 'd0', body: { title: 'first', tag: 'a', n: 1 } });
    const stale = client.index({
      index: 'os-occ',
      id: 'd0',
      body: { title: 'lost update', tag: 'b', n: 2 },
      if_seq_no: read.body._seq_no,
      if_primary_term: read.body._primary_term,
    });
    expect(await statusOf(stale)).toBe(409);
  });

  it('refuses op_type create over an existing document', async () => {
    await seeded('os-optype', 1);
    const again = client.index({ index: 'os-optype', id: 'd0', op_type: 'create', body: docs(1)[0] });
    expect(await statusOf(again)).toBe(409);
  });

  it('creates with client.create and refuses a second create', async () => {
    await seeded('os-create');
    expect((await client.create({ index: 'os-create', id: '1', body: docs(1)[0] })).body.result).toBe(
      'created',
    );
    expect(await statusOf(client.create({ index: 'os-create', id: '1', body: docs(1)[0] }))).toBe(409);
  });

  it('keeps external versions', async () => {
    await seeded('os-extver');
    const first = await client.index({
      index: 'os-extver',
      id: '1',
      version: 10,
      version_type: 'external',
      body: docs(1)[0],
    });
    expect(first.body._version).toBe(10);
    const stale = client.index({
      index: 'os-extver',
      id: '1',
      version: 5,
      version_type: 'external',
      body: {},
    });
    expect(await statusOf(stale)).toBe(409);
  });

  it('indexes without an id', async () => {
    await seeded('os-autoid');
    const created = await client.index({ index: 'os-autoid', body: docs(1)[0], refresh: 'true' });
    expect(created.body.result).toBe('created');
    expect((await client.get({ index: 'os-autoid', id: created.body._id })).body.found).toBe(true);
  });
});

describe('opensearch-js: exists', () => {
  it('checks that an index exists', async () => {
    await seeded('os-exists-idx');
    expect((await client.indices.exists({ index: 'os-exists-idx' })).body).toBe(true);
    expect((await client.indices.exists({ index: 'os-exists-nope' })).body).toBe(false);
  });

  it('checks that a document exists', async () => {
    await seeded('os-exists', 1);
    expect((await client.exists({ index: 'os-exists', id: 'd0' })).body).toBe(true);
    expect((await client.exists({ index: 'os-exists', id: 'nope' })).body).toBe(false);
  });

  it('checks that a document source exists', async () => {
    await seeded('os-exists-src', 1);
    expect((await client.existsSource({ index: 'os-exists-src', id: 'd0' })).body).toBe(true);
  });
});

describe('opensearch-js: bulk', () => {
  it('runs index, create and delete actions', async () => {
    await seeded('os-bulk', 2);
    const reply = await client.bulk({
      refresh: 'true',
      body: [
        { index: { _index: 'os-bulk', _id: 'a' } },
        docs(1)[0],
        { create: { _index: 'os-bulk', _id: 'b' } },
        docs(1)[0],
        { create: { _index: 'os-bulk', _id: 'd0' } },
        docs(1)[0],
        { delete: { _index: 'os-bulk', _id: 'd1' } },
      ],
    });
    expect(reply.body.items.map((item) => Object.values(item)[0]?.status)).toEqual([201, 201, 409, 200]);
    expect((await client.count({ index: 'os-bulk' })).body.count).toBe(3);
  });

  it('runs update actions', async () => {
    await seeded('os-bulk-upd', 1);
    const reply = await client.bulk({
      refresh: 'true',
      body: [
        { update: { _index: 'os-bulk-upd', _id: 'd0' } },
        { doc: { tag: 'changed' } },
        { update: { _index: 'os-bulk-upd', _id: 'new' } },
        { doc: { tag: 'new' }, doc_as_upsert: true },
      ],
    });
    expect(reply.body.errors).toBe(false);
    expect((await client.get<Doc>({ index: 'os-bulk-upd', id: 'd0' })).body._source?.tag).toBe('changed');
  });

  it('loads documents with the bulk helper', async () => {
    await seeded('os-bulk-helper');
    const stats = await client.helpers.bulk<Doc>({
      datasource: docs(50),
      onDocument: (doc) => ({ index: { _index: 'os-bulk-helper', _id: `h${doc.n}` } }),
      refreshOnCompletion: 'os-bulk-helper',
    });
    expect(stats).toMatchObject({ total: 50, successful: 50, failed: 0 });
    expect((await client.count({ index: 'os-bulk-helper' })).body.count).toBe(50);
  });

  it('upserts documents with the bulk helper', async () => {
    await seeded('os-bulk-helper-upd');
    const stats = await client.helpers.bulk<Doc>({
      datasource: docs(10),
      onDocument: (doc) => [
        { update: { _index: 'os-bulk-helper-upd', _id: `h${doc.n}` } },
        { doc_as_upsert: true },
      ],
    });
    expect(stats.failed).toBe(0);
  });
});

describe('opensearch-js: search', () => {
  it('searches, sorts, pages and aggregates', async () => {
    await seeded('os-search', 30);
    const found = await client.search({
      index: 'os-search',
      body: {
        query: { bool: { filter: [{ term: { tag: 't1' } }] } },
        sort: [{ n: 'desc' }],
        size: 3,
        from: 1,
        aggs: { tags: { terms: { field: 'tag' } }, top: { max: { field: 'n' } } },
      },
    });
    expect(found.body.hits.total).toEqual({ value: 10, relation: 'eq' });
    expect(found.body.hits.hits.map((h) => (h._source as Doc | undefined)?.n)).toEqual([25, 22, 19]);
    expect(found.body.aggregations?.top).toEqual({ value: 28 });
    const counted = await client.count({ index: 'os-search', body: { query: { match: { title: 'fox' } } } });
    expect(counted.body.count).toBe(15);
  });

  it('runs a multi-search', async () => {
    await seeded('os-msearch', 6);
    const replies = await client.msearch({
      body: [
        { index: 'os-msearch' },
        { query: { term: { tag: 't0' } } },
        { index: 'os-nope' },
        { query: { match_all: {} } },
      ],
    });
    expect(replies.body.responses).toHaveLength(2);
    const [first, second] = replies.body.responses as Record<string, unknown>[];
    expect((first?.hits as { total?: unknown } | undefined)?.total).toEqual({ value: 2, relation: 'eq' });
    expect(second).toHaveProperty('error');
  });

  it('counts with a query string', async () => {
    await seeded('os-count-q', 6);
    expect((await client.count({ index: 'os-count-q', q: 'tag:t0' })).body.count).toBe(2);
  });

  it('searches with a query string', async () => {
    await seeded('os-search-q', 6);
    const found = await client.search({ index: 'os-search-q', q: 'title:fox' });
    expect(found.body.hits.hits).toHaveLength(3);
  });
});

describe('opensearch-js: scroll and point in time', () => {
  it('pages through every document with the scroll helpers', async () => {
    await seeded('os-scroll', 45);
    const seen: number[] = [];
    for await (const page of client.helpers.scrollSearch<Doc>({
      index: 'os-scroll',
      size: 10,
      scroll: '30s',
      body: { sort: ['_doc'] },
    })) {
      for (const doc of page.documents) seen.push(doc.n);
    }
    expect(seen.sort((a, b) => a - b)).toEqual(docs(45).map((d) => d.n));
    let count = 0;
    for await (const _doc of client.helpers.scrollDocuments<Doc>({
      index: 'os-scroll',
      size: 7,
      scroll: '30s',
    })) {
      count++;
    }
    expect(count).toBe(45);
  });

  it('scrolls by hand and clears the scroll', async () => {
    await seeded('os-scroll-hand', 5);
    const first = await client.search({
      index: 'os-scroll-hand',
      scroll: '30s',
      size: 2,
      body: { sort: [{ n: 'asc' }] },
    });
    const next = await client.scroll({ body: { scroll_id: first.body._scroll_id as string, scroll: '30s' } });
    expect(next.body.hits.hits.map((h) => h._id)).toEqual(['d2', 'd3']);
    const cleared = await client.clearScroll({ body: { scroll_id: next.body._scroll_id as string } });
    expect(cleared.body.succeeded).toBe(true);
  });

  it('searches a point in time and deletes it', async () => {
    await seeded('os-pit', 12);
    const pit = await client.createPit({ index: ['os-pit'], keep_alive: '1m' });
    const id = pit.body.pit_id;
    await client.index({ index: 'os-pit', id: 'late', body: docs(1)[0], refresh: 'true' });
    const page = await client.search({
      body: { pit: { id, keep_alive: '1m' }, size: 5, sort: [{ n: 'asc' }], track_total_hits: true },
    });
    expect(page.body.hits.total).toEqual({ value: 12, relation: 'eq' });
    const after = page.body.hits.hits.at(-1)?.sort;
    const next = await client.search({
      body: { pit: { id, keep_alive: '1m' }, size: 5, sort: [{ n: 'asc' }], search_after: after },
    });
    expect(next.body.hits.hits.map((h) => (h._source as Doc | undefined)?.n)).toEqual([5, 6, 7, 8, 9]);
    const deleted = await client.deletePit({ body: { pit_id: [id] } });
    expect(deleted.body.pits?.[0]?.successful).toBe(true);
  });

  it('lists open points in time', async () => {
    await seeded('os-pit-list', 1);
    const pit = await client.createPit({ index: ['os-pit-list'], keep_alive: '1m' });
    const all = await client.getAllPits();
    expect(all.body.pits?.map((p) => p.pit_id)).toContain(pit.body.pit_id);
    await client.deleteAllPits();
  });
});
