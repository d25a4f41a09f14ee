import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** wrk's duration strings ("52.00us", "1.20ms", "2.00s") in ms. */
export function wrkDurationMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`unreadable wrk duration "${text}"`);
  const unit = { us: 1e-3, ms: 1, s: 1e3, m: 60e3 }[m[2] as 'us' | 'ms' | 's' | 'm'];
  return Number(m[1]) * unit;
}

/** The 50% line of `wrk --latency` output, ms. */
export function wrkP50(output: string): number {
  const m = /^\s*50%\s+(\S+)/m.exec(output);
  if (!m) throw new Error(`no "50%" line in wrk output:\n${output}`);
  return wrkDurationMs(m[1] as string);
}

/**
 * Debian's wrk (closed loop) against a URL with the given POST body: one thread, `connections`
 * connections, for `seconds`. POST needs a Lua script; it is written to the temp folder.
 */
export async function runWrk(
  url: string,
  body: string,
  opts: { seconds: number; connections: number },
): Promise<{ p50: number; output: string }> {
  const script = join(tmpdir(), `everycell-wrk-${process.pid}.lua`);
  await writeFile(
    script,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(body)}\nwrk.headers["Content-Type"] = "application/json"\n`,
  );
  let stdout: string;
  try {
    ({ stdout } = await run('wrk', [
      '-t1',
      `-c${opts.connections}`,
      `-d${opts.seconds}s`,
      '--latency',
      '-s',
      script,
      url,
    ]));
  } catch (error) {
    const e = error as { code?: string; message: string };
    if (e.code === 'ENOENT') throw new Error('wrk is not installed: apt-get install -y wrk');
    throw error;
  }
  return { p50: wrkP50(stdout), output: stdout };
}
