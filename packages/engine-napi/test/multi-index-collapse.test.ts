/**
 * `collapse` over several indices: groups merge across indices (one hit per key, the best by
 * the sort), and each group's inner hits come from every index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'everycell-collapse-'));
  server = await startServer(dataDir);
  for (const index of ['groups-a', 'groups-b']) {
    await req(server.url, 'PUT', `/${index}`, {
      mappings: { properties: { g: { type: 'keyword' }, rank: { type: 'long' } } },
    });
  }
  const a = [
    { g: 'x', rank: 1 },
    { g: 'y', rank: 5 },
    { g: 'x', rank: 3 },
  ];
  const b = [
    { g: 'x', rank: 9 },
    { g: 'z', rank: 2 },
  ];
  await req(server.url, 'POST', '/_bulk?refresh=true', ndjson('groups-a', a), 'application/x-ndjson');
  await req(server.url, 'POST', '/_bulk?refresh=true', ndjson('groups-b', b), 'application/x-ndjson');
});

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('collapse over several indices', () => {
  it('keeps one hit per group across indices, with inner hits from every index', async () => {
    const res = await req(server.url, 'POST', '/groups-a,groups-b/_search', {
      collapse: { field: 'g', inner_hits: { name: 'all', size: 5, sort: [{ rank: 'asc' }] } },
      sort: [{ rank: 'desc' }],
      track_total_hits: true,
    });
    expect(res.status).toBe(200);
    expect(res.json.hits.total.value).toBe(5);
    const hits = res.json.hits.hits as {
      _index: string;
      fields: { g: string[] };
      inner_hits: { all: { hits: { total: { value: number }; hits: { _source: { rank: number } }[] } } };
    }[];
    expect(hits.map((h) => [h._index, h.fields.g[0]])).toEqual([
      ['groups-b', 'x'],
      ['groups-a', 'y'],
      ['groups-b', 'z'],
    ]);
    const x = hits[0].inner_hits.all.hits;
    expect(x.total.value).toBe(3);
    expect(x.hits.map((h) => h._source.rank)).toEqual([1, 3, 9]);
  });
});
