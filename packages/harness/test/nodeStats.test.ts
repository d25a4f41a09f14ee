import { describe, expect, it } from 'vitest';
import { type JsonGet, nodeStatsCpuNs, nodeStatsMemory } from '../src/engines/nodeStats.js';

/** A node stats API answering from a table of path -> body (anything else: ES's 400). */
const api =
  (answers: Record<string, unknown>): JsonGet =>
  async (path) =>
    path in answers
      ? { status: 200, body: answers[path] }
      : { status: 400, body: { error: { type: 'illegal_argument_exception', reason: `no ${path}` } } };

const node = (name: string, process: unknown, jvm?: unknown) => ({ name, process, ...(jvm ? { jvm } : {}) });

describe('node stats of an engine given by URL', () => {
  it('sums process CPU over a cluster, in ns', async () => {
    const get = api({
      '/_nodes/stats/process': {
        nodes: {
          a: node('n1', { cpu: { total_in_millis: 1500 } }),
          b: node('n2', { cpu: { total_in_millis: 250 } }),
        },
      },
    });
    expect(await nodeStatsCpuNs(get)).toBe(1750 * 1e6);
  });

  it('says why CPU cannot be read: an error answer, no nodes, a node without the field', async () => {
    expect(await nodeStatsCpuNs(api({}))).toBe(
      'GET /_nodes/stats/process answered 400: no /_nodes/stats/process',
    );
    expect(await nodeStatsCpuNs(api({ '/_nodes/stats/process': { nodes: {} } }))).toMatch(/listed no nodes/);
    expect(await nodeStatsCpuNs(api({ '/_nodes/stats/process': { nodes: { x: node('n', {}) } } }))).toMatch(
      /node x has no process.cpu.total_in_millis/,
    );
  });

  it('takes resident memory where every node reports it, else a JVM lower bound from committed heap + non-heap', async () => {
    const resident = await nodeStatsMemory(
      api({ '/_nodes/stats/process': { nodes: { a: node('c', { mem: { resident_in_bytes: 5000 } }) } } }),
    );
    expect(resident).toEqual({
      bytes: 5000,
      lowerBound: false,
      field: 'process.mem.resident_in_bytes',
      nodes: [{ name: 'c', bytes: 5000 }],
    });
    const jvm = { mem: { heap_committed_in_bytes: 1000, non_heap_committed_in_bytes: 200 } };
    const bounded = await nodeStatsMemory(
      api({
        '/_nodes/stats/process': {
          nodes: { a: node('j1', { mem: { total_virtual_in_bytes: 9 } }), b: node('j2', {}) },
        },
        '/_nodes/stats/jvm': { nodes: { a: { name: 'j1', jvm }, b: { name: 'j2', jvm } } },
      }),
    );
    expect(bounded).toMatchObject({ bytes: 2400, lowerBound: true, nodes: [{ name: 'j1' }, { name: 'j2' }] });
    expect(await nodeStatsMemory(api({ '/_nodes/stats/process': { nodes: { a: node('j', {}) } } }))).toMatch(
      /^no process.mem.resident_in_bytes, and GET \/_nodes\/stats\/jvm answered 400/,
    );
  });
});
