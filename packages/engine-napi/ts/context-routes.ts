/**
 * Routes for reader contexts that span requests: point in time (Elasticsearch `/_pit`,
 * OpenSearch `/_search/point_in_time`) and scroll. They come before the index routes, so
 * that `/_search` is never read as an index named `_search`.
 */
import type { Engine } from './engine.js';
import type { Route } from './route.js';

export const contextRoutes: Route[] = [
  {
    methods: ['POST'],
    pattern: [':index', '_pit'],
    params: 'engine',
    handler: (e: Engine, req, v) => e.openPit(v.index ?? '', req.params, false),
  },
  {
    methods: ['DELETE'],
    pattern: ['_pit'],
    params: 'engine',
    handler: (e, req) => e.closePit(req.body, false, false),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_search', 'point_in_time'],
    params: 'engine',
    handler: (e, req, v) => e.openPit(v.index ?? '', req.params, true),
  },
  {
    methods: ['DELETE'],
    pattern: ['_search', 'point_in_time'],
    params: 'engine',
    handler: (e, req) => e.closePit(req.body, true, false),
  },
  {
    methods: ['DELETE'],
    pattern: ['_search', 'point_in_time', '_all'],
    params: 'engine',
    handler: (e, req) => e.closePit(req.body, true, true),
  },
  {
    methods: ['GET'],
    pattern: ['_search', 'point_in_time', '_all'],
    params: [],
    handler: (e) => e.listPits(),
  },
  {
    methods: ['POST', 'GET'],
    pattern: ['_search'],
    params: 'engine',
    handler: (e, req) => e.searchPit(req.body, req.params),
  },
  {
    methods: ['POST', 'GET'],
    pattern: ['_search', 'scroll'],
    params: 'engine',
    handler: (e, req) => e.scroll(req.body, req.params),
  },
  {
    methods: ['DELETE'],
    pattern: ['_search', 'scroll'],
    params: 'engine',
    handler: (e, req) => e.clearScroll(req.body, false),
  },
  {
    methods: ['DELETE'],
    pattern: ['_search', 'scroll', '_all'],
    params: 'engine',
    handler: (e, req) => e.clearScroll(req.body, true),
  },
  // The scroll id in the path (`/_search/scroll/{scroll_id}`), after `_all` above.
  {
    methods: ['POST', 'GET'],
    pattern: ['_search', 'scroll', ':scroll_id'],
    params: 'engine',
    handler: (e, req, v) => e.scroll(req.body, { ...req.params, scroll_id: v.scroll_id ?? '' }),
  },
  {
    methods: ['DELETE'],
    pattern: ['_search', 'scroll', ':scroll_id'],
    params: 'engine',
    // A body's `scroll_id` replaces the path's (ES reads the body last).
    handler: (e, req, v) =>
      e.clearScroll(
        req.body.some((b) => b > 0x20)
          ? req.body
          : Buffer.from(JSON.stringify({ scroll_id: (v.scroll_id ?? '').split(',') })),
        false,
      ),
  },
];
