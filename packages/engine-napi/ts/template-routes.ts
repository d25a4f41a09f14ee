/**
 * Index template routes: legacy `_template`, composable `_index_template` (and its
 * `_simulate_index` / `_simulate` APIs), `_component_template`, and `_cat/templates`. The
 * engine keeps and applies the templates; these only route, and print the cat table.
 */
import type { Engine } from './engine.js';
import { EngineError } from './errors.js';
import type { Reply, Route } from './route.js';

const WAITS = ['timeout', 'master_timeout'];
const GET_PARAMS = ['flat_settings', 'local', 'master_timeout'];
const head = (reply: Reply): Reply => ({ status: reply.status, body: undefined });

/** The columns of `_cat/templates`: name, aliases and description, as ES's table declares them. */
const COLUMNS: [string, string, string][] = [
  ['name', 'n', 'template name'],
  ['index_patterns', 't', 'template index patterns'],
  ['order', 'o,p', 'template application order/priority number'],
  ['version', 'v', 'version'],
  ['composed_of', 'c', 'component templates comprising index template'],
];

/** A column by its name or one of its aliases, or ES's 400. */
function column(name: string): string {
  const found = COLUMNS.find(([n, aliases]) => n === name || aliases.split(',').includes(name));
  if (!found)
    throw EngineError.of(400, 'illegal_argument_exception', `header [${name}] is not a valid header`);
  return found[0];
}

/** Rows sorted by `s` (`col`, `col:asc`, `col:desc`, several separated by commas). */
function sorted(rows: Record<string, string>[], spec: string | undefined): Record<string, string>[] {
  if (spec === undefined) return rows;
  const keys = spec.split(',').map((part) => {
    const [name = '', dir] = part.trim().split(':');
    return { col: column(name), desc: dir === 'desc' };
  });
  return [...rows].sort((a, b) => {
    for (const { col, desc } of keys) {
      const order = (a[col] ?? '').localeCompare(b[col] ?? '');
      if (order !== 0) return desc ? -order : order;
    }
    return 0;
  });
}

/**
 * ES's plain-text table: cells left-aligned and padded to their column's width, one space
 * between columns, the last column unpadded; `v` adds the header row.
 */
function textTable(header: string[], rows: string[][], withHeader: boolean): string {
  const table = withHeader ? [header, ...rows] : rows;
  const widths = header.map((_, k) => Math.max(0, ...table.map((row) => (row[k] ?? '').length)));
  const last = header.length - 1;
  return table
    .map((row) => `${row.map((cell, k) => (k === last ? cell : cell.padEnd(widths[k] ?? 0))).join(' ')}\n`)
    .join('');
}

function catTemplates(engine: Engine, params: Record<string, string>, name?: string): Reply {
  const text = (body: string): Reply => ({ status: 200, body, contentType: 'text/plain; charset=UTF-8' });
  if (params.help !== undefined && params.help !== 'false') {
    const widths = [0, 1].map((k) => Math.max(...COLUMNS.map((c) => (c[k] ?? '').length)));
    return text(
      COLUMNS.map(([n, a, d]) => `${n.padEnd(widths[0] ?? 0)} | ${a.padEnd(widths[1] ?? 0)} | ${d}\n`).join(
        '',
      ),
    );
  }
  const wanted =
    params.h === undefined ? COLUMNS.map(([n]) => n) : params.h.split(',').map((c) => column(c.trim()));
  const rows = sorted(engine.catTemplates(name), params.s).map((row) => wanted.map((c) => row[c] ?? ''));
  if (params.format === 'json') {
    return {
      status: 200,
      body: JSON.stringify(rows.map((row) => Object.fromEntries(wanted.map((c, k) => [c, row[k]])))),
    };
  }
  return text(textTable(wanted, rows, params.v !== undefined && params.v !== 'false'));
}

const CAT_PARAMS = ['format', 'v', 'h', 'help', 's', 'local', 'master_timeout'];

