/**
 * Loads the case files (`cases/<area>.json`): requests plus pinned partial expectations.
 *
 * A case is either one request against the seeded corpus, or a sequence (`steps`) run in order on
 * indexes of the case's own: every index a sequence creates (explicitly or by auto-creation) is
 * deleted once it ends, so sequences never see each other's state.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** One HTTP request of a case. */
export interface Request {
  method?: string;
  /**
   * May hold `${n:dotted.path}`: the value at that path in step n's reply, taken from the same
   * engine (scroll ids, `_seq_no`s, auto ids). Bodies may hold it too.
   */
  path: string;
  /** JSON body; or `raw` for bytes sent as-is (malformed JSON); or `ndjson` lines (_bulk, _msearch). */
  body?: unknown;
  raw?: string;
  ndjson?: unknown[];
  /** The whole request as bytes on a fresh socket (methods fetch cannot send, such as CONNECT). */
  http?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** What one request's reply must satisfy. */
export interface Expectations {
  /**
   * `{dotted.path: value}` pinned from the real baseline; `$ids` = ordered hit ids, `$scores` =
   * ordered hit scores, `$keys` = the body's top-level keys, sorted.
   */
  expect?: Record<string, unknown>;
  /**
   * Where Elasticsearch 8 answers otherwise than OpenSearch 2.19: `{path: ES 8 value}`. The
   * baseline is held to `expect`; the candidate to `expect` overridden by these, and is not
   * compared with the baseline's reply (the case's `note` says what differs). A `null` value
   * matches a path that is absent (ES 8 refuses what OpenSearch answers).
   */
  es8?: Record<string, unknown>;
  /** Relative numeric tolerance, only for approximate algorithms (percentiles) and scores. */
  tolerance?: number;
  /** Dotted paths (`*` maps over an array) whose whole values both engines must share. */
  same?: string[];
  /** Paths of the projection (`compare.ts`) left out of the comparison: `$.doc._id`, `$.items[*]._id`. */
  ignore?: string[];
  /**
   * Hits of equal score may come in any order (compared by `_id` within a tie). Only for cases
   * whose ties are real on both engines: Lucene breaks them by internal document number, which
   * ES does not promise, and the candidate's one bulk spreads over several segments.
   */
  tiesInAnyOrder?: boolean;
}

export interface Step extends Request, Expectations {
  /**
   * Request fields sent to the candidate instead, where the two engines name one thing
   * differently (OpenSearch 2.19's `BM25` is the legacy scale the candidate calls `LegacyBM25`,
   * as OpenSearch 3 does). Its reply is still compared with the baseline's.
   */
  candidate?: Partial<Request>;
}

export interface ConformanceCase extends Step {
  name: string;
  /** A stateful case: requests run in order; the case's top-level request fields are unused. */
  steps?: Step[];
  /** Why this case needs a tolerance, where ES 8 differs, or background (shown in RESULTS.md). */
  note?: string;
  /** A reasoned, accepted difference: the candidate is expected to differ and this says why. */
  accepted?: string;
  /** The engine behaviour the case needs: the reason given when the candidate differs. */
  missing?: string;
}

export interface Family {
  family: string;
  cases: ConformanceCase[];
}

export function loadFamilies(dir: string): Family[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ family: basename(file, '.json'), cases: loadCases(join(dir, file)) }));
}

export function loadCases(file: string): ConformanceCase[] {
  const cases = JSON.parse(readFileSync(file, 'utf8')) as ConformanceCase[];
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`${file}: duplicate case name "${c.name}"`);
    names.add(c.name);
    if (c.steps !== undefined && c.steps.length === 0) throw new Error(`${file}: "${c.name}" has no steps`);
  }
  return cases;
}

/** The requests a case sends, in order. */
export function stepsOf(c: ConformanceCase): Step[] {
  return c.steps ?? [c];
}

export function requestInit(c: Request): RequestInit {
  const method = c.method ?? 'POST';
  const headers = (contentType?: string): Record<string, string> => ({
    ...(contentType ? { 'content-type': contentType } : {}),
    ...c.headers,
  });
  if (c.raw !== undefined) return { method, body: c.raw, headers: headers('application/json') };
  if (c.ndjson !== undefined) {
    const body = c.ndjson.map((line) => `${JSON.stringify(line)}\n`).join('');
    return { method, body, headers: headers('application/x-ndjson') };
  }
  if (c.body !== undefined) {
    return { method, body: JSON.stringify(c.body), headers: headers('application/json') };
  }
  return { method, headers: headers() };
}
