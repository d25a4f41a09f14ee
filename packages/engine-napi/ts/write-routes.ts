/**
 * Document writes beside `_bulk` and the index PUT: `DELETE /{index}/_doc/{id}`,
 * `POST /{index}/_update/{id}` and `POST /{index}/_delete_by_query`. The engine does the
 * work (versions, translog, read-modify-write checks); these only route.
 */
import type { Reply, Route } from './routes.js';

/** ES reports a write that forced a refresh (`?refresh` or `?refresh=true`). */
function withForcedRefresh(reply: { status: number; body: string }, params: Record<string, string>): Reply {
  const forced = params.refresh === '' || params.refresh === 'true';
  if (!forced) return reply;
  return { status: reply.status, body: JSON.stringify({ ...JSON.parse(reply.body), forced_refresh: true }) };
}

export const writeRoutes: Route[] = [
  {
    methods: ['DELETE'],
    pattern: [':index', '_doc', ':id'],
    handler: (e, req, v) => withForcedRefresh(e.deleteDoc(v.index ?? '', v.id ?? '', req.params), req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_update', ':id'],
    handler: (e, req, v) =>
      withForcedRefresh(e.updateDoc(v.index ?? '', v.id ?? '', req.body, req.params), req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_delete_by_query'],
    handler: async (e, req, v) => ({
      status: 200,
      body: await e.deleteByQuery(v.index ?? '', req.body, req.params),
    }),
  },
];
