/**
 * `GET /_cat/indices`: ES's compact index table, as text (`v` adds the header, `bytes=b`
 * prints raw byte counts) or as JSON with `format=json`. One shard, no replicas: every
 * index is green with pri 1, rep 0.
 */
import type { Engine } from './engine.js';
import { EngineError } from './errors.js';
import type { Reply, Route } from './route.js';

const UNITS = ['b', 'kb', 'mb', 'gb', 'tb'] as const;

/** ES's human byte sizes: binary units, at most one decimal (`225b`, `4.7kb`, `1mb`). */
export function humanBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(value) : String(Math.round(value * 10) / 10);
  return `${text}${UNITS[unit]}`;
}

const COLUMNS = [
  'health',
  'status',
  'index',
  'uuid',
  'pri',
  'rep',
  'docs.count',
  'docs.deleted',
  'store.size',
  'pri.store.size',
];

function catIndices(engine: Engine, params: Record<string, string>, only?: string): Reply {
  const size = (n: number) => (params.bytes === 'b' ? String(n) : humanBytes(n));
  const rows = engine
    .listIndices()
    .filter((i) => only === undefined || i.index === only)
    .map((i) =>
      // A closed index shows its shards but no documents or sizes, as ES's table does.
      i.status === 'close'
        ? ['green', 'close', i.index, i.uuid, String(i.shards), String(i.replicas), '', '', '', '']
        : [
            'green',
            'open',
            i.index,
            i.uuid,
            '1',
            '0',
            String(i.docs),
            '0',
            size(i.store_bytes),
            size(i.store_bytes),
          ],
    );
  // `h`: the columns to show, in that order (unknown names are ES's 400).
  const wanted = params.h === undefined ? COLUMNS : params.h.split(',').map((c) => c.trim());
  const picks = wanted.map((name) => {
    const at = COLUMNS.indexOf(name);
    if (at < 0)
      throw EngineError.of(400, 'illegal_argument_exception', `header [${name}] is not a valid header`);
    return at;
  });
  const picked = rows.map((row) => picks.map((k) => row[k] ?? ''));
  if (params.format === 'json') {
    const objects = picked.map((row) => Object.fromEntries(wanted.map((c, k) => [c, row[k]])));
    return { status: 200, body: JSON.stringify(objects) };
  }
  const table = params.v === undefined ? picked : [wanted, ...picked];
  const widths = wanted.map((_, k) => Math.max(0, ...table.map((row) => (row[k] ?? '').length)));
  const text = table
    .map(
      (row) =>
        `${row
          .map((cell, k) => cell.padEnd(widths[k] ?? 0))
          .join(' ')
          .trimEnd()}\n`,
    )
    .join('');
  return { status: 200, body: text, contentType: 'text/plain; charset=UTF-8' };
}

export const catRoutes: Route[] = [
  {
    methods: ['GET'],
    pattern: ['_cat', 'indices'],
    params: ['format', 'v', 'bytes', 'h'],
    handler: (e, req) => catIndices(e, req.params),
  },
  {
    methods: ['GET'],
    pattern: ['_cat', 'indices', ':index'],
    params: ['format', 'v', 'bytes', 'h'],
    handler: (e, req, v) => catIndices(e, req.params, v.index),
  },
];
