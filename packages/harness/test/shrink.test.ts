import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareBulk } from '../src/corpus/bulk.js';
import { totalOf } from '../src/families/signals/core.js';
import type { Family } from '../src/families/types.js';
import type { HttpResponse } from '../src/load/http.js';
import type { Scorecard } from '../src/scorecard/schema.js';
import { differingPaths, shrunkCase } from '../src/shrink/conformanceCase.js';
import { ddmin } from '../src/shrink/ddmin.js';
import { type ShrinkEngine, shrinkMismatch } from '../src/shrink/shrinkMismatch.js';
import { shrinkRequest } from '../src/shrink/shrinkRequest.js';
import { startFakeEs } from './helpers/fakeEs.js';
import { runCli } from './helpers/runCli.js';
import { shortRunArgs } from './helpers/shortRun.js';

const roomy = () => ({ tests: 10_000, deadline: performance.now() + 60_000 });

type Doc = Record<string, number | string>;
type Query = Record<string, unknown>;

/**
 * A tiny engine that keeps documents and answers term, range, bool and match_all queries with
 * hits.total; `gteAsGt` plants a bug (a range's `gte` read as `gt`), the difference to find.
 */
function memoryEngine(gteAsGt: boolean): ShrinkEngine & { requests: number } {
  const indexes = new Map<string, Map<string, Doc>>();
  const reply = (status: number, body: unknown): HttpResponse => ({ status, text: JSON.stringify(body) });
  const matches = (doc: Doc, q: Query): boolean => {
    const [kind, spec] = Object.entries(q)[0] ?? ['match_all', {}];
    if (kind === 'match_all') return true;
    if (kind === 'term') {
      const [field, value] = Object.entries(spec as Record<string, unknown>)[0] as [string, unknown];
      return doc[field] === value;
    }
    if (kind === 'range') {
      const [field, bounds] = Object.entries(spec as Record<string, Record<string, number>>)[0] as [
        string,
        Record<string, number>,
      ];
      const v = doc[field] as number;
      if (bounds.gte !== undefined && !(gteAsGt ? v > bounds.gte : v >= bounds.gte)) return false;
      if (bounds.lt !== undefined && !(v < bounds.lt)) return false;
      return true;
    }
    if (kind === 'bool') {
      const b = spec as Record<string, Query[]>;
      return (
        (b.filter ?? []).every((c) => matches(doc, c)) &&
        (b.must ?? []).every((c) => matches(doc, c)) &&
        !(b.must_not ?? []).some((c) => matches(doc, c))
      );
    }
    throw new Error(`unknown query ${kind}`);
  };
  const engine = {
    requests: 0,
    async send(method: string, path: string, body?: string | Buffer): Promise<HttpResponse> {
      engine.requests++;
      const [, index = '', action = ''] = path.split('?')[0]?.split('/') ?? [];
      if (method === 'DELETE') return reply(indexes.delete(index) ? 200 : 404, {});
      if (method === 'PUT') {
        indexes.set(index, new Map());
        return reply(200, { acknowledged: true });
      }
      const docs = indexes.get(index);
      if (!docs) return reply(404, { error: { type: 'index_not_found_exception' } });
      if (action === '_bulk') {
        const lines = String(body).split('\n').filter(Boolean);
        for (let i = 0; i < lines.length; i += 2) {
          const id = (JSON.parse(lines[i] as string) as { index: { _id: string } }).index._id;
          docs.set(id, JSON.parse(lines[i + 1] as string) as Doc);
        }
        return reply(200, { errors: false, items: [] });
      }
      const request = JSON.parse(String(body)) as { query?: Query };
      try {
        const total = [...docs.values()].filter((d) => matches(d, request.query ?? { match_all: {} })).length;
        return reply(200, { took: 1, hits: { total: { value: total, relation: 'eq' }, hits: [] } });
      } catch (error) {
        return reply(400, { error: { type: 'parsing_exception', reason: (error as Error).message } });
      }
    },
  };
  return engine;
}

const family: Family = {
  id: 'query.planted',
  group: 'query',
  family: 'planted',
  title: 'a planted difference',
  endpoint: '_search',
  request: () => ({}),
  signal: (response) => ({ total: totalOf(response) }),
};

