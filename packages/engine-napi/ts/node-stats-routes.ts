/**
 * `GET /_nodes[/{node_id}]/stats[/{metric}[/{index_metric}]]`: ES's node statistics for this
 * one node. `indices` is the engine's (every index's statistics summed, by index or shard
 * with `level`); `os`, `process`, `jvm` (the Node runtime, `node/runtime.ts`), `fs`, `http`
 * and `indexing_pressure` are measured here; `transport` and `discovery` are zero, as they
 * are for a node that talks to no other (no transport connection, no cluster state
 * published). The process also reports `mem.resident_in_bytes`, which ES does not, so an
 * engine given by URL can still be measured for memory. Metrics ES knows that have nothing
 * behind them here (`thread_pool`, `breaker`, ...) are a 400 naming what is served.
 */
import type { Engine } from './engine.js';
import { EngineError } from './errors.js';
import { httpStats } from './node/http-stats.js';
import { indexingPressureStats } from './node/indexing-pressure.js';
import { CLUSTER_NAME, identity, nodeHeader, selectsThisNode } from './node/local-node.js';
import { osStats, processStats } from './node/os-process.js';
import { fsStats, jvmStats } from './node/runtime.js';
import type { Reply, Request, Route } from './route.js';
import { unrecognized } from './unrecognized.js';

const SERVED = [
  'indices',
  'os',
  'process',
  'jvm',
  'fs',
  'transport',
  'http',
  'discovery',
  'indexing_pressure',
];
/** Metrics ES's node stats know that this engine has nothing behind. */
const NOT_SERVED = ['thread_pool', 'breaker', 'script', 'ingest', 'adaptive_selection', 'script_cache'];
export const INDEX_METRICS = [
  'docs',
  'store',
  'indexing',
  'get',
  'search',
  'merge',
  'refresh',
  'flush',
  'warmer',
  'query_cache',
  'fielddata',
  'completion',
  'segments',
  'translog',
  'request_cache',
  'recovery',
];

const pathOf = (req: Request) => req.uri.split('?')[0] ?? req.uri;
const badRequest = (reason: string) => EngineError.of(400, 'illegal_argument_exception', reason);

/** Names in a URL list, or ES's 400 naming the unknown ones (with its suggestions). */
export function checkedList(req: Request, list: string, known: string[], detail: string): string[] {
  const names = list.split(',').map((m) => m.trim());
  const bad = names.filter((n) => n !== '_all' && !known.includes(n));
  if (bad.length > 0) throw badRequest(unrecognized(pathOf(req), bad, known, detail));
  if (names.includes('_all') && names.length > 1)
    throw badRequest(`request [${pathOf(req)}] contains _all and individual ${detail}s [${list}]`);
  return names;
}

function metricsOf(req: Request, list: string | undefined): string[] {
  if (list === undefined || list === '_all') return [...SERVED];
  const names = checkedList(req, list, [...SERVED, ...NOT_SERVED], 'metric');
  const missing = names.find((n) => NOT_SERVED.includes(n));
  if (missing)
    throw badRequest(
      `request [${pathOf(req)}] asks for metric [${missing}], which this engine does not have (served: ${SERVED.join(', ')})`,
    );
  return names;
}

function section(engine: Engine, metric: string, now: number, indices: () => unknown): unknown {
  switch (metric) {
    case 'indices':
      return indices();
    case 'os':
      return osStats(now);
    case 'process':
      return processStats(now);
    case 'jvm':
      return jvmStats(now);
    case 'fs':
      return fsStats(engine.dataDir, now);
    case 'http':
      return httpStats();
    case 'indexing_pressure':
      return indexingPressureStats();
    case 'transport':
      return {
        server_open: 0,
        total_outbound_connections: 0,
        rx_count: 0,
        rx_size_in_bytes: 0,
        tx_count: 0,
        tx_size_in_bytes: 0,
      };
    case 'discovery':
      return {
        cluster_state_queue: { total: 0, pending: 0, committed: 0 },
        published_cluster_states: { full_states: 0, incompatible_diffs: 0, compatible_diffs: 0 },
      };
    default:
      return undefined;
  }
}

function nodeStats(
  engine: Engine,
  req: Request,
  selector: string | undefined,
  metricList: string | undefined,
  indexMetric: string | undefined,
): Reply {
  const metrics = metricsOf(req, metricList);
  if (indexMetric !== undefined && !metrics.includes('indices'))
    throw badRequest(
      `request [${pathOf(req)}] contains index metrics [${indexMetric}] but indices stats not requested`,
    );
  const indexMetrics =
    indexMetric === undefined ? undefined : checkedList(req, indexMetric, INDEX_METRICS, 'index metric');
  const now = Date.now();
  const indices = () => {
    const reply = engine.nodeIndicesStats(indexMetrics?.join(','), req.params);
    if (reply.status !== 200) throw EngineError.fromReply(reply);
    return JSON.parse(reply.body);
  };
  const node: Record<string, unknown> = { timestamp: now, ...nodeHeader() };
  for (const metric of metrics) node[metric] = section(engine, metric, now, indices);
  const selected = selectsThisNode(engine, selector);
  return {
    status: 200,
    body: JSON.stringify({
      _nodes: { total: selected ? 1 : 0, successful: selected ? 1 : 0, failed: 0 },
      cluster_name: CLUSTER_NAME,
      nodes: selected ? { [identity(engine).node_id]: node } : {},
    }),
  };
}

// `timeout`: nothing to wait for on one node. The rest shape the `indices` section.
const PARAMS = [
  'timeout',
  'level',
  'fields',
  'fielddata_fields',
  'completion_fields',
  'groups',
  'include_segment_file_sizes',
];

export const nodeStatsRoutes: Route[] = [
  {
    methods: ['GET'],
    pattern: ['_nodes', 'stats'],
    params: PARAMS,
    handler: (e, req) => nodeStats(e, req, undefined, undefined, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', 'stats', ':metric'],
    params: PARAMS,
    handler: (e, req, v) => nodeStats(e, req, undefined, v.metric, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', 'stats', ':metric', ':index_metric'],
    params: PARAMS,
    handler: (e, req, v) => nodeStats(e, req, undefined, v.metric, v.index_metric),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', ':node_id', 'stats'],
    params: PARAMS,
    handler: (e, req, v) => nodeStats(e, req, v.node_id, undefined, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', ':node_id', 'stats', ':metric'],
    params: PARAMS,
    handler: (e, req, v) => nodeStats(e, req, v.node_id, v.metric, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', ':node_id', 'stats', ':metric', ':index_metric'],
    params: PARAMS,
    handler: (e, req, v) => nodeStats(e, req, v.node_id, v.metric, v.index_metric),
  },
];
