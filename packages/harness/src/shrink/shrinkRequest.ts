import { type Budget, outOfBudget } from './ddmin.js';

/**
 * A request body made smaller while the two engines still disagree on it (hierarchical delta
 * debugging over the JSON tree): drop an object key or an array element, or put a node's
 * descendant in its place (`{bool: {filter: [X]}}` becomes `X`), largest parts first, until no
 * single edit keeps the disagreement or the budget runs out. `stillDiffers` is the experiment: it
 * sends the body to both engines and says whether both answered and the answers still differ (an
 * edit that makes either engine refuse the request is not kept).
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

export interface ShrunkRequest {
  body: Record<string, unknown>;
  tests: number;
  /** Edits kept. */
  edits: number;
  complete: boolean;
}

const isObject = (x: unknown): x is Record<string, Json> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** Every node's path, breadth first (the root's children before theirs: big parts go first). */
function paths(root: Json): Path[] {
  const out: Path[] = [];
  const queue: { node: Json; path: Path }[] = [{ node: root, path: [] }];
  while (queue.length > 0) {
    const { node, path } = queue.shift() as { node: Json; path: Path };
    const children: [string | number, Json][] = Array.isArray(node)
      ? node.map((v, i) => [i, v])
      : isObject(node)
        ? Object.entries(node)
        : [];
    for (const [key, child] of children) {
      out.push([...path, key]);
      queue.push({ node: child, path: [...path, key] });
    }
  }
  return out;
}

const clone = <T>(x: T): T => structuredClone(x);

function at(root: Json, path: Path): Json | undefined {
  let node: Json | undefined = root;
  for (const key of path) {
    if (Array.isArray(node) && typeof key === 'number') node = node[key];
    else if (isObject(node) && typeof key === 'string') node = node[key];
    else return undefined;
  }
  return node;
}

/** The body without the node at `path`. */
function without(root: Json, path: Path): Json {
  const out = clone(root);
  const parent = at(out, path.slice(0, -1));
  const key = path[path.length - 1];
  if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
  else if (isObject(parent) && typeof key === 'string') delete parent[key];
  return out;
}

/** The body with the node at `path` replaced by `value`. */
function replaced(root: Json, path: Path, value: Json): Json {
  if (path.length === 0) return clone(value);
  const out = clone(root);
  const parent = at(out, path.slice(0, -1));
  const key = path[path.length - 1];
  if (Array.isArray(parent) && typeof key === 'number') parent[key] = clone(value);
  else if (isObject(parent) && typeof key === 'string') parent[key] = clone(value);
  return out;
}

/** Objects two or three levels under a node (an array index is a level): `{bool: {filter: [X]}}` holds X three down. */
function descendants(node: Json | undefined): Record<string, Json>[] {
  const out: Record<string, Json>[] = [];
  const walk = (x: Json | undefined, depth: number) => {
    if (depth >= 2 && isObject(x)) out.push(x);
    if (depth === 3) return;
    const children = Array.isArray(x) ? x : isObject(x) ? Object.values(x) : [];
    for (const child of children) walk(child, depth + 1);
  };
  walk(node, 0);
  return out;
}

/** The edits to try at a node: drop it, or put an object from two or three levels under it in its place. */
function edits(root: Json, path: Path): Json[] {
  return [without(root, path), ...descendants(at(root, path)).map((d) => replaced(root, path, d))];
}

export async function shrinkRequest(
  body: Record<string, unknown>,
  stillDiffers: (body: Record<string, unknown>) => Promise<boolean>,
  budget: Budget,
): Promise<ShrunkRequest> {
  let current = clone(body) as Json;
  let tests = 0;
  let kept = 0;
  // An edit tried once is not tried again after the tree changed elsewhere (same body, same answer).
  const tried = new Set<string>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const path of paths(current)) {
      for (const candidate of edits(current, path)) {
        if (!isObject(candidate)) continue;
        const text = JSON.stringify(candidate);
        if (text === JSON.stringify(current) || tried.has(text)) continue;
        tried.add(text);
        if (outOfBudget(budget, tests))
          return { body: current as Record<string, unknown>, tests, edits: kept, complete: false };
        tests++;
        if (await stillDiffers(candidate as Record<string, unknown>)) {
          current = candidate;
          kept++;
          changed = true;
          break;
        }
      }
      // The tree changed: its paths are stale; start over from the root.
      if (changed) break;
    }
  }
  return { body: current as Record<string, unknown>, tests, edits: kept, complete: true };
}
