/** Sending a case's requests to one engine, judging the candidate's reply, cleaning up after. */
import { connect } from 'node:net';
import { type ConformanceCase, type Request, requestInit, type Step } from './cases.js';
import { dropPath, firstDifference, project, type Reply, unmetExpectation, valueAt } from './compare.js';

/** The placeholder a new case's expectation holds until CONFORMANCE_PIN=1 fills it in. */
export const PIN = '<pin>';

const REFERENCE = /\$\{(\d+):([^}]+)\}/g;

/** `${n:path}` in `text` replaced with step n's value there (a quoted reference by its JSON). */
function substitute(text: string, earlier: Reply[]): string {
  const lookup = (n: string, path: string): unknown => {
    const reply = earlier[Number(n)];
    return reply ? valueAt(reply, path) : undefined;
  };
  return text
    .replace(
      /"\$\{(\d+):([^}]+)\}"/g,
      (_, n: string, path: string) => JSON.stringify(lookup(n, path)) ?? 'null',
    )
    .replace(REFERENCE, (_, n: string, path: string) => encodeURIComponent(String(lookup(n, path))));
}

function resolve(request: Request, earlier: Reply[]): Request {
  if (!JSON.stringify(request).includes('${')) return request;
  const path = substitute(request.path, earlier);
  const parsed = (value: unknown): unknown =>
    value === undefined ? undefined : JSON.parse(substitute(JSON.stringify(value), earlier));
  return {
    ...request,
    path,
    body: parsed(request.body),
    ndjson: parsed(request.ndjson) as unknown[] | undefined,
  };
}

function parseBody(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    // Non-JSON bodies (ES answers some errors with a bare string) are compared as text.
    return text;
  }
}

/** Sends one request; `earlier` holds this engine's replies to the case's previous steps. */
export async function send(base: string, request: Request, earlier: Reply[]): Promise<Reply> {
  const r = resolve(request, earlier);
  if (r.http !== undefined) return sendRaw(base, r.http);
  const init = requestInit(r);
  if ((init.method === 'GET' || init.method === 'HEAD') && init.body !== undefined) {
    // fetch refuses a body on GET; Elasticsearch clients send one (search, count, mget).
    return sendRaw(base, rawRequest(r.path, init));
  }
  try {
    const res = await fetch(base + r.path, { ...init, signal: AbortSignal.timeout(30_000) });
    return { status: res.status, body: parseBody(await res.text()) };
  } catch (error) {
    return { status: 0, body: `no reply: ${(error as Error).message}` };
  }
}

function rawRequest(path: string, init: RequestInit): string {
  const body = Buffer.from(String(init.body));
  const headers = Object.entries((init.headers ?? {}) as Record<string, string>)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `${init.method} ${path} HTTP/1.1\r\nhost: {host}\r\n${headers}content-length: ${body.length}\r\nconnection: close\r\n\r\n${body.toString('latin1')}`;
}

/**
 * Bytes on a fresh socket; the reply is read until the server closes or goes quiet for 1 s.
 * Status 0 means no status line came back (the connection was dropped).
 */
function sendRaw(base: string, bytes: string): Promise<Reply> {
  const url = new URL(base);
  return new Promise((done) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      socket.destroy();
      const got = Buffer.concat(chunks).toString('latin1');
      const split = got.indexOf('\r\n\r\n');
      const head = split < 0 ? got : got.slice(0, split);
      let body = split < 0 ? '' : got.slice(split + 4);
      if (/^transfer-encoding: *chunked/im.test(head)) body = unchunk(body);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      done({
        status: status ? Number(status[1]) : 0,
        body: parseBody(Buffer.from(body, 'latin1').toString('utf8')),
      });
    };
    let timer = setTimeout(finish, 1_000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      clearTimeout(timer);
      timer = setTimeout(finish, 1_000);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      finish();
    });
    socket.on('error', () => undefined);
    socket.write(Buffer.from(bytes.replaceAll('{host}', url.host), 'latin1'));
  });
}

