/**
 * Document writes beside `_bulk` and `_doc`: `DELETE /{index}/_doc/{id}`,
 * `POST /{index}/_update/{id}` and `POST /{index}/_delete_by_query`. The engine does the
 * work (versions, translog, read-modify-write checks, `forced_refresh`); these only route.
 */
import { type Route, WRITE_WAIT_PARAMS } from './route.js';

export const writeRoutes: Route[] = [
  {
    methods: ['DELETE'],
    pattern: [':index', '_doc', ':id'],
    params: [
      'refresh',
      'routing',
      'if_seq_no',
      'if_primary_term',
      'version',
      'version_type',
      ...WRITE_WAIT_PARAMS,
    ],
    handler: (e, req, v) => e.deleteDoc(v.index ?? '', v.id ?? '', req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_update', ':id'],
    params: [
      'refresh',
      'routing',
      'retry_on_conflict',
      'version',
      'version_type',
      'if_seq_no',
      'if_primary_term',
      '_source',
      '_source_includes',
      '_source_excludes',
      'require_alias',
      ...WRITE_WAIT_PARAMS,
    ],
    handler: (e, req, v) => e.updateDoc(v.index ?? '', v.id ?? '', req.body, req.params),
  },
  {
    methods: ['POST'],
    pattern: [':index', '_delete_by_query'],
    params: ['refresh', 'max_docs', ...WRITE_WAIT_PARAMS],
    handler: (e, req, v) => e.deleteByQuery(v.index ?? '', req.body, req.params),
  },
];
