/**
 * `GET /_cat` and its tables (`cat/table.ts` renders them). Each table takes ES's common
 * `_cat` parameters; tables over indices take an index expression in the path and, where ES
 * does, its resolution options.
 */
import type { Engine } from '../engine.js';
import type { Reply, Route } from '../route.js';
import { catAliases, catCount, catIndices, catSegments, catShards } from './index-tables.js';
import { catFielddata, catHealth, catMaster, catNodeattrs, catNodes, catPlugins } from './node-tables.js';
import { CAT_PARAMS, renderCat, type Table } from './table.js';

const RESOLVE = ['expand_wildcards', 'ignore_unavailable', 'allow_no_indices'];

type Build = (engine: Engine, params: Record<string, string>, path?: string) => Table;

/** One table: its name under `_cat`, whether it takes a path argument, its own parameters. */
const TABLES: [string, Build, string[], boolean][] = [
  ['aliases', (e, _p, path) => catAliases(e, path), RESOLVE, true],
  ['count', (e, _p, path) => catCount(e, path), [], true],
  ['fielddata', (e, p, path) => catFielddata(e, path ?? p.fields), ['fields'], true],
  ['health', (e) => catHealth(e), [], false],
  [
    'indices',
    (e, p, path) => catIndices(e, p, path),
    ['health', 'pri', 'include_unloaded_segments', ...RESOLVE],
    true,
  ],
  ['master', (e) => catMaster(e), [], false],
  ['nodeattrs', () => catNodeattrs(), [], false],
  ['nodes', (e, p) => catNodes(e, p), ['full_id'], false],
  ['plugins', () => catPlugins(), [], false],
  ['segments', (e, _p, path) => catSegments(e, path), [], true],
  ['shards', (e, _p, path) => catShards(e, path), [], true],
];

function listing(): Reply {
  const paths = TABLES.flatMap(([name, , , takesPath]) =>
    takesPath
      ? [`/_cat/${name}`, `/_cat/${name}/{${name === 'aliases' ? 'alias' : 'index'}}`]
      : [`/_cat/${name}`],
  );
  return { status: 200, body: `=^.^=\n${paths.join('\n')}\n`, contentType: 'text/plain; charset=UTF-8' };
}

export const catRoutes: Route[] = [
  { methods: ['GET'], pattern: ['_cat'], params: [], handler: () => listing() },
  ...TABLES.flatMap(([name, build, own, takesPath]): Route[] => {
    const params = [...CAT_PARAMS, ...own];
    const routes: Route[] = [
      {
        methods: ['GET'],
        pattern: ['_cat', name],
        params,
        handler: (e, req) => renderCat(build(e, req.params), req.params),
      },
    ];
    if (takesPath)
      routes.push({
        methods: ['GET'],
        pattern: ['_cat', name, ':arg'],
        params,
        handler: (e, req, v) => renderCat(build(e, req.params, v.arg), req.params),
      });
    return routes;
  }),
];
