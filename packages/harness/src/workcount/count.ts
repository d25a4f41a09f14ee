import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertValgrind,
  callgrindArgs,
  PLANT_ENV,
  parseRunnerRows,
  readRowDumps,
  runProcess,
} from './callgrind.js';
import { cycleEstimate } from './callgrindOut.js';
import { copyIndex } from './corpusIndex.js';
import type { RunnerBinary } from './runnerBuild.js';
import type { BuildCount, RowCount } from './types.js';

export interface CountOptions {
  runner: RunnerBinary;
  /** The corpus index at rest (corpusIndex.ts); the count opens a private copy. */
  data: string;
  requestsFile: string;
  /** Scratch folder for the copy and the dumps; emptied first, removed after. */
  workDir: string;
  /** The pinned clock's start (date math's `now`): the same for every count that is compared. */
  epochMs: number;
  cacheSim: boolean;
  /** `ROW=ITERATIONS,...` planted extra work (calibration only; runner's plant.rs). */
  plant?: string;
  revision?: string;
  /** A hung valgrind is killed after this long. */
  timeoutMs?: number;
}

const DUMP_PREFIX = 'callgrind.out';
/** GNU time, for the run's CPU time (optional). */
const TIME = '/usr/bin/time';

/** One build's instructions per request on every row: the runner under callgrind. */
export async function countBuild(opts: CountOptions): Promise<BuildCount> {
  assertValgrind();
  await rm(opts.workDir, { recursive: true, force: true });
  await mkdir(opts.workDir, { recursive: true });
  const started = performance.now();
  const data = await copyIndex(opts.data, join(opts.workDir, 'data'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env[PLANT_ENV];
  if (opts.plant) env[PLANT_ENV] = opts.plant;
  const args = [
    ...callgrindArgs(join(opts.workDir, DUMP_PREFIX), { cacheSim: opts.cacheSim }),
    opts.runner.path,
    '--data-dir',
    data,
    '--requests',
    opts.requestsFile,
    '--epoch-ms',
    String(opts.epochMs),
  ];
  // The run's own CPU time beside its wall time: on a shared machine the wall time is the load's.
  const timeFile = join(opts.workDir, 'time.txt');
  const [command, commandArgs]: [string, string[]] = existsSync(TIME)
    ? [TIME, ['-o', timeFile, '-f', '%U %S', 'valgrind', ...args]]
    : ['valgrind', args];
  const result = await runProcess(command, commandArgs, env, opts.timeoutMs ?? 30 * 60_000);
  if (result.code !== 0) {
    // Kept for a look: the end of valgrind's own report, beside the dumps it left.
    await writeFile(join(opts.workDir, 'stderr.txt'), result.stderr);
    throw new Error(
      `the count runner exited with ${result.code ?? 'a signal'} under valgrind (${join(opts.workDir, 'stderr.txt')}): ${result.stderr.trim().split('\n').slice(-5).join(' | ')}`,
    );
  }
  const lines = parseRunnerRows(result.stdout);
  const dumps = await readRowDumps(opts.workDir, DUMP_PREFIX);
  if (dumps.length !== lines.length)
    throw new Error(`callgrind wrote ${dumps.length} row dumps for ${lines.length} rows in ${opts.workDir}`);
  const rows = lines.map((line, i): RowCount => {
    const totals = dumps[i]?.totals ?? {};
    const instructions = totals.Ir ?? 0;
    const perRequest = (x: number) => (line.timed > 0 ? x / line.timed : 0);
    const cycles = cycleEstimate(totals);
    return {
      row: line.row,
      requests: line.timed,
      ok: line.ok,
      ...(line.firstError ? { firstError: line.firstError } : {}),
      replyBytes: line.replyBytes,
      instructions,
      instructionsPerRequest: perRequest(instructions),
      ...(cycles === undefined ? {} : { cyclesPerRequest: perRequest(cycles) }),
    };
  });
  const cpuMs = existsSync(timeFile)
    ? (await readFile(timeFile, 'utf8'))
        .trim()
        .split(/\s+/)
        .slice(-2)
        .reduce((n, x) => n + Number(x) * 1000, 0)
    : undefined;
  await rm(opts.workDir, { recursive: true, force: true });
  return {
    ...(cpuMs !== undefined && Number.isFinite(cpuMs) ? { cpuMs } : {}),
    tree: opts.runner.tree,
    ...(opts.revision ? { revision: opts.revision } : {}),
    rows,
    wallMs: performance.now() - started,
    cacheSim: opts.cacheSim,
  };
}
