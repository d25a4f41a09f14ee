/**
 * search_after memory: paging through 100k documents 1,000 at a time must not grow the
 * server's memory with the page number (no per-page state kept, nothing proportional to
 * the offset): resident memory over the last 10% of pages stays within 64 MB of the first 10%.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocs, meanMb, pageThrough } from '../bench/search-after-pages.js';
import { type RunningServer, startServer } from './server-process.js';

const DOCS = 100_000;
const PAGE = 1_000;

describe('search_after paging memory', () => {
  let dir: string;
  let server: RunningServer;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-sa-'));
    server = await startServer(dir);
  });

  afterAll(async () => {
    agent.destroy();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`pages through ${DOCS} docs in order with bounded RSS growth`, { timeout: 120_000 }, async () => {
    await loadDocs(server.url, 'sa', DOCS, agent);
    const result = await pageThrough(server.url, 'sa', PAGE, server.child.pid as number, agent);
    expect(result.seen).toBe(DOCS);
    expect(result.pages).toBe(DOCS / PAGE);
    const tenth = Math.max(1, Math.floor(result.pages / 10));
    const first = meanMb(result.rssPerPage.slice(0, tenth));
    const last = meanMb(result.rssPerPage.slice(-tenth));
    console.log(
      `search_after: ${result.pages} pages of ${PAGE}; server RSS first 10% ${first.toFixed(1)} MB, last 10% ${last.toFixed(1)} MB, growth ${(last - first).toFixed(1)} MB`,
    );
    expect(last - first).toBeLessThan(64);
  });
});
