/**
 * The node:http layer: reads bodies, checks content types, routes, and writes every
 * response with `X-Elastic-Product: Elasticsearch`. A handler's failure becomes the ES
 * error body it carries; anything unexpected becomes a 500, and the server keeps serving.
 */
import http from 'node:http';
import type { Engine } from './engine.js';
import { decodeNativeError, EngineError } from './errors.js';
import { makeRouter, type Request } from './routes.js';

const JSON_TYPE = 'application/json; charset=UTF-8';
const COMPAT_TYPE = 'application/vnd.elasticsearch+json;compatible-with=8';
const ACCEPTED_BODY_TYPES = ['application/json', 'application/x-ndjson', 'application/vnd.elasticsearch+'];

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseTarget(target: string): { segments: string[]; params: Record<string, string> } {
  const url = new URL(target, 'http://localhost');
  const segments = url.pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => decodeURIComponent(s));
  const params: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (key !== 'pretty' && key !== 'human' && key !== 'error_trace') params[key] = value;
  }
  return { segments, params };
}

export interface ServiceOptions {
  debugRoutes: boolean;
}

export function createService(engine: Engine, options: ServiceOptions): http.Server {
  const route = makeRouter({ debugRoutes: options.debugRoutes });
  return http.createServer(async (req, res) => {
    const wantsCompat = `${req.headers.accept ?? ''}${req.headers['content-type'] ?? ''}`.includes(
      'vnd.elasticsearch',
    );
    const send = (status: number, body: string | undefined) => {
      res.statusCode = status;
      res.setHeader('X-Elastic-Product', 'Elasticsearch');
      res.setHeader('Content-Type', wantsCompat ? COMPAT_TYPE : JSON_TYPE);
      if (body === undefined || req.method === 'HEAD') {
        res.setHeader('Content-Length', body === undefined ? 0 : Buffer.byteLength(body));
        res.end();
      } else {
        res.setHeader('Content-Length', Buffer.byteLength(body));
        res.end(body);
      }
    };
    try {
      const body = await readBody(req);
      const contentType = req.headers['content-type'];
      if (body.length > 0 && contentType && !ACCEPTED_BODY_TYPES.some((t) => contentType.includes(t))) {
        throw EngineError.plain(406, `Content-Type header [${contentType}] is not supported`);
      }
      const target = req.url ?? '/';
      const { segments, params } = parseTarget(target);
      const request: Request = { method: req.method ?? 'GET', segments, params, body, uri: target };
      const reply = await route(engine, request);
      send(reply.status, reply.body);
    } catch (err) {
      const error = decodeNativeError(err);
      if (error.status >= 500) console.error(`everycell: ${req.method} ${req.url} failed: ${error.message}`);
      send(error.status, JSON.stringify(error.body));
    }
  });
}
