/**
 * A minimal node:http client for the robustness tests: raw Buffer bodies, any method or
 * path bytes Node lets through, keep-alive agents, and a hard timeout, so a hung or
 * dropped request is reported as such instead of stalling the suite.
 */
import http from 'node:http';

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

export interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function send(
  base: string,
  request: RawRequest,
  options: { agent?: http.Agent; timeoutMs?: number } = {},
): Promise<RawReply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = request.body.length;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers,
        agent: options.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 15_000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(request.body);
  });
}

/** JSON convenience over `send`. */
export async function sendJson(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  agent?: http.Agent,
  timeoutMs?: number,
  // biome-ignore lint/suspicious/noExplicitAny: test assertions walk arbitrary ES JSON
): Promise<{ status: number; json: any }> {
  const payload =
    body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const headers: Record<string, string> = payload === undefined ? {} : { 'content-type': 'application/json' };
  const reply = await send(base, { method, path, headers, body: payload }, { agent, timeoutMs });
  const text = reply.body.toString('utf8');
  return { status: reply.status, json: text.length > 0 ? JSON.parse(text) : undefined };
}

/** Checks an error reply has ES's shape; returns a description of what is wrong, or undefined. */
export function esErrorShapeProblem(status: number, text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `error body is not JSON: ${text.slice(0, 200)}`;
  }
  const body = parsed as { error?: unknown; status?: unknown; timed_out?: unknown };
  // A cluster health wait that ran out is ES's 408 with the health itself (its `status` the
  // health colour), not an error body.
  if (status === 408 && body.timed_out === true && typeof body.status === 'string') return undefined;
  // ES's unknown-route answer is the one error body without a `status`.
  if (status === 400 && body.status === undefined && typeof body.error === 'string') {
    return body.error.startsWith('no handler found') ? undefined : 'bare-string 400 without status';
  }
  if (body.status !== status) return `body status ${String(body.status)} differs from HTTP status ${status}`;
  // ES answers an unknown route (400), a wrong method (405) and an unsupported content type
  // (406) with a bare string `error`; everything else carries the structured error.
  if (typeof body.error === 'string') {
    // 404: a named alias that does not exist (`alias [x] missing`).
    return [400, 404, 405, 406].includes(status) ? undefined : `bare-string error with status ${status}`;
  }
  const error = body.error as
    | { root_cause?: unknown; type?: unknown; reason?: unknown; caused_by?: { type?: unknown } }
    | undefined;
  if (!error || typeof error !== 'object') return 'no error object';
  if (typeof error.type !== 'string' || error.type.length === 0) return 'error.type is not a string';
  if (typeof error.reason !== 'string') return 'error.reason is not a string';
  // ES's one exception: too many buckets fails in the reduce, after every shard succeeded, so
  // its search_phase_execution_exception has no root cause, only `caused_by`.
  const reduceFailure = status === 503 && error.caused_by?.type === 'too_many_buckets_exception';
  if (!Array.isArray(error.root_cause) || (error.root_cause.length === 0 && !reduceFailure)) {
    return 'error.root_cause is not a non-empty list';
  }
  for (const cause of error.root_cause as { type?: unknown; reason?: unknown }[]) {
    if (typeof cause?.type !== 'string' || typeof cause.reason !== 'string')
      return 'root_cause entry lacks type/reason';
  }
  return undefined;
}
