/** Loads the case files (`cases/<family>.json`): requests plus pinned partial expectations. */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export interface ConformanceCase {
  name: string;
  method?: string;
  path: string;
  /** JSON body; or `raw` for bytes sent as-is (malformed JSON); or `ndjson` lines (_msearch). */
  body?: unknown;
  raw?: string;
  ndjson?: unknown[];
  /** `{dotted.path: value}` pinned from the real baseline; `$ids` = ordered hit ids. */
  expect?: Record<string, unknown>;
  /** Relative numeric tolerance, only for approximate algorithms (percentiles). */
  tolerance?: number;
  /** Why this case needs a tolerance, or why a known difference is accepted (shown in RESULTS.md). */
  note?: string;
}

export interface Family {
  family: string;
  cases: ConformanceCase[];
}

export function loadFamilies(dir: string): Family[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const cases = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ConformanceCase[];
      const names = new Set<string>();
      for (const c of cases) {
        if (names.has(c.name)) throw new Error(`${file}: duplicate case name "${c.name}"`);
        names.add(c.name);
      }
      return { family: basename(file, '.json'), cases };
    });
}

export function requestInit(c: ConformanceCase): RequestInit {
  const method = c.method ?? 'POST';
  if (c.raw !== undefined) return { method, body: c.raw, headers: { 'content-type': 'application/json' } };
  if (c.ndjson !== undefined) {
    const body = c.ndjson.map((line) => `${JSON.stringify(line)}\n`).join('');
    return { method, body, headers: { 'content-type': 'application/x-ndjson' } };
  }
  if (c.body !== undefined) {
    return { method, body: JSON.stringify(c.body), headers: { 'content-type': 'application/json' } };
  }
  return { method };
}
