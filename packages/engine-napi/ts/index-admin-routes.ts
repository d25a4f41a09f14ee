/**
 * Index administration routes: `_close`, `_open`, `_block/{block}`, `_rollover`, `_clone`,
 * `_resolve/index` and `_cluster/settings`. The engine does the work; these only route.
 */
import type { Route } from './route.js';

const RESOLVE = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];
const WAITS = ['wait_for_active_shards', 'timeout', 'master_timeout'];

export const indexAdminRoutes: Route[] = [
  {
    methods: ['POST'],
    pattern: [':index', '_close'],
    params: [...RESOLVE, ...WAITS],
    handler: (e, req, v) => e.closeIndex(v.index ?? '', req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_open'],
    params: [...RESOLVE, ...WAITS],
    handler: (e, req, v) => e.openIndex(v.index ?? '', req.params),
  },
  {
    methods: ['PUT'],
    pattern: [':index', '_block', ':block'],
    params: [...RESOLVE, 'timeout', 'master_timeout'],
    handler: (e, req, v) => e.addBlock(v.index ?? '', v.block ?? '', req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_rollover'],
    params: ['dry_run', ...WAITS],
    handler: (e, req, v) => e.rollover(v.index ?? '', undefined, req.body, req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_rollover', ':new_index'],
    params: ['dry_run', ...WAITS],
    handler: (e, req, v) => e.rollover(v.index ?? '', v.new_index, req.body, req.params),
  },
  {
    methods: ['PUT', 'POST'],
    pattern: [':index', '_clone', ':target'],
    params: WAITS,
    handler: (e, req, v) => e.cloneIndex(v.index ?? '', v.target ?? '', req.body),
  },
  {
    methods: ['GET'],
    pattern: ['_resolve', 'index', ':name'],
    params: ['expand_wildcards'],
    handler: (e, req, v) => e.resolveIndex(v.name ?? '', req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_cluster', 'settings'],
    params: ['flat_settings', 'include_defaults', 'local', 'master_timeout', 'timeout'],
    handler: (e, req) => e.getClusterSettings(req.params),
  },
  {
    methods: ['PUT'],
    pattern: ['_cluster', 'settings'],
    params: ['flat_settings', 'master_timeout', 'timeout'],
    handler: (e, req) => e.putClusterSettings(req.body, req.params),
  },
];
