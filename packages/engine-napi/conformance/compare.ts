/**
 * What "the same answer" means between two engines: a projection of each response onto the
 * parts Elasticsearch clients depend on (status, error type, hit totals, ordered ids, _source,
 * sort values, highlight fragments, aggregations, document lookups), then a deep comparison
 * with a numeric tolerance.
 * Timings, shard headers, `_score` and error reasons are left out on purpose: they legitimately
 * differ between engines (BM25 statistics, wording of messages).
 */

type Json = unknown;

export interface Reply {
  status: number;
  body: Json;
}

const asRecord = (value: Json): Record<string, Json> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, Json>)
    : undefined;

/** 'engine': hits compared in the order each engine gave; 'any': equal scores in any order. */
export type TieOrder = 'engine' | 'any';

/**
 * Hits in an order both engines can agree on: hits of equal score (a relevance sort, no `sort`
 * values) by `_id`. Lucene breaks such ties by its internal document number, an artefact of
 * segment layout that Elasticsearch does not promise; the candidate spreads one bulk over
 * several indexing threads' segments, so its tie order changes from run to run.
 */
export function tieOrdered(hits: Record<string, Json>[]): Record<string, Json>[] {
  if (hits.some((h) => h.sort !== undefined || typeof h._score !== 'number')) return hits;
  const sameScore = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  const out: Record<string, Json>[] = [];
  for (let i = 0; i < hits.length; ) {
    let j = i + 1;
    while (j < hits.length && sameScore(hits[i]?._score as number, hits[j]?._score as number)) j++;
    out.push(...hits.slice(i, j).sort((a, b) => String(a._id).localeCompare(String(b._id))));
    i = j;
  }
  return out;
}

function projectHits(hits: Record<string, Json>, ties: TieOrder): Record<string, Json> {
  const all = Array.isArray(hits.hits) ? hits.hits.map((h) => asRecord(h) ?? {}) : [];
  const list = ties === 'any' ? tieOrdered(all) : all;
  return {
    total: hits.total,
    ids: list.map((h) => h._id),
    sources: list.map((h) => h._source),
    routing: list.map((h) => h._routing),
    sort: list.map((h) => h.sort),
    highlight: list.map((h) => h.highlight),
    // Nested top_hits and search hits may carry a `fields` section; none of our cases ask for it.
  };
}

/** Keys of a document-style reply (GET _doc, _mget docs) that both engines must agree on. */
function projectDoc(doc: Record<string, Json>): Record<string, Json> {
  return {
    _index: doc._index,
    _id: doc._id,
    _version: doc._version,
    _routing: doc._routing,
    found: doc.found,
    _source: doc._source,
    result: doc.result,
    error_type: asRecord(doc.error)?.type,
  };
}

/** A `_bulk` item: its action, status, result, id and error type. */
function projectItem(item: Json): Json {
  const [action, reply] = Object.entries(asRecord(item) ?? {})[0] ?? [];
  const r = asRecord(reply) ?? {};
  return {
    action,
    status: r.status,
    _index: r._index,
    _id: r._id,
    _version: r._version,
    result: r.result,
    error_type: asRecord(r.error)?.type,
  };
}

/** Counters of the by-query, scroll-clear and index-management replies, when present. */
const SCALARS = [
  'acknowledged',
  'total',
  'deleted',
  'updated',
  'noops',
  'version_conflicts',
  'succeeded',
  'num_freed',
  'errors',
  'found',
];

export function project(reply: Reply, ties: TieOrder = 'engine'): Record<string, Json> {
  const body = asRecord(reply.body);
  if (!body) return { status: reply.status, body: reply.body };
  const error = asRecord(body.error);
  if (error) return { status: reply.status, error_type: error.type };
  const out: Record<string, Json> = { status: reply.status };
  const hits = asRecord(body.hits);
  if (hits) out.hits = projectHits(hits, ties);
  if (body.aggregations !== undefined) out.aggregations = projectAggs(body.aggregations);
  if (Array.isArray(body.responses)) out.responses = body.responses.map((r) => project(responseOf(r)));
  if (Array.isArray(body.docs)) out.docs = body.docs.map((d) => projectDoc(asRecord(d) ?? {}));
  if (typeof body.count === 'number') out.count = body.count;
  if (!hits && '_id' in body) out.doc = projectDoc(body);
  if (Array.isArray(body.items)) out.items = body.items.map(projectItem);
  for (const key of SCALARS) {
    if (!hits && !('_id' in body) && (typeof body[key] === 'boolean' || typeof body[key] === 'number'))
      out[key] = body[key];
  }
  return out;
}

/** `_msearch` items carry their own `status`; errors inside them use the same shape. */
function responseOf(item: Json): Reply {
  const record = asRecord(item) ?? {};
  return { status: typeof record.status === 'number' ? record.status : 200, body: item };
}

