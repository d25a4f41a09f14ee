/**
 * Fuzzes the real server process with 10,000 malformed and hostile requests (fast-check,
 * seeded: FUZZ_SEED=<n> reproduces a run, FUZZ_RUNS=<n> changes the count). Every answer must
 * be a 2xx/4xx with an ES-shaped error body, never a 5xx (except ES's own 503 for too many
 * aggregation buckets) or a dropped connection; the process must stay up, and the loaded
 * index must still answer exactly as before.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostileRequest, hostileRequest, READ_INDEX } from './hostile-requests.js';
import { esErrorShapeProblem, send, sendJson } from './raw-client.js';
import { type RunningServer, startServer } from './server-process.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const BATCH = 500;
const CONCURRENCY = 4;
const MAX_CONTENT_LENGTH = 2 * 1024 * 1024;
const DOCS = 200;

const MAPPING = {
  mappings: {
    properties: {
      k: { type: 'keyword' },
      n: { type: 'long' },
      f: { type: 'double' },
      d: { type: 'date' },
      t: { type: 'text' },
      b: { type: 'boolean' },
    },
  },
};

function doc(i: number) {
  return {
    k: `k${i % 20}`,
    n: i,
    f: i / 7,
    d: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
    t: `word${i % 13} common text ${i}`,
    b: i % 2 === 0,
  };
}

interface Failure {
  index: number;
  kind: string;
  request: string;
  problem: string;
}

function describeRequest(r: HostileRequest): string {
  const body = r.body ?? Buffer.alloc(0);
  const shown =
    body.length > 300
      ? `${body.subarray(0, 300).toString('latin1')}… (${body.length} bytes)`
      : body.toString('latin1');
  return `${r.method} ${r.path} ${JSON.stringify(r.headers)} ${shown}`;
}

/** The problem with one reply, or undefined when it is acceptable. */
function replyProblem(r: HostileRequest, status: number, body: Buffer): string | undefined {
  // The one 5xx ES itself gives a client: the search.max_buckets refusal
  // (TooManyBucketsException is SERVICE_UNAVAILABLE). Its body must still be ES-shaped.
  const tooManyBuckets = status === 503 && body.includes('"too_many_buckets_exception"');
  if (status >= 500 && !tooManyBuckets) return `status ${status}: ${body.toString('utf8').slice(0, 400)}`;
  if (status < 200 || (status >= 300 && status < 400)) return `unexpected status ${status}`;
  if (r.method === 'HEAD' || body.length === 0) {
    return status >= 400 && r.method !== 'HEAD' ? `status ${status} with an empty body` : undefined;
  }
  const text = body.toString('utf8');
  // ES's 404 answers that are not errors: a missing document (`found: false`, or a delete's
  // `result: not_found`) and closing a scroll or point in time that is not open (`num_freed: 0`).
  if (status === 404 && r.path.includes('/_doc/') && /"found":false|"result":"not_found"/.test(text))
    return undefined;
  if (status === 404 && /"num_freed":0/.test(text)) return undefined;
  if (status >= 400) {
    const problem = esErrorShapeProblem(status, text);
    return problem ? `status ${status}: ${problem}: ${text.slice(0, 300)}` : undefined;
  }
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    return `status ${status} with a non-JSON body: ${text.slice(0, 200)}`;
  }
}

describe('hostile requests against a real server', () => {
  let dir: string;
  let server: RunningServer;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-fuzz-'));
    server = await startServer(dir, {}, ['--max-content-length', String(MAX_CONTENT_LENGTH)]);
    expect((await sendJson(server.url, 'PUT', `/${READ_INDEX}`, MAPPING, agent)).status).toBe(200);
    const lines = Array.from({ length: DOCS }, (_, i) => {
      const action = JSON.stringify({ index: { _index: READ_INDEX, _id: `d${i}` } });
      return `${action}\n${JSON.stringify(doc(i))}\n`;
    }).join('');
    const bulk = await sendJson(server.url, 'POST', '/_bulk?refresh=true', lines, agent);
    expect(bulk.json.errors).toBe(false);
  });

  afterAll(async () => {
    agent.destroy();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`answers ${RUNS} hostile requests with 2xx/4xx and ES-shaped errors`, { timeout: 150_000 }, async () => {
    const failures: Failure[] = [];
    const kinds = new Map<string, number>();
    const statuses = new Map<number, number>();
    const started = performance.now();
    for (let first = 0; first < RUNS; first += BATCH) {
      const count = Math.min(BATCH, RUNS - first);
      // One seed per batch keeps memory flat and any batch reproducible on its own.
      const requests = fc.sample(hostileRequest(MAX_CONTENT_LENGTH), { seed: SEED + first, numRuns: count });
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const i = next++;
          const r = requests[i] as HostileRequest;
          kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
          try {
            const reply = await send(server.url, r, { agent, timeoutMs: 20_000 });
            statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
            const problem = replyProblem(r, reply.status, reply.body);
            if (problem)
              failures.push({ index: first + i, kind: r.kind, request: describeRequest(r), problem });
          } catch (err) {
            failures.push({
              index: first + i,
              kind: r.kind,
              request: describeRequest(r),
              problem: `no reply: ${(err as Error).message}`,
            });
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      if (server.child.exitCode !== null) break;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `fuzz: seed ${SEED}, ${RUNS} requests in ${seconds.toFixed(1)} s; kinds ${JSON.stringify(Object.fromEntries(kinds))}; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    if (failures.length > 0) {
      const shown = failures
        .slice(0, 15)
        .map((f) => `#${f.index} [${f.kind}] ${f.problem}\n    ${f.request.slice(0, 600)}`)
        .join('\n');
      throw new Error(
        `fuzz seed ${SEED} (rerun with FUZZ_SEED=${SEED}): ${failures.length} of ${RUNS} requests failed:\n${shown}`,
      );
    }
    expect(server.child.exitCode).toBeNull();
  });

  it('is still up and the loaded index still answers exactly', async () => {
    expect(server.child.exitCode).toBeNull();
    expect((await sendJson(server.url, 'GET', '/', undefined, agent)).status).toBe(200);
    await sendJson(server.url, 'POST', `/${READ_INDEX}/_refresh`, undefined, agent);
    const count = await sendJson(server.url, 'GET', `/${READ_INDEX}/_count`, undefined, agent);
    expect(count.json.count).toBe(DOCS);
    const term = await sendJson(
      server.url,
      'POST',
      `/${READ_INDEX}/_search`,
      { query: { term: { k: 'k7' } }, size: 100, sort: [{ n: 'asc' }] },
      agent,
    );
    expect(term.status).toBe(200);
    expect(term.json.hits.total.value).toBe(DOCS / 20);
    expect(term.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(
      Array.from({ length: DOCS / 20 }, (_, j) => `d${7 + 20 * j}`),
    );
    expect(term.json.hits.hits[0]._source).toEqual(doc(7));
  });
});
