/**
 * `npm run bench:search-after -w packages/engine-napi [-- <docs> <page size>]`: loads 1M
 * documents (default) into a fresh server, pages through all of them with search_after, and
 * prints the server's RSS at the start, middle and end of paging. Needs the build (dist/).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../test/server-process.js';
import { loadDocs, pageThrough, rss } from './search-after-pages.js';

const MB = 1024 * 1024;

async function main(): Promise<void> {
  const docs = Number(process.argv[2] ?? 1_000_000);
  const pageSize = Number(process.argv[3] ?? 1_000);
  if (
    !Number.isInteger(docs) ||
    docs < 1 ||
    !Number.isInteger(pageSize) ||
    pageSize < 1 ||
    pageSize > 10_000
  ) {
    console.error('usage: search-after-rss.ts [docs >= 1] [page size 1-10000]');
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'everycell-sa-bench-'));
  const server = await startServer(dir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const pid = server.child.pid as number;
    const t0 = performance.now();
    await loadDocs(server.url, 'sa', docs, agent);
    const loaded = performance.now();
    console.log(
      `loaded ${docs} docs in ${((loaded - t0) / 1000).toFixed(1)} s; server RSS ${(rss(pid) / MB).toFixed(1)} MB`,
    );
    const result = await pageThrough(server.url, 'sa', pageSize, pid, agent);
    const seconds = (performance.now() - loaded) / 1000;
    if (result.seen !== docs) throw new Error(`paged ${result.seen} of ${docs} docs`);
    const at = (i: number) => ((result.rssPerPage[Math.min(i, result.pages - 1)] ?? 0) / MB).toFixed(1);
    console.log(
      `search_after: ${result.pages} pages of ${pageSize} in ${seconds.toFixed(1)} s (${((seconds * 1000) / result.pages).toFixed(1)} ms/page)`,
    );
    console.log(
      `server RSS: start ${at(0)} MB, middle ${at(Math.floor(result.pages / 2))} MB, end ${at(result.pages - 1)} MB, peak during paging ${(Math.max(...result.rssPerPage) / MB).toFixed(1)} MB`,
    );
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`search-after-rss: ${(err as Error).message}`);
  process.exit(1);
});
