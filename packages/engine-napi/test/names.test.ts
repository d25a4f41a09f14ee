/**
 * Property: whatever an index, document id, field name or path segment is called (any Unicode,
 * multi-byte characters, percent signs, dots, stars, commas, emoji), no request answers 5xx and
 * the server stays up. Each generated name set lives in the engine while the index-less
 * endpoints (which walk every index's name) and the index's own endpoints are called, and is
 * deleted after: an index named `test-weird-index-中文` once made every index-less `_search`
 * answer 500 until it was deleted. Seeded (NAMES_SEED reproduces, NAMES_RUNS sets the count).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esErrorShapeProblem, send } from './raw-client.js';
import { type RunningServer, startServer } from './server-process.js';

const SEED = Number(process.env.NAMES_SEED ?? 20261128);
const RUNS = Number(process.env.NAMES_RUNS ?? 50);

/** Characters that stress byte/character handling: multi-byte, wildcard and list syntax, escapes. */
const tricky = fc.constantFrom(
  '中',
  '文',
  'é',
  '😀',
  'ß',
  '*',
  ',',
  '.',
  '%',
  '%25',
  '-',
  '_',
  '+',
  ' ',
  '#',
  '?',
  '\\',
  '"',
  "'",
  ':',
  '/',
);
const piece = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }),
  tricky,
  fc.constantFrom('a', 'idx', 'test-weird-index-'),
);
const name = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));

/** A path segment exactly as a client would encode it. */
const seg = (s: string): string => encodeURIComponent(s);

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** The calls made for one generated (index, id, field) triple, in order. */
function calls(index: string, id: string, field: string): Call[] {
  const i = seg(index);
  return [
    { method: 'PUT', path: `/${i}`, body: { mappings: { properties: { [field]: { type: 'keyword' } } } } },
    { method: 'PUT', path: `/${i}/_doc/${seg(id)}?refresh=true`, body: { [field]: id } },
    {
      method: 'POST',
      path: '/_bulk?refresh=true',
      body: `${JSON.stringify({ index: { _index: index, _id: `${id}2` } })}\n${JSON.stringify({ [field]: 'x' })}\n`,
    },
    { method: 'GET', path: '/_search' },
    {
      method: 'POST',
      path: '/_search',
      body: { query: { term: { [field]: id } }, aggs: { a: { terms: { field } } } },
    },
    { method: 'GET', path: '/_count' },
    { method: 'POST', path: '/_refresh' },
    { method: 'GET', path: '/_mapping' },
    { method: 'GET', path: '/_cat/indices?format=json' },
    { method: 'GET', path: '/_cat/indices' },
    { method: 'GET', path: `/${i}/_search?q=${seg(`${field}:${id}`)}` },
    { method: 'GET', path: `/${i}/_doc/${seg(id)}` },
    { method: 'GET', path: `/${i}/_source/${seg(id)}` },
    { method: 'POST', path: '/_mget', body: { docs: [{ _index: index, _id: id }] } },
    { method: 'GET', path: `/${i}/_mapping/field/${seg(field)}` },
    { method: 'GET', path: `/${i}/_settings` },
    { method: 'GET', path: `/${seg(`${index}*`)}/_count` },
    { method: 'GET', path: `/${seg(`*${Array.from(index).slice(-2).join('')}`)}/_search` },
    { method: 'PUT', path: `/${i}/_alias/${seg(`${id}-alias`)}` },
    { method: 'GET', path: '/_alias' },
    { method: 'POST', path: `/${i}/_update/${seg(id)}`, body: { doc: { [field]: 'y' } } },
    { method: 'DELETE', path: `/${i}/_doc/${seg(id)}` },
    { method: 'GET', path: `/${i},${seg(id)}/_search?ignore_unavailable=true` },
    { method: 'DELETE', path: `/${i}` },
  ];
}

describe('names of every shape never answer 5xx', () => {
  let dir: string;
  let server: RunningServer;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-names-'));
    server = await startServer(dir);
  });

  afterAll(async () => {
    agent.destroy();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds the multi-byte name that once broke every index-less search', async () => {
    const index = 'test-weird-index-中文';
    for (const call of calls(index, '1', 'foo')) {
      const body =
        typeof call.body === 'string'
          ? call.body
          : call.body === undefined
            ? undefined
            : JSON.stringify(call.body);
      const reply = await send(
        server.url,
        {
          method: call.method,
          path: call.path,
          headers: { 'content-type': 'application/json' },
          body: body === undefined ? undefined : Buffer.from(body),
        },
        { agent },
      );
      expect(reply.status, `${call.method} ${call.path}: ${reply.body.toString()}`).toBeLessThan(300);
    }
  });

  it(`answers every call for ${RUNS} generated names with 2xx/4xx and ES-shaped errors`, {
    timeout: 240_000,
  }, async () => {
    const triples = fc.sample(fc.tuple(name, name, name), { seed: SEED, numRuns: RUNS });
    const failures: string[] = [];
    for (const [index, id, field] of triples) {
      for (const call of calls(index, id, field)) {
        const body =
          typeof call.body === 'string'
            ? call.body
            : call.body === undefined
              ? undefined
              : JSON.stringify(call.body);
        let status = 0;
        let text = '';
        try {
          const reply = await send(
            server.url,
            {
              method: call.method,
              path: call.path,
              headers: { 'content-type': 'application/json' },
              body: body === undefined ? undefined : Buffer.from(body),
            },
            { agent, timeoutMs: 20_000 },
          );
          status = reply.status;
          text = reply.body.toString('utf8');
        } catch (error) {
          failures.push(`${call.method} ${call.path}: no reply (${(error as Error).message})`);
          continue;
        }
        if (status >= 500) failures.push(`${call.method} ${call.path}: ${status} ${text.slice(0, 300)}`);
        else if (status >= 400 && text.length > 0) {
          const problem = esErrorShapeProblem(status, text);
          if (problem) failures.push(`${call.method} ${call.path}: ${problem}: ${text.slice(0, 200)}`);
        }
      }
      if (server.child.exitCode !== null) break;
    }
    expect(failures.slice(0, 10), `seed ${SEED}: ${failures.length} failures`).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  });
});
