import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Start a real CLI (through tsx, as its npm script does; the bench's unless `script` names
 * another, e.g. src/merge/cli.ts); `done` collects its output.
 */
export function startCli(
  args: string[],
  timeoutMs = 120_000,
  script = 'src/cli.ts',
): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: PACKAGE_DIR,
    // Plain text to match against: picocolors turns colour on whenever CI is set.
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new Error(`CLI did not finish within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, done };
}

export function runCli(args: string[], timeoutMs?: number, script?: string): Promise<CliResult> {
  return startCli(args, timeoutMs, script).done;
}