describe('ddmin', () => {
  it('finds the two items a failure needs, among a hundred', async () => {
    const found = await ddmin(
      Array.from({ length: 100 }, (_, i) => i),
      async (s) => s.includes(17) && s.includes(42),
      roomy(),
    );
    expect(found.items).toEqual([17, 42]);
    expect(found.complete).toBe(true);
  });

  it('stops at the budget and says so', async () => {
    const found = await ddmin(
      Array.from({ length: 100 }, (_, i) => i),
      async (s) => s.includes(17) && s.includes(42),
      { tests: 3, deadline: performance.now() + 60_000 },
    );
    expect(found.complete).toBe(false);
    expect(found.tests).toBe(3);
    expect(found.items).toContain(17);
  });
});

describe('shrinkRequest', () => {
  it('drops every clause, option and aggregation the difference does not need, and hoists what it does', async () => {
    const body = {
      query: {
        bool: {
          filter: [{ term: { status: 'ok' } }, { range: { bytes: { gte: 5 } } }],
          must_not: [{ term: { region: 'eu' } }],
        },
      },
      aggs: { by_status: { terms: { field: 'status' } } },
      sort: [{ ts: 'desc' }],
      size: 10,
    };
    // The experiment: a range with gte anywhere under the query still shows it.
    const shrunk = await shrinkRequest(
      body,
      async (b) => JSON.stringify(b.query ?? null).includes('"range":{"bytes":{"gte":5}}'),
      roomy(),
    );
    expect(shrunk.body).toEqual({ query: { range: { bytes: { gte: 5 } } } });
    expect(shrunk.complete).toBe(true);
    expect(shrunk.edits).toBeGreaterThan(0);
  });
});

describe('a planted difference shrunk to a case', () => {
  it('narrows request and documents to the one clause and the one document that show the bug', async () => {
    // 200 documents; bytes 0..199. The candidate reads gte as gt: only bytes == 120 tells them apart.
    const corpus = prepareBulk(
      Array.from({ length: 200 }, (_, i) => ({
        id: `d${i}`,
        source: { bytes: i, status: i % 3 === 0 ? 'ok' : 'warn', region: i % 2 === 0 ? 'eu' : 'us' },
      })),
      50,
      { mappings: {} },
    );
    const engines = { candidate: memoryEngine(true), baseline: memoryEngine(false) };
    for (const e of Object.values(engines)) {
      await e.send('PUT', '/corpus');
      for (const b of corpus.batches) await e.send('POST', '/corpus/_bulk', b.body.toString('utf8'));
    }
    const body = {
      query: {
        bool: {
          filter: [{ term: { status: 'ok' } }, { range: { bytes: { gte: 120 } } }],
          must_not: [{ term: { region: 'us' } }],
        },
      },
      size: 5,
    };
    const result = await shrinkMismatch(
      { rowId: family.id, runId: 'run-1', family, index: 'corpus', body, summary: 'hits.total: 13 vs 14' },
      engines,
      corpus,
      { request: roomy(), documents: roomy(), scratchIndex: 'scratch', timeoutMs: 1000 },
    );
    expect(result.skipped).toBeUndefined();
    const c = result.case as {
      steps: { path: string; body?: unknown; ndjson?: unknown[]; expect?: unknown }[];
      answers: unknown;
    };
    const search = c.steps.at(-1);
    expect(search?.body).toMatchObject({ query: { range: { bytes: { gte: 120 } } } });
    expect(JSON.stringify(search?.body)).not.toContain('status');
    // One document: the one at the bound.
    expect(result.stats?.documents).toBe(1);
    expect(c.steps[1]?.ndjson).toEqual([
      { index: { _id: 'd120' } },
      { bytes: 120, status: 'ok', region: 'eu' },
    ]);
    // The case pins the baseline's answer where the two differ.
    expect(search?.expect).toEqual({ status: 200, 'hits.total.value': 1 });
    expect(c.answers).toMatchObject({
      candidate: { hits: { total: { value: 0 } } },
      baseline: { hits: { total: { value: 1 } } },
    });
    expect(search?.path).toBe('/shrunk/_search?request_cache=false');
    // The scratch index is gone.
    expect((await engines.candidate.send('POST', '/scratch/_search', '{}')).status).toBe(404);
  });

  it('says why when the recorded request no longer differs', async () => {
    const corpus = prepareBulk([{ id: 'a', source: { bytes: 1 } }], 10, { mappings: {} });
    const engines = { candidate: memoryEngine(false), baseline: memoryEngine(false) };
    for (const e of Object.values(engines)) {
      await e.send('PUT', '/corpus');
      for (const b of corpus.batches) await e.send('POST', '/corpus/_bulk', b.body.toString('utf8'));
    }
    const result = await shrinkMismatch(
      {
        rowId: family.id,
        runId: 'run-1',
        family,
        index: 'corpus',
        body: { query: { match_all: {} } },
        summary: 'x',
      },
      engines,
      corpus,
      { request: roomy(), documents: roomy(), scratchIndex: 'scratch', timeoutMs: 1000 },
    );
    expect(result.skipped).toMatch(/no longer differs/);
  });

  it('lists the differing paths of two answers, volatile fields left out', () => {
    expect(
      differingPaths(
        { took: 3, hits: { total: { value: 1 }, hits: [{ _id: 'a' }, { _id: 'b' }] } },
        { took: 9, hits: { total: { value: 2 }, hits: [{ _id: 'a' }] } },
      ),
    ).toEqual(['hits.hits.length', 'hits.total.value']);
    const kase = shrunkCase({
      rowId: 'r',
      runId: 'run',
      summary: 's',
      index: 'shrunk',
      indexBody: {},
      documents: [],
      request: { method: 'POST', path: '/shrunk/_search', body: {} },
      answers: { candidate: { a: 1 }, baseline: { a: 2 } },
      stats: {
        requestTests: 1,
        requestComplete: true,
        documentTests: 1,
        documentsBefore: 5,
        documentsComplete: true,
      },
    });
    // Without documents there is no bulk step.
    expect((kase.steps as unknown[]).length).toBe(2);
  });
});

