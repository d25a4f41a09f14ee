/**
 * The Elasticsearch REST subset we serve: a route table from (method, path pattern) to a
 * handler. Unknown paths answer 400 and known paths with a wrong method 405, with the
 * bare-string bodies Elasticsearch uses for those two cases.
 */
import { aliasRoutes } from './alias-routes.js';
import { catRoutes } from './cat/routes.js';
import { clusterRoutes } from './cluster-routes.js';
import { contextRoutes } from './context-routes.js';
import { docRoutes } from './doc-routes.js';
import type { Engine } from './engine.js';
import { EngineError } from './errors.js';
import { indexAdminRoutes } from './index-admin-routes.js';
import { identity } from './node/local-node.js';
import { nodeInfoRoutes } from './node-info-routes.js';
import { nodeStatsRoutes } from './node-stats-routes.js';
import { GLOBAL_PARAMS, type Reply, type Request, type Route, WRITE_WAIT_PARAMS } from './route.js';
import { RouteTable } from './route-table.js';
import { settingsRoutes } from './settings-routes.js';
import { statsRoutes } from './stats-routes.js';
import { templateRoutes } from './template-routes.js';
import { textRoutes } from './text-routes.js';
import { writeRoutes } from './write-routes.js';

export const VERSION = '8.15.0';

const ok = (body: string): Reply => ({ status: 200, body });
const exists = (found: boolean): Reply => ({ status: found ? 200 : 404, body: undefined });

function rootInfo(engine: Engine): string {
  return JSON.stringify({
    name: 'everycell',
    cluster_name: 'everycell',
    cluster_uuid: identity(engine).cluster_uuid,
    version: {
      number: VERSION,
      build_flavor: 'default',
      build_type: 'napi',
      lucene_version: 'tantivy-0.27',
      minimum_wire_compatibility_version: '7.17.0',
      minimum_index_compatibility_version: '7.0.0',
    },
    tagline: 'You Know, for Search',
  });
}

/** Index-expression options (`resolve.rs` in the engine). */
const RESOLVE_PARAMS = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];

/** `GET _mapping` and `GET _mapping/field`: index expressions, and options one node ignores. */
const MAPPING_READ_PARAMS = [...RESOLVE_PARAMS, 'local', 'master_timeout'];

/** `_msearch`'s URL parameters; all but the first reach every item's search (`engine/msearch.rs`). */
const MSEARCH_PARAMS = [
  'max_concurrent_searches',
  'rest_total_hits_as_int',
  'typed_keys',
  'search_type',
  'ccs_minimize_roundtrips',
  'max_concurrent_shard_requests',
  'pre_filter_shard_size',
];
/** `_bulk`'s URL parameters: `refresh`, and defaults for the items (`routing`, `_source*` of updates). */
const BULK_PARAMS = [
  'refresh',
  'routing',
  '_source',
  '_source_includes',
  '_source_excludes',
  'require_alias',
  ...WRITE_WAIT_PARAMS,
];

