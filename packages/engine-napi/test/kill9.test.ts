/**
 * kill -9 durability: stream bulks of uniquely-id'd, checksummed documents, SIGKILL the
 * server while a bulk is in flight, restart it on the same data directory, and check that
 * every acknowledged document survived intact, nothing is duplicated, and the in-flight
 * bulk is present in full if it was answered. An unanswered bulk may be partly present: like
 * Elasticsearch's, a bulk is not atomic (its items can reach a commit before the crash), and only
 * acknowledged writes are promised; each present item is still whole (checksummed `_source`).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { send, sendJson } from './raw-client.js';
import { type RunningServer, startServer } from './server-process.js';

const INDEX = 'dur';
const BATCH = 250;
/** Rounds of stream-then-kill on one data dir, each killing after a different delay into the in-flight bulk. */
const KILL_DELAYS_MS = [1, 4, 10, 25];
/** Acknowledged bulks per round; one forced refresh midway so both commit and translog replay are exercised. */
const BULKS_PER_ROUND = 8;
const REFRESH_AT = 3;

function payload(n: number): string {
  // Deterministic, varied text so a torn or mixed-up _source cannot pass the checksum.
  return createHash('sha256')
    .update(`payload-${n}`)
    .digest('base64')
    .repeat(1 + (n % 5));
}

function checksum(id: string, seq: number, text: string): string {
  return createHash('sha256').update(`${id}|${seq}|${text}`).digest('hex');
}

function docId(n: number): string {
  return `doc-${n}`;
}

function bulkBody(first: number): Buffer {
  let out = '';
  for (let n = first; n < first + BATCH; n++) {
    const id = docId(n);
    const text = payload(n);
    // `index`, not `create`: a round re-sends the previous in-flight bulk over whatever part survived.
    out += `${JSON.stringify({ index: { _index: INDEX, _id: id } })}\n`;
    out += `${JSON.stringify({ id, seq: n, text, sum: checksum(id, n, text) })}\n`;
  }
  return Buffer.from(out);
}

interface Round {
  delayMs: number;
  acknowledged: number;
  inFlight: 'answered' | 'dropped';
  inFlightPresent: number;
  presentAfterRestart: number;
}

async function bulk(base: string, agent: http.Agent, first: number): Promise<void> {
  const reply = await send(
    base,
    {
      method: 'POST',
      path: '/_bulk',
      headers: { 'content-type': 'application/x-ndjson' },
      body: bulkBody(first),
    },
    { agent },
  );
  expect(reply.status).toBe(200);
  expect(JSON.parse(reply.body.toString()).errors).toBe(false);
}

describe('kill -9 in the middle of a bulk stream', () => {
  const dir = mkdtempSync(join(tmpdir(), 'everycell-kill9-'));
  let server: RunningServer | undefined;

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged document, intact and unduplicated', { timeout: 90_000 }, async () => {
    server = await startServer(dir);
    const mapping = {
      mappings: {
        properties: {
          id: { type: 'keyword' },
          seq: { type: 'long' },
          text: { type: 'text' },
          sum: { type: 'keyword' },
        },
      },
    };
    expect((await sendJson(server.url, 'PUT', `/${INDEX}`, mapping)).status).toBe(200);
    const rounds: Round[] = [];
    // Documents 0..start-1 were acknowledged; each round starts there, so it re-sends the previous
    // round's in-flight bulk (same ids and content: an upsert over whatever part of it survived).
    let start = 0;
    let present = 0;
    let inFlightEnd = 0;
    for (const delayMs of KILL_DELAYS_MS) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      let next = start;
      for (let b = 0; b < BULKS_PER_ROUND; b++) {
        await bulk(server.url, agent, next);
        next += BATCH;
        if (b === REFRESH_AT)
          expect((await sendJson(server.url, 'POST', `/${INDEX}/_refresh`, undefined, agent)).status).toBe(
            200,
          );
      }
      const acknowledged = next;
      // The in-flight bulk: sent in full, and the process is killed before or while it answers.
      const victim = server;
      const inFlight = send(
        victim.url,
        {
          method: 'POST',
          path: '/_bulk',
          headers: { 'content-type': 'application/x-ndjson' },
          body: bulkBody(next),
        },
        { agent },
      ).then(
        () => 'answered' as const,
        () => 'dropped' as const,
      );
      await new Promise((r) => setTimeout(r, delayMs));
      victim.child.kill('SIGKILL');
      await victim.exited;
      const outcome = await inFlight;
      agent.destroy();

      server = await startServer(dir);
      await sendJson(server.url, 'POST', `/${INDEX}/_refresh`);
      const count = (await sendJson(server.url, 'GET', `/${INDEX}/_count`)).json.count as number;
      const inFlightIds = Array.from({ length: BATCH }, (_, i) => docId(next + i));
      const inFlightPresent = (
        await sendJson(server.url, 'POST', `/${INDEX}/_count`, { query: { ids: { values: inFlightIds } } })
      ).json.count as number;
      rounds.push({ delayMs, acknowledged, inFlight: outcome, inFlightPresent, presentAfterRestart: count });
      // All of the in-flight bulk if it was answered; an unanswered one may be partly there (bulks
      // are not atomic in ES either); exactly the acknowledged docs besides.
      expect(inFlightPresent).toBeGreaterThanOrEqual(0);
      expect(inFlightPresent).toBeLessThanOrEqual(BATCH);
      if (outcome === 'answered') expect(inFlightPresent).toBe(BATCH);
      expect(count).toBe(acknowledged + inFlightPresent);
      present = count;
      start = acknowledged;
      inFlightEnd = acknowledged + BATCH;
    }
    console.log(`kill -9 rounds (batch ${BATCH}): ${JSON.stringify(rounds)}`);

    // No duplicates: as many distinct ids as documents (cardinality is exact here).
    const distinct = await sendJson(server.url, 'POST', `/${INDEX}/_search`, {
      size: 0,
      aggs: { ids: { cardinality: { field: 'id' } }, seqs: { stats: { field: 'seq' } } },
    });
    expect(distinct.json.aggregations.ids.value).toBe(present);
    expect(distinct.json.aggregations.seqs.min).toBe(0);
    expect(distinct.json.aggregations.seqs.max).toBeLessThan(inFlightEnd);

    // Every acknowledged document is there, and every document that is there has an intact _source.
    let checked = 0;
    for (let first = 0; first < inFlightEnd; first += 1000) {
      const ids = Array.from({ length: Math.min(1000, inFlightEnd - first) }, (_, i) => docId(first + i));
      const got = await sendJson(server.url, 'POST', `/${INDEX}/_mget`, { ids });
      for (const [i, d] of (
        got.json.docs as { found: boolean; _id: string; _source: Record<string, unknown> }[]
      ).entries()) {
        const n = first + i;
        if (n < start) expect(d.found, `${d._id} (acknowledged) missing`).toBe(true);
        if (!d.found) continue;
        const text = payload(n);
        expect(d._source).toEqual({ id: docId(n), seq: n, text, sum: checksum(docId(n), n, text) });
        checked++;
      }
    }
    expect(checked).toBe(present);
  });
});
