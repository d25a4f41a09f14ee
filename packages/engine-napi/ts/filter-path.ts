/**
 * ES's `filter_path` response filtering: a comma list of dotted paths where `*` matches one
 * key (or part of one) and `**` any number of levels; a path starting with `-` removes what it
 * matches. Arrays are transparent (a path applies to each element). Objects left empty by the
 * filter are dropped, as ES drops them.
 */

type Json = unknown;

function globMatch(pattern: string, key: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*')) return pattern === key;
  const re = new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`);
  return re.test(key);
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** Keeps what any of `paths` (each a list of segments) reaches; undefined when nothing. */
function include(value: Json, paths: string[][]): Json {
  if (paths.some((p) => p.length === 0)) return value;
  if (Array.isArray(value)) {
    const kept = value.map((v) => include(v, paths)).filter((v) => v !== undefined);
    return kept.length > 0 ? kept : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    const next: string[][] = [];
    for (const [head, ...rest] of paths) {
      if (head === '**') {
        next.push([head, ...rest]);
        const [after, ...tail] = rest;
        if (after !== undefined && globMatch(after, key)) next.push(tail);
        if (after === undefined) next.push([]);
      } else if (head !== undefined && globMatch(head, key)) {
        next.push(rest);
      }
    }
    if (next.length === 0) continue;
    const kept = include(child, next);
    if (kept !== undefined) out[key] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Removes what `paths` reach (`**` reaching any depth, as in an include). */
function exclude(value: Json, paths: string[][]): Json {
  if (Array.isArray(value)) return value.map((v) => exclude(v, paths));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, Json> = {};
  for (const [key, child] of Object.entries(value)) {
    const next: string[][] = [];
    let drop = false;
    for (const path of paths) {
      const [head, ...rest] = path;
      if (head === '**') {
        next.push(path);
        const [after, ...tail] = rest;
        if (after !== undefined && globMatch(after, key)) {
          if (tail.length === 0) drop = true;
          else next.push(tail);
        }
      } else if (head !== undefined && globMatch(head, key)) {
        if (rest.length === 0) drop = true;
        else next.push(rest);
      }
    }
    if (drop) continue;
    out[key] = next.length > 0 ? exclude(child, next) : child;
  }
  return out;
}

/** The reply body filtered by `filterPath`; non-JSON bodies pass through. */
export function applyFilterPath(body: string, filterPath: string): string {
  let value: Json;
  try {
    value = JSON.parse(body);
  } catch {
    return body;
  }
  const all = filterPath
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const excludes = all.filter((p) => p.startsWith('-')).map((p) => p.slice(1).split('.'));
  const includes = all.filter((p) => !p.startsWith('-')).map((p) => p.split('.'));
  if (includes.length > 0) value = include(value, includes) ?? {};
  if (excludes.length > 0) value = exclude(value, excludes);
  return JSON.stringify(value);
}