const routes: Route[] = [
  { methods: ['GET'], pattern: [], params: [], handler: (e) => ok(rootInfo(e)) },
  { methods: ['HEAD'], pattern: [], params: [], handler: () => exists(true) },
  {
    methods: ['DELETE'],
    pattern: [],
    params: [],
    handler: () => {
      throw EngineError.of(
        400,
        'action_request_validation_exception',
        'Validation Failed: 1: index / indices is missing;',
      );
    },
  },
  {
    methods: ['POST', 'PUT'],
    pattern: ['_bulk'],
    params: BULK_PARAMS,
    handler: (e, req) => e.bulk(undefined, req.body, req.params),
  },
  {
    methods: ['POST', 'PUT'],
    pattern: [':index', '_bulk'],
    params: BULK_PARAMS,
    handler: (e, req, v) => e.bulk(v.index, req.body, req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: ['_refresh'],
    params: RESOLVE_PARAMS,
    handler: (e, req) => e.refresh('', req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_script_context'],
    params: [],
    handler: (e) => e.scriptContexts(),
  },
  {
    methods: ['POST', 'GET'],
    pattern: ['_count'],
    params: 'engine',
    handler: (e, req) => e.count('_all', req.body, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_mapping'],
    params: MAPPING_READ_PARAMS,
    handler: (e, req) => e.getMapping('', req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_mapping', 'field', ':fields'],
    params: [...MAPPING_READ_PARAMS, 'include_defaults'],
    handler: (e, req, v) => e.getFieldMapping('', v.fields ?? '', req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_refresh'],
    params: RESOLVE_PARAMS,
    handler: (e, req, v) => e.refresh(v.index ?? '', req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_count'],
    params: 'engine',
    handler: (e, req, v) => e.count(v.index ?? '', req.body, req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_search'],
    params: 'engine',
    handler: (e, req, v) => e.search(v.index ?? '', req.body, req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: ['_msearch'],
    params: MSEARCH_PARAMS,
    handler: (e, req) => e.msearch(undefined, req.body, req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_msearch'],
    params: MSEARCH_PARAMS,
    handler: (e, req, v) => e.msearch(v.index, req.body, req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_forcemerge'],
    params: 'engine',
    handler: (e, req, v) => e.forceMerge(v.index ?? '', req.params),
  },
  {
    methods: ['PUT'],
    pattern: [':index'],
    params: WRITE_WAIT_PARAMS,
    handler: (e, req, v) => e.createIndexWarned(v.index ?? '', req.body),
  },
  {
    methods: ['DELETE'],
    pattern: [':index'],
    params: [...WRITE_WAIT_PARAMS, ...RESOLVE_PARAMS],
    handler: (e, req, v) => e.deleteIndicesWith(v.index ?? '', req.params),
  },
  {
    methods: ['GET'],
    pattern: [':index'],
    params: [...RESOLVE_PARAMS, 'flat_settings', 'include_defaults', 'local', 'master_timeout', 'human'],
    handler: (e, req, v) => e.getIndexWith(v.index ?? '', req.params),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_mapping'],
    params: MAPPING_READ_PARAMS,
    handler: (e, req, v) => e.getMapping(v.index ?? '', req.params),
  },
  {
    methods: ['PUT', 'POST'],
    pattern: [':index', '_mapping'],
    params: WRITE_WAIT_PARAMS,
    handler: (e, req, v) => e.putMapping(v.index ?? '', req.body),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_mapping', 'field', ':fields'],
    params: [...MAPPING_READ_PARAMS, 'include_defaults'],
    handler: (e, req, v) => e.getFieldMapping(v.index ?? '', v.fields ?? '', req.params),
  },
  {
    methods: ['HEAD'],
    pattern: [':index'],
    params: [...RESOLVE_PARAMS, 'local', 'flat_settings', 'include_defaults'],
    handler: (e, req, v) => {
      const reply = e.indexExistsWith(v.index ?? '', req.params);
      return reply.status === 200 || reply.status === 404 ? exists(reply.status === 200) : reply;
    },
  },
];

/** Only routed when the server was started with EVERYCELL_ENABLE_DEBUG_PANIC=1 (tests). */
const debugRoutes: Route[] = [
  { methods: ['POST'], pattern: ['_everycell', 'debug', 'panic'], handler: (e) => e.debugPanic() },
];

/**
 * The request with only the route's own parameters, or ES's 400 for one the route does not
 * implement (`request [/t/_doc/1] contains unrecognized parameter: [x]`).
 */
function checkParams(route: Route, req: Request): Request {
  const own: Record<string, string> = {};
  const unknown: string[] = [];
  const listed = (key: string) => route.params !== 'engine' && (route.params ?? []).includes(key);
  for (const [key, value] of Object.entries(req.params)) {
    // A global parameter reaches a route only when the route names it (`human` on GET /{index}).
    if (GLOBAL_PARAMS.includes(key) && !listed(key)) continue;
    own[key] = value;
    if (route.params !== 'engine' && !(route.params ?? []).includes(key)) unknown.push(key);
  }
  if (unknown.length > 0) {
    const path = req.uri.split('?')[0] ?? req.uri;
    const what = unknown.length === 1 ? 'parameter' : 'parameters';
    const list = unknown.map((k) => `[${k}]`).join(', ');
    throw EngineError.of(
      400,
      'illegal_argument_exception',
      `request [${path}] contains unrecognized ${what}: ${list}`,
    );
  }
  return { ...req, params: own };
}

/** Every route but the debug ones, in the order the router tries them. */
const servedRoutes: Route[] = [
  ...contextRoutes,
  ...catRoutes,
  ...templateRoutes,
  ...indexAdminRoutes,
  ...nodeStatsRoutes,
  ...nodeInfoRoutes,
  ...clusterRoutes,
  ...statsRoutes,
  ...aliasRoutes,
  ...settingsRoutes,
  ...textRoutes,
  ...writeRoutes,
  ...docRoutes,
  ...routes,
];

const servedTable = new RouteTable(servedRoutes);

/** The methods a path takes (for methods node routes elsewhere, such as CONNECT). */
export function allowedMethods(segments: string[]): string[] {
  return [...servedTable.allowedMethods(segments)].sort();
}

export function makeRouter(options: { debugRoutes: boolean }) {
  const table = options.debugRoutes ? new RouteTable([...debugRoutes, ...servedRoutes]) : servedTable;
  return async (engine: Engine, req: Request): Promise<Reply> => {
    const found = table.find(req.segments, req.method);
    if (found.route !== undefined)
      return found.route.handler(engine, checkParams(found.route, req), found.vars);
    if (found.allowed.size > 0) {
      const list = [...found.allowed].sort().join(', ');
      throw EngineError.plain(
        405,
        `Incorrect HTTP method for uri [${req.uri}] and method [${req.method}], allowed: [${list}]`,
      );
    }
    throw EngineError.bare(400, `no handler found for uri [${req.uri}] and method [${req.method}]`);
  };
}
