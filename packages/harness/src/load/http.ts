import { type Dispatcher, Pool, errors as undiciErrors } from 'undici';
import type { SendResult } from '../model/samples.js';

export interface HttpResponse {
  status: number;
  text: string;
  /** The response's `Server-Timing` header, when the engine sent one (the candidate does). */
  serverTiming?: string;
  /** The null server's `x-null-server-ns` stamps (floor/nullServer.ts). */
  nullServerNs?: string;
}

/** A request that never produced a response, classified for the error counts. */
export class TransportError extends Error {
  constructor(
    readonly kind: 'timeout' | 'refused' | 'transport',
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

function classify(error: unknown): TransportError {
  const e = error as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.message ?? String(error);
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    e.name === 'TimeoutError' ||
    e.name === 'AbortError'
  ) {
    return new TransportError('timeout', message);
  }
  if (code === 'ECONNREFUSED') return new TransportError('refused', `connection refused (${message})`);
  return new TransportError('transport', `${code ?? e.name ?? 'error'}: ${message}`);
}

/**
 * One engine's HTTP client: a keep-alive pool of `connections` sockets. Every response body is
 * read in full, so service time includes transferring the answer, as a real client would.
 */
export class EngineClient {
  private readonly pool: Pool;
  private closed = false;

  constructor(
    readonly url: string,
    readonly connections: number,
    readonly timeoutMs: number,
  ) {
    this.pool = new Pool(url, {
      connections,
      pipelining: 1,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connectTimeout: Math.min(timeoutMs, 10_000),
    });
  }

  /**
   * Send and read the whole body. Throws TransportError when no HTTP response arrived in time.
   * Dispatches with a handler that gathers the body's chunks rather than through
   * `pool.request`, whose body stream and per-request abort timer add ~10-20 us of client
   * time to every sample (headersTimeout and bodyTimeout still bound each request).
   */
  request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: string | Buffer,
    timeoutMs = this.timeoutMs,
  ): Promise<HttpResponse> {
    // NDJSON endpoints: _bulk and _msearch.
    const contentType = /_bulk|_msearch/.test(path) ? 'application/x-ndjson' : 'application/json';
    return new Promise<HttpResponse>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let status = 0;
      let serverTiming: string | undefined;
      let nullServerNs: string | undefined;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart: () => {},
        onResponseStart: (_controller, statusCode, headers) => {
          status = statusCode;
          const timing = headers['server-timing'];
          serverTiming = Array.isArray(timing) ? timing.join(', ') : timing;
          const stamps = headers['x-null-server-ns'];
          if (typeof stamps === 'string') nullServerNs = stamps;
        },
        onResponseData: (_controller, chunk) => {
          chunks.push(chunk);
        },
        onResponseEnd: () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const res: HttpResponse = { status, text };
          if (serverTiming !== undefined) res.serverTiming = serverTiming;
          if (nullServerNs !== undefined) res.nullServerNs = nullServerNs;
          resolve(res);
        },
        onResponseError: (_controller, error) => reject(classify(error)),
      };
      try {
        this.pool.dispatch(
          {
            method,
            path,
            body,
            headers: body === undefined ? {} : { 'content-type': contentType },
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          },
          handler,
        );
      } catch (error) {
        reject(classify(error));
      }
    });
  }

  /**
   * Idempotent: a side whose restart failed still holds the client it closed before the restart,
   * and the run's cleanup closes it again; undici's second close would throw and hide the
   * restart's own error.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.close();
  }
}

/** Map a timed request's fate to a sample outcome; only a refused connection is run-fatal. */
export function outcomeOf(res: HttpResponse): SendResult {
  return { outcome: res.status >= 200 && res.status < 300 ? 'ok' : 'http_error', status: res.status };
}

/** ES error body -> "type: reason", or a short excerpt when the body is not ES-shaped. */
export function esErrorSummary(status: number, body: unknown): string {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (error && typeof error === 'object') {
    const e = error as {
      type?: unknown;
      reason?: unknown;
      root_cause?: { type?: unknown; reason?: unknown }[];
    };
    const root = e.root_cause?.[0];
    const type = String(e.type ?? root?.type ?? 'error');
    const reason = String(e.reason ?? root?.reason ?? '');
    return `HTTP ${status} ${type}: ${reason}`.trim();
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return `HTTP ${status}: ${(text ?? '').slice(0, 200)}`;
}
