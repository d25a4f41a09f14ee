/**
 * Single-document routes: `GET|PUT|POST /{index}/_doc/{id}` and `_mget`. The engine does the
 * work (an indexed document is written as a one-item `_bulk` would write it); these only route.
 */
import { type Reply, type Route, WRITE_WAIT_PARAMS } from './route.js';

/**
 * `GET _doc`, `_source` and `_mget` (`preference` picks a copy: there is one; `routing` picks no
 * shard of a one-shard index, and is checked against `_routing.required`).
 */
const GET_PARAMS = [
  'routing',
  '_source',
  '_source_includes',
  '_source_excludes',
  'stored_fields',
  'realtime',
  'refresh',
  'version',
  'version_type',
  'preference',
];
const MGET_PARAMS = GET_PARAMS.filter((p) => p !== 'version' && p !== 'version_type');

/** A HEAD answer: the status of the GET, no body. */
const head = (reply: Reply): Reply => ({ status: reply.status, body: undefined });
const INDEX_PARAMS = [
  'refresh',
  'routing',
  'op_type',
  'if_seq_no',
  'if_primary_term',
  'version',
  'version_type',
  'require_alias',
  ...WRITE_WAIT_PARAMS,
];

/** `_explain`: the URL query (`q` and its companions, as on `_search`) and `routing`. */
const EXPLAIN_PARAMS = [
  'q',
  'df',
  'default_operator',
  'analyzer',
  'analyze_wildcard',
  'lenient',
  'routing',
  'preference',
];

export const docRoutes: Route[] = [
  {
    methods: ['GET', 'POST'],
    pattern: [':index', '_explain', ':id'],
    params: EXPLAIN_PARAMS,
    handler: (e, req, v) => e.explain(v.index ?? '', v.id ?? '', req.body, req.params),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_doc', ':id'],
    params: GET_PARAMS,
    handler: (e, req, v) => e.getDoc(v.index ?? '', v.id ?? '', req.params),
  },
  {
    methods: ['HEAD'],
    pattern: [':index', '_doc', ':id'],
    params: GET_PARAMS,
    handler: (e, req, v) => head(e.getDoc(v.index ?? '', v.id ?? '', req.params)),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_source', ':id'],
    params: GET_PARAMS,
    handler: (e, req, v) => e.getSource(v.index ?? '', v.id ?? '', req.params),
  },
  {
    methods: ['HEAD'],
    pattern: [':index', '_source', ':id'],
    params: GET_PARAMS,
    handler: (e, req, v) => head(e.getSource(v.index ?? '', v.id ?? '', req.params)),
  },
  {
    methods: ['PUT', 'POST'],
    pattern: [':index', '_doc', ':id'],
    params: INDEX_PARAMS,
    handler: (e, req, v) => e.indexDoc(v.index ?? '', v.id ?? '', req.body, req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_doc'],
    params: ['refresh', 'routing', 'op_type', 'require_alias', ...WRITE_WAIT_PARAMS],
    handler: (e, req, v) => e.indexDoc(v.index ?? '', undefined, req.body, req.params),
  },
  {
    methods: ['PUT', 'POST'],
    pattern: [':index', '_create', ':id'],
    // `version`/`version_type` reach the engine to be refused as ES refuses them on a create.
    params: ['refresh', 'routing', 'require_alias', 'version', 'version_type', ...WRITE_WAIT_PARAMS],
    handler: (e, req, v) => e.indexDoc(v.index ?? '', v.id ?? '', req.body, req.params, true),
  },
  {
    methods: ['POST', 'GET'],
    pattern: ['_mget'],
    params: MGET_PARAMS,
    handler: (e, req) => e.mget(undefined, req.body, req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_mget'],
    params: MGET_PARAMS,
    handler: (e, req, v) => e.mget(v.index, req.body, req.params),
  },
];
