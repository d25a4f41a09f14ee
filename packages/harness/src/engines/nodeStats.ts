/**
 * An engine given by URL has no process the harness can read from /proc, so its CPU time and
 * memory come from its own node stats API (`GET /_nodes/stats/process`, summed over every node
 * of a cluster), as a monitoring system reads them. Elasticsearch and OpenSearch report each
 * node's process CPU time (ms) but not its resident memory: for a JVM the nearest figure is
 * the committed heap plus non-heap (`jvm` metric), a lower bound of what is resident (thread
 * stacks, direct buffers and mapped index files are outside it). The candidate reports
 * `process.mem.resident_in_bytes` as well (`engine-napi/ts/node-stats-routes.ts`).
 */

/** What the harness needs of a side to ask it: `Side.json`. */
export type JsonGet = (path: string) => Promise<{ status: number; body: unknown }>;

export interface NodeMemory {
  name: string;
  bytes: number;
}

export interface NodeStatsMemory {
  /** Summed over nodes. */
  bytes: number;
  /** true: JVM committed heap + non-heap (no resident figure in the API), a lower bound of RSS. */
  lowerBound: boolean;
  /** The field(s) the figure came from, for the row's note. */
  field: string;
  nodes: NodeMemory[];
}

type Nodes = Record<string, Record<string, unknown>>;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const at = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
    o,
  );

function nodesOf(reply: { status: number; body: unknown }, path: string): Nodes | string {
  if (reply.status !== 200) {
    const reason = at(reply.body, 'error', 'reason') ?? at(reply.body, 'error') ?? reply.body;
    return `GET ${path} answered ${reply.status}: ${typeof reason === 'string' ? reason : JSON.stringify(reason)}`;
  }
  const nodes = at(reply.body, 'nodes');
  if (!nodes || typeof nodes !== 'object' || Object.keys(nodes).length === 0)
    return `GET ${path} listed no nodes`;
  return nodes as Nodes;
}

/** Process CPU time of every node, summed, in ns; or why it cannot be read. */
export async function nodeStatsCpuNs(get: JsonGet): Promise<number | string> {
  const path = '/_nodes/stats/process';
  const nodes = nodesOf(await get(path), path);
  if (typeof nodes === 'string') return nodes;
  let totalMs = 0;
  for (const [id, node] of Object.entries(nodes)) {
    const ms = num(at(node, 'process', 'cpu', 'total_in_millis'));
    if (ms === undefined) return `GET ${path}: node ${id} has no process.cpu.total_in_millis`;
    totalMs += ms;
  }
  return totalMs * 1e6;
}

/**
 * Memory of every node, summed: `process.mem.resident_in_bytes` where every node reports it,
 * else the JVM's committed heap + non-heap (a lower bound); or why neither can be read.
 */
export async function nodeStatsMemory(get: JsonGet): Promise<NodeStatsMemory | string> {
  const processPath = '/_nodes/stats/process';
  const processNodes = nodesOf(await get(processPath), processPath);
  if (typeof processNodes === 'string') return processNodes;
  const resident = Object.entries(processNodes).map(([id, n]) => ({
    name: String(at(n, 'name') ?? id),
    bytes: num(at(n, 'process', 'mem', 'resident_in_bytes')),
  }));
  if (resident.every((n) => n.bytes !== undefined)) {
    const nodes = resident as NodeMemory[];
    return {
      bytes: nodes.reduce((s, n) => s + n.bytes, 0),
      lowerBound: false,
      field: 'process.mem.resident_in_bytes',
      nodes,
    };
  }
  const jvmPath = '/_nodes/stats/jvm';
  const jvmNodes = nodesOf(await get(jvmPath), jvmPath);
  if (typeof jvmNodes === 'string') return `no process.mem.resident_in_bytes, and ${jvmNodes}`;
  const nodes: NodeMemory[] = [];
  for (const [id, n] of Object.entries(jvmNodes)) {
    const heap = num(at(n, 'jvm', 'mem', 'heap_committed_in_bytes'));
    const nonHeap = num(at(n, 'jvm', 'mem', 'non_heap_committed_in_bytes'));
    if (heap === undefined || nonHeap === undefined)
      return `GET ${jvmPath}: node ${id} has neither process.mem.resident_in_bytes nor jvm.mem.*_committed_in_bytes`;
    nodes.push({ name: String(at(n, 'name') ?? id), bytes: heap + nonHeap });
  }
  return {
    bytes: nodes.reduce((s, n) => s + n.bytes, 0),
    lowerBound: true,
    field: 'jvm.mem.heap_committed_in_bytes + non_heap_committed_in_bytes',
    nodes,
  };
}
