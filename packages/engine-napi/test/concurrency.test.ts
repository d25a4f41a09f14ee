/**
 * Concurrency: 8 writer and 8 reader clients against one server for a bounded time
 * (CONCURRENCY_SECONDS, default 60) and count. No request may fail, every reader's view of
 * the count may only grow, and after a refresh `_count` equals the documents acknowledged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, sendJson } from './raw-client.js';
import { type RunningServer, startServer } from './server-process.js';

const WRITERS = 8;
const READERS = 8;
const SECONDS = Number(process.env.CONCURRENCY_SECONDS ?? 60);
const DOCS_PER_BULK = 100;
/** The count bound: a writer stops after this many bulks even if time remains. */
const MAX_BULKS_PER_WRITER = 1_500;
const INDEX = 'conc';
/** Generous: the box is shared, and a stall is reported by the overall test timeout anyway. */
const TIMEOUT_MS = 60_000;

function bulkBody(writer: number, bulk: number): Buffer {
  let out = '';
  for (let i = 0; i < DOCS_PER_BULK; i++) {
    const id = `w${writer}-${bulk}-${i}`;
    out += `${JSON.stringify({ index: { _index: INDEX, _id: id } })}\n`;
    out += `${JSON.stringify({ id, writer, n: bulk * DOCS_PER_BULK + i, tag: `t${i % 10}`, text: `writer ${writer} bulk ${bulk} doc ${i}` })}\n`;
  }
  return Buffer.from(out);
}

const READS = [
  { path: `/${INDEX}/_count`, body: undefined },
  { path: `/${INDEX}/_search`, body: { query: { term: { tag: 't3' } }, size: 5 } },
  {
    path: `/${INDEX}/_search`,
    body: { query: { match: { text: 'bulk doc' } }, size: 10, sort: [{ n: 'desc' }] },
  },
  {
    path: `/${INDEX}/_search`,
    body: {
      size: 0,
      aggs: { w: { terms: { field: 'writer', size: 10 }, aggs: { s: { sum: { field: 'n' } } } } },
    },
  },
];

