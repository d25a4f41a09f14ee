/**
 * Between tests, what Elasticsearch's test framework wipes: every index (hidden and closed ones
 * too), every template (legacy, composable, component), the cluster settings a test set, open
 * scrolls and stored scripts. Only requests both engines can serve; indices are deleted by
 * name, so neither engine's `action.destructive_requires_name` gets in the way.
 */
import { request } from 'undici';

interface Got {
  status: number;
  json: unknown;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<Got> {
  const res = await request(base + path, {
    method: method as 'GET',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json };
}

/**
 * Every index, from `_cat/indices`, else from `GET /_all` (an engine whose `_cat/indices` fails
 * must still be wiped: one leftover index fails every later test that creates it).
 */
async function indexNames(base: string, problems: string[]): Promise<string[]> {
  for (const query of ['?format=json&h=index&expand_wildcards=all', '?format=json&h=index']) {
    const got = await call(base, 'GET', `/_cat/indices${query}`);
    if (got.status === 200 && Array.isArray(got.json))
      return (got.json as { index: string }[]).map((row) => row.index);
  }
  const all = await call(base, 'GET', '/_all?expand_wildcards=all');
  problems.push(`list indices: _cat/indices failed${all.status === 200 ? ', listed by GET /_all' : ''}`);
  return all.status === 200 && all.json !== null && typeof all.json === 'object' ? Object.keys(all.json) : [];
}

/**
 * Index blocks a failed test may leave (it stopped before its own teardown lifted them): each
 * refuses deleting the index. Lifted one at a time, as both engines let a single block setting
 * through the blocks.
 */
const DELETE_BLOCKING = ['read_only', 'read_only_allow_delete', 'metadata'];

async function liftBlocks(base: string, name: string): Promise<void> {
  for (const block of DELETE_BLOCKING)
    await call(base, 'PUT', `/${encodeURIComponent(name)}/_settings`, { [`index.blocks.${block}`]: null });
}

async function deleteIndices(base: string, problems: string[]): Promise<void> {
  const names = await indexNames(base, problems);
  for (const name of names) {
    const got = await call(base, 'DELETE', `/${encodeURIComponent(name)}?expand_wildcards=all`);
    if (got.status !== 200 && got.status !== 404) {
      if (got.status === 403 || got.status === 429) await liftBlocks(base, name);
      const retry = await call(base, 'DELETE', `/${encodeURIComponent(name)}`);
      if (retry.status !== 200 && retry.status !== 404)
        problems.push(`delete index ${name}: ${retry.status} ${JSON.stringify(retry.json).slice(0, 200)}`);
    }
  }
}

async function deleteTemplates(base: string, problems: string[]): Promise<void> {
  const legacy = await call(base, 'GET', '/_template');
  if (legacy.status === 200 && legacy.json && typeof legacy.json === 'object')
    for (const name of Object.keys(legacy.json)) {
      const got = await call(base, 'DELETE', `/_template/${encodeURIComponent(name)}`);
      if (got.status !== 200) problems.push(`delete template ${name}: ${got.status}`);
    }
  for (const [kind, key] of [
    ['_index_template', 'index_templates'],
    ['_component_template', 'component_templates'],
  ] as const) {
    const listed = await call(base, 'GET', `/${kind}`);
    const items = (listed.json as Record<string, { name: string }[]> | undefined)?.[key];
    if (listed.status !== 200 || !Array.isArray(items)) continue;
    for (const { name } of items) {
      const got = await call(base, 'DELETE', `/${kind}/${encodeURIComponent(name)}`);
      if (got.status !== 200) problems.push(`delete ${kind} ${name}: ${got.status}`);
    }
  }
}

/** Every key of a nested settings map, flattened to dotted names. */
function flatKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => flatKeys(v, prefix ? `${prefix}.${k}` : k));
}

async function resetClusterSettings(base: string, problems: string[]): Promise<void> {
  const got = await call(base, 'GET', '/_cluster/settings');
  if (got.status !== 200) return;
  const current = got.json as { persistent?: unknown; transient?: unknown };
  const reset: Record<string, Record<string, null>> = {};
  for (const scope of ['persistent', 'transient'] as const) {
    const keys = flatKeys(current[scope] ?? {}).filter((k) => k !== '');
    if (keys.length > 0) reset[scope] = Object.fromEntries(keys.map((k) => [k, null]));
  }
  if (Object.keys(reset).length === 0) return;
  const put = await call(base, 'PUT', '/_cluster/settings', reset);
  if (put.status !== 200) problems.push(`reset cluster settings: ${put.status}`);
}

/** Wipes the engine at `base`; returns what could not be wiped (empty when all went). */
export async function wipe(base: string): Promise<string[]> {
  const problems: string[] = [];
  try {
    await call(base, 'DELETE', '/_search/scroll/_all');
    await deleteIndices(base, problems);
    await deleteTemplates(base, problems);
    await resetClusterSettings(base, problems);
  } catch (error) {
    problems.push(`wipe: ${(error as Error).message}`);
  }
  return problems;
}
