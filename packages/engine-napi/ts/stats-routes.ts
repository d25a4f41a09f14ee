/**
 * Index statistics and the APIs around them: `GET [/{index}]/_stats[/{metric}]`,
 * `GET [/{index}]/_segments`, `POST [/{index}]/_cache/clear`, `GET|POST
 * [/{index}]/_search_shards`. The engine computes; these check the metric names (ES's 400
 * with its suggestions) and add this node's description where ES shows it.
 */
import type { Engine } from './engine.js';
import { discoveryNode } from './node/local-node.js';
import { checkedList, INDEX_METRICS } from './node-stats-routes.js';
import type { Reply, Request, Route } from './route.js';

const RESOLVE = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];
const STATS_PARAMS = [
  'level',
  'fields',
  'fielddata_fields',
  'completion_fields',
  'groups',
  'include_segment_file_sizes',
  'include_unloaded_segments',
  'forbid_closed_indices',
  'expand_wildcards',
];

function stats(engine: Engine, req: Request, index: string, metric: string | undefined): Reply {
  if (metric !== undefined) checkedList(req, metric, INDEX_METRICS, 'metric');
  return engine.indicesStats(index, metric, req.params);
}

function searchShards(engine: Engine, req: Request, index: string): Reply {
  const reply = engine.searchShards(index, req.params);
  if (reply.status !== 200) return reply;
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  return { status: 200, body: JSON.stringify({ ...body, nodes: discoveryNode(engine) }) };
}

const SEARCH_SHARDS_PARAMS = ['preference', 'routing', 'local', ...RESOLVE];
const CLEAR_PARAMS = ['fielddata', 'fields', 'query', 'request', 'index', ...RESOLVE];

export const statsRoutes: Route[] = [
  {
    methods: ['GET'],
    pattern: ['_stats'],
    params: STATS_PARAMS,
    handler: (e, req) => stats(e, req, '', undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_stats', ':metric'],
    params: STATS_PARAMS,
    handler: (e, req, v) => stats(e, req, '', v.metric),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_stats'],
    params: STATS_PARAMS,
    handler: (e, req, v) => stats(e, req, v.index ?? '', undefined),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_stats', ':metric'],
    params: STATS_PARAMS,
    handler: (e, req, v) => stats(e, req, v.index ?? '', v.metric),
  },
  {
    methods: ['GET'],
    pattern: ['_segments'],
    params: RESOLVE,
    handler: (e, req) => e.segments('', req.params),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_segments'],
    params: RESOLVE,
    handler: (e, req, v) => e.segments(v.index ?? '', req.params),
  },
  {
    methods: ['POST'],
    pattern: ['_cache', 'clear'],
    params: CLEAR_PARAMS,
    handler: (e, req) => e.clearCache('', req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_cache', 'clear'],
    params: CLEAR_PARAMS,
    handler: (e, req, v) => e.clearCache(v.index ?? '', req.params),
  },
  {
    methods: ['GET', 'POST'],
    pattern: ['_search_shards'],
    params: SEARCH_SHARDS_PARAMS,
    handler: (e, req) => searchShards(e, req, ''),
  },
  {
    methods: ['GET', 'POST'],
    pattern: [':index', '_search_shards'],
    params: SEARCH_SHARDS_PARAMS,
    handler: (e, req, v) => searchShards(e, req, v.index ?? ''),
  },
];
