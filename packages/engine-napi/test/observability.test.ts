/**
 * The observability APIs over HTTP: `_stats` metric names and ES's suggestions, `_cat` tables
 * in ES's text shapes (help, headers, column picking and sorting, right alignment), cluster
 * health waits that time out with a 408, node info whose id survives a restart, the cluster
 * state's `nodes`, and `_cluster/stats`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

const text = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
};

describe('observability APIs', () => {
  let dir: string;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-observe-'));
    server = await startServer(dir);
    await req(server.url, 'PUT', '/logs', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    await req(server.url, 'PUT', '/metrics', {});
    const docs = Array.from({ length: 20 }, (_, i) => ({ n: i }));
    await req(server.url, 'POST', '/_bulk?refresh=true', ndjson('logs', docs), 'application/x-ndjson');
    await req(server.url, 'POST', '/logs/_alias/recent', {});
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports its own time on engine calls in a Server-Timing header', async () => {
    const res = await fetch(`${server.url}/logs/_search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: { range: { n: { gte: 3 } } } }),
    });
    const timing = res.headers.get('server-timing') ?? '';
    const dur = (name: string) => Number(new RegExp(`${name};dur=([0-9.]+)`).exec(timing)?.[1]);
    // engine (inside the addon) <= call (routing, napi hop, pool) <= service (the whole handler).
    expect(dur('engine')).toBeGreaterThan(0);
    expect(dur('call')).toBeGreaterThanOrEqual(dur('engine'));
    expect(dur('service')).toBeGreaterThanOrEqual(dur('call'));
    expect((await res.json()).hits.total.value).toBe(17);
    const count = await fetch(`${server.url}/logs/_count`);
    expect(count.headers.get('server-timing')).toMatch(
      /^engine;dur=[0-9.]+, call;dur=[0-9.]+, service;dur=[0-9.]+$/,
    );
    // A route answered by the service alone has no engine time to report.
    const root = await fetch(`${server.url}/`);
    expect(root.headers.get('server-timing')).toBeNull();
  });

  it('answers _stats by metric and refuses unknown metrics with ES suggestions', async () => {
    const all = await req(server.url, 'GET', '/_stats');
    expect(all.json._shards).toEqual({ total: 4, successful: 3, failed: 0 });
    expect(all.json.indices.logs.primaries.indexing.index_total).toBe(20);
    const docs = await req(server.url, 'GET', '/logs/_stats/docs');
    expect(Object.keys(docs.json._all.total)).toEqual(['docs']);
    const bad = await req(server.url, 'GET', '/_stats/fieldata');
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe(
      'request [/_stats/fieldata] contains unrecognized metric: [fieldata] -> did you mean [fielddata]?',
    );
  });

  it('renders _cat tables as ES does', async () => {
    const help = await text(`${server.url}/_cat/aliases?help`);
    expect(help.body.split('\n')[0]).toMatch(/^alias\s+\| a\s+\| alias name\s*$/);
    const aliases = await text(`${server.url}/_cat/aliases?v&h=alias,index`);
    expect(aliases.body).toBe('alias  index\nrecent logs\n');
    const sorted = await text(`${server.url}/_cat/shards?h=index,shard,docs&s=index,shard:desc`);
    expect(sorted.body.split('\n').slice(0, 3)).toEqual(['logs    1  0', 'logs    0 20', 'metrics 0  0']);
    const json = await req(server.url, 'GET', '/_cat/indices/logs?format=json&h=i,pri,dc');
    expect(json.json).toEqual([{ i: 'logs', pri: '2', dc: '20' }]);
    const count = await text(`${server.url}/_cat/count/logs?h=count`);
    expect(count.body).toBe('20\n');
    const yellow = await text(`${server.url}/_cat/indices?health=yellow&h=index`);
    expect(yellow.body).toBe('metrics\n');
    const segments = await text(`${server.url}/_cat/segments/logs?h=index,segment,docs.count`);
    expect(segments.body).toMatch(/^logs _0 \s*\d+\n/);
    const nodes = await text(`${server.url}/_cat/nodes?h=id&full_id=true`);
    expect(nodes.body.trim().length).toBe(22);
  });

  it('waits for health conditions and answers 408 when they cannot be met', async () => {
    const met = await req(server.url, 'GET', '/_cluster/health?wait_for_status=yellow&level=indices');
    expect(met.status).toBe(200);
    expect(met.json.indices.logs.status).toBe('green');
    expect(met.json.indices.metrics.status).toBe('yellow');
    const started = Date.now();
    const timedOut = await req(server.url, 'GET', '/_cluster/health?wait_for_status=green&timeout=200ms');
    expect(timedOut.status).toBe(408);
    expect(timedOut.json.timed_out).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const missing = await req(server.url, 'GET', '/_cluster/health/nope?timeout=1ms');
    expect([missing.status, missing.json.status]).toEqual([408, 'red']);
  });

  it('describes the node with an id that survives a restart, in node info, state and stats', async () => {
    const info = await req(server.url, 'GET', '/_nodes');
    const [id] = Object.keys(info.json.nodes);
    expect(id).toMatch(/^[\w-]{22}$/);
    expect(info.json.nodes[id ?? ''].transport.profiles).toEqual({});
    const flat = await req(server.url, 'GET', '/_nodes/settings?flat_settings=true');
    expect(flat.json.nodes[id ?? ''].settings['client.type']).toBe('node');
    const state = await req(server.url, 'GET', '/_cluster/state/nodes,master_node');
    expect(state.json.master_node).toBe(id);
    expect(Object.keys(state.json.nodes)).toEqual([id]);
    expect(state.json.metadata).toBeUndefined();
    const stats = await req(server.url, 'GET', '/_nodes/stats/jvm,fs,indices/docs');
    const node = stats.json.nodes[id ?? ''];
    expect(node.jvm.threads.count).toBeGreaterThan(0);
    expect(node.fs.data[0].total_in_bytes).toBeGreaterThan(0);
    expect(Object.keys(node.indices)).toEqual(['docs']);
    const typo = await req(server.url, 'GET', '/_nodes/stats/transprot');
    expect(typo.json.error.reason).toContain('-> did you mean [transport]?');
    const cluster = await req(server.url, 'GET', '/_cluster/stats');
    expect(cluster.json.indices.docs.count).toBe(20);
    await server.stop();
    server = await startServer(dir);
    const again = await req(server.url, 'GET', '/_nodes/_master');
    expect(Object.keys(again.json.nodes)).toEqual([id]);
  });
});
