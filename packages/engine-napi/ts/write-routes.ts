/**
 * Document writes beside `_bulk` and `_doc`: `DELETE /{index}/_doc/{id}`,
 * `POST /{index}/_update/{id}` and `POST /{index}/_delete_by_query`. The engine does the
 * work (versions, translog, read-modify-write checks, `forced_refresh`); these only route.
 */
import type { Route } from './route.js';

export const writeRoutes: Route[] = [
  {
    methods: ['DELETE'],
    pattern: [':index', '_doc', ':id'],
    handler: (e, req, v) => e.deleteDoc(v.index ?? '', v.id ?? '', req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_update', ':id'],
    handler: (e, req, v) => e.updateDoc(v.index ?? '', v.id ?? '', req.body, req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_delete_by_query'],
    handler: (e, req, v) => e.deleteByQuery(v.index ?? '', req.body, req.params),
  },
];
