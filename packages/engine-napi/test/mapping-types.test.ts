/**
 * Field types and mapping parameters over HTTP: binary, half_float, scaled_float, the range
 * types with `relation`, text with fielddata and a built-in analyzer, ignore_malformed with
 * `_ignored`, the index limits, and the mapping read APIs over index expressions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, req, startServer } from './server-process.js';

let server: RunningServer;
let dataDir: string;

const search = async (index: string, body: unknown) =>
  req(server.url, 'POST', `/${index}/_search?rest_total_hits_as_int=true`, body);
const total = async (index: string, query: unknown) => (await search(index, { query })).json.hits.total;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-mapping-'));
  server = await startServer(dataDir);
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('binary and reduced-precision numbers', () => {
  beforeAll(async () => {
    const mappings = {
      properties: {
        blob: { type: 'binary', doc_values: true },
        half: { type: 'half_float' },
        price: { type: 'scaled_float', scaling_factor: 100 },
      },
    };
    expect((await req(server.url, 'PUT', '/nums', { mappings })).status).toBe(200);
    await req(server.url, 'PUT', '/nums/_doc/1?refresh=true', { blob: 'YWJj', half: 0.1, price: 1.234 });
    await req(server.url, 'PUT', '/nums/_doc/2?refresh=true', { half: 2049, price: 3 });
  });

  it('finds binary values by exists only, and shows them as base64 doc values', async () => {
    expect(await total('nums', { exists: { field: 'blob' } })).toBe(1);
    const term = await search('nums', { query: { term: { blob: 'YWJj' } } });
    expect(term.status).toBe(400);
    expect(JSON.stringify(term.json)).toContain('Binary fields do not support searching');
    const dv = await search('nums', { query: { ids: { values: ['1'] } }, docvalue_fields: ['blob'] });
    expect(dv.json.hits.hits[0].fields.blob).toEqual(['YWJj']);
    const bad = await req(server.url, 'PUT', '/nums/_doc/3', { blob: 'not base64!' });
    expect(bad.status).toBe(400);
  });

  it('stores half floats and scaled floats as ES reads them back', async () => {
    const agg = await search('nums', {
      size: 0,
      aggs: { h: { max: { field: 'half' } }, p: { min: { field: 'price' } } },
    });
    expect(agg.json.aggregations.h.value).toBe(2048);
    expect(agg.json.aggregations.p.value).toBe(1.23);
    expect(await total('nums', { term: { half: 0.1 } })).toBe(1);
    expect(await total('nums', { range: { price: { gte: 1.225, lte: 1.23 } } })).toBe(1);
  });

  it('refuses scaled_float without its factor', async () => {
    const refused = await req(server.url, 'PUT', '/nofactor', {
      mappings: { properties: { p: { type: 'scaled_float' } } },
    });
    expect([refused.status, refused.json.error.type]).toEqual([400, 'mapper_parsing_exception']);
  });
});

describe('range fields', () => {
  beforeAll(async () => {
    const mappings = {
      properties: { r: { type: 'integer_range' }, d: { type: 'date_range' }, ip: { type: 'ip_range' } },
    };
    await req(server.url, 'PUT', '/ranges', { mappings });
    const docs: [string, unknown][] = [
      ['1', { r: { gte: 1, lte: 5 }, ip: '10.0.0.0/8' }],
      ['2', { r: { gte: 1, lte: 3 }, d: { gte: '2019-12-15T12:00:00Z', lte: '2019-12-15T13:00:00Z' } }],
      ['3', { r: { gte: 4, lt: 6 } }],
    ];
    for (const [id, doc] of docs) await req(server.url, 'PUT', `/ranges/_doc/${id}`, doc);
    await req(server.url, 'POST', '/ranges/_refresh');
  });

  it('matches by relation', async () => {
    const count = (relation: string) => total('ranges', { range: { r: { gte: 3, lte: 4, relation } } });
    expect([await count('intersects'), await count('contains'), await count('within')]).toEqual([3, 1, 0]);
    expect(await total('ranges', { term: { r: 5 } })).toBe(2);
    expect(await total('ranges', { term: { ip: '10.1.2.3' } })).toBe(1);
    expect(await total('ranges', { range: { d: { gte: '2019-12-15||/d', relation: 'within' } } })).toBe(1);
    expect(await total('ranges', { query_string: { query: 'r:[5 TO 9]' } })).toBe(2);
  });

  it('shows ranges in fields and refuses sorting on them', async () => {
    const shown = await search('ranges', { query: { ids: { values: ['1'] } }, fields: ['r'] });
    expect(shown.json.hits.hits[0].fields.r).toEqual([{ gte: 1, lte: 5 }]);
    expect((await search('ranges', { sort: ['r'] })).status).toBe(400);
  });
});

describe('text parameters', () => {
  beforeAll(async () => {
    const mappings = {
      properties: {
        body: { type: 'text', fielddata: true },
        ws: {
          type: 'text',
          analyzer: 'whitespace',
          term_vector: 'with_positions_offsets',
          meta: { unit: 'words' },
        },
      },
    };
    expect((await req(server.url, 'PUT', '/texts', { mappings })).status).toBe(200);
    await req(server.url, 'PUT', '/texts/_doc/1', { body: 'Brown fox', ws: 'Quick-Brown Fox' });
    await req(server.url, 'PUT', '/texts/_doc/2?refresh=true', { body: 'lazy dog', ws: 'lazy dog' });
  });

  it('aggregates and sorts text with fielddata by its analyzed terms', async () => {
    const terms = await search('texts', { size: 0, aggs: { t: { terms: { field: 'body' } } } });
    expect(terms.json.aggregations.t.buckets.map((b: { key: string }) => b.key)).toEqual([
      'brown',
      'dog',
      'fox',
      'lazy',
    ]);
    const sorted = await search('texts', { sort: [{ body: 'asc' }] });
    expect(sorted.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['1', '2']);
    const refused = await search('texts', { sort: ['ws'] });
    expect(refused.status).toBe(400);
  });

  it('indexes and queries with the field analyzer', async () => {
    expect(await total('texts', { match: { ws: 'Quick-Brown' } })).toBe(1);
    expect(await total('texts', { match: { ws: 'quick' } })).toBe(0);
    const mapping = await req(server.url, 'GET', '/texts/_mapping');
    expect(mapping.json.texts.mappings.properties.ws.analyzer).toBe('whitespace');
  });

  it('refuses analyzers it does not have and changes of a fixed parameter', async () => {
    const unknown = await req(server.url, 'PUT', '/texts2', {
      mappings: { properties: { t: { type: 'text', analyzer: 'klingon' } } },
    });
    expect(unknown.status).toBe(400);
    const change = await req(server.url, 'PUT', '/texts/_mapping', { properties: { ws: { type: 'text' } } });
    expect([change.status, change.json.error.type]).toEqual([400, 'illegal_argument_exception']);
  });
});

describe('ignore_malformed and limits', () => {
  it('skips malformed values and lists the fields in _ignored', async () => {
    const mappings = { properties: { n: { type: 'integer', ignore_malformed: true }, d: { type: 'date' } } };
    await req(server.url, 'PUT', '/lenient', { mappings });
    expect(
      (await req(server.url, 'PUT', '/lenient/_doc/1?refresh=true', { n: 'x', d: '2020-01-01' })).status,
    ).toBe(201);
    expect(await total('lenient', { term: { _ignored: 'n' } })).toBe(1);
    expect(await total('lenient', { exists: { field: '_ignored' } })).toBe(1);
    const hit = (await search('lenient', {})).json.hits.hits[0];
    expect(hit._ignored).toEqual(['n']);
    expect((await req(server.url, 'GET', '/lenient/_doc/1')).json._ignored).toEqual(['n']);
  });

  it('enforces per-index request limits', async () => {
    const settings = { 'index.max_docvalue_fields_search': 1, 'index.max_terms_count': 2 };
    await req(server.url, 'PUT', '/limited', {
      settings,
      mappings: { properties: { k: { type: 'keyword' } } },
    });
    const dv = await search('limited', { docvalue_fields: ['a', 'b'] });
    expect(JSON.stringify(dv.json)).toContain('Trying to retrieve too many docvalue_fields');
    const terms = await search('limited', { query: { terms: { k: ['a', 'b', 'c'] } } });
    expect(JSON.stringify(terms.json)).toContain('allowed maximum of [2]');
    const got = await req(server.url, 'GET', '/limited/_settings?flat_settings=true');
    expect(got.json.limited.settings['index.max_terms_count']).toBe('2');
  });
});

describe('mapping reads', () => {
  it('reads field mappings over index expressions, with defaults on request', async () => {
    const all = await req(server.url, 'GET', '/_mapping/field/body');
    expect(all.json.texts.mappings.body.mapping.body.type).toBe('text');
    expect(all.json.nums.mappings).toEqual({});
    const withDefaults = await req(server.url, 'GET', '/tex*/_mapping/field/body?include_defaults=true');
    expect(withDefaults.json.texts.mappings.body.mapping.body.analyzer).toBe('default');
    const skipped = await req(server.url, 'GET', '/missing/_mapping?ignore_unavailable=true');
    expect([skipped.status, skipped.json]).toEqual([200, {}]);
    expect((await req(server.url, 'GET', '/missing/_mapping')).status).toBe(404);
  });
});
