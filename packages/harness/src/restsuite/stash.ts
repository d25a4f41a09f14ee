/**
 * The YAML runner's stash and paths: `set` stores a value under a name, `$name` and `${name}`
 * read it back in requests, expectations and paths; a path walks a response by dotted keys
 * (`\.` for a dot inside a key) and list indices, `_arbitrary_key_` naming any key of a map.
 */

const EXTENDED = /\$\{([^}]+)\}/g;

export class StashError extends Error {}

export class Stash {
  private readonly values = new Map<string, unknown>();

  set(name: string, value: unknown): void {
    this.values.set(name, value);
  }

  clear(): void {
    this.values.clear();
  }

  /** Whether `key` reads the stash: it starts with `$` or holds a `${name}`. */
  refersTo(key: unknown): key is string {
    if (typeof key !== 'string' || key.length === 0) return false;
    if (key.startsWith('$')) return true;
    EXTENDED.lastIndex = 0;
    return EXTENDED.test(key);
  }

  private unstash(name: string): unknown {
    if (!this.values.has(name)) throw new StashError(`stashed value not found for key [${name}]`);
    return this.values.get(name);
  }

  /** `$name` is the stashed value itself; `${name}` inside text is replaced by its string. */
  value(key: string): unknown {
    if (key.startsWith('$') && key[1] !== '{') return this.unstash(key.slice(1));
    return key.replace(EXTENDED, (_, name: string) => stringOf(this.unstash(name)));
  }

  /** Every stash reference in `value` (keys of maps too) replaced by what it names. */
  replace(value: unknown): unknown {
    if (this.refersTo(value)) return this.value(value);
    if (Array.isArray(value)) return value.map((item) => this.replace(item));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const name = this.refersTo(key) ? stringOf(this.value(key)) : key;
        out[name] = this.replace(item);
      }
      return out;
    }
    return value;
  }
}

/** A value as Java's `toString` writes it: maps `{k=v, ...}`, lists `[a, b]`. */
export function stringOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(stringOf).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}=${stringOf(v)}`)
      .join(', ')}}`;
  return String(value);
}

/** A dotted path split into keys; `\.` keeps a dot inside a key. */
export function pathParts(path: string): string[] {
  if (path === '') return [];
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '\\' && path[i + 1] === '.') {
      current += '.';
      i++;
    } else if (c === '.') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

/**
 * The value at `path` in `root`, or undefined where a key is missing. Throws where the path
 * cannot apply (an index into a non-list, a key into a scalar), as the Java runner does.
 */
export function evaluate(root: unknown, path: string, stash: Stash): unknown {
  let node = root;
  for (const raw of pathParts(path)) {
    const key = stash.refersTo(raw) ? stringOf(stash.value(raw)) : raw;
    if (node === undefined || node === null) return undefined;
    if (Array.isArray(node)) {
      const index = Number(key);
      if (!Number.isInteger(index)) throw new StashError(`element was a list, but [${key}] was not numeric`);
      if (index < 0 || index >= node.length)
        throw new StashError(
          `element was a list with ${node.length} elements, but [${key}] was out of bounds`,
        );
      node = node[index];
    } else if (typeof node === 'object') {
      const map = node as Record<string, unknown>;
      if (key === '_arbitrary_key_') {
        const keys = Object.keys(map);
        if (keys.length === 0) throw new StashError(`requested [${key}] but the map was empty`);
        node = keys[0];
        continue;
      }
      node = Object.hasOwn(map, key) ? map[key] : undefined;
    } else {
      throw new StashError(`no object found for [${key}] within a ${typeof node}`);
    }
  }
  return node;
}
