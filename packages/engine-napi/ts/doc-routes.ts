/**
 * Single-document routes: `GET|PUT|POST /{index}/_doc/{id}` and `_mget`. The engine does the
 * work (an indexed document is written as a one-item `_bulk` would write it); these only route.
 */
import type { Route } from './route.js';

export const docRoutes: Route[] = [
  {
    methods: ['GET'],
    pattern: [':index', '_doc', ':id'],
    handler: (e, _req, v) => e.getDoc(v.index ?? '', v.id ?? ''),
  },
  {
    methods: ['PUT', 'POST'],
    pattern: [':index', '_doc', ':id'],
    handler: (e, req, v) => e.indexDoc(v.index ?? '', v.id ?? '', req.body, req.params),
  },
  { methods: ['POST', 'GET'], pattern: ['_mget'], handler: (e, req) => e.mget(undefined, req.body) },
  {
    methods: ['POST', 'GET'],
    pattern: [':index', '_mget'],
    handler: (e, req, v) => e.mget(v.index, req.body),
  },
];
