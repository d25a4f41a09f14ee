import { spawn, spawnSync } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type DumpTotals, parseDump } from './callgrindOut.js';

/** The runner's counted function and its end-of-row marker (`src/bin/workcount/measured.rs`). */
export const REQUEST_FN = 'everycell_workcount_request';
export const ROW_DONE_FN = 'everycell_workcount_row_done';
/** Read only by the runner binary: `ROW=ITERATIONS[,...]`, `*` for every row (`plant.rs`). */
export const PLANT_ENV = 'EVERYCELL_WORKCOUNT_PLANT';

export interface CallgrindOptions {
  /** Also simulate caches and branches, for callgrind's cycle estimate (about twice as slow). */
  cacheSim: boolean;
}

/**
 * valgrind's command line: collection off from the start and switched on only inside the counted
 * function (on the thread that calls it), a dump after each row. Only function-level costs are
 * written (`--dump-instr=no`, `--dump-line=no`): the totals are all that is read.
 */
export function callgrindArgs(outFile: string, opts: CallgrindOptions): string[] {
  return [
    '--tool=callgrind',
    '--collect-atstart=no',
    `--toggle-collect=${REQUEST_FN}`,
    `--dump-after=${ROW_DONE_FN}`,
    '--dump-instr=no',
    '--dump-line=no',
    '--compress-strings=yes',
    ...(opts.cacheSim ? ['--cache-sim=yes', '--branch-sim=yes'] : []),
    `--callgrind-out-file=${outFile}`,
  ];
}

/** One runner line per row (`main.rs`). */
export interface RunnerRow {
  row: string;
  timed: number;
  ok: number;
  errors: number;
  firstError: string | null;
  replyBytes: number;
  /** On-CPU ns of the timed requests on the runner's thread (meaningful outside valgrind only). */
  cpuNs: number;
  plantIterations: number;
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command to its end, bounded in time (a hung valgrind must not hang the gate). */
export function runProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-20_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export const parseRunnerRows = (stdout: string): RunnerRow[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RunnerRow);

/**
 * The row dumps in `dir` named `<prefix>.<part>`, in part order. Callgrind numbers the dumps a
 * trigger writes from 1 and writes the final one (at exit, nothing collected) without a number.
 */
export async function readRowDumps(dir: string, prefix: string): Promise<DumpTotals[]> {
  const parts = (await readdir(dir))
    .map((name) => ({ name, m: new RegExp(`^${prefix.replace(/[.]/g, '\\.')}\\.(\\d+)$`).exec(name) }))
    .filter((x) => x.m)
    .map((x) => ({ name: x.name, part: Number(x.m?.[1]) }))
    .sort((a, b) => a.part - b.part);
  const dumps: DumpTotals[] = [];
  for (const p of parts) dumps.push(parseDump(await readFile(join(dir, p.name), 'utf8')));
  return dumps;
}

export const removeDumps = (dir: string) => rm(dir, { recursive: true, force: true });

/** The count needs valgrind: say how to get it rather than fail on a missing program. */
export function assertValgrind(): void {
  const r = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(
      'valgrind is not installed: the count check runs under callgrind (apt-get install -y valgrind)',
    );
}
