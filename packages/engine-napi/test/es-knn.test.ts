/**
 * Elasticsearch 8's kNN dialect through HTTP: a `dense_vector` mapping (printed back by
 * `GET _mapping` with ES's defaults), the top-level `knn` search section with its scores, and
 * ES's errors. OpenSearch has neither, so the conformance suite cannot cover this; the
 * expected scores are ES's formulas worked by hand (see engine-core's dense_vector_knn_test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-es-knn-'));
  server = await startServer(dataDir);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// Doc i (1..5) at [i, 0]; odd ones tagged "odd". With l2_norm the score is 1 / (1 + d²).
const DOCS = [1, 2, 3, 4, 5].map((i) => ({ vec: [i, 0], tag: i % 2 === 1 ? 'odd' : 'even' }));

describe('Elasticsearch 8 dense_vector and top-level knn over HTTP', () => {
  it('maps dense_vector and prints it back as ES does', async () => {
    const mapping = {
      mappings: {
        properties: {
          vec: { type: 'dense_vector', dims: 2, similarity: 'l2_norm' },
          auto: { type: 'dense_vector' },
          tag: { type: 'keyword' },
        },
      },
    };
    expect((await req(server.url, 'PUT', '/vectors', mapping)).status).toBe(200);
    const bulk = await req(
      server.url,
      'POST',
      '/_bulk?refresh=true',
      ndjson('vectors', DOCS),
      'application/x-ndjson',
    );
    expect(bulk.json.errors).toBe(false);
    const got = await req(server.url, 'GET', '/vectors/_mapping');
    expect(got.status).toBe(200);
    expect(got.json.vectors.mappings.properties.vec).toEqual({
      type: 'dense_vector',
      dims: 2,
      index: true,
      similarity: 'l2_norm',
      index_options: { type: 'int8_hnsw', m: 16, ef_construction: 100 },
    });
    // Without `dims`, the first document that has a vector sets it.
    expect(got.json.vectors.mappings.properties.auto.dims).toBeUndefined();
    await req(server.url, 'PUT', '/vectors/_doc/auto?refresh=true', { auto: [1, 2, 3] });
    const after = await req(server.url, 'GET', '/vectors/_mapping');
    expect(after.json.vectors.mappings.properties.auto.dims).toBe(3);
  });

  it('searches with top-level knn: k, filter, union with query, summed scores', async () => {
    const knn = { field: 'vec', query_vector: [0, 0], k: 2 };
    const r = await req(server.url, 'POST', '/vectors/_search', { knn });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(r.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score])).toEqual([
      ['1', 0.5],
      ['2', 0.2],
    ]);
    const filtered = await req(server.url, 'POST', '/vectors/_search', {
      knn: { ...knn, filter: { term: { tag: 'odd' } } },
    });
    expect(filtered.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1', '3']);
    const union = await req(server.url, 'POST', '/vectors/_search', {
      query: { constant_score: { filter: { ids: { values: ['2', '4'] } }, boost: 1 } },
      knn,
    });
    const scores = Object.fromEntries(
      union.json.hits.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]),
    );
    expect(Object.keys(scores).sort()).toEqual(['1', '2', '4']);
    expect(scores['2']).toBeCloseTo(1.2, 5);
    expect(scores['4']).toBeCloseTo(1, 5);
  });

  it('answers the official client', async () => {
    const client = new Client({ node: server.url, requestTimeout: 10_000, maxRetries: 0 });
    try {
      const res = await client.search({
        index: 'vectors',
        knn: { field: 'vec', query_vector: [5, 0], k: 1, num_candidates: 10 },
      });
      expect(res.hits.hits[0]?._id).toBe('5');
      expect(res.hits.hits[0]?._score).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('answers ES errors', async () => {
    const few = await req(server.url, 'POST', '/vectors/_search', {
      knn: { field: 'vec', query_vector: [0, 0], k: 5, num_candidates: 2 },
    });
    expect(few.status).toBe(400);
    expect(few.json.error.type).toBe('illegal_argument_exception');
    expect(few.json.error.reason).toBe('[num_candidates] cannot be less than [k]');
    const dims = await req(server.url, 'POST', '/vectors/_search', {
      knn: { field: 'vec', query_vector: [0, 0, 0], k: 1 },
    });
    expect(dims.status).toBe(400);
    expect(dims.json.error.root_cause[0].reason).toBe(
      'failed to create query: The query vector has a different number of dimensions [3] than the document vectors [2].',
    );
    const doc = await req(server.url, 'PUT', '/vectors/_doc/bad', { vec: [1, 2, 3] });
    expect(doc.status).toBe(400);
    expect(doc.json.error.type).toBe('document_parsing_exception');
  });
});