export const templateRoutes: Route[] = [
  // Legacy templates.
  {
    methods: ['PUT', 'POST'],
    pattern: ['_template', ':name'],
    params: [...WAITS, 'create', 'order'],
    handler: (e, req, v) => e.putLegacyTemplate(v.name ?? '', req.body, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_template'],
    params: GET_PARAMS,
    handler: (e, req) => e.getLegacyTemplates(undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_template', ':name'],
    params: GET_PARAMS,
    handler: (e, req, v) => e.getLegacyTemplates(v.name, req.params),
  },
  {
    methods: ['HEAD'],
    pattern: ['_template', ':name'],
    params: GET_PARAMS,
    handler: (e, _req, v) => head(e.legacyTemplateExists(v.name ?? '')),
  },
  {
    methods: ['DELETE'],
    pattern: ['_template', ':name'],
    params: WAITS,
    handler: (e, _req, v) => e.deleteLegacyTemplate(v.name ?? ''),
  },
  // Simulation, before `_index_template/{name}` so `_simulate` is not taken for a name.
  {
    methods: ['POST'],
    pattern: ['_index_template', '_simulate_index', ':name'],
    params: [...WAITS, 'create', 'cause'],
    handler: (e, req, v) => e.simulateIndexTemplate(v.name ?? '', req.body),
  },
  {
    methods: ['POST'],
    pattern: ['_index_template', '_simulate'],
    params: [...WAITS, 'create', 'cause'],
    handler: (e, req) => e.simulateTemplate(undefined, req.body),
  },
  {
    methods: ['POST'],
    pattern: ['_index_template', '_simulate', ':name'],
    params: [...WAITS, 'create', 'cause'],
    handler: (e, req, v) => e.simulateTemplate(v.name, req.body),
  },
  // Composable index templates.
  {
    methods: ['PUT', 'POST'],
    pattern: ['_index_template', ':name'],
    params: [...WAITS, 'create', 'cause'],
    handler: (e, req, v) => e.putIndexTemplate(v.name ?? '', req.body, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_index_template'],
    params: GET_PARAMS,
    handler: (e, req) => e.getIndexTemplates(undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_index_template', ':name'],
    params: GET_PARAMS,
    handler: (e, req, v) => e.getIndexTemplates(v.name, req.params),
  },
  {
    methods: ['HEAD'],
    pattern: ['_index_template', ':name'],
    params: GET_PARAMS,
    handler: (e, _req, v) => head(e.indexTemplateExists(v.name ?? '')),
  },
  {
    methods: ['DELETE'],
    pattern: ['_index_template', ':name'],
    params: WAITS,
    handler: (e, _req, v) => e.deleteIndexTemplate(v.name ?? ''),
  },
  // Component templates.
  {
    methods: ['PUT', 'POST'],
    pattern: ['_component_template', ':name'],
    params: [...WAITS, 'create'],
    handler: (e, req, v) => e.putComponentTemplate(v.name ?? '', req.body, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_component_template'],
    params: GET_PARAMS,
    handler: (e, req) => e.getComponentTemplates(undefined, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_component_template', ':name'],
    params: GET_PARAMS,
    handler: (e, req, v) => e.getComponentTemplates(v.name, req.params),
  },
  {
    methods: ['HEAD'],
    pattern: ['_component_template', ':name'],
    params: GET_PARAMS,
    handler: (e, _req, v) => head(e.componentTemplateExists(v.name ?? '')),
  },
  {
    methods: ['DELETE'],
    pattern: ['_component_template', ':name'],
    params: WAITS,
    handler: (e, _req, v) => e.deleteComponentTemplate(v.name ?? ''),
  },
  // `_cat/templates`.
  {
    methods: ['GET'],
    pattern: ['_cat', 'templates'],
    params: CAT_PARAMS,
    handler: (e, req) => catTemplates(e, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_cat', 'templates', ':name'],
    params: CAT_PARAMS,
    handler: (e, req, v) => catTemplates(e, req.params, v.name),
  },
];
