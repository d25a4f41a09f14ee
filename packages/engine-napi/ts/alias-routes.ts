/**
 * Alias routes: `PUT|POST|DELETE /{index}/_alias(es)/{name}`, `GET|HEAD [/{index}]/_alias[/{name}]`,
 * `GET [/{index}]/_aliases` and `POST /_aliases`. The engine keeps the aliases; these only route.
 */
import type { Reply, Route } from './route.js';

const WAITS = ['timeout', 'master_timeout'];
const GET = ['local', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];
const head = (reply: Reply): Reply => ({ status: reply.status, body: undefined });

export const aliasRoutes: Route[] = [
  ...['_alias', '_aliases'].flatMap((api): Route[] => [
    {
      methods: ['PUT', 'POST'],
      pattern: [':index', api, ':name'],
      params: WAITS,
      handler: (e, req, v) => e.putAlias(v.index ?? '', v.name ?? '', req.body),
    },
    {
      methods: ['DELETE'],
      pattern: [':index', api, ':name'],
      params: WAITS,
      handler: (e, _req, v) => e.deleteAlias(v.index ?? '', v.name ?? ''),
    },
  ]),
  { methods: ['POST'], pattern: ['_aliases'], params: WAITS, handler: (e, req) => e.updateAliases(req.body) },
  {
    methods: ['GET'],
    pattern: ['_aliases'],
    params: GET,
    handler: (e, req) => e.getAliasesWith(undefined, undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_aliases'],
    params: GET,
    handler: (e, req, v) => e.getAliasesWith(v.index, undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_alias'],
    params: GET,
    handler: (e, req) => e.getAliasesWith(undefined, undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_alias', ':name'],
    params: GET,
    handler: (e, req, v) => e.getAliasesWith(undefined, v.name, req.params),
  },
  {
    methods: ['HEAD'],
    pattern: ['_alias', ':name'],
    params: GET,
    handler: (e, req, v) => head(e.getAliasesWith(undefined, v.name, req.params)),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_alias'],
    params: GET,
    handler: (e, req, v) => e.getAliasesWith(v.index, undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_alias', ':name'],
    params: GET,
    handler: (e, req, v) => e.getAliasesWith(v.index, v.name, req.params),
  },
  {
    methods: ['HEAD'],
    pattern: [':index', '_alias', ':name'],
    params: GET,
    handler: (e, req, v) => head(e.getAliasesWith(v.index, v.name, req.params)),
  },
];
