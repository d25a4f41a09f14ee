/**
 * The Elasticsearch REST subset we serve: a route table from (method, path pattern) to a
 * handler. Unknown paths answer 400 and known paths with a wrong method 405, with the
 * bare-string bodies Elasticsearch uses for those two cases.
 */
import { catRoutes } from './cat-routes.js';
import { contextRoutes } from './context-routes.js';
import { getDoc, indexDoc, mget } from './doc-routes.js';
import type { Engine } from './engine.js';
import { EngineError } from './errors.js';
import { writeRoutes } from './write-routes.js';

export interface Request {
  method: string;
  /** Decoded path segments, e.g. ['logs', '_search']. */
  segments: string[];
  params: Record<string, string>;
  body: Buffer;
  /** The raw request target, for error messages. */
  uri: string;
}

export interface Reply {
  status: number;
  /** JSON text, or undefined for HEAD-style answers without a body. */
  body: string | undefined;
  /** Set only for non-JSON answers (`_cat` text tables). */
  contentType?: string;
}

export type Handler = (engine: Engine, req: Request, vars: Record<string, string>) => Reply | Promise<Reply>;

export interface Route {
  methods: string[];
  pattern: string[];
  handler: Handler;
}

const VERSION = '8.15.0';

const ok = (body: string, status = 200): Reply => ({ status, body });
const exists = (found: boolean): Reply => ({ status: found ? 200 : 404, body: undefined });

/** `GET /{index}/_mapping`: the `mappings` part of `GET /{index}`, keyed by index name. */
function mappingOnly(indexJson: string): string {
  const indices = JSON.parse(indexJson) as Record<string, { mappings: unknown }>;
  const out = Object.fromEntries(
    Object.entries(indices).map(([name, index]) => [name, { mappings: index.mappings }]),
  );
  return JSON.stringify(out);
}

function rootInfo(): string {
  return JSON.stringify({
    name: 'everycell',
    cluster_name: 'everycell',
    cluster_uuid: 'everycell-single-node',
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

const routes: Route[] = [
  { methods: ['GET'], pattern: [], handler: () => ok(rootInfo()) },
  { methods: ['HEAD'], pattern: [], handler: () => exists(true) },
  { methods: ['GET'], pattern: ['_cluster', 'health'], handler: (e) => ok(e.clusterHealth()) },
  { methods: ['GET'], pattern: ['_cluster', 'health', ':index'], handler: (e) => ok(e.clusterHealth()) },
  {
    methods: ['POST', 'PUT'],
    pattern: ['_bulk'],
    handler: async (e, req) => ok(await e.bulk(undefined, req.body, req.params.refresh)),
  },
  {
    methods: ['POST', 'PUT'],
    pattern: [':index', '_bulk'],
    handler: async (e, req, v) => ok(await e.bulk(v.index, req.body, req.params.refresh)),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_refresh'],
    handler: async (e, _req, v) => ok(await e.refresh(v.index ?? '')),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_count'],
    handler: (e, req, v) => ok(e.count(v.index ?? '', req.body)),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_search'],
    handler: async (e, req, v) => ok(await e.search(v.index ?? '', req.body, req.params)),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_doc', ':id'],
    handler: (e, _req, v) => getDoc(e, v.index ?? '', v.id ?? ''),
  },
  {
    methods: ['PUT', 'POST'],
    pattern: [':index', '_doc', ':id'],
    handler: (e, req, v) => indexDoc(e, req, v.index ?? '', v.id ?? ''),
  },
  { methods: ['POST', 'GET'], pattern: ['_mget'], handler: (e, req) => mget(e, req, undefined) },
  { methods: ['POST', 'GET'], pattern: [':index', '_mget'], handler: (e, req, v) => mget(e, req, v.index) },
  {
    methods: ['POST', 'GET'],
    pattern: ['_msearch'],
    handler: async (e, req) => ok(await e.msearch(undefined, req.body)),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_msearch'],
    handler: async (e, req, v) => ok(await e.msearch(v.index, req.body)),
  },
  { methods: ['GET'], pattern: [':index', '_stats'], handler: (e, _req, v) => ok(e.stats(v.index ?? '')) },
  // `_stats/{metrics}`: the answer carries every metric we track (docs, store), a superset of the ask.
  {
    methods: ['GET'],
    pattern: [':index', '_stats', ':metric'],
    handler: (e, _req, v) => ok(e.stats(v.index ?? '')),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_forcemerge'],
    handler: async (e, req, v) => ok(await e.forceMerge(v.index ?? '', req.params)),
  },
  {
    methods: ['PUT'],
    pattern: [':index'],
    handler: (e, req, v) => ok(e.createIndex(v.index ?? '', req.body)),
  },
  { methods: ['DELETE'], pattern: [':index'], handler: (e, _req, v) => ok(e.deleteIndex(v.index ?? '')) },
  { methods: ['GET'], pattern: [':index'], handler: (e, _req, v) => ok(e.getIndex(v.index ?? '')) },
  {
    methods: ['GET'],
    pattern: [':index', '_mapping'],
    handler: (e, _req, v) => ok(mappingOnly(e.getIndex(v.index ?? ''))),
  },
  { methods: ['HEAD'], pattern: [':index'], handler: (e, _req, v) => exists(e.indexExists(v.index ?? '')) },
];

/** Only routed when the server was started with EVERYCELL_ENABLE_DEBUG_PANIC=1 (tests). */
const debugRoutes: Route[] = [
  { methods: ['POST'], pattern: ['_everycell', 'debug', 'panic'], handler: (e) => ok(e.debugPanic()) },
];

function match(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const vars: Record<string, string> = {};
  for (const [i, part] of pattern.entries()) {
    const seg = segments[i] ?? '';
    if (part.startsWith(':')) {
      // A variable never swallows an API name such as `_search`.
      if (seg.startsWith('_') && part === ':index' && pattern.length > 1) return undefined;
      vars[part.slice(1)] = seg;
    } else if (part !== seg) {
      return undefined;
    }
  }
  return vars;
}

export function makeRouter(options: { debugRoutes: boolean }) {
  const table = [
    ...(options.debugRoutes ? debugRoutes : []),
    ...contextRoutes,
    ...catRoutes,
    ...writeRoutes,
    ...routes,
  ];
  return async (engine: Engine, req: Request): Promise<Reply> => {
    const allowed = new Set<string>();
    for (const route of table) {
      const vars = match(route.pattern, req.segments);
      if (!vars) continue;
      if (route.methods.includes(req.method)) return route.handler(engine, req, vars);
      for (const m of route.methods) allowed.add(m);
    }
    if (allowed.size > 0) {
      const list = [...allowed].sort().join(', ');
      throw EngineError.plain(
        405,
        `Incorrect HTTP method for uri [${req.uri}] and method [${req.method}], allowed: [${list}]`,
      );
    }
    throw EngineError.plain(400, `no handler found for uri [${req.uri}] and method [${req.method}]`);
  };
}
