/**
 * `_cluster/health[/{index}]`, `_cluster/state[/{metric}[/{index}]]` and `_cluster/stats`.
 * Health waits as ES does: while its `wait_for_*` conditions do not hold (the engine answers
 * 408 then), it asks again until they do or `timeout` (default 30s) passes, and then answers
 * the 408 with `timed_out: true`. The state and the stats get this node's description here.
 */
import type { Engine } from './engine.js';
import { EngineError } from './errors.js';
import { CLUSTER_NAME, discoveryNode, identity, ROLES, VERSION } from './node/local-node.js';
import { availableProcessors, osStats, processStats } from './node/os-process.js';
import { fsStats, jvmStats } from './node/runtime.js';
import type { Reply, Request, Route } from './route.js';

const TIME_UNITS: Record<string, number> = {
  nanos: 1e-6,
  micros: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** An ES time value (`30s`, `1ms`, `-1`) in milliseconds. */
export function timeValueMs(text: string, name: string): number {
  if (text === '-1') return Number.POSITIVE_INFINITY;
  const match = /^(\d+(?:\.\d+)?)\s*(nanos|micros|ms|s|m|h|d)$/.exec(text.trim());
  const unit = match?.[2] === undefined ? undefined : TIME_UNITS[match[2]];
  if (!match || unit === undefined)
    throw EngineError.of(
      400,
      'illegal_argument_exception',
      `failed to parse setting [${name}] with value [${text}] as a time value: unit is missing or unrecognized`,
    );
  return Number(match[1]) * unit;
}

const POLL_MS = 50;

async function health(engine: Engine, req: Request, index: string): Promise<Reply> {
  const timeout = timeValueMs(req.params.timeout ?? '30s', 'timeout');
  const deadline = Date.now() + timeout;
  for (;;) {
    const reply = engine.clusterHealth(index, req.params);
    if (reply.status !== 408 || Date.now() >= deadline) return reply;
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(POLL_MS, Math.max(1, deadline - Date.now()))),
    );
  }
}

const HEALTH_PARAMS = [
  'timeout',
  'master_timeout',
  'local',
  'level',
  'wait_for_status',
  'wait_for_active_shards',
  'wait_for_nodes',
  'wait_for_events',
  'wait_for_no_relocating_shards',
  'wait_for_no_initializing_shards',
  'expand_wildcards',
];

function state(engine: Engine, req: Request, metric: string | undefined, index: string): Reply {
  const reply = engine.clusterState(metric, index, req.params);
  if (reply.status !== 200) return reply;
  const names = (metric ?? '_all').split(',').map((m) => m.trim());
  if (!names.includes('_all') && !names.includes('nodes')) return reply;
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  return { status: 200, body: JSON.stringify({ ...body, nodes: discoveryNode(engine) }) };
}

const STATE_PARAMS = [
  'local',
  'master_timeout',
  'flat_settings',
  'ignore_unavailable',
  'allow_no_indices',
  'expand_wildcards',
];

/** `_cluster/stats`: the indices' statistics summed, and this node counted by role. */
function clusterStats(engine: Engine): Reply {
  const now = Date.now();
  const health = JSON.parse(engine.clusterHealth('', {}).body) as { status: string };
  const indices = JSON.parse(engine.nodeIndicesStats(undefined, {}).body) as Record<string, unknown>;
  const rows = engine.listIndices();
  const os = osStats(now);
  const proc = processStats(now);
  const jvm = jvmStats(now);
  const fs = fsStats(engine.dataDir, now);
  const primaries = rows.reduce((n, r) => n + r.primaries, 0);
  const body = {
    _nodes: { total: 1, successful: 1, failed: 0 },
    cluster_name: CLUSTER_NAME,
    cluster_uuid: identity(engine).cluster_uuid,
    timestamp: now,
    status: health.status,
    indices: {
      count: rows.length,
      shards: { total: primaries, primaries, replication: 0 },
      docs: indices.docs,
      store: indices.store,
      fielddata: indices.fielddata,
      query_cache: indices.query_cache,
      completion: indices.completion,
      segments: indices.segments,
    },
    nodes: {
      count: { total: 1, coordinating_only: 0, ...Object.fromEntries(ROLES.map((r) => [r, 1])) },
      versions: [VERSION],
      os: { available_processors: availableProcessors, mem: os.mem },
      process: {
        cpu: { percent: proc.cpu.percent },
        open_file_descriptors: {
          min: proc.open_file_descriptors,
          max: proc.open_file_descriptors,
          avg: proc.open_file_descriptors,
        },
      },
      jvm: {
        max_uptime_in_millis: jvm.uptime_in_millis,
        mem: { heap_used_in_bytes: jvm.mem.heap_used_in_bytes, heap_max_in_bytes: jvm.mem.heap_max_in_bytes },
        threads: jvm.threads.count,
      },
      fs: fs.total,
      plugins: [],
      network_types: { transport_types: {}, http_types: { 'node:http': 1 } },
      discovery_types: { 'single-node': 1 },
      packaging_types: [{ flavor: 'default', type: 'npm', count: 1 }],
    },
  };
  return { status: 200, body: JSON.stringify(body) };
}

export const clusterRoutes: Route[] = [
  {
    methods: ['GET'],
    pattern: ['_cluster', 'health'],
    params: HEALTH_PARAMS,
    handler: (e, req) => health(e, req, ''),
  },
  {
    methods: ['GET'],
    pattern: ['_cluster', 'health', ':index'],
    params: HEALTH_PARAMS,
    handler: (e, req, v) => health(e, req, v.index ?? ''),
  },
  {
    methods: ['GET'],
    pattern: ['_cluster', 'state'],
    params: STATE_PARAMS,
    handler: (e, req) => state(e, req, undefined, ''),
  },
  {
    methods: ['GET'],
    pattern: ['_cluster', 'state', ':metric'],
    params: STATE_PARAMS,
    handler: (e, req, v) => state(e, req, v.metric, ''),
  },
  {
    methods: ['GET'],
    pattern: ['_cluster', 'state', ':metric', ':index'],
    params: STATE_PARAMS,
    handler: (e, req, v) => state(e, req, v.metric, v.index ?? ''),
  },
  {
    methods: ['GET'],
    pattern: ['_cluster', 'stats'],
    params: ['flat_settings', 'timeout'],
    handler: (e) => clusterStats(e),
  },
];