describe('8 writers and 8 readers on one server', () => {
  let dir: string;
  let server: RunningServer;
  const agent = new http.Agent({ keepAlive: true, maxSockets: WRITERS + READERS });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-conc-'));
    server = await startServer(dir);
    const mapping = {
      mappings: {
        properties: {
          id: { type: 'keyword' },
          writer: { type: 'long' },
          n: { type: 'long' },
          tag: { type: 'keyword' },
          text: { type: 'text' },
        },
      },
    };
    expect((await sendJson(server.url, 'PUT', `/${INDEX}`, mapping)).status).toBe(200);
  });

  afterAll(async () => {
    agent.destroy();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`runs ${SECONDS} s without an error and counts exactly`, {
    timeout: (SECONDS + 60) * 1000,
  }, async () => {
    const deadline = performance.now() + SECONDS * 1000;
    const errors: string[] = [];
    let acknowledged = 0;
    let bulks = 0;
    let reads = 0;
    let writersDone = 0;
    let slowestBulkMs = 0;
    const bulksPerWriter: number[] = new Array(WRITERS).fill(0);
    let slowestReadMs = 0;

    const writer = async (w: number) => {
      for (let b = 0; b < MAX_BULKS_PER_WRITER && performance.now() < deadline && errors.length === 0; b++) {
        const sent = performance.now();
        try {
          const reply = await send(
            server.url,
            {
              method: 'POST',
              path: '/_bulk',
              headers: { 'content-type': 'application/x-ndjson' },
              body: bulkBody(w, b),
            },
            { agent, timeoutMs: TIMEOUT_MS },
          );
          slowestBulkMs = Math.max(slowestBulkMs, performance.now() - sent);
          const json = JSON.parse(reply.body.toString());
          if (reply.status !== 200 || json.errors !== false) {
            errors.push(`writer ${w} bulk ${b}: ${reply.status} ${reply.body.toString().slice(0, 300)}`);
          } else {
            acknowledged += json.items.length;
            bulks++;
            bulksPerWriter[w] = b + 1;
          }
        } catch (err) {
          errors.push(`writer ${w} bulk ${b}: ${(err as Error).message}`);
        }
      }
      writersDone++;
    };

    const reader = async (r: number) => {
      let lastCount = 0;
      for (let i = 0; writersDone < WRITERS && errors.length === 0; i++) {
        const read = READS[(r + i) % READS.length] as (typeof READS)[number];
        const sent = performance.now();
        try {
          const reply = await sendJson(
            server.url,
            read.body ? 'POST' : 'GET',
            read.path,
            read.body,
            agent,
            TIMEOUT_MS,
          );
          slowestReadMs = Math.max(slowestReadMs, performance.now() - sent);
          reads++;
          if (reply.status !== 200) {
            errors.push(
              `reader ${r} ${read.path}: ${reply.status} ${JSON.stringify(reply.json).slice(0, 300)}`,
            );
          } else if (read.path.endsWith('_count')) {
            // Nothing is ever deleted, so a reader may never see the count go down.
            if (reply.json.count < lastCount)
              errors.push(`reader ${r}: count went from ${lastCount} to ${reply.json.count}`);
            lastCount = reply.json.count;
          }
        } catch (err) {
          errors.push(`reader ${r} ${read.path}: ${(err as Error).message}`);
        }
      }
    };

    const started = performance.now();
    await Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
      ...Array.from({ length: READERS }, (_, r) => reader(r)),
    ]);
    const seconds = (performance.now() - started) / 1000;
    expect(errors.slice(0, 10)).toEqual([]);

    const refreshStart = performance.now();
    expect(
      (await sendJson(server.url, 'POST', `/${INDEX}/_refresh`, undefined, agent, TIMEOUT_MS)).status,
    ).toBe(200);
    const refreshSeconds = (performance.now() - refreshStart) / 1000;
    const count = (await sendJson(server.url, 'GET', `/${INDEX}/_count`, undefined, agent, TIMEOUT_MS)).json
      .count;
    // Per writer: exactly its acknowledged docs, n = 0..count-1 each once (count, min, max and
    // sum pin that down), so nothing was lost, duplicated or mixed up between writers.
    const perWriter = await sendJson(
      server.url,
      'POST',
      `/${INDEX}/_search`,
      {
        size: 0,
        aggs: { w: { terms: { field: 'writer', size: WRITERS }, aggs: { n: { stats: { field: 'n' } } } } },
      },
      agent,
      TIMEOUT_MS,
    );
    const checkSeconds = (performance.now() - refreshStart) / 1000 - refreshSeconds;
    console.log(
      `concurrency: ${WRITERS} writers + ${READERS} readers for ${seconds.toFixed(1)} s: ${bulks} bulks, ${acknowledged} docs acknowledged, ${reads} reads, slowest bulk ${slowestBulkMs.toFixed(0)} ms, slowest read ${slowestReadMs.toFixed(0)} ms, final refresh ${refreshSeconds.toFixed(1)} s, final _count ${count} (count + per-writer stats took ${checkSeconds.toFixed(1)} s)`,
    );
    expect(acknowledged).toBe(bulks * DOCS_PER_BULK);
    expect(count).toBe(acknowledged);
    const buckets = perWriter.json.aggregations.w.buckets as {
      key: number;
      doc_count: number;
      n: { count: number; min: number; max: number; sum: number };
    }[];
    const seen = Object.fromEntries(buckets.map((b) => [b.key, [b.doc_count, b.n.min, b.n.max, b.n.sum]]));
    const expected = Object.fromEntries(
      bulksPerWriter
        .map((b, w) => [w, b * DOCS_PER_BULK] as const)
        .filter(([, docs]) => docs > 0)
        .map(([w, docs]) => [w, [docs, 0, docs - 1, (docs * (docs - 1)) / 2]]),
    );
    expect(seen).toEqual(expected);
  });
});
