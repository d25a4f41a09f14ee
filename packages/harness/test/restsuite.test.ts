/**
 * The REST-suite runner's pieces, each against the behaviour of Elasticsearch's Java YAML runner:
 * request building from endpoint specs, YAML the Java parser reads, stash and paths, Java-regex
 * expectations, assertions, skips, the summary and the floor check.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkValue, difference, isFalsy } from '../src/restsuite/assertions.js';
import { runTest, warningMessage } from '../src/restsuite/execute.js';
import { javaPattern, stripComments } from '../src/restsuite/javaRegex.js';
import { checkFloor, summarise } from '../src/restsuite/results.js';
import { FLAKY_PREFIX, runSuite, type TestResult } from '../src/restsuite/run.js';
import { inRange, skipReason } from '../src/restsuite/skip.js';
import { type ApiSpecs, buildRequest, ParamError } from '../src/restsuite/spec.js';
import { evaluate, pathParts, Stash, stringOf } from '../src/restsuite/stash.js';
import { exclusionOf } from '../src/restsuite/suite.js';
import { indentContinuations, parseTestFile } from '../src/restsuite/testFile.js';
import { wipe } from '../src/restsuite/wipe.js';

const specs: ApiSpecs = {
  common: new Set(['pretty', 'filter_path']),
  apis: new Map([
    [
      'get',
      {
        name: 'get',
        paths: [{ path: '/{index}/_doc/{id}', methods: ['GET'], parts: ['index', 'id'] }],
        params: new Set(['routing', 'stored_fields']),
        body: undefined,
      },
    ],
    [
      'index',
      {
        name: 'index',
        paths: [
          { path: '/{index}/_doc/{id}', methods: ['PUT', 'POST'], parts: ['index', 'id'] },
          { path: '/{index}/_doc', methods: ['POST'], parts: ['index'] },
        ],
        params: new Set(['refresh']),
        body: { required: true, ndjson: false },
      },
    ],
    [
      'bulk',
      {
        name: 'bulk',
        paths: [
          { path: '/_bulk', methods: ['POST', 'PUT'], parts: [] },
          { path: '/{index}/_bulk', methods: ['POST', 'PUT'], parts: ['index'] },
        ],
        params: new Set(['refresh']),
        body: { required: true, ndjson: true },
      },
    ],
    [
      'exists',
      {
        name: 'exists',
        paths: [{ path: '/{index}/_doc/{id}', methods: ['HEAD'], parts: ['index', 'id'] }],
        params: new Set(),
        body: undefined,
      },
    ],
  ]),
};

describe('requests from endpoint specs', () => {
  it('takes the path with the most parts the call names, the rest in the query string', () => {
    const r = buildRequest(specs, 'index', { index: 'test', id: 'a b/c', refresh: true, body: { x: 1 } });
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/test/_doc/a%20b%2Fc?refresh=true');
    expect(JSON.parse(r.body ?? '')).toEqual({ x: 1 });
    expect(buildRequest(specs, 'index', { index: 'test', body: {} }).path).toBe('/test/_doc');
  });

  it('joins list values with commas and encodes non-ASCII path parts', () => {
    const r = buildRequest(specs, 'get', { index: ['a', 'b'], id: '中文', stored_fields: ['f1', 'f2'] });
    expect(r.path).toBe(`/a,b/_doc/${encodeURIComponent('中文')}?stored_fields=f1%2Cf2`);
  });

  it('sends bulk bodies as NDJSON, strings as they are, objects as JSON lines', () => {
    const r = buildRequest(specs, 'bulk', { body: ['{"index":{}}', { f: 1 }] });
    expect(r.body).toBe('{"index":{}}\n{"f":1}\n');
    expect(r.contentType).toBe('application/x-ndjson');
  });

  it('refuses a parameter the endpoint does not take, as the Java client does', () => {
    expect(() => buildRequest(specs, 'get', { index: 'i', id: '1', nope: 1 })).toThrow(ParamError);
    expect(() => buildRequest(specs, 'nosuch', {})).toThrow(ParamError);
    expect(() => buildRequest(specs, 'index', { index: 'i', id: '1' })).toThrow(/body is required/);
  });

  it('keeps the client-side ignore parameter out of the request', () => {
    const r = buildRequest(specs, 'get', { index: 'i', id: '1', ignore: [404, 400] });
    expect(r.path).toBe('/i/_doc/1');
    expect(r.ignore).toEqual([404, 400]);
  });
});

describe('test files', () => {
  const text = `---
setup:
  - skip:
      version: " - 6.99.99"
      reason: old
  - do:
      indices.create:
        index: test
---
"First":
  - do:
      catch: missing
      headers: { Accept: application/json }
      allowed_warnings: [ "w1" ]
      get: { index: test, id: 1 }
  - match: { error.type: x, status: 404 }
  - set: { _id: id }
  - is_true: found
---
"Second": [ { length: { hits: 3 } } ]
`;

  it('reads setup, tests and every kind of step', () => {
    const file = parseTestFile(text, 'get/10_basic.yml');
    expect(file.api).toBe('get');
    expect(file.setup[0]).toEqual({ op: 'skip', version: ' - 6.99.99', features: [], reason: 'old' });
    expect(file.tests.map((t) => t.name)).toEqual(['First', 'Second']);
    const steps = file.tests[0]?.steps ?? [];
    expect(steps[0]).toMatchObject({ op: 'do', api: 'get', catch: 'missing', allowedWarnings: ['w1'] });
    expect(steps.filter((s) => s.op === 'match')).toHaveLength(2);
    expect(steps.find((s) => s.op === 'set')).toEqual({ op: 'set', path: '_id', name: 'id' });
  });

  it('reads YAML 1.1 booleans as the Java parser does', () => {
    const file = parseTestFile('"t":\n  - match: { a: yes, b: off }\n', 'x/1.yml');
    expect(file.tests[0]?.steps.map((s) => ('expected' in s ? s.expected : undefined))).toEqual([
      true,
      false,
    ]);
  });

  it('reads continuation lines SnakeYAML accepts and the YAML spec does not', () => {
    const lax = `"t":
  - do:
      allowed_warnings:
        - "first half
        second half"
      search:
        body:
          collapse: { field: g, inner_hits: {
            name: h
          } }
`;
    expect(indentContinuations(lax)).not.toBe(lax);
    const step = parseTestFile(lax, 'search/1.yml').tests[0]?.steps[0];
    expect(step).toMatchObject({
      op: 'do',
      allowedWarnings: ['first half second half'],
      params: { body: { collapse: { field: 'g', inner_hits: { name: 'h' } } } },
    });
  });
});

describe('stash and paths', () => {
  it('splits paths on dots, keeping escaped ones', () => {
    expect(pathParts('a.b\\.c.0')).toEqual(['a', 'b.c', '0']);
    expect(pathParts('')).toEqual([]);
  });

  it('walks maps and lists, stash references in paths, and _arbitrary_key_', () => {
    const stash = new Stash();
    stash.set('node', 'n1');
    const body = { nodes: { n1: { list: [{ x: 1 }, { x: 2 }] } } };
    expect(evaluate(body, 'nodes.$node.list.1.x', stash)).toBe(2);
    expect(evaluate(body, 'nodes._arbitrary_key_', stash)).toBe('n1');
    expect(evaluate(body, 'nodes.missing.x', stash)).toBeUndefined();
    expect(() => evaluate(body, 'nodes.n1.list.7', stash)).toThrow(/out of bounds/);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the stash's own syntax
  it('replaces $name and ${name} in values and keys', () => {
    const stash = new Stash();
    stash.set('id', 42);
    stash.set('k', 'key');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the stash's own syntax
    expect(stash.replace({ a: '$id', b: 'x-${id}', $k: ['$id'] })).toEqual({ a: 42, b: 'x-42', key: [42] });
    expect(() => stash.value('$nope')).toThrow(/not found/);
  });

  it("writes values as Java's toString does (catch regexes read it)", () => {
    expect(stringOf({ type: 'x', root_cause: [{ a: 1 }] })).toBe('{type=x, root_cause=[{a=1}]}');
  });
});

describe('Java regexes', () => {
  it('drops COMMENTS-mode whitespace and comments, keeps escaped spaces', () => {
    expect(stripComments('^ a \\s+ b # note\n c$')).toBe('^a\\s+bc$');
    expect(stripComments('a\\ b')).toBe('a b');
  });

  it("matches with find(), $ before a final line break as Java's does", () => {
    expect(javaPattern('^ green \\s+ $').test('green \n')).toBe(true);
    expect(javaPattern('b').test('abc')).toBe(true);
    expect(javaPattern('^b$').test('b\n')).toBe(true);
    expect(javaPattern('^b$').test('b\nx')).toBe(false);
  });
});

describe('assertions', () => {
  it('match: exact maps, numbers whatever their form, regexes only on strings', () => {
    expect(checkValue('match', { a: 1, b: [1, 2] }, { a: 1.0, b: [1, 2] })).toBeUndefined();
    expect(checkValue('match', { a: 1, extra: 2 }, { a: 1 })).toMatch(/unexpected keys extra/);
    expect(checkValue('match', 'foo-123', '/^foo-\\d+$/')).toBeUndefined();
    expect(checkValue('match', 123, '/\\d+/')).toMatch(/expected a string/);
    expect(checkValue('match', undefined, 'x')).toMatch(/got nothing/);
    expect(checkValue('match', null, null)).toBeUndefined();
  });

  it('length, comparisons and contains', () => {
    expect(checkValue('length', [1, 2, 3], 3)).toBeUndefined();
    expect(checkValue('length', { a: 1 }, 2)).toMatch(/expected length 2/);
    expect(checkValue('gte', 5, 5)).toBeUndefined();
    expect(checkValue('lt', 5, 5)).toMatch(/lt/);
    expect(checkValue('gt', undefined, 0)).toMatch(/got nothing/);
    expect(checkValue('contains', [{ name: 'a', v: 1 }], { name: 'a' })).toBeUndefined();
    expect(checkValue('contains', ['a', 'b'], 'c')).toMatch(/does not contain/);
  });

  it('is_true / is_false by the suite definition of falsy', () => {
    for (const v of [undefined, null, false, 0, '', 'false']) expect(isFalsy(v)).toBe(true);
    for (const v of [true, 1, 'x', {}, []]) expect(isFalsy(v)).toBe(false);
  });

  it('difference names where values part', () => {
    expect(difference({ a: { b: [1, 2] } }, { a: { b: [1, 3] } })).toMatch(/\.a\.b\[1\]/);
  });
});

describe('skips', () => {
  it('judges both engines as 7.10.2', () => {
    expect(inRange(' - 7.9.99')).toBe(false);
    expect(inRange('7.10.0 - ')).toBe(true);
    expect(inRange('all')).toBe(true);
    expect(inRange('6.0.0 - 6.99.99, 7.10.0 - 7.10.99')).toBe(true);
  });

  it('skips tests that need runner features it lacks', () => {
    expect(skipReason({ op: 'skip', features: ['warnings', 'headers'] })).toBeUndefined();
    expect(skipReason({ op: 'skip', features: ['yaml'] })).toMatch(/yaml/);
    expect(skipReason({ op: 'skip', version: '7.0.0 - ', features: [] })).toMatch(/skipped on 7.10.2/);
  });

  it('reads a warning header as the message the test names', () => {
    expect(warningMessage('299 OpenSearch-2.19.1-abc "the [x] \\"y\\" is deprecated" "Sat, 01 Jan"')).toBe(
      'the [x] "y" is deprecated',
    );
  });
});

describe('a test run against a server', () => {
  let server: Server;
  let base = '';
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.method === 'HEAD') {
        res.writeHead(req.url?.endsWith('/1') ? 200 : 404).end();
        return;
      }
      if (req.url?.startsWith('/test/_doc/missing')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'not_found', reason: 'no [missing]' }, status: 404 }));
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        warning: '299 OpenSearch-2.19.1 "old param" "date"',
      });
      res.end(JSON.stringify({ _id: 'abc', found: true, _source: { f: 'v' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const file = (body: string) => parseTestFile(body, 'get/1.yml');
  const run = async (body: string) => {
    const f = file(body);
    const test = f.tests[0];
    if (!test) throw new Error('no test');
    return runTest(base, specs, f, test);
  };

  it('passes when every step holds, with stash between calls and warnings allowed', async () => {
    const outcome = await run(`"t":
  - do:
      allowed_warnings: [ "old param" ]
      get: { index: test, id: x }
  - match: { _source.f: v }
  - set: { _id: id }
  - do:
      warnings: [ "old param" ]
      get: { index: test, id: $id }
  - is_true: found
`);
    expect(outcome).toEqual({ verdict: 'pass' });
    expect(seen).toContain('GET /test/_doc/abc');
  });

  it('fails on a warning nobody expected, and on one that did not come', async () => {
    expect((await run('"t":\n  - do: { get: { index: test, id: x } }\n')).reason).toMatch(
      /unexpected warnings/,
    );
    expect(
      (await run('"t":\n  - do: { warnings: [nope, "old param"], get: { index: test, id: x } }\n')).reason,
    ).toMatch(/missing warnings \[nope\]/);
  });

  it('catches errors by status and by a regex over the error', async () => {
    expect(await run('"t":\n  - do: { catch: missing, get: { index: test, id: missing } }\n')).toEqual({
      verdict: 'pass',
    });
    expect(
      await run('"t":\n  - do: { catch: "/no \\\\[missing\\\\]/", get: { index: test, id: missing } }\n'),
    ).toEqual({
      verdict: 'pass',
    });
    expect(
      (await run('"t":\n  - do: { catch: bad_request, get: { index: test, id: missing } }\n')).verdict,
    ).toBe('fail');
    expect((await run('"t":\n  - do: { get: { index: test, id: missing } }\n')).reason).toMatch(
      /expected success/,
    );
  });

  it('answers HEAD as true or false, 404 being no error', async () => {
    expect(await run('"t":\n  - do: { exists: { index: test, id: 1 } }\n  - is_true: ""\n')).toEqual({
      verdict: 'pass',
    });
    expect(await run('"t":\n  - do: { exists: { index: test, id: 2 } }\n  - is_false: ""\n')).toEqual({
      verdict: 'pass',
    });
  });

  it('skips a test whose skip covers 7.10.2, and fails one whose step the runner lacks', async () => {
    expect((await run('"t":\n  - skip: { version: "all", reason: r }\n  - do: { get: {} }\n')).verdict).toBe(
      'skip',
    );
    expect((await run('"t":\n  - frobnicate: {}\n')).reason).toMatch(/no step frobnicate/);
  });
});

describe('the wipe between tests', () => {
  it('lifts the index blocks a failed test left, so the index can be deleted', async () => {
    const calls: string[] = [];
    let blocked = true;
    const server = createServer((req: IncomingMessage, res) => {
      calls.push(`${req.method} ${req.url}`);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      req.resume();
      req.on('end', () => {
        if (req.url?.startsWith('/_cat/indices')) return json(200, [{ index: 'ro' }]);
        if (req.method === 'PUT' && req.url === '/ro/_settings') {
          blocked = false;
          return json(200, { acknowledged: true });
        }
        if (req.method === 'DELETE' && req.url?.startsWith('/ro'))
          return blocked
            ? json(403, { error: { type: 'cluster_block_exception' }, status: 403 })
            : json(200, {});
        if (req.url === '/_cluster/settings') return json(200, { persistent: {}, transient: {} });
        return json(200, {});
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await wipe(url)).toEqual([]);
      expect(calls).toContain('PUT /ro/_settings');
      expect(calls.filter((c) => c.startsWith('DELETE /ro'))).toHaveLength(2);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('a second attempt for a test the candidate is known to pass', () => {
  it('passes a known test that fails once, keeping the first failure; never retries an unknown one', async () => {
    const gets: Record<string, number> = {};
    const server = createServer((req: IncomingMessage, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        if (req.url?.startsWith('/_cat/indices')) return res.end('[]');
        if (req.url === '/_cluster/settings') return res.end('{"persistent":{},"transient":{}}');
        const id = req.url?.match(/^\/test\/_doc\/(\w+)/)?.[1];
        if (req.method === 'GET' && id) {
          gets[id] = (gets[id] ?? 0) + 1;
          // Every document is found from its second read on: each test's first attempt fails.
          return res.end(JSON.stringify({ _id: id, found: gets[id] > 1 }));
        }
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const testOf = (id: string) => `"${id}":
  - do:
      get: { index: test, id: ${id} }
  - match: { found: true }
`;
    const known = parseTestFile(testOf('known'), 'get/known.yml');
    const unknown = parseTestFile(testOf('unknown'), 'get/unknown.yml');
    try {
      const results = await runSuite({
        files: [known, unknown],
        specs,
        exclusions: [],
        engines: [{ side: 'candidate', url }],
        runExcluded: false,
        retryOnCandidate: new Set(['get/known.yml::known']),
      });
      const [first, second] = results.map((r) => r.outcomes.candidate);
      expect(first?.verdict).toBe('pass');
      expect(first?.reason?.startsWith(FLAKY_PREFIX)).toBe(true);
      expect(second?.verdict).toBe('fail');
      expect(gets).toEqual({ known: 2, unknown: 1 });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('summary and floor', () => {
  const result = (
    id: string,
    api: string,
    baseline: 'pass' | 'fail' | 'skip',
    candidate: 'pass' | 'fail' | 'skip',
    excluded?: string,
  ): TestResult => ({
    id,
    api,
    ...(excluded ? { excluded } : {}),
    outcomes: {
      baseline: { verdict: baseline },
      candidate: { verdict: candidate, reason: candidate === 'fail' ? 'why' : undefined },
    },
  });
  const exclusions = [{ apis: ['snapshot.*'], reason: 'a single node has no snapshots to take' }];
  const results = [
    result('a::1', 'a', 'pass', 'pass'),
    result('a::2', 'a', 'pass', 'fail'),
    result('a::3', 'a', 'fail', 'pass'),
    result('a::4', 'a', 'skip', 'skip'),
    result('snapshot.get::1', 'snapshot.get', 'pass', 'fail', 'snapshot.*'),
  ];
  const meta = {
    measuredAt: '2026-11-28',
    baseline: 'OpenSearch 2.19.1',
    suite: 'org.elasticsearch:rest-api-spec:7.10.2',
  };

  it('counts a test against the candidate only where OpenSearch passes it; exclusions are counted apart', () => {
    const { summary, candidatePasses, candidateFails } = summarise(results, exclusions, meta);
    expect(summary).toMatchObject({
      tests: 5,
      skipped: 1,
      baselinePass: 2,
      candidatePass: 1,
      candidateOnly: 1,
    });
    expect(summary.excluded).toEqual([{ apis: ['snapshot.*'], reason: exclusions[0]?.reason, tests: 1 }]);
    expect(candidatePasses).toEqual(['a::1']);
    expect(candidateFails).toEqual([{ id: 'a::2', reason: 'why' }]);
    expect(exclusionOf('snapshot.create', exclusions)).toBeDefined();
    expect(exclusionOf('search', exclusions)).toBeUndefined();
  });

  it('names each test lost against the floor; a waiver holds until it expires', () => {
    const floor = summarise(
      [result('a::1', 'a', 'pass', 'pass'), result('a::2', 'a', 'pass', 'pass')],
      [],
      meta,
    );
    const now = summarise(results, exclusions, meta);
    expect(checkFloor(now, floor, [], '2026-11-28').lost).toEqual(['a::2']);
    const waiver = { test: 'a::2', reason: 'changed on purpose', expires: '2026-12-31' };
    expect(checkFloor(now, floor, [waiver], '2026-11-28')).toMatchObject({
      lost: [],
      waived: [{ test: 'a::2' }],
    });
    expect(checkFloor(now, floor, [waiver], '2027-01-01').lost).toEqual(['a::2']);
  });
});
