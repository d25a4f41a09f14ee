/**
 * The route table, searched per request: routes grouped by path length (a pattern matches only
 * paths of its own length), each pattern split once into its literal parts, checked first, and
 * its variables, read only when every literal matched. Table order decides between routes that
 * match, as in a linear scan of the whole table.
 */
import type { Route } from './route.js';

interface CompiledRoute {
  route: Route;
  /** Positions and texts of the pattern's literal segments. */
  literals: [number, string][];
  /** Positions and names of its variables (`:index` -> `index`). */
  variables: [number, string][];
  /** An `:index` variable here refuses an API name such as `_search` (see `indexRefuses`). */
  guardsIndex: boolean;
}

/** What a path and method found: a route with its variables, or the methods the path takes. */
export type Found =
  | { route: Route; vars: Record<string, string> }
  | { route: undefined; allowed: Set<string> };

const DOC_APIS = ['_doc', '_create', '_update'];

function compile(route: Route): CompiledRoute {
  const { pattern } = route;
  const literals: [number, string][] = [];
  const variables: [number, string][] = [];
  pattern.forEach((part, i) => {
    if (part.startsWith(':')) variables.push([i, part.slice(1)]);
    else literals.push([i, part]);
  });
  // A variable never swallows an API name such as `_search`, except in the document APIs.
  const guardsIndex =
    pattern.length > 1 && pattern.includes(':index') && !DOC_APIS.includes(pattern[1] ?? '');
  return { route, literals, variables, guardsIndex };
}

/** Whether a segment in an `:index` position is an API name, not an index (`_all` is one). */
const indexRefuses = (segment: string) => segment.startsWith('_') && segment !== '_all';

/** The variables of `c` on `segments` of its length, or undefined when it does not match. */
function matchCompiled(c: CompiledRoute, segments: string[]): Record<string, string> | undefined {
  for (const [i, text] of c.literals) if (segments[i] !== text) return undefined;
  const vars: Record<string, string> = {};
  for (const [i, name] of c.variables) {
    const segment = segments[i] ?? '';
    if (c.guardsIndex && name === 'index' && indexRefuses(segment)) return undefined;
    vars[name] = segment;
  }
  return vars;
}

export class RouteTable {
  readonly #byLength = new Map<number, CompiledRoute[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const length = route.pattern.length;
      let group = this.#byLength.get(length);
      if (group === undefined) {
        group = [];
        this.#byLength.set(length, group);
      }
      group.push(compile(route));
    }
  }

  /** The first route in table order that matches the path and takes the method. */
  find(segments: string[], method: string): Found {
    const allowed = new Set<string>();
    for (const c of this.#byLength.get(segments.length) ?? []) {
      const vars = matchCompiled(c, segments);
      if (vars === undefined) continue;
      if (c.route.methods.includes(method)) return { route: c.route, vars };
      for (const m of c.route.methods) allowed.add(m);
    }
    return { route: undefined, allowed };
  }

  /** Every method some route takes on this path (no route takes the empty method). */
  allowedMethods(segments: string[]): Set<string> {
    const found = this.find(segments, '');
    return found.route === undefined ? found.allowed : new Set();
  }
}
