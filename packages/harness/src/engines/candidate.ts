import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchRootInfo } from './info.js';
import type { EngineRole, RunningEngine, StartOptions } from './types.js';

/** The candidate's HTTP service, built by `npm run build -w packages/engine-napi`. */
export const CANDIDATE_SERVER = fileURLToPath(
  new URL('../../../engine-napi/dist/server.js', import.meta.url),
);
const PACKAGE_JSON = fileURLToPath(new URL('../../../engine-napi/package.json', import.meta.url));

/** The candidate's own version (its GET / reports the ES API version it speaks instead). */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const READY_LINE = /everycell-engine listening on (http:\/\/\S+)/;
const STOP_GRACE_MS = 10_000;

// A candidate must never outlive the harness, whatever way the harness ends.
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * Start the candidate engine; resolves when it printed its ready line and answered GET /.
 * `server` is another build's service (the gate's merge-base build), started as the 'base' role.
 */
export async function startCandidate(
  opts: StartOptions & { server?: string; role?: EngineRole; env?: Record<string, string> },
): Promise<RunningEngine> {
  const server = opts.server ?? CANDIDATE_SERVER;
  if (!existsSync(server)) {
    throw new Error(
      `candidate engine not built (${server} missing): run npm run build -w packages/engine-napi`,
    );
  }
  const timeoutMs = opts.startTimeoutMs ?? 60_000;
  await mkdir(opts.dataDir, { recursive: true });
  await mkdir(dirname(opts.logFile), { recursive: true });
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const child = spawn(process.execPath, [server, '--port', String(opts.port), '--data-dir', opts.dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
  });
  live.add(child);
  let tail = '';
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('close', (code, signal) => {
      live.delete(child);
      log.end();
      resolve({ code, signal });
    });
  });
  const ready = new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      log.write(chunk);
      buffered = (buffered + chunk.toString('utf8')).slice(-4096);
      const m = READY_LINE.exec(buffered);
      if (m?.[1]) resolve(m[1]);
    });
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-2000);
  });

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    await exited;
  };

  // Both are raced below; either may settle after the race, so neither may go unhandled.
  const died = exited.then(({ code, signal }) => {
    throw new Error(`exited during startup (code ${code}, signal ${signal})`);
  });
  died.catch(() => {});
  ready.catch(() => {});

  let timer: NodeJS.Timeout | undefined;
  try {
    const url = await Promise.race([
      ready,
      died,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no ready line within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    const info = await fetchRootInfo(url);
    const version = packageVersion();
    return {
      role: opts.role ?? 'candidate',
      product: `${info.name} ${version} (${info.library ?? 'unknown library'}, ES API ${info.version})`,
      version,
      url,
      pid: child.pid,
      dataDir: opts.dataDir,
      exited,
      stop,
      // Same port and data: the translog brings back every acknowledged document.
      restart: () => startCandidate(opts),
    };
  } catch (error) {
    await stop();
    throw new Error(
      `candidate engine failed to start: ${(error as Error).message}; log ${opts.logFile}${tail ? `, stderr ends with:\n${tail}` : ''}`,
    );
  } finally {
    clearTimeout(timer);
  }
}
