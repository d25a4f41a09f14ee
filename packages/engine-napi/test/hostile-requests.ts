/**
 * fast-check arbitraries for malformed and hostile Elasticsearch requests. Reads target the
 * loaded index `READ_INDEX`; anything that may write or delete targets only `WRITE_INDICES`
 * (or names that cannot exist), so the loaded index's contents stay checkable afterwards.
 */
import fc from 'fast-check';
import { anyJson, awkwardScalar, dateish, plausibleSearch, searchBody } from './hostile-search-bodies.js';
import type { RawRequest } from './raw-client.js';

export const READ_INDEX = 'fz';
export const WRITE_INDICES = ['fzw', 'fzx'];
const BAD_INDEX_NAMES = [
  'nope',
  'Upper',
  '_under',
  '..',
  'a*b',
  'a,b',
  `${'x'.repeat(300)}`,
  'a b',
  '%',
  'ü',
];

/** 1,000 to 10,000 levels of nesting in a few shapes (JSON parsers recurse). */
const deepNesting = fc
  .record({ levels: fc.integer({ min: 1_000, max: 10_000 }), shape: fc.nat(3) })
  .map(({ levels, shape }) => {
    switch (shape) {
      case 0:
        return `{"query":${'{"bool":{"must":'.repeat(levels)}{"match_all":{}}${'}}'.repeat(levels)}}`;
      case 1:
        return `{"query":{"terms":{"k":${'['.repeat(levels)}${']'.repeat(levels)}}}}`;
      case 2:
        return `{"aggs":${'{"a":{"terms":{"field":"k"},"aggs":'.repeat(levels)}{}${'}}'.repeat(levels)}}`;
      default:
        return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    }
  });

/** ES's max_terms_count default is 65,536: go either side of it. */
const hugeTerms = fc
  .record({ count: fc.integer({ min: 1_000, max: 80_000 }), numeric: fc.boolean() })
  .map(({ count, numeric }) =>
    JSON.stringify({
      query: {
        terms: { [numeric ? 'n' : 'k']: Array.from({ length: count }, (_, i) => (numeric ? i : `v${i}`)) },
      },
    }),
  );

/** Valid-looking JSON made invalid: truncated, a byte flipped, or raw invalid UTF-8 spliced in. */
function corrupt(text: string, how: number, at: number): Buffer {
  const bytes = Buffer.from(text);
  const i = bytes.length === 0 ? 0 : at % bytes.length;
  switch (how) {
    case 0:
      return bytes.subarray(0, i);
    case 1:
      return Buffer.concat([bytes.subarray(0, i), Buffer.from([0xff, 0xfe, 0xc3]), bytes.subarray(i)]);
    case 2:
      return Buffer.concat([bytes.subarray(0, i), Buffer.from([0xed, 0xa0, 0x80]), bytes.subarray(i)]);
    default: {
      const copy = Buffer.from(bytes);
      if (copy.length > 0) copy[i] = (copy[i] ?? 0) ^ 0x20;
      return copy;
    }
  }
}

const corruptedJson = fc
  .record({ body: searchBody, how: fc.nat(3), at: fc.nat() })
  .map(({ body, how, at }) => corrupt(JSON.stringify(body), how, at));

const bulkActionLine = fc
  .record({
    action: fc.constantFrom('index', 'create', 'delete', 'update', 'upsert', ''),
    meta: fc.record(
      {
        _index: fc.oneof(fc.constantFrom(...WRITE_INDICES, ...BAD_INDEX_NAMES), anyJson),
        _id: fc.oneof(fc.string({ maxLength: 600 }), anyJson),
        routing: anyJson,
        version: awkwardScalar,
        if_seq_no: awkwardScalar,
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ action, meta }) => JSON.stringify({ [action]: meta }));

const docSource = fc.oneof(
  fc.record({ k: anyJson, n: anyJson, f: anyJson, d: dateish, t: anyJson, b: anyJson }, { requiredKeys: [] }),
  anyJson,
);

/** NDJSON lines: mostly plausible action/source pairs, some garbage, blank lines and CRs. */
const bulkLines = fc
  .array(
    fc.oneof(
      fc
        .tuple(
          bulkActionLine,
          docSource.map((d) => JSON.stringify(d) ?? 'null'),
        )
        .map(([a, s]) => `${a}\n${s}`),
      bulkActionLine,
      fc.string({ maxLength: 50 }),
      fc.constantFrom('', '\r', '{', '}', '[]', 'null', '{"index":{}}\n{"k":"x"}\r'),
    ),
    { maxLength: 12 },
  )
  .chain((lines) => fc.boolean().map((trailing) => Buffer.from(lines.join('\n') + (trailing ? '\n' : ''))));

const msearchLines = fc
  .array(
    fc.oneof(
      fc
        .tuple(
          fc.oneof(
            fc.constant({ index: READ_INDEX }),
            fc.record(
              { index: fc.oneof(fc.constantFrom(...BAD_INDEX_NAMES), anyJson) },
              { requiredKeys: [] },
            ),
            fc.dictionary(fc.string({ maxLength: 6 }), anyJson, { maxKeys: 2 }),
          ),
          fc.oneof(searchBody, plausibleSearch),
        )
        .map(([h, b]) => `${JSON.stringify(h)}\n${JSON.stringify(b)}`),
      fc.string({ maxLength: 50 }),
      fc.constantFrom('', '{}', '{', 'null', '[]'),
    ),
    { maxLength: 8 },
  )
  .chain((lines) => fc.boolean().map((trailing) => Buffer.from(lines.join('\n') + (trailing ? '\n' : ''))));

/** Mostly types the service accepts, so most bodies reach the engine; some it must refuse. */
const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 14, arbitrary: fc.constant('application/json') },
  { weight: 2, arbitrary: fc.constant('application/x-ndjson') },
  { weight: 2, arbitrary: fc.constant('application/vnd.elasticsearch+json; compatible-with=8') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', ';;;'),
  },
);

