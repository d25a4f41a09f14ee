/** Sending a case's requests to one engine, judging the candidate's reply, cleaning up after. */
import { connect } from 'node:net';
import { type Request, requestInit, type Step } from './cases.js';
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
  try {
    const res = await fetch(base + r.path, { ...requestInit(r), signal: AbortSignal.timeout(30_000) });
    return { status: res.status, body: parseBody(await res.text()) };
  } catch (error) {
    return { status: 0, body: `no reply: ${(error as Error).message}` };
  }
}

/**
 * Bytes on a fresh socket; the reply is read until the server closes or goes quiet for 1 s.
 * Status 0 means no status line came back (the connection was dropped).
 */
function sendRaw(base: string, bytes: string): Promise<Reply> {
  const url = new URL(base);
  return new Promise((done) => {
    const socket = connect(Number(url.port), url.hostname);
    let got = '';
    const finish = (): void => {
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(got);
      const body = got.split('\r\n\r\n').slice(1).join('\r\n\r\n');
      done({ status: status ? Number(status[1]) : 0, body: parseBody(body) });
    };
    let timer = setTimeout(finish, 1_000);
    socket.on('data', (chunk) => {
      got += chunk.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(finish, 1_000);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      finish();
    });
    socket.on('error', () => undefined);
    socket.write(bytes.replaceAll('{host}', url.host));
  });
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
  if (step.es8) return unmetExpectation(ours, { ...expected, ...step.es8 }, tolerance);
  const a = project(ours);
  const b = project(theirs);
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
  return unmetExpectation(ours, expected, tolerance);
}

/** Deletes every index but the seeded ones (what a stateful case created, aliases with them). */
export async function cleanUp(base: string, keep: string[]): Promise<void> {
  const listed = await send(base, { method: 'GET', path: '/_cat/indices?format=json&h=index' }, []);
  const names = Array.isArray(listed.body)
    ? (listed.body as { index?: string }[]).map((row) => row.index ?? '')
    : [];
  const doomed = names.filter((name) => name.length > 0 && !name.startsWith('.') && !keep.includes(name));
  for (const name of doomed) {
    const deleted = await send(base, { method: 'DELETE', path: `/${encodeURIComponent(name)}` }, []);
    if (deleted.status !== 200)
      throw new Error(`${base}: cleanup could not delete ${name}: ${deleted.status}`);
  }
}
