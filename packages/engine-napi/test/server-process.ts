/** Starts the real built server (dist/server.js) as a child process for the tests. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../dist/server.js', import.meta.url));

export interface RunningServer {
  url: string;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<RunningServer> {
  if (!existsSync(SERVER)) {
    throw new Error(`${SERVER} is missing: run \`npm run build -w packages/engine-napi\` first`);
  }
  const child = spawn(process.execPath, [SERVER, '--port', '0', '--data-dir', dataDir, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^everycell-engine listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m?.[1]) {
        const url = m[1];
        resolve({
          url,
          stderr: () => err,
          child,
          exited,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    exited.then((code) => reject(new Error(`server exited early (${code}): ${err}`)));
    setTimeout(() => reject(new Error(`server not ready in 10s: ${out} ${err}`)), 10_000).unref();
  });
}

export interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test assertions walk arbitrary ES JSON
  json: any;
}

export async function req(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  contentType?: string,
): Promise<Reply> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': contentType ?? 'application/json' };
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text.length > 0 ? JSON.parse(text) : undefined };
}

export function ndjson(index: string, docs: object[]): string {
  return docs
    .map(
      (d, i) => `${JSON.stringify({ index: { _index: index, _id: String(i + 1) } })}\n${JSON.stringify(d)}\n`,
    )
    .join('');
}
