import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The harness package folder: `--import tsx` resolves from here. */
const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Start a small HTTP server script (TypeScript, through tsx) as a child process and wait for
 * its "listening <port>" line. A separate process, so its event loop and the harness's do not
 * delay each other. The child exits when its stdin closes, so it cannot outlive the harness.
 */
export function spawnServer(script: string, args: string[] = [], timeoutMs = 20_000): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: PACKAGE_DIR,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      child.kill('SIGTERM');
      await exited;
    }
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop();
      reject(new Error(`${script}: ${why}${err ? `\n${err.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`no "listening" line within ${timeoutMs} ms`), timeoutMs);
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.once('error', (e) => fail(e.message));
    child.once('exit', (code, signal) => fail(`exited early (code ${code}, signal ${signal})`));
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening (\d+)/.exec(out);
      if (!m || settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${m[1]}`, pid: child.pid as number, stop });
    });
  });
}
