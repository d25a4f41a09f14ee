/**
 * `_nodes/stats`: what a remote harness or monitor reads (process CPU and memory, machine
 * memory, documents and searches), in ES's shape, and a 400 for what this engine does not have.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson, type RunningServer, req, startServer } from './server-process.js';

describe('_nodes/stats', () => {
  let dir: string;
  let server: RunningServer;
  let nodeId = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'everycell-nodestats-'));
    server = await startServer(dir);
    await req(server.url, 'PUT', '/logs', { mappings: { properties: { n: { type: 'long' } } } });
    const docs = Array.from({ length: 50 }, (_, i) => ({ n: i }));
    await req(server.url, 'POST', '/_bulk?refresh=true', ndjson('logs', docs), 'application/x-ndjson');
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports the process CPU time and resident memory of the server process, growing with work', async () => {
    const first = await req(server.url, 'GET', '/_nodes/stats/process');
    expect(first.status).toBe(200);
    expect(first.json._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
    const id = Object.keys(first.json.nodes)[0] ?? '';
    const node = first.json.nodes[id];
    // ES's node id: 22 URL-safe base64 characters, made once per data directory.
    expect(id).toMatch(/^[\w-]{22}$/);
    nodeId = id;
    expect(Object.keys(node)).not.toContain('indices');
    const { pid } = server.child;
    // RSS as the kernel reports it for this pid, within what the process allocates between two reads.
    const kernelRss =
      Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) * 1024;
    expect(node.process.mem.resident_in_bytes).toBeGreaterThan(kernelRss * 0.8);
    expect(node.process.mem.resident_in_bytes).toBeLessThan(kernelRss * 1.25);
    expect(node.process.mem.total_virtual_in_bytes).toBeGreaterThan(node.process.mem.resident_in_bytes);
    expect(node.process.open_file_descriptors).toBeGreaterThan(2);
    const cpu0 = node.process.cpu.total_in_millis as number;
    // The kernel's utime + stime for the process (clock ticks, 100 per second here) bounds it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const kernelCpuMs = (Number(stat[11]) + Number(stat[12])) * 10;
    expect(Math.abs(cpu0 - kernelCpuMs)).toBeLessThan(200);
    for (let i = 0; i < 300; i++)
      await req(server.url, 'POST', '/logs/_search', { query: { range: { n: { gte: i % 50 } } } });
    const after = await req(server.url, 'GET', '/_nodes/_local/stats/process');
    const cpu1 = after.json.nodes[nodeId].process.cpu.total_in_millis as number;
    expect(cpu1).toBeGreaterThan(cpu0);
  });

  it('reports documents, store and searches served under indices, and the machine under os', async () => {
    const before = await req(server.url, 'GET', '/_nodes/stats/indices,os');
    const node = before.json.nodes[nodeId];
    expect(node.indices.docs.count).toBe(50);
    expect(node.indices.store.size_in_bytes).toBeGreaterThan(0);
    expect(node.os.mem.total_in_bytes).toBeGreaterThan(node.os.mem.free_in_bytes);
    expect(Object.keys(node)).not.toContain('process');
    const served = node.indices.search.query_total as number;
    await req(server.url, 'POST', '/logs/_search', { query: { match_all: {} } });
    await req(server.url, 'GET', '/logs/_count');
    const after = await req(server.url, 'GET', '/_nodes/stats');
    const all = after.json.nodes[nodeId];
    expect(all.indices.search.query_total).toBe(served + 2);
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['indices', 'os', 'process']));
  });

  it('selects no node for another id, and refuses metrics and parameters it does not serve with ES errors', async () => {
    const other = await req(server.url, 'GET', '/_nodes/someone-else/stats');
    expect(other.status).toBe(200);
    expect(other.json._nodes.total).toBe(0);
    expect(other.json.nodes).toEqual({});
    const pools = await req(server.url, 'GET', '/_nodes/stats/process,thread_pool');
    expect(pools.status).toBe(400);
    expect(pools.json.error.type).toBe('illegal_argument_exception');
    expect(pools.json.error.reason).toContain(
      'metric [thread_pool], which this engine does not have (served: indices',
    );
    const bogus = await req(server.url, 'GET', '/_nodes/stats/bogus');
    expect(bogus.json.error.reason).toBe(
      'request [/_nodes/stats/bogus] contains unrecognized metric: [bogus]',
    );
    const param = await req(server.url, 'GET', '/_nodes/stats?types=x');
    expect(param.status).toBe(400);
    expect(param.json.error.reason).toContain('unrecognized parameter: [types]');
  });
});
