/**
 * ES's `_cat` tables (`RestTable`): columns with aliases, descriptions and default visibility;
 * `h` picks columns (names, aliases, `*` patterns; unknown names are skipped, as ES skips
 * them), `s` sorts (`:asc`/`:desc`, by name or alias), `v` adds the header line, `help` lists
 * the columns, `format=json` answers objects of strings, `bytes` and `time` fix the units.
 * Text rows pad every cell to its column's width and join them with one space; the last column
 * is not padded on the right, right-aligned columns are padded on the left.
 */
import { EngineError } from '../errors.js';
import type { Reply } from '../route.js';

export interface Column {
  name: string;
  aliases?: string[];
  desc: string;
  /** Shown without `h` (ES's `default:false` hides a column). */
  hidden?: boolean;
  right?: boolean;
}

/** A byte size or a duration: rendered by `bytes` / `time`, sorted by magnitude. */
export type Cell = string | number | null | { bytes: number } | { millis: number };

export interface Table {
  columns: Column[];
  /** One cell per column, by column name. */
  rows: Record<string, Cell>[];
}

/** The parameters every `_cat` table takes. */
export const CAT_PARAMS = ['format', 'h', 'help', 'v', 's', 'bytes', 'time', 'local', 'master_timeout', 'ts'];

const truthy = (v: string | undefined) => v !== undefined && v !== 'false';

/** ES's one-decimal rendering: the first decimal digit kept (not rounded), `.0` dropped. */
function oneDecimal(value: number, suffix: string): string {
  const tenths = Math.floor(value * 10 + 1e-9) / 10;
  const text = Number.isInteger(tenths) ? String(tenths) : tenths.toFixed(1);
  return `${text}${suffix}`;
}

const BYTE_UNITS: [string, number][] = [
  ['pb', 1024 ** 5],
  ['tb', 1024 ** 4],
  ['gb', 1024 ** 3],
  ['mb', 1024 ** 2],
  ['kb', 1024],
];

/** `ByteSizeValue.toString()`: `225b`, `1.7kb`, `12mb`. */
export function humanBytes(bytes: number): string {
  for (const [unit, size] of BYTE_UNITS) if (bytes >= size) return oneDecimal(bytes / size, unit);
  return `${bytes}b`;
}

