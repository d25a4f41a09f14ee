/**
 * The node:http layer: reads bodies (under `http.max_content_length`), checks content
 * types, routes, and writes every response with `X-Elastic-Product: Elasticsearch`. A
 * handler's failure becomes the ES error body it carries; anything unexpected becomes a
 * 500, and the server keeps serving. Malformed HTTP gets an ES-shaped 4xx, not a bare reset.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { BodyTooLarge, declaredTooLarge, readBody } from './body.js';
import { requestCpuStart, spendExtraCpu } from './calibration.js';
import type { Engine } from './engine.js';
import { inEsOrder } from './error-order.js';
import { decodeNativeError, EngineError } from './errors.js';
import { applyFilterPath } from './filter-path.js';
import { stripJsonComments } from './json-comments.js';
import { watchServer } from './node/http-stats.js';
import type { Request } from './route.js';
import { allowedMethods, makeRouter, VERSION } from './routes.js';

const JSON_TYPE = 'application/json; charset=UTF-8';
const COMPAT_TYPE = 'application/vnd.elasticsearch+json;compatible-with=8';
const ACCEPTED_BODY_TYPES = ['application/json', 'application/x-ndjson', 'application/vnd.elasticsearch+'];

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw EngineError.of(
      400,
      'illegal_argument_exception',
      `invalid percent-encoding in path segment [${segment}]`,
    );
  }
}

/** A path URL parsing would leave as it is: no escapes, dot segments, backslashes or `//` start. */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_\-,*+:./]*$/;
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;
/** A query URL parsing would only percent-encode (and URLSearchParams decode) back to itself. */
const PLAIN_QUERY = /^[\x21-\x22\x24-\x7e]*$/;

export function parseTarget(target: string): { segments: string[]; params: Record<string, string> } {
  // Most requests (`/logs/_search?size=0`) skip building a URL: split as the URL would.
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q + 1);
  // (URLSearchParams would drop a second `?` that starts the query; URL keeps it in the first key.)
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && PLAIN_QUERY.test(query) && !query.startsWith('?')) {
    const params: Record<string, string> = {};
    if (query.length > 0) for (const [key, value] of new URLSearchParams(query)) params[key] = value;
    return { segments: path.split('/').filter((s) => s.length > 0), params };
  }
  return parseTargetAsUrl(target);
}

export function parseTargetAsUrl(target: string): { segments: string[]; params: Record<string, string> } {
  // A target starting with `//` (an empty index in `//_refresh`) is a path, not an authority.
  const url = new URL(target.startsWith('/') ? `http://localhost${target}` : target, 'http://localhost');
  const segments = url.pathname
    .split('/')
    .filter((s) => s.length > 0)
    .map(decodeSegment);
  const params: Record<string, string> = {};
  // URLSearchParams decodes leniently (a bad escape stays as text), so params never throw.
  for (const [key, value] of url.searchParams) params[key] = value;
  return { segments, params };
}

export interface ServiceOptions {
  debugRoutes: boolean;
  /** ES `http.max_content_length` in bytes. */
  maxContentLength: number;
}

/** Status for an HTTP parse failure reported through `clientError`. */
/** The `error` member of an ES error body (the engine's 5xx replies carry one). */
function errorOf(body: string | undefined): unknown {
  try {
    return (JSON.parse(body ?? '') as { error?: unknown }).error;
  } catch {
    return body;
  }
}

/**
 * ES's `Warning` header value for a notice: code 299, the agent, the quoted text (quotes and
 * backslashes escaped, `%` encoded so clients that decode the text get it back).
 */
export function warningHeader(message: string): string {
  const text = message.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%25');
  return `299 Elasticsearch-${VERSION} "${text}"`;
}

/**
 * The `Server-Timing` value of an engine call's reply, in ms: `engine` (inside the addon),
 * `call` (routing, the napi hop and any trip through the thread pool, engine included) and
 * `service` (the whole handler from the request's headers to the reply, call included), so a
 * client can split its latency into the engine, the hop and the HTTP layer.
 */
export function serverTiming(engineMs: number, callMs: number, serviceMs: number): string {
  return `engine;dur=${engineMs.toFixed(4)}, call;dur=${callMs.toFixed(4)}, service;dur=${serviceMs.toFixed(4)}`;
}

/** One line on stderr for a 5xx: the request and the ES error. */
function logFailure(req: http.IncomingMessage, error: unknown): void {
  const what = typeof error === 'string' ? error : JSON.stringify(error);
  console.error(`everycell: ${req.method} ${req.url} failed: ${what}`);
}

function clientErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A response already under way cannot be replaced; a reset peer cannot be answered.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(err.code);
  const body = JSON.stringify(
    EngineError.of(status, 'http_parse_exception', `malformed HTTP request: ${err.code ?? err.message}`).body,
  );
  // A HEAD answer carries no body, or the client reads it as the start of the next response.
  const raw = (err as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket;
  const isHead = raw?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Bad Request'}\r\n` +
      `X-Elastic-Product: Elasticsearch\r\nContent-Type: ${JSON_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${isHead ? '' : body}`,
  );
}

export function createService(engine: Engine, options: ServiceOptions): http.Server {
  const route = makeRouter({ debugRoutes: options.debugRoutes });
  const limit = options.maxContentLength;
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const wantsCompat = `${req.headers.accept ?? ''}${req.headers['content-type'] ?? ''}`.includes(
      'vnd.elasticsearch',
    );
    const started = performance.now();
    const send = (
      status: number,
      body: string | undefined,
      contentType?: string,
      warnings?: string[],
      timing?: { engineMs: number; callMs: number },
    ) => {
      // Every header in one flat list to writeHead: node's path that skips a header object.
      const headers = ['X-Elastic-Product', 'Elasticsearch'];
      if (timing !== undefined)
        headers.push(
          'Server-Timing',
          serverTiming(timing.engineMs, timing.callMs, performance.now() - started),
        );
      for (const warning of warnings ?? []) headers.push('Warning', warningHeader(warning));
      headers.push('Content-Type', contentType ?? (wantsCompat ? COMPAT_TYPE : JSON_TYPE));
      headers.push('Content-Length', String(body === undefined ? 0 : Buffer.byteLength(body)));
      res.writeHead(status, headers);
      if (body === undefined || req.method === 'HEAD') res.end();
      else res.end(body);
    };
    const cpuStart = requestCpuStart();
    try {
      const body = await readBody(req, limit);
      const contentType = req.headers['content-type'];
      if (body.length > 0 && contentType && !ACCEPTED_BODY_TYPES.some((t) => contentType.includes(t))) {
        throw EngineError.plain(406, `Content-Type header [${contentType}] is not supported`);
      }
      const target = req.url ?? '/';
      const { segments, params } = parseTarget(target);
      // NDJSON bodies (bulk, msearch) are read line by line as they are; JSON ones may hold comments.
      const json =
        !contentType?.includes('ndjson') && !segments.some((s) => s === '_bulk' || s === '_msearch');
      const request: Request = {
        method: req.method ?? 'GET',
        segments,
        params,
        body: json ? stripJsonComments(body) : body,
        uri: target,
      };
      const routed = performance.now();
      const reply = await route(engine, request);
      const callMs = performance.now() - routed;
      if (reply.status >= 500) logFailure(req, errorOf(reply.body));
      const filterPath = params.filter_path;
      const out =
        // Errors keep their whole ES shape (clients read `error.type` and `status`).
        filterPath !== undefined &&
        reply.status < 300 &&
        reply.body !== undefined &&
        reply.contentType === undefined
          ? applyFilterPath(reply.body, filterPath)
          : reply.body;
      spendExtraCpu(cpuStart);
      send(
        reply.status,
        reply.status >= 400 && out !== undefined ? inEsOrder(out) : out,
        reply.contentType,
        reply.warnings,
        typeof reply.nativeMs === 'number' ? { engineMs: reply.nativeMs, callMs } : undefined,
      );
    } catch (err) {
      const error = decodeNativeError(err);
      // A body left unread: answer, then close (as ES does for every 413).
      if (err instanceof BodyTooLarge && err.closeConnection) res.shouldKeepAlive = false;
      if (error.status >= 500) logFailure(req, error.body.error);
      send(error.status, JSON.stringify(error.body));
    }
  };
  const server = http.createServer(handle);
  watchServer(server);
  // `Expect: 100-continue` with an oversized Content-Length gets the 413 instead of a
  // `100 Continue`, so the client never sends the body.
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (declaredTooLarge(req, limit) === undefined) res.writeContinue();
    void handle(req, res);
  });
  server.on('clientError', answerClientError);
  // Node hands CONNECT to this event (no handler: the socket is dropped); ES answers 405.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    const target = req.url ?? '/';
    let segments: string[] = [];
    try {
      segments = parseTarget(target).segments;
    } catch {
      segments = [];
    }
    const allowed = allowedMethods(segments).join(', ');
    const body = JSON.stringify({
      error: `Incorrect HTTP method for uri [${target}] and method [CONNECT], allowed: [${allowed}]`,
      status: 405,
    });
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nX-Elastic-Product: Elasticsearch\r\nContent-Type: ${JSON_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
