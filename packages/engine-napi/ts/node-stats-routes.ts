/**
 * `GET /_nodes/stats[/{metric}]` and `GET /_nodes/{node_id}/stats[/{metric}]`: the subset of
 * ES's node stats a benchmark or a monitor reads from a remote engine, in ES's shape: `process`
 * (CPU time of every thread of this process, open files; plus `mem.resident_in_bytes`, which
 * ES does not report, so that an engine given by URL can still be measured for memory), `os`
 * (the machine's memory and load) and `indices` (documents, store size, searches served). The
 * other metrics ES knows (`jvm`, `thread_pool`, `fs`, ...) describe parts this engine does not
 * have: asking for one is a 400 that names what is served, never an answer with it left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import type { Engine } from './engine.js';
import { EngineError } from './errors.js';
import type { Reply, Request, Route } from './route.js';

export const NODE_ID = 'everycell-node-0';
const NODE_NAME = 'everycell';
const SERVED = ['indices', 'os', 'process'] as const;
type Metric = (typeof SERVED)[number];
/** Metrics ES's node stats know that this engine has nothing behind. */
const NOT_SERVED = [
  'jvm',
  'thread_pool',
  'fs',
  'transport',
  'http',
  'breaker',
  'script',
  'discovery',
  'ingest',
  'adaptive_selection',
  'script_cache',
  'indexing_pressure',
  'repositories',
  'allocations',
];

/** CPU percent over the time since the previous reading (ES reports a recent percent too). */
class CpuPercent {
  #last: { wallMs: number; busyMs: number } | undefined;
  constructor(private readonly busyMs: () => number) {}

  read(wallMs: number): number {
    const busyMs = this.busyMs();
    const last = this.#last ?? { wallMs: wallMs - process.uptime() * 1000, busyMs: 0 };
    this.#last = { wallMs, busyMs };
    const span = wallMs - last.wallMs;
    return span > 0 ? Math.max(0, Math.round(((busyMs - last.busyMs) / span) * 100)) : 0;
  }
}

const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const processCpu = new CpuPercent(processCpuMs);
const cores = Math.max(1, cpus().length);
const machineBusyMs = () =>
  cpus().reduce((ms, c) => ms + c.times.user + c.times.nice + c.times.sys + c.times.irq, 0) / cores;
const machineCpu = new CpuPercent(machineBusyMs);

/** A field of /proc/self/status in bytes ("VmSize:\t 123 kB"), or undefined off Linux. */
function procStatusBytes(field: string): number | undefined {
  try {
    const line = readFileSync('/proc/self/status', 'latin1')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    const kib = line ? Number(/(\d+) kB/.exec(line)?.[1]) : Number.NaN;
    return Number.isFinite(kib) ? kib * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function openFiles(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return -1;
  }
}

function processStats(now: number) {
  const virtual = procStatusBytes('VmSize');
  return {
    timestamp: now,
    open_file_descriptors: openFiles(),
    cpu: { percent: processCpu.read(now), total_in_millis: Math.round(processCpuMs()) },
    mem: {
      ...(virtual === undefined ? {} : { total_virtual_in_bytes: virtual }),
      resident_in_bytes: process.memoryUsage.rss(),
    },
  };
}

function osStats(now: number) {
  const total = totalmem();
  const free = freemem();
  const [one, five, fifteen] = loadavg();
  return {
    timestamp: now,
    cpu: { percent: machineCpu.read(now), load_average: { '1m': one, '5m': five, '15m': fifteen } },
    mem: {
      total_in_bytes: total,
      free_in_bytes: free,
      used_in_bytes: total - free,
      free_percent: Math.round((free / total) * 100),
      used_percent: Math.round(((total - free) / total) * 100),
    },
  };
}

function indicesStats(engine: Engine) {
  const indices = engine.listIndices();
  return {
    docs: { count: indices.reduce((n, i) => n + i.docs, 0) },
    store: { size_in_bytes: indices.reduce((n, i) => n + i.store_bytes, 0) },
    search: { query_total: engine.searchesServed },
  };
}

/** The metrics asked for (`_all` or none: every served one), or ES's 400 naming the bad one. */
function metricsOf(req: Request, list: string | undefined): Metric[] {
  if (list === undefined || list === '_all') return [...SERVED];
  const names = list.split(',').map((m) => m.trim());
  for (const name of names) {
    if ((SERVED as readonly string[]).includes(name)) continue;
    const path = req.uri.split('?')[0] ?? req.uri;
    const reason = NOT_SERVED.includes(name)
      ? `request [${path}] asks for metric [${name}], which this engine does not have (served: ${SERVED.join(', ')})`
      : `request [${path}] contains unrecognized metric: [${name}]`;
    throw EngineError.of(400, 'illegal_argument_exception', reason);
  }
  return names as Metric[];
}

/** ES's node selectors that name this single node; any other id or name selects none. */
const selectsThisNode = (selector: string | undefined) =>
  selector === undefined ||
  selector.split(',').some((s) => ['_all', '_local', '_master', '*', NODE_ID, NODE_NAME].includes(s.trim()));

function nodeStats(
  engine: Engine,
  req: Request,
  selector: string | undefined,
  list: string | undefined,
): Reply {
  const metrics = metricsOf(req, list);
  const now = Date.now();
  const node: Record<string, unknown> = {
    timestamp: now,
    name: NODE_NAME,
    transport_address: '127.0.0.1:0',
    host: '127.0.0.1',
    ip: '127.0.0.1',
    roles: ['data', 'ingest', 'master'],
  };
  if (metrics.includes('indices')) node.indices = indicesStats(engine);
  if (metrics.includes('os')) node.os = osStats(now);
  if (metrics.includes('process')) node.process = processStats(now);
  const selected = selectsThisNode(selector);
  return {
    status: 200,
    body: JSON.stringify({
      _nodes: { total: selected ? 1 : 0, successful: selected ? 1 : 0, failed: 0 },
      cluster_name: NODE_NAME,
      nodes: selected ? { [NODE_ID]: node } : {},
    }),
  };
}

// `timeout` has nothing to wait for on one node. ES's others (level, groups, fields, ...) shape
// index-level detail this answer does not carry: they are refused, not ignored.
const OWN_PARAMS = ['timeout'];

export const nodeStatsRoutes: Route[] = [
  {
    methods: ['GET'],
    pattern: ['_nodes', 'stats'],
    params: OWN_PARAMS,
    handler: (e, req) => nodeStats(e, req, undefined, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', 'stats', ':metric'],
    params: OWN_PARAMS,
    handler: (e, req, v) => nodeStats(e, req, undefined, v.metric),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', ':node_id', 'stats'],
    params: OWN_PARAMS,
    handler: (e, req, v) => nodeStats(e, req, v.node_id, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', ':node_id', 'stats', ':metric'],
    params: OWN_PARAMS,
    handler: (e, req, v) => nodeStats(e, req, v.node_id, v.metric),
  },
];
