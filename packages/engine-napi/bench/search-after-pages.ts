/**
 * Shared by the search_after RSS test and bench: load N documents with a unique `seq`, page
 * through all of them with `search_after`, and sample the server's resident memory per page.
 */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import { send, sendJson } from '../test/raw-client.js';

const LOAD_BATCH = 5_000;

/** Resident memory of a process right now (VmRSS), in bytes. */
export function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m?.[1]) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}

export async function loadDocs(base: string, index: string, total: number, agent: http.Agent): Promise<void> {
  const mapping = {
    mappings: { properties: { seq: { type: 'long' }, k: { type: 'keyword' }, t: { type: 'text' } } },
  };
  const created = await sendJson(base, 'PUT', `/${index}`, mapping, agent);
  if (created.status !== 200) throw new Error(`create ${index}: ${JSON.stringify(created.json)}`);
  for (let first = 0; first < total; first += LOAD_BATCH) {
    let body = '';
    for (let n = first; n < Math.min(total, first + LOAD_BATCH); n++) {
      body += `{"index":{"_index":"${index}","_id":"${n}"}}\n{"seq":${n},"k":"k${n % 100}","t":"doc number ${n}"}\n`;
    }
    const reply = await send(
      base,
      {
        method: 'POST',
        path: '/_bulk',
        headers: { 'content-type': 'application/x-ndjson' },
        body: Buffer.from(body),
      },
      { agent, timeoutMs: 120_000 },
    );
    if (reply.status !== 200 || JSON.parse(reply.body.toString()).errors !== false) {
      throw new Error(`bulk at ${first}: ${reply.status} ${reply.body.toString().slice(0, 300)}`);
    }
  }
  const refreshed = await sendJson(base, 'POST', `/${index}/_refresh`, undefined, agent);
  if (refreshed.status !== 200) throw new Error(`refresh: ${JSON.stringify(refreshed.json)}`);
}

export interface PagingResult {
  pages: number;
  /** Documents seen, each exactly once and in `seq` order, else the run throws. */
  seen: number;
  /** Server RSS after each page, in bytes. */
  rssPerPage: number[];
}

/** Pages through the whole index sorted by `seq` with `search_after`, checking order and completeness. */
export async function pageThrough(
  base: string,
  index: string,
  pageSize: number,
  pid: number,
  agent: http.Agent,
): Promise<PagingResult> {
  const rssPerPage: number[] = [];
  let after: unknown[] | undefined;
  let expected = 0;
  for (;;) {
    const body: Record<string, unknown> = {
      size: pageSize,
      sort: [{ seq: 'asc' }],
      _source: false,
      track_total_hits: false,
    };
    if (after) body.search_after = after;
    const reply = await sendJson(base, 'POST', `/${index}/_search`, body, agent);
    if (reply.status !== 200)
      throw new Error(
        `page ${rssPerPage.length}: ${reply.status} ${JSON.stringify(reply.json).slice(0, 300)}`,
      );
    const hits = reply.json.hits.hits as { _id: string; sort: unknown[] }[];
    if (hits.length === 0) break;
    for (const hit of hits) {
      if (hit._id !== String(expected)) throw new Error(`expected doc ${expected} next, got ${hit._id}`);
      expected++;
    }
    after = (hits[hits.length - 1] as { sort: unknown[] }).sort;
    rssPerPage.push(rss(pid));
  }
  return { pages: rssPerPage.length, seen: expected, rssPerPage };
}

/** Mean of a slice of samples, in MB. */
export function meanMb(samples: number[]): number {
  return samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length) / (1024 * 1024);
}
