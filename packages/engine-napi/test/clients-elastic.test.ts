/**
 * The official Elasticsearch 8 client against the candidate, used as an application uses it:
 * index management, aliases, document CRUD with optimistic concurrency control, bulk with every
 * action, search, the scroll and point-in-time helpers, and `exists`.
 *
 * A test marked `it.fails` exercises behaviour the candidate lacks today (its comment names it):
 * it passes while the candidate falls short and fails once the engine gains the behaviour, when
 * the marker must be removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, errors } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from './server-process.js';

let server: RunningServer;
let client: Client;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-clients-elastic-'));
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
  await client.indices.create({ index, mappings: MAPPINGS });
  if (count === 0) return;
  const bulk = await client.bulk({
    refresh: true,
    operations: docs(count).flatMap((doc, i) => [{ index: { _index: index, _id: `d${i}` } }, doc]),
  });
  expect(bulk.errors).toBe(false);
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

describe('@elastic/elasticsearch 8: index management', () => {
  it('creates, inspects and deletes an index', async () => {
    const created = await client.indices.create({
      index: 'es-im',
      settings: { number_of_shards: 1 },
      mappings: MAPPINGS,
    });
    expect(created).toMatchObject({ acknowledged: true, index: 'es-im' });
    expect(await client.indices.exists({ index: 'es-im' })).toBe(true);
    const mapping = await client.indices.getMapping({ index: 'es-im' });
    expect(mapping['es-im']?.mappings.properties?.tag).toEqual({ type: 'keyword' });
    expect(await statusOf(client.indices.create({ index: 'es-im' }))).toBe(400);
    expect(await client.indices.delete({ index: 'es-im' })).toMatchObject({ acknowledged: true });
    expect(await client.indices.exists({ index: 'es-im' })).toBe(false);
    expect(await statusOf(client.indices.delete({ index: 'es-im' }))).toBe(404);
  });

  it('refreshes an index', async () => {
    await client.indices.create({
      index: 'es-refresh',
      settings: { refresh_interval: '-1' },
      mappings: MAPPINGS,
    });
    await client.index({ index: 'es-refresh', id: '1', document: docs(1)[0] });
    await client.indices.refresh({ index: 'es-refresh' });
    expect((await client.count({ index: 'es-refresh' })).count).toBe(1);
  });

  it('adds a field with putMapping', async () => {
    await seeded('es-putmap');
    await client.indices.putMapping({ index: 'es-putmap', properties: { color: { type: 'keyword' } } });
    const mapping = await client.indices.getMapping({ index: 'es-putmap' });
    expect(mapping['es-putmap']?.mappings.properties?.color).toEqual({ type: 'keyword' });
  });

  it('reads and changes index settings', async () => {
    await seeded('es-settings');
    await client.indices.putSettings({ index: 'es-settings', settings: { number_of_replicas: 0 } });
    const settings = await client.indices.getSettings({ index: 'es-settings' });
    expect(settings['es-settings']?.settings?.index?.number_of_replicas).toBe('0');
  });

  it('creates an index on the first write', async () => {
    await client.index({ index: 'es-auto', id: '1', document: { title: 'hello', n: 1 }, refresh: true });
    expect(await client.indices.exists({ index: 'es-auto' })).toBe(true);
  });
});

describe('@elastic/elasticsearch 8: aliases', () => {
  it('adds an alias and searches through it', async () => {
    await seeded('es-alias', 4);
    await client.indices.putAlias({ index: 'es-alias', name: 'es-alias-read' });
    expect(await client.indices.existsAlias({ name: 'es-alias-read' })).toBe(true);
    const found = await client.search({ index: 'es-alias-read', query: { match_all: {} } });
    expect(found.hits.hits).toHaveLength(4);
  });

  it('swaps an alias atomically with updateAliases', async () => {
    await seeded('es-swap-1', 1);
    await seeded('es-swap-2', 2);
    await client.indices.updateAliases({ actions: [{ add: { index: 'es-swap-1', alias: 'es-current' } }] });
    await client.indices.updateAliases({
      actions: [
        { remove: { index: 'es-swap-1', alias: 'es-current' } },
        { add: { index: 'es-swap-2', alias: 'es-current' } },
      ],
    });
    const aliases = await client.indices.getAlias({ name: 'es-current' });
    expect(Object.keys(aliases)).toEqual(['es-swap-2']);
  });

  it('creates an index with an alias and writes through it', async () => {
    await client.indices.create({
      index: 'es-alias-w',
      mappings: MAPPINGS,
      aliases: { 'es-alias-write': {} },
    });
    const written = await client.index({ index: 'es-alias-write', id: '1', document: docs(1)[0] });
    expect(written._index).toBe('es-alias-w');
  });
});

describe('@elastic/elasticsearch 8: documents', () => {
  it('indexes, gets, updates and deletes a document', async () => {
    await seeded('es-crud');
    const created = await client.index({ index: 'es-crud', id: '1', document: docs(1)[0] });
    expect(created).toMatchObject({ result: 'created', _version: 1 });
    const got = await client.get<Doc>({ index: 'es-crud', id: '1' });
    expect(got._source).toEqual(docs(1)[0]);
    const updated = await client.update({ index: 'es-crud', id: '1', doc: { tag: 'changed' } });
    expect(updated).toMatchObject({ result: 'updated', _version: 2 });
    expect((await client.get<Doc>({ index: 'es-crud', id: '1' }))._source?.tag).toBe('changed');
    const upserted = await client.update({ index: 'es-crud', id: '2', doc: { n: 2 }, doc_as_upsert: true });
    expect(upserted.result).toBe('created');
    expect(await client.delete({ index: 'es-crud', id: '1' })).toMatchObject({ result: 'deleted' });
    expect(await statusOf(client.get({ index: 'es-crud', id: '1' }))).toBe(404);
    expect(await statusOf(client.delete({ index: 'es-crud', id: '1' }))).toBe(404);
  });

  it('reads several documents with mget', async () => {
    await seeded('es-mget', 3);
    const got = await client.mget<Doc>({ index: 'es-mget', ids: ['d0', 'd2', 'nope'] });
    expect(got.docs.map((d) => ('found' in d ? d.found : false))).toEqual([true, true, false]);
  });

  it('writes with if_seq_no/if_primary_term taken from a read', async () => {
    await seeded('es-occ-ok', 1);
    const read = await client.get({ index: 'es-occ-ok', id: 'd0' });
    const written = await client.index({
      index: 'es-occ-ok',
      id: 'd0',
      document: { title: 'new', tag: 'x', n: 9 },
      if_seq_no: read._seq_no,
      if_primary_term: read._primary_term,
    });
    expect(written.result).toBe('updated');
  });

  it('refuses a write with a stale if_seq_no', async () => {
    await seeded('es-occ', 1);
    const read = await client.get({ index: 'es-occ', id: 'd0' });
    await client.index({ index: 'es-occ', id: 'd0', document: { title: 'first', tag: 'a', n: 1 } });
    const stale = client.index({
      index: 'es-occ',
      id: 'd0',
      document: { title: 'lost update', tag: 'b', n: 2 },
      if_seq_no: read._seq_no,
      if_primary_term: read._primary_term,
    });
    expect(await statusOf(stale)).toBe(409);
  });

  it('refuses op_type create over an existing document', async () => {
    await seeded('es-optype', 1);
    const again = client.index({ index: 'es-optype', id: 'd0', op_type: 'create', document: docs(1)[0] });
    expect(await statusOf(again)).toBe(409);
  });

  it('creates with client.create and refuses a second create', async () => {
    await seeded('es-create');
    expect((await client.create({ index: 'es-create', id: '1', document: docs(1)[0] })).result).toBe(
      'created',
    );
    expect(await statusOf(client.create({ index: 'es-create', id: '1', document: docs(1)[0] }))).toBe(409);
  });

  it('keeps external versions', async () => {
    await seeded('es-extver');
    const first = await client.index({
      index: 'es-extver',
      id: '1',
      version: 10,
      version_type: 'external',
      document: docs(1)[0],
    });
    expect(first._version).toBe(10);
    const stale = client.index({
      index: 'es-extver',
      id: '1',
      version: 5,
      version_type: 'external',
      document: {},
    });
    expect(await statusOf(stale)).toBe(409);
  });

  it('indexes without an id', async () => {
    await seeded('es-autoid');
    const created = await client.index({ index: 'es-autoid', document: docs(1)[0], refresh: true });
    expect(created.result).toBe('created');
    expect((await client.get({ index: 'es-autoid', id: created._id })).found).toBe(true);
  });
});

describe('@elastic/elasticsearch 8: exists', () => {
  it('checks that an index exists', async () => {
    await seeded('es-exists-idx');
    expect(await client.indices.exists({ index: 'es-exists-idx' })).toBe(true);
    expect(await client.indices.exists({ index: 'es-exists-nope' })).toBe(false);
  });

  it('checks that a document exists', async () => {
    await seeded('es-exists', 1);
    expect(await client.exists({ index: 'es-exists', id: 'd0' })).toBe(true);
    expect(await client.exists({ index: 'es-exists', id: 'nope' })).toBe(false);
  });

  it('checks that a document source exists', async () => {
    await seeded('es-exists-src', 1);
    expect(await client.existsSource({ index: 'es-exists-src', id: 'd0' })).toBe(true);
  });
});

describe('@elastic/elasticsearch 8: bulk', () => {
  it('runs index, create and delete actions', async () => {
    await seeded('es-bulk', 2);
    const reply = await client.bulk({
      refresh: true,
      operations: [
        { index: { _index: 'es-bulk', _id: 'a' } },
        docs(1)[0],
        { create: { _index: 'es-bulk', _id: 'b' } },
        docs(1)[0],
        { create: { _index: 'es-bulk', _id: 'd0' } },
        docs(1)[0],
        { delete: { _index: 'es-bulk', _id: 'd1' } },
      ],
    });
    expect(reply.items.map((item) => Object.values(item)[0]?.status)).toEqual([201, 201, 409, 200]);
    expect((await client.count({ index: 'es-bulk' })).count).toBe(3);
  });

  it('runs update actions', async () => {
    await seeded('es-bulk-upd', 1);
    const reply = await client.bulk({
      refresh: true,
      operations: [
        { update: { _index: 'es-bulk-upd', _id: 'd0' } },
        { doc: { tag: 'changed' } },
        { update: { _index: 'es-bulk-upd', _id: 'new' } },
        { doc: { tag: 'new' }, doc_as_upsert: true },
      ],
    });
    expect(reply.errors).toBe(false);
    expect((await client.get<Doc>({ index: 'es-bulk-upd', id: 'd0' }))._source?.tag).toBe('changed');
  });

  it('loads documents with the bulk helper', async () => {
    await seeded('es-bulk-helper');
    const stats = await client.helpers.bulk<Doc>({
      datasource: docs(50),
      onDocument: (doc) => ({ index: { _index: 'es-bulk-helper', _id: `h${doc.n}` } }),
      refreshOnCompletion: 'es-bulk-helper',
    });
    expect(stats).toMatchObject({ total: 50, successful: 50, failed: 0 });
    expect((await client.count({ index: 'es-bulk-helper' })).count).toBe(50);
  });

  it('upserts documents with the bulk helper', async () => {
    await seeded('es-bulk-helper-upd');
    const stats = await client.helpers.bulk<Doc>({
      datasource: docs(10),
      onDocument: (doc) => [
        { update: { _index: 'es-bulk-helper-upd', _id: `h${doc.n}` } },
        { doc_as_upsert: true },
      ],
    });
    expect(stats.failed).toBe(0);
  });
});

describe('@elastic/elasticsearch 8: search', () => {
  it('searches, sorts, pages and aggregates', async () => {
    await seeded('es-search', 30);
    const found = await client.search<Doc>({
      index: 'es-search',
      query: { bool: { filter: [{ term: { tag: 't1' } }] } },
      sort: [{ n: 'desc' }],
      size: 3,
      from: 1,
      aggs: { tags: { terms: { field: 'tag' } }, top: { max: { field: 'n' } } },
    });
    expect(found.hits.total).toEqual({ value: 10, relation: 'eq' });
    expect(found.hits.hits.map((h) => h._source?.n)).toEqual([25, 22, 19]);
    expect(found.aggregations?.top).toEqual({ value: 28 });
    const counted = await client.count({ index: 'es-search', query: { match: { title: 'fox' } } });
    expect(counted.count).toBe(15);
  });

  it('runs a multi-search', async () => {
    await seeded('es-msearch', 6);
    const replies = await client.msearch({
      searches: [
        { index: 'es-msearch' },
        { query: { term: { tag: 't0' } } },
        { index: 'es-nope' },
        { query: { match_all: {} } },
      ],
    });
    expect(replies.responses).toHaveLength(2);
    expect('hits' in replies.responses[0] ? replies.responses[0].hits.total : undefined).toEqual({
      value: 2,
      relation: 'eq',
    });
    expect(replies.responses[1]).toHaveProperty('error');
  });

  it('counts with a query string', async () => {
    await seeded('es-count-q', 6);
    expect((await client.count({ index: 'es-count-q', q: 'tag:t0' })).count).toBe(2);
  });

  it('searches with a query string', async () => {
    await seeded('es-search-q', 6);
    const found = await client.search({ index: 'es-search-q', q: 'title:fox' });
    expect(found.hits.hits).toHaveLength(3);
  });
});

describe('@elastic/elasticsearch 8: scroll and point in time', () => {
  it('pages through every document with the scroll helpers', async () => {
    await seeded('es-scroll', 45);
    const seen: number[] = [];
    for await (const page of client.helpers.scrollSearch<Doc>({
      index: 'es-scroll',
      size: 10,
      sort: ['_doc'],
      scroll: '30s',
    })) {
      for (const doc of page.documents) seen.push(doc.n);
    }
    expect(seen.sort((a, b) => a - b)).toEqual(docs(45).map((d) => d.n));
    let count = 0;
    for await (const _doc of client.helpers.scrollDocuments<Doc>({
      index: 'es-scroll',
      size: 7,
      scroll: '30s',
    })) {
      count++;
    }
    expect(count).toBe(45);
  });

  it('scrolls by hand and clears the scroll', async () => {
    await seeded('es-scroll-hand', 5);
    const first = await client.search({
      index: 'es-scroll-hand',
      scroll: '30s',
      size: 2,
      sort: [{ n: 'asc' }],
    });
    const next = await client.scroll({ scroll_id: first._scroll_id as string, scroll: '30s' });
    expect(next.hits.hits.map((h) => h._id)).toEqual(['d2', 'd3']);
    const cleared = await client.clearScroll({ scroll_id: next._scroll_id as string });
    expect(cleared.succeeded).toBe(true);
  });

  it('searches a point in time and closes it', async () => {
    await seeded('es-pit', 12);
    const pit = await client.openPointInTime({ index: 'es-pit', keep_alive: '1m' });
    await client.index({ index: 'es-pit', id: 'late', document: docs(1)[0], refresh: true });
    const page = await client.search<Doc>({
      pit: { id: pit.id, keep_alive: '1m' },
      size: 5,
      sort: [{ n: 'asc' }],
      track_total_hits: true,
    });
    expect(page.hits.total).toEqual({ value: 12, relation: 'eq' });
    const after = page.hits.hits.at(-1)?.sort;
    const next = await client.search<Doc>({
      pit: { id: pit.id, keep_alive: '1m' },
      size: 5,
      sort: [{ n: 'asc' }],
      search_after: after,
    });
    expect(next.hits.hits.map((h) => h._source?.n)).toEqual([5, 6, 7, 8, 9]);
    expect((await client.closePointInTime({ id: pit.id })).succeeded).toBe(true);
  });
});