describe('the shrink stage through the real CLI', () => {
  it('writes a case beside the card for a row whose answers differ, and links it from the row', async () => {
    const out = await mkdtemp(join(tmpdir(), 'everycell-shrink-'));
    const candidate = await startFakeEs({ name: 'fake-a', total: 100 });
    const baseline = await startFakeEs({ name: 'fake-b', total: 90 });
    try {
      const r = await runCli([
        ...shortRunArgs(candidate.url, baseline.url),
        '--out',
        out,
        '--docs',
        '500',
        '--families',
        'query.term',
      ]);
      expect(r.code, r.stdout + r.stderr).not.toBe(2);
      const [runId] = (await readdir(out)).filter((f) => /^\d{8}T\d{6}Z-/.test(f));
      const card = JSON.parse(
        await readFile(join(out, runId as string, 'scorecard.json'), 'utf8'),
      ) as Scorecard;
      const row = card.rows.find((x) => x.id === 'query.term');
      expect(row?.verdict).toBe('N/A');
      expect(row?.mismatch?.request).toBeDefined();
      expect(row?.shrunk?.path).toBe('shrunk/query.term.json');
      const cases = JSON.parse(
        await readFile(join(out, runId as string, 'shrunk', 'query.term.json'), 'utf8'),
      ) as { steps: { expect?: Record<string, unknown> }[] }[];
      // The fakes differ on every request and every document set: the request shrinks to nothing.
      expect(cases[0]?.steps.at(-1)?.expect).toMatchObject({ 'hits.total.value': 90 });
      expect(await readFile(join(out, runId as string, 'SCORECARD.md'), 'utf8')).toContain(
        'Shrunk to a conformance case: [shrunk/query.term.json]',
      );
    } finally {
      await Promise.all([candidate.close(), baseline.close()]);
      await rm(out, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the fake engine the shrinker is tested against', () => {
  it('answers a body it cannot read with a 400, as an engine does', async () => {
    const fake = await startFakeEs({ name: 'fake' });
    try {
      const res = await fetch(`${fake.url}/x/_search`, {
        method: 'POST',
        body: '{"aggs":{"a":"latency_ms"}}',
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { type: string } }).error.type).toBe('parsing_exception');
    } finally {
      await fake.close();
    }
  });
});
