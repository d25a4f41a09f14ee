/**
 * Alias routes: `PUT|POST|DELETE /{index}/_alias(es)/{name}`, `GET|HEAD [/{index}]/_alias[/{name}]`,
 * `GET [/{index}]/_aliases` and `POST /_aliases`. The engine keeps the aliases; these only route.
 */
import type { Reply, Route } from './route.js';

const WAITS = ['timeout', 'master_timeout'];
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
    params: ['local'],
    handler: (e) => e.getAliases(undefined, undefined),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_aliases'],
    params: ['local'],
    handler: (e, _req, v) => e.getAliases(v.index, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_alias'],
    params: ['local'],
    handler: (e) => e.getAliases(undefined, undefined),
  },
  {
    methods: ['GET'],
    pattern: ['_alias', ':name'],
    params: ['local'],
    handler: (e, _req, v) => e.getAliases(undefined, v.name),
  },
  {
    methods: ['HEAD'],
    pattern: ['_alias', ':name'],
    params: ['local'],
    handler: (e, _req, v) => head(e.getAliases(undefined, v.name)),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_alias'],
    params: ['local'],
    handler: (e, _req, v) => e.getAliases(v.index, undefined),
  },
  {
    methods: ['GET'],
    pattern: [':index', '_alias', ':name'],
    params: ['local'],
    handler: (e, _req, v) => e.getAliases(v.index, v.name),
  },
  {
    methods: ['HEAD'],
    pattern: [':index', '_alias', ':name'],
    params: ['local'],
    handler: (e, _req, v) => head(e.getAliases(v.index, v.name)),
  },
];
