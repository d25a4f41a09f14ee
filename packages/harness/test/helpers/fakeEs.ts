import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny ES-shaped server for harness tests: it stores nothing but a doc count and answers
 * searches with fixed shapes, so tests can check the harness's wiring (paths, parameters,
 * rounds, verdict plumbing) without a real engine. Search answers are identical for any two
 * fakes with the same `total`, so results agree unless a test says otherwise.
 */
export interface FakeEsOptions {
  name: string;
  /** Delay added to every _search, _count and _bulk, ms. */
  delayMs?: number;
  /** hits.total.value returned for every search. */
  total?: number;
  /** Fields added to every search reply (an answer the rows' signals leave out, e.g. `_source`). */
  searchExtra?: Record<string, unknown>;
  /** Status for searches (e.g. 400 to look unsupported). */
  searchStatus?: number;
  /** `_stats` store size per document held (default 100 bytes). */
  storeBytesPerDoc?: number;
  /** Answer `_forcemerge` with a 400, as an engine without it would. */
  refuseForceMerge?: boolean;
  /** Refuse an index body naming a similarity, as a build older than the setting did. */
  refuseSimilarity?: boolean;
  /**
   * Serve `_nodes/stats/process` (and `jvm`) as a remote engine does: process CPU grows by
   * `cpuMsPerSearch` per `_search`/`_count` answered; memory as the candidate reports it
   * (`residentBytes`) or, like a JVM, only as committed heap + non-heap (`jvmCommittedBytes`).
   */
  nodeStats?: { cpuMsPerSearch: number; residentBytes?: number; jvmCommittedBytes?: number };
}

export interface FakeEs {
  url: string;
  requests: { method: string; url: string; body: string; at: number }[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function aggsFor(aggs: Record<string, Record<string, unknown>> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(aggs ?? {})) {
    out[name] =
      'terms' in def || 'date_histogram' in def ? { buckets: [{ key: 'k', doc_count: 3 }] } : { value: 1.5 };
  }
  return out;
}

export async function startFakeEs(opts: FakeEsOptions): Promise<FakeEs> {
  const requests: FakeEs['requests'] = [];
  let docs = 0;
  let searches = 0;
  // Each request's answer; a body it cannot read is a 400, as an engine answers it (never an unhandled rejection).
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const url = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', url, body, at: performance.now() });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    const path = url.split('?')[0] as string;
    if (req.method === 'GET' && path === '/')
      return send(200, { name: opts.name, version: { number: '0.0.1', distribution: opts.name } });
    if (path.endsWith('/_bulk')) {
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      docs += body.split('\n').filter(Boolean).length / 2;
      return send(200, { took: 1, errors: false, items: [] });
    }
    if (path.endsWith('/_forcemerge')) {
      return opts.refuseForceMerge
        ? send(400, {
            error: { type: 'illegal_argument_exception', reason: 'no force-merge here' },
            status: 400,
          })
        : send(200, { _shards: { total: 1, successful: 1, failed: 0 } });
    }
    if (path.endsWith('/_stats/store')) {
      const size = docs * (opts.storeBytesPerDoc ?? 100);
      return send(200, { _all: { primaries: { store: { size_in_bytes: size } } } });
    }
    if (path.endsWith('/_refresh')) return send(200, { _shards: { total: 1, successful: 1, failed: 0 } });
    const ns = opts.nodeStats;
    if (ns && req.method === 'GET' && (path === '/_nodes/stats/process' || path === '/_nodes/stats/jvm')) {
      const node: Record<string, unknown> = { name: opts.name };
      if (path.endsWith('/process'))
        node.process = {
          cpu: { total_in_millis: Math.round(searches * ns.cpuMsPerSearch) },
          mem: {
            total_virtual_in_bytes: 1 << 30,
            ...(ns.residentBytes ? { resident_in_bytes: ns.residentBytes } : {}),
          },
        };
      else if (ns.jvmCommittedBytes)
        node.jvm = {
          mem: {
            heap_committed_in_bytes: ns.jvmCommittedBytes * 0.75,
            non_heap_committed_in_bytes: ns.jvmCommittedBytes * 0.25,
          },
        };
      else
        return send(400, {
          error: { type: 'illegal_argument_exception', reason: 'no jvm here' },
          status: 400,
        });
      return send(200, { _nodes: { total: 1, successful: 1, failed: 0 }, nodes: { n0: node } });
    }
    if (path.endsWith('/_count') || path.endsWith('/_search')) {
      searches++;
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      if (opts.searchStatus && opts.searchStatus >= 300) {
        return send(opts.searchStatus, {
          error: { type: 'parsing_exception', reason: 'fake refuses' },
          status: opts.searchStatus,
        });
      }
      const parsed = JSON.parse(body || '{}') as {
        query?: { match_all?: unknown };
        aggs?: Record<string, Record<string, unknown>>;
      };
      if (path.endsWith('/_count')) return send(200, { count: parsed.query?.match_all ? docs : 7 });
      return send(200, {
        took: 1,
        timed_out: false,
        hits: { total: { value: opts.total ?? 42, relation: 'eq' }, hits: [] },
        aggregations: aggsFor(parsed.aggs),
        ...opts.searchExtra,
      });
    }
    if (req.method === 'DELETE') {
      const had = docs > 0;
      docs = 0;
      return had
        ? send(200, { acknowledged: true })
        : send(404, { error: { type: 'index_not_found_exception', reason: 'no such index' }, status: 404 });
    }
    if (req.method === 'PUT' && opts.refuseSimilarity && body.includes('similarity'))
      return send(400, {
        error: {
          type: 'illegal_argument_exception',
          reason: 'unknown setting [index.similarity.default.type]',
        },
        status: 400,
      });
    if (req.method === 'PUT') return send(200, { acknowledged: true });
    return send(400, {
      error: { type: 'illegal_argument_exception', reason: `unknown ${req.method} ${url}` },
      status: 400,
    });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            type: 'parsing_exception',
            reason: `fake could not read the request: ${(error as Error).message}`,
          },
          status: 400,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
