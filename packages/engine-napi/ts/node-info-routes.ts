/**
 * `GET /_nodes[/{node_id}][/{metric}]`: ES's node info for this one node. A single path part
 * is metrics when every name in it is one, node selectors otherwise (as ES decides). The
 * sections describe what runs here: the node's settings, the OS and process, the Node runtime
 * under `jvm`, the engine's two thread pools (the libuv pool that runs heavy searches, bulks
 * and refreshes, and the refresher), the HTTP address (published for transport too: the node
 * talks to no other), no plugins or modules, no ingest processors, and the aggregations the
 * engine implements with the field types each reads.
 */
import { cpus, arch as osArch, release as osRelease, type as osType } from 'node:os';
import type { Engine } from './engine.js';
import {
  CLUSTER_NAME,
  httpAddress,
  identity,
  NODE_NAME,
  nodeHeader,
  selectsThisNode,
  VERSION,
} from './node/local-node.js';
import { jvmInfo } from './node/runtime.js';
import { checkedList } from './node-stats-routes.js';
import type { Reply, Request, Route } from './route.js';

const METRICS = [
  'settings',
  'os',
  'process',
  'jvm',
  'thread_pool',
  'transport',
  'http',
  'plugins',
  'ingest',
  'aggregations',
];

const NUMERIC = ['boolean', 'date', 'numeric'];
const ANY_FIELD = ['boolean', 'date', 'geo_point', 'ip', 'keyword', 'numeric'];
/** The aggregations the engine implements (`engine-core/src/aggs/`) and the field types they read. */
const AGGREGATIONS: Record<string, string[]> = {
  adjacency_matrix: ['other'],
  auto_date_histogram: ['date', 'numeric'],
  avg: NUMERIC,
  cardinality: ANY_FIELD,
  composite: ['other'],
  date_histogram: ['date', 'numeric'],
  date_range: ['date', 'numeric'],
  extended_stats: NUMERIC,
  filter: ['other'],
  filters: ['other'],
  geo_distance: ['geo_point'],
  geohash_grid: ['geo_point'],
  global: ['other'],
  histogram: NUMERIC,
  ip_range: ['ip'],
  matrix_stats: ['other'],
  max: NUMERIC,
  median_absolute_deviation: NUMERIC,
  min: NUMERIC,
  missing: ANY_FIELD,
  nested: ['other'],
  percentile_ranks: NUMERIC,
  percentiles: NUMERIC,
  range: ['date', 'numeric'],
  rare_terms: ['boolean', 'date', 'ip', 'keyword', 'numeric'],
  reverse_nested: ['other'],
  scripted_metric: ['other'],
  significant_terms: ['keyword'],
  significant_text: ['other'],
  stats: NUMERIC,
  sum: NUMERIC,
  terms: ['boolean', 'date', 'ip', 'keyword', 'numeric'],
  top_hits: ['other'],
  value_count: ANY_FIELD,
  variable_width_histogram: ['numeric'],
};

function flatten(value: unknown, prefix: string, out: Record<string, unknown>): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = value;
  return out;
}

function section(engine: Engine, metric: string, flatSettings: boolean): unknown {
  const [host, port] = httpAddress().split(':');
  switch (metric) {
    case 'settings': {
      const settings = {
        cluster: { name: CLUSTER_NAME },
        node: { name: NODE_NAME },
        path: { data: [engine.dataDir] },
        network: { host },
        http: { port },
        // A node, not a transport client (ES's own default for a node's settings).
        client: { type: 'node' },
      };
      return flatSettings ? flatten(settings, '', {}) : settings;
    }
    case 'os':
      return {
        refresh_interval_in_millis: 1000,
        name: osType(),
        pretty_name: osType(),
        arch: osArch(),
        version: osRelease(),
        available_processors: cpus().length,
        allocated_processors: cpus().length,
      };
    case 'process':
      return { refresh_interval_in_millis: 1000, id: process.pid, mlockall: false };
    case 'jvm':
      return jvmInfo();
    case 'thread_pool':
      return {
        engine: { type: 'fixed', size: Number(process.env.UV_THREADPOOL_SIZE ?? 4), queue_size: -1 },
        refresh: { type: 'fixed', size: 1, queue_size: -1 },
      };
    case 'transport':
      return { bound_address: [httpAddress()], publish_address: httpAddress(), profiles: {} };
    case 'http':
      return { bound_address: [httpAddress()], publish_address: httpAddress() };
    case 'plugins':
      return [];
    case 'ingest':
      return { processors: [] };
    case 'aggregations':
      return Object.fromEntries(Object.entries(AGGREGATIONS).map(([name, types]) => [name, { types }]));
    default:
      return undefined;
  }
}

function nodesInfo(
  engine: Engine,
  req: Request,
  selector: string | undefined,
  metricList: string | undefined,
): Reply {
  const metrics =
    metricList === undefined || metricList === '_all'
      ? METRICS
      : checkedList(req, metricList, METRICS, 'metric');
  const flatSettings = req.params.flat_settings === 'true' || req.params.flat_settings === '';
  const node: Record<string, unknown> = {
    ...nodeHeader(),
    version: VERSION,
    build_flavor: 'default',
    build_type: 'napi',
    build_hash: 'unknown',
    total_indexing_buffer: 128 * 1024 * 1024,
  };
  for (const metric of metrics) {
    node[metric] = section(engine, metric, flatSettings);
    if (metric === 'plugins') node.modules = [];
  }
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

/** `/_nodes/{x}`: metrics when every name in `x` is one, node selectors otherwise. */
function onepart(engine: Engine, req: Request, part: string): Reply {
  const names = part.split(',').map((s) => s.trim());
  const allMetrics = names.every((n) => METRICS.includes(n) || n === '_all') && !names.includes('_all');
  return allMetrics ? nodesInfo(engine, req, undefined, part) : nodesInfo(engine, req, part, undefined);
}

const PARAMS = ['flat_settings', 'timeout'];

export const nodeInfoRoutes: Route[] = [
  {
    methods: ['GET'],
    pattern: ['_nodes'],
    params: PARAMS,
    handler: (e, req) => nodesInfo(e, req, undefined, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', ':part'],
    params: PARAMS,
    handler: (e, req, v) => onepart(e, req, v.part ?? ''),
  },
  {
    methods: ['GET'],
    pattern: ['_nodes', ':node_id', ':metric'],
    params: PARAMS,
    handler: (e, req, v) => nodesInfo(e, req, v.node_id, v.metric),
  },
];