const TIME_UNITS: [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

/** `TimeValue.toString()`: `0s`, `12ms`, `1.5s`, `2h`. */
export function humanTime(millis: number): string {
  if (millis === 0) return '0s';
  for (const [unit, size] of TIME_UNITS) if (millis >= size) return oneDecimal(millis / size, unit);
  return oneDecimal(millis * 1000, 'micros');
}

const BYTE_PARAMS: Record<string, number> = {
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
};
const TIME_PARAMS: Record<string, number> = {
  nanos: 1e-6,
  micros: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

function render(cell: Cell, params: Record<string, string>): string | null {
  if (cell === null) return null;
  if (typeof cell === 'object' && 'bytes' in cell) {
    const unit = params.bytes === undefined ? undefined : BYTE_PARAMS[params.bytes];
    return unit === undefined ? humanBytes(cell.bytes) : String(Math.floor(cell.bytes / unit));
  }
  if (typeof cell === 'object') {
    const unit = params.time === undefined ? undefined : TIME_PARAMS[params.time];
    return unit === undefined ? humanTime(cell.millis) : String(Math.floor(cell.millis / unit));
  }
  return String(cell);
}

function sortValue(cell: Cell): string | number | null {
  if (cell === null || typeof cell !== 'object') return cell;
  return 'bytes' in cell ? cell.bytes : cell.millis;
}

function compareCells(a: Cell, b: Cell): number {
  const x = sortValue(a);
  const y = sortValue(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? -1 : 1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const [p, q] = [String(x), String(y)];
  return p < q ? -1 : p > q ? 1 : 0;
}

const glob = (pattern: string, text: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(text);

/** The columns `h` asks for, each with the name it is shown under (the alias asked for). */
function displayed(columns: Column[], h: string | undefined): { column: Column; display: string }[] {
  if (h === undefined)
    return columns.filter((c) => !c.hidden).map((column) => ({ column, display: column.name }));
  const wanted: string[] = [];
  for (const name of h.split(',').map((s) => s.trim())) {
    if (name.includes('*')) {
      for (const c of columns)
        if (glob(name, c.name) || (c.aliases ?? []).some((a) => glob(name, a))) wanted.push(c.name);
    } else wanted.push(name);
  }
  const out: { column: Column; display: string }[] = [];
  for (const name of new Set(wanted)) {
    const byName = columns.find((c) => c.name === name);
    const byAlias = columns.find((c) => (c.aliases ?? []).includes(name));
    if (byName) out.push({ column: byName, display: name });
    else if (byAlias) out.push({ column: byAlias, display: name });
  }
  return out;
}

function sorted(table: Table, s: string | undefined): Record<string, Cell>[] {
  if (s === undefined) return table.rows;
  const keys = s.split(',').map((key) => {
    const reverse = key.endsWith(':desc');
    const name = key.replace(/:(desc|asc)$/, '');
    const column = table.columns.find((c) => c.name === name || (c.aliases ?? []).includes(name));
    if (!column)
      throw EngineError.of(
        400,
        'illegal_argument_exception',
        `Unable to sort by unknown sort key \`${name}\``,
      );
    return { name: column.name, reverse };
  });
  return [...table.rows].sort((a, b) => {
    for (const { name, reverse } of keys) {
      const c = compareCells(a[name] ?? null, b[name] ?? null);
      if (c !== 0) return reverse ? -c : c;
    }
    return 0;
  });
}

function pad(text: string, width: number, right: boolean, last: boolean): string {
  if (right) return text.padStart(width);
  return last ? text : text.padEnd(width);
}

function helpText(columns: Column[]): string {
  const cells = columns.map((c) => [c.name, (c.aliases ?? []).join(','), c.desc]);
  const widths = [0, 1, 2].map((k) => Math.max(0, ...cells.map((row) => (row[k] ?? '').length)));
  return cells.map((row) => `${row.map((cell, k) => cell.padEnd(widths[k] ?? 0)).join(' | ')}\n`).join('');
}

const text = (body: string): Reply => ({ status: 200, body, contentType: 'text/plain; charset=UTF-8' });

/** The table as the request's parameters ask. */
export function renderCat(table: Table, params: Record<string, string>): Reply {
  if (truthy(params.help)) return text(helpText(table.columns));
  // `ts=false` leaves out the timestamp columns, asked for or not.
  const stamped = params.ts === 'false' ? ['epoch', 'timestamp'] : [];
  const shown = displayed(table.columns, params.h).filter(({ column }) => !stamped.includes(column.name));
  const rows = sorted(table, params.s).map((row) =>
    shown.map(({ column }) => render(row[column.name] ?? null, params)),
  );
  if (params.format === 'json') {
    const objects = rows.map((row) =>
      Object.fromEntries(shown.map(({ display }, k) => [display, row[k] ?? null])),
    );
    return { status: 200, body: JSON.stringify(objects) };
  }
  if (params.format !== undefined && params.format !== 'txt' && params.format !== 'text')
    throw EngineError.of(
      400,
      'illegal_argument_exception',
      `format [${params.format}] is not supported here`,
    );
  const verbose = truthy(params.v);
  const widths = shown.map(({ display }, k) =>
    Math.max(verbose ? display.length : 0, ...rows.map((row) => (row[k] ?? '').length)),
  );
  const lines: string[] = [];
  // A header cell takes its column's alignment, as ES's does.
  const line = (cells: (string | null)[]) =>
    `${cells
      .map((cell, k) =>
        pad(cell ?? '', widths[k] ?? 0, shown[k]?.column.right ?? false, k === cells.length - 1),
      )
      .join(' ')}\n`;
  if (verbose) lines.push(line(shown.map(({ display }) => display)));
  for (const row of rows) lines.push(line(row));
  return text(lines.join(''));
}
