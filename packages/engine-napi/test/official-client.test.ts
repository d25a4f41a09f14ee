/**
 * The official Elasticsearch 8 client must work against the candidate unchanged: it refuses
 * servers that do not send `X-Elastic-Product: Elasticsearch`, and it sends the
 * `application/vnd.elasticsearch+json; compatible-with=8` media type, which must be read as JSON.
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
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-client-'));
  server = await startServer(dataDir);
  client = new Client({ node: server.url, requestTimeout: 10_000, maxRetries: 0 });
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const SERVICES = ['checkout', 'search', 'auth'] as const;

describe('@elastic/elasticsearch 8 against the candidate', () => {
  it('identifies the product and answers info', async () => {
    const info = await client.info();
    expect(info.version.number).toMatch(/^8\./);
  });

  it('creates an index, bulk loads, searches and aggregates', async () => {
    await client.indices.create({
      index: 'client-test',
      mappings: {
        properties: { service: { type: 'keyword' }, latency: { type: 'long' }, msg: { type: 'text' } },
      },
    });
    const docs = Array.from({ length: 30 }, (_, i) => ({
      service: SERVICES[i % 3],
      latency: i * 10,
      msg: i % 2 === 0 ? 'request timed out' : 'request ok',
    }));
    const bulk = await client.bulk({
      refresh: true,
      operations: docs.flatMap((doc, i) => [{ index: { _index: 'client-test', _id: `d${i}` } }, doc]),
    });
    expect(bulk.errors).toBe(false);
    expect(bulk.items).toHaveLength(30);

    const count = await client.count({ index: 'client-test' });
    expect(count.count).toBe(30);

    const found = await client.search<{ service: string; latency: number }>({
      index: 'client-test',
      track_total_hits: true,
      query: { bool: { filter: [{ term: { service: 'auth' } }, { range: { latency: { gte: 100 } } }] } },
      sort: [{ latency: 'asc' }],
      size: 3,
    });
    expect(found.hits.total).toEqual({ value: 7, relation: 'eq' });
    expect(found.hits.hits.map((h) => h._source?.latency)).toEqual([110, 140, 170]);

    const phrase = await client.search({
      index: 'client-test',
      track_total_hits: true,
      query: { match_phrase: { msg: 'timed out' } },
      size: 0,
    });
    expect(phrase.hits.total).toEqual({ value: 15, relation: 'eq' });

    const aggs = await client.search({
      index: 'client-test',
      size: 0,
      aggs: {
        per_service: { terms: { field: 'service' }, aggs: { avg_latency: { avg: { field: 'latency' } } } },
      },
    });
    type Bucket = { key: string; doc_count: number; avg_latency: { value: number } };
    const perService = aggs.aggregations?.per_service as { buckets: Bucket[] } | undefined;
    const buckets = perService?.buckets ?? [];
    expect(buckets.map((b) => [b.key, b.doc_count, b.avg_latency.value])).toEqual([
      ['auth', 10, 155],
      ['checkout', 10, 135],
      ['search', 10, 145],
    ]);

    const doc = await client.get<{ service: string }>({ index: 'client-test', id: 'd4' });
    expect(doc._source?.service).toBe('search');
  });

  it('surfaces engine errors as the client error type with the ES error body', async () => {
    const failure = await client.search({ index: 'client-test', query: { no_such_query: {} } as never }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(errors.ResponseError);
    const body = (failure as errors.ResponseError).meta;
    expect(body.statusCode).toBe(400);
    expect((body.body as { error: { type: string } }).error.type).toBe('parsing_exception');
  });
});
