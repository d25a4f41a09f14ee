/**
 * Settings and flush routes: `GET [/{index}]/_settings[/{names}]`, `PUT [/{index}]/_settings`,
 * `POST|GET [/{index}]/_flush`. The engine validates and applies; these only route.
 */
import type { Route } from './route.js';

const RESOLVE = ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];
const GET_PARAMS = ['flat_settings', 'include_defaults', 'local', 'master_timeout', ...RESOLVE];
const PUT_PARAMS = ['timeout', 'master_timeout', 'preserve_existing', 'flat_settings', ...RESOLVE];
const FLUSH_PARAMS = ['wait_if_ongoing', 'force', ...RESOLVE];

export const settingsRoutes: Route[] = [
  {
    methods: ['GET'],
    pattern: ['_settings'],
    params: GET_PARAMS,
    handler: (e, req) => e.getSettings('', undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_settings', ':names'],
    params: GET_PARAMS,
    handler: (e, req, v) => e.getSettings('', v.names, req.params),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_settings'],
    params: GET_PARAMS,
    handler: (e, req, v) => e.getSettings(v.index ?? '', undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_settings', ':names'],
    params: GET_PARAMS,
    handler: (e, req, v) => e.getSettings(v.index ?? '', v.names, req.params),
  },
  {
    methods: ['PUT'],
    pattern: ['_settings'],
    params: PUT_PARAMS,
    handler: (e, req) => e.putSettingsWith('', req.body, req.params),
  },
  {
    methods: ['PUT'],
    pattern: [':index', '_settings'],
    params: PUT_PARAMS,
    handler: (e, req, v) => e.putSettingsWith(v.index ?? '', req.body, req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: ['_flush'],
    params: FLUSH_PARAMS,
    handler: (e, req) => e.flush('', req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_flush'],
    params: FLUSH_PARAMS,
    handler: (e, req, v) => e.flush(v.index ?? '', req.params),
  },
];