/** A chunked transfer-encoded body, joined. */
function unchunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (line < 0 || !(size > 0)) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/**
 * The first way the candidate's reply falls short: where the step pins Elasticsearch 8's answer
 * (`es8`), against the step's expectations with those overrides; otherwise the projection of
 * both replies (less `ignore`d paths), then the `same` paths, then the pinned expectations.
 */
export function candidateProblem(
  step: Step,
  ours: Reply,
  theirs: Reply,
  tolerance: number,
): string | undefined {
  const expected = step.expect ?? {};
  const ties = step.tiesInAnyOrder ? 'any' : 'engine';
  if (step.es8) return unmetExpectation(ours, { ...expected, ...step.es8 }, tolerance, ties);
  const a = project(ours, ties);
  const b = project(theirs, ties);
  for (const path of step.ignore ?? []) {
    dropPath(a, path);
    dropPath(b, path);
  }
  const diff = firstDifference(a, b, tolerance);
  if (diff) return diff;
  for (const path of step.same ?? []) {
    const same = firstDifference(valueAt(ours, path), valueAt(theirs, path), tolerance, path);
    if (same) return same;
  }
  return unmetExpectation(ours, expected, tolerance, ties);
}

/**
 * Deletes every index but the seeded ones (what a stateful case created, aliases with them):
 * in one request where the engine takes a comma list (`lists`), else one by one.
 */
export async function cleanUp(base: string, keep: string[], lists: boolean): Promise<void> {
  const listed = await send(base, { method: 'GET', path: '/_cat/indices?format=json&h=index' }, []);
  const names = Array.isArray(listed.body)
    ? (listed.body as { index?: string }[]).map((row) => row.index ?? '')
    : [];
  const doomed = names.filter((name) => name.length > 0 && !name.startsWith('.') && !keep.includes(name));
  if (doomed.length === 0) return;
  const batches = lists ? [doomed] : doomed.map((name) => [name]);
  for (const batch of batches) {
    const path = `/${batch.map(encodeURIComponent).join(',')}`;
    const deleted = await send(base, { method: 'DELETE', path }, []);
    if (deleted.status !== 200)
      throw new Error(`${base}: cleanup could not delete ${path}: ${deleted.status}`);
  }
}

const CREATES_INDEX = /^\/[^/_?][^/?]*$/;
const BULK = /\/_bulk(\?|$)/;
const SEARCHES = /\/(_search|_count|_mget|_msearch)(\?|$)/;

const isSetup = (s: Step): boolean =>
  (s.method === 'PUT' && CREATES_INDEX.test(s.path) && !s.path.includes('?')) ||
  ((s.method ?? 'POST') !== 'GET' && BULK.test(s.path));

/** A step that changes no index: reads by GET/HEAD or a search-like POST, never a refresh. */
const isRead = (s: Step): boolean =>
  !s.path.includes('refresh') &&
  !s.path.includes('scroll') &&
  (s.method === 'GET' || s.method === 'HEAD' || ((s.method ?? 'POST') === 'POST' && SEARCHES.test(s.path)));

/**
 * A stateful case that builds its indexes (creates, bulk loads) and then only reads them: its
 * setup steps and their key. Consecutive cases with the same key share one setup, since none of
 * them changes what it built; that saves an index creation and deletion per case on the baseline.
 */
export function sharedSetup(c: ConformanceCase): { key: string; length: number } | undefined {
  const steps = c.steps ?? [];
  let length = 0;
  while (length < steps.length && isSetup(steps[length] as Step)) length++;
  if (length === 0 || length === steps.length || !steps.slice(length).every(isRead)) return undefined;
  const request = (s: Step): unknown[] => [s.method, s.path, s.body, s.ndjson, s.raw, s.headers, s.candidate];
  return { key: JSON.stringify(steps.slice(0, length).map(request)), length };
}