const queryParams = fc
  .dictionary(
    fc.constantFrom(
      'size',
      'from',
      'refresh',
      '_source',
      '_source_includes',
      '_source_excludes',
      'q',
      'sort',
      'timeout',
      'track_total_hits',
      'max_num_segments',
      'filter_path',
      'scroll',
      'search_type',
      'pretty',
      '%zz',
      'a[b]',
    ),
    fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('-1', '1e400', '99999999999999999999', 'true', '%ff', ''),
    ),
    { maxKeys: 3 },
  )
  .map((params) => {
    const entries = Object.entries(params);
    if (entries.length === 0) return '';
    // Leave the values mostly raw (bad escapes included); encode only what Node refuses to send.
    return `?${entries.map(([k, v]) => `${k}=${encodeURI(v).replace(/#/g, '%23')}`).join('&')}`;
  });

/** Path bytes Node's client will send: printable ASCII plus Latin-1 (i.e. invalid UTF-8 bytes). */
const rawSegment = fc
  .array(
    fc.integer({ min: 0x21, max: 0xff }).filter((c) => c !== 0x2f && c !== 0x3f && c !== 0x23 && c !== 0x7f),
    {
      minLength: 1,
      maxLength: 12,
    },
  )
  .map((codes) => String.fromCharCode(...codes));

const readPath = fc
  .record({
    template: fc.constantFrom(
      `/${READ_INDEX}/_search`,
      `/${READ_INDEX}/_search`,
      `/${READ_INDEX}/_count`,
      `/${READ_INDEX}/_msearch`,
      '/_msearch',
      `/${READ_INDEX}/_mget`,
      '/_mget',
      '/{seg}/_search',
      `/${READ_INDEX}/_stats/{seg}`,
      '/_cluster/health/{seg}',
      `/${READ_INDEX}/_refresh`,
    ),
    seg: fc.oneof(rawSegment, fc.constantFrom('%', '%zz', '%ff%fe', '%C3%28', 'ok', '1')),
    params: queryParams,
  })
  .map(({ template, seg, params }) => {
    const path = template.replace('{seg}', seg) + params;
    // Health waits (as ES does) for a missing index until `timeout`, 30s by default; the last
    // `timeout` given wins, so this one bounds every health request the fuzzer sends.
    return template.startsWith('/_cluster/health') ? `${path}${params ? '&' : '?'}timeout=1ms` : path;
  });

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'M-SEARCH'];

/** A write-capable path: never the loaded index. */
const writePath = fc
  .record({
    // `/X{seg}`: a random top-level segment could be a valid new index name; the capital
    // X makes it invalid, so hostile PUTs never create an unbounded number of indices.
    template: fc.constantFrom(
      '/{i}',
      '/{i}/_bulk',
      '/_bulk',
      '/{i}/_doc/{seg}',
      '/{i}/_forcemerge',
      '/{i}/_refresh',
      '/{i}/{seg}',
      '/X{seg}',
    ),
    i: fc.constantFrom(...WRITE_INDICES, ...BAD_INDEX_NAMES.map(encodeURIComponent)),
    seg: fc.oneof(
      rawSegment,
      fc.constantFrom('_search', '_update', '_settings', '_mapping', '_alias', '_close'),
    ),
    params: queryParams,
  })
  .map(({ template, i, seg, params }) => template.replace('{i}', i).replace('{seg}', seg) + params);

const jsonBytes = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null');

const createIndexBody = fc
  .record(
    {
      settings: fc.oneof(
        fc.record({
          index: fc.record(
            {
              number_of_shards: awkwardScalar,
              refresh_interval: awkwardScalar,
              max_result_window: awkwardScalar,
            },
            { requiredKeys: [] },
          ),
        }),
        anyJson,
      ),
      mappings: fc.oneof(
        fc.record({
          properties: fc.dictionary(
            fc.string({ maxLength: 10 }),
            fc.oneof(
              fc.record({
                type: fc.oneof(
                  fc.constantFrom('keyword', 'text', 'long', 'date', 'nested', 'geo_point', 'x'),
                  anyJson,
                ),
              }),
              anyJson,
            ),
            { maxKeys: 4 },
          ),
        }),
        anyJson,
      ),
    },
    { requiredKeys: [] },
  )
  .map(jsonBytes);

export interface HostileRequest extends RawRequest {
  /** What kind of hostility this is, for the failure report. */
  kind: string;
}

function withBody(
  kind: string,
  method: fc.Arbitrary<string>,
  path: fc.Arbitrary<string>,
  body: fc.Arbitrary<Buffer>,
) {
  return fc.record({ method, path, body, type: contentType }).map(
    ({ method, path, body, type }): HostileRequest => ({
      kind,
      method,
      path,
      body,
      headers: type === undefined ? {} : { 'content-type': type },
    }),
  );
}

/**
 * One hostile request. `maxContentLength` is the server's configured body limit, so the
 * oversized family lands just past it.
 */
export function hostileRequest(maxContentLength: number): fc.Arbitrary<HostileRequest> {
  const searchMethod = fc.constantFrom('GET', 'POST');
  const searchPath = fc.constantFrom(`/${READ_INDEX}/_search`, `/${READ_INDEX}/_count`);
  const oversized = fc
    .integer({ min: maxContentLength + 1, max: Math.floor(maxContentLength * 1.5) })
    .map((n) => Buffer.alloc(n, 0x20));
  return fc.oneof(
    { weight: 20, arbitrary: withBody('search', searchMethod, searchPath, searchBody.map(jsonBytes)) },
    {
      weight: 25,
      arbitrary: withBody('plausible-search', searchMethod, searchPath, plausibleSearch.map(jsonBytes)),
    },
    { weight: 8, arbitrary: withBody('search-any-json', searchMethod, readPath, anyJson.map(jsonBytes)) },
    { weight: 8, arbitrary: withBody('corrupted-json', searchMethod, readPath, corruptedJson) },
    {
      weight: 4,
      arbitrary: withBody(
        'random-bytes',
        fc.constantFrom(...METHODS),
        readPath,
        fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
      ),
    },
    {
      weight: 8,
      arbitrary: withBody(
        'bulk-ndjson',
        fc.constantFrom('POST', 'PUT'),
        fc.constantFrom('/_bulk', ...WRITE_INDICES.map((i) => `/${i}/_bulk`), '/nope/_bulk'),
        bulkLines,
      ),
    },
    {
      weight: 6,
      arbitrary: withBody(
        'msearch-ndjson',
        searchMethod,
        fc.constantFrom('/_msearch', `/${READ_INDEX}/_msearch`),
        msearchLines,
      ),
    },
    {
      weight: 3,
      arbitrary: withBody(
        'mget',
        searchMethod,
        fc.constantFrom('/_mget', `/${READ_INDEX}/_mget`),
        fc.oneof(fc.record({ docs: anyJson, ids: anyJson }, { requiredKeys: [] }), anyJson).map(jsonBytes),
      ),
    },
    {
      weight: 6,
      arbitrary: withBody(
        'wrong-method-or-path',
        fc.constantFrom(...METHODS),
        writePath,
        fc.oneof(docSource.map(jsonBytes), fc.constant(Buffer.alloc(0))),
      ),
    },
    {
      weight: 3,
      arbitrary: withBody(
        'create-index',
        fc.constantFrom('PUT'),
        fc.constantFrom(
          ...WRITE_INDICES.map((i) => `/${i}`),
          ...BAD_INDEX_NAMES.map((n) => `/${encodeURIComponent(n)}`),
        ),
        createIndexBody,
      ),
    },
    {
      weight: 2,
      arbitrary: withBody(
        'get-doc',
        fc.constantFrom('GET', 'HEAD'),
        fc.tuple(rawSegment, queryParams).map(([id, q]) => `/${READ_INDEX}/_doc/${id}${q}`),
        fc.constant(Buffer.alloc(0)),
      ),
    },
    {
      weight: 4,
      arbitrary: withBody(
        'read-path-no-body',
        fc.constantFrom('GET', 'HEAD', 'POST'),
        readPath,
        fc.constant(Buffer.alloc(0)),
      ),
    },
    {
      weight: 1,
      arbitrary: withBody(
        'deep-nesting',
        searchMethod,
        searchPath,
        deepNesting.map((s) => Buffer.from(s)),
      ),
    },
    {
      weight: 1,
      arbitrary: withBody(
        'huge-terms',
        searchMethod,
        searchPath,
        hugeTerms.map((s) => Buffer.from(s)),
      ),
    },
    {
      weight: 1,
      arbitrary: withBody(
        'oversized',
        fc.constantFrom('POST', 'PUT'),
        fc.constantFrom(`/${READ_INDEX}/_search`, '/_bulk'),
        oversized,
      ),
    },
  );
}
