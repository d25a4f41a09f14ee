/**
 * The request target and the route table, each against the plain reading it replaces: a target
 * split without building a URL gives what URL parsing gives, and the table grouped by path length
 * finds what a scan of every route in order finds.
 */
import { describe, expect, it } from 'vitest';
import { parseTarget, parseTargetAsUrl } from '../ts/http.js';
import type { Route } from '../ts/route.js';
import { RouteTable } from '../ts/route-table.js';
import { allowedMethods, makeRouter } from '../ts/routes.js';

const TARGETS = [
  '/',
  '/logs/_search',
  '/logs/_search?size=0&q=a+b',
  '/logs/_search?q=caf%C3%A9&x',
  '/logs,metrics/_count?ignore_unavailable=true',
  '/logs-2024.01/_doc/a:b',
  '/.kibana/_doc/1',
  '/a//b/',
  '/logs/./_search',
  '/logs/../_search',
  '/..',
  '//_refresh',
  '/%5Flogs/_search',
  '/logs/_doc/a%2Fb',
  '/logs/_search?q="x y"',
  "/logs/_search?q=<a>&b='c'",
  '/logs/_search?a=1#frag',
  '/logs/_search?a=%zz&b=%25',
  '/logs/_search?a=é',
  '/logs\\_search',
  '/_cat/indices?v&h=index,docs.count',
  '/*/_search?filter_path=hits.hits._id',
];

describe('the request target', () => {
  it('splits every target as URL parsing does', () => {
    for (const target of TARGETS) expect(parseTarget(target), target).toEqual(parseTargetAsUrl(target));
  });

  it('splits random targets as URL parsing does', () => {
    const alphabet = 'ab_.-/?&=%+#*,:2F5"é\\ \t';
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 5000; n++) {
      let target = '/';
      const length = next() % 16;
      for (let i = 0; i < length; i++) target += alphabet[next() % alphabet.length];
      let expected: unknown;
      try {
        expected = parseTargetAsUrl(target);
      } catch (error) {
        expect(() => parseTarget(target), target).toThrow((error as Error).message);
        continue;
      }
      expect(parseTarget(target), target).toEqual(expected);
    }
  });
});

/** What the router did before the table: every route in order, the first match with the method. */
function scan(routes: Route[], segments: string[], method: string) {
  const allowed = new Set<string>();
  for (const route of routes) {
    if (route.pattern.length !== segments.length) continue;
    const vars: Record<string, string> = {};
    let matched = true;
    for (const [i, part] of route.pattern.entries()) {
      const seg = segments[i] ?? '';
      if (part.startsWith(':')) {
        const docApi = ['_doc', '_create', '_update'].includes(route.pattern[1] ?? '');
        if (
          seg.startsWith('_') &&
          seg !== '_all' &&
          !docApi &&
          part === ':index' &&
          route.pattern.length > 1
        ) {
          matched = false;
          break;
        }
        vars[part.slice(1)] = seg;
      } else if (part !== seg) {
        matched = false;
        break;
      }
    }
    if (!matched) continue;
    if (route.methods.includes(method)) return { route, vars };
    for (const m of route.methods) allowed.add(m);
  }
  return { route: undefined, allowed };
}

const handler = () => ({ status: 200, body: '{}' });
const ROUTES: Route[] = [
  { methods: ['GET'], pattern: [], handler },
  { methods: ['GET', 'POST'], pattern: [':index', '_search'], handler },
  { methods: ['POST'], pattern: ['_search', 'scroll'], handler },
  { methods: ['PUT'], pattern: [':index'], handler },
  { methods: ['HEAD'], pattern: [':index'], handler },
  { methods: ['GET'], pattern: [':index', '_doc', ':id'], handler },
  { methods: ['PUT', 'POST'], pattern: [':index', '_doc', ':id'], handler },
  { methods: ['GET'], pattern: ['_cat', 'indices', ':index'], handler },
  { methods: ['GET'], pattern: [':index', ':type', ':id'], handler },
  { methods: ['DELETE'], pattern: [':index', '_alias', ':name'], handler },
];

describe('the route table', () => {
  it('finds what a scan of every route in order finds', () => {
    const table = new RouteTable(ROUTES);
    const parts = ['logs', '_search', '_all', '_doc', 'scroll', '_cat', 'indices', '_alias', '1', '_x'];
    const paths: string[][] = [[]];
    for (const a of parts) {
      paths.push([a]);
      for (const b of parts) {
        paths.push([a, b]);
        for (const c of parts) paths.push([a, b, c]);
      }
    }
    for (const segments of paths)
      for (const method of ['GET', 'POST', 'PUT', 'HEAD', 'DELETE']) {
        const found = table.find(segments, method);
        const expected = scan(ROUTES, segments, method);
        expect(found.route, `${method} /${segments.join('/')}`).toBe(expected.route);
        if (found.route !== undefined) expect(found.vars).toEqual(expected.vars);
        else expect([...found.allowed].sort()).toEqual([...(expected.allowed ?? [])].sort());
      }
  });

  it('answers the served routes by method, 405 and 400 as before', async () => {
    const route = makeRouter({ debugRoutes: false });
    const request = (method: string, segments: string[]) => ({
      method,
      segments,
      params: {},
      body: Buffer.alloc(0),
      uri: `/${segments.join('/')}`,
    });
    await expect(route({} as never, request('PATCH', ['logs', '_search']))).rejects.toMatchObject({
      status: 405,
    });
    await expect(
      route({} as never, request('GET', ['logs', '_nothing_here', 'x', 'y'])),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect(allowedMethods(['logs', '_search'])).toEqual(['GET', 'POST']);
  });
});