/** top_hits nest a search response inside an aggregation: project those the same way. */
function projectAggs(value: Json): Json {
  if (Array.isArray(value)) return value.map(projectAggs);
  const record = asRecord(value);
  if (!record) return value;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(record)) {
    const childHits = key === 'hits' ? asRecord(child) : undefined;
    out[key] = childHits && 'hits' in childHits ? projectHits(childHits) : projectAggs(child);
  }
  return out;
}

/** Numbers equal within a relative tolerance (absolute below 1); everything else exactly. */
export function firstDifference(a: Json, b: Json, tolerance: number, path = '$'): string | undefined {
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(1, Math.abs(a), Math.abs(b));
    return Math.abs(a - b) <= tolerance * scale ? undefined : `${path}: ${a} != ${b}`;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: ${short(a)} != ${short(b)}`;
    if (a.length !== b.length) return `${path}: length ${a.length} != ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const diff = firstDifference(a[i], b[i], tolerance, `${path}[${i}]`);
      if (diff) return diff;
    }
    return undefined;
  }
  const ra = asRecord(a);
  const rb = asRecord(b);
  if (ra && rb) {
    const keys = [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort();
    for (const key of keys) {
      if (!(key in ra)) return `${path}.${key}: missing in candidate (baseline ${short(rb[key])})`;
      if (!(key in rb)) return `${path}.${key}: only in candidate (${short(ra[key])})`;
      const diff = firstDifference(ra[key], rb[key], tolerance, `${path}.${key}`);
      if (diff) return diff;
    }
    return undefined;
  }
  return a === b ? undefined : `${path}: ${short(a)} != ${short(b)}`;
}

/**
 * Value at a dotted path (`hits.hits.0._id`, `buckets.length`, `hits.hits.*._score`); `status`
 * is the HTTP status. A `*` maps the rest of the path over an array's items.
 */
export function valueAt(reply: Reply, path: string): Json {
  if (path === 'status') return reply.status;
  return walk(reply.body, path.split('.'));
}

function walk(value: Json, parts: string[]): Json {
  let current = value;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (Array.isArray(current)) {
      if (part === '*') return current.map((item) => walk(item, parts.slice(i + 1)));
      current = part === 'length' ? current.length : current[Number(part)];
    } else current = asRecord(current)?.[part];
    if (current === undefined) return undefined;
  }
  return current;
}

/** Removes an `ignore` path (`$.doc._id`, `$.items[*]._id`) from a projection, in place. */
export function dropPath(value: Json, path: string): void {
  const parts = path
    .replace(/^\$\.?/, '')
    .replace(/\[([^\]]*)\]/g, '.$1')
    .split('.')
    .filter((p) => p.length > 0);
  const go = (node: Json, rest: string[]): void => {
    const [head, ...tail] = rest;
    if (head === undefined) return;
    if (Array.isArray(node)) {
      const items = head === '*' ? node : [node[Number(head)]];
      for (const item of items) {
        if (tail.length > 0) go(item, tail);
      }
      return;
    }
    const record = asRecord(node);
    if (!record) return;
    if (tail.length === 0) delete record[head];
    else go(record[head], tail);
  };
  go(value, parts);
}

/** What a pinned expectation's path reads in a reply (`$ids`, `$scores`, `$keys` or a dotted path). */
export function expectationValue(reply: Reply, path: string, ties: TieOrder = 'engine'): Json {
  if (path === '$ids' || path === '$scores') {
    const list = valueAt(reply, 'hits.hits');
    const all = Array.isArray(list) ? list.map((h) => asRecord(h) ?? {}) : [];
    const hits = ties === 'any' ? tieOrdered(all) : all;
    return hits.map((h) => (path === '$ids' ? h._id : h._score));
  }
  if (path === '$keys') return Object.keys(asRecord(reply.body) ?? {}).sort();
  return valueAt(reply, path);
}

/**
 * A case's pinned expectations: `{path: value}` pairs, plus `$ids` / `$scores` for the ordered
 * hit ids / scores and `$keys` for the body's sorted top-level keys.
 * Returns the first unmet one.
 */
export function unmetExpectation(
  reply: Reply,
  expect: Record<string, Json>,
  tolerance: number,
  ties: TieOrder = 'engine',
): string | undefined {
  for (const [path, wanted] of Object.entries(expect)) {
    const actual = expectationValue(reply, path, ties);
    // `null` also stands for "absent": an `es8` override of a path ES 8 does not answer
    // (a refusal where OpenSearch 2.19 answers) cannot be written as `undefined` in JSON.
    if (wanted === null && actual === undefined) continue;
    const diff = firstDifference(actual, wanted, tolerance, path);
    if (diff) return diff;
  }
  return undefined;
}

function short(value: Json): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
