/**
 * `npm run calibrate`: how far the verdicts can be trusted on this machine.
 *   1. A/A: `--runs` runs of OpenSearch against a second OpenSearch (bench --aa): every WIN or
 *      LOSE on a read row is false.
 *   2. Power: OpenSearch (A) against itself behind a proxy that holds every answer for
 *      `--fraction` (default 0.1) of its upstream time (A'): the share of rows with p50 > 1 ms
 *      scored LOSE. Both sides go through a proxy process (A' with the delay, A with none), so
 *      the only difference between them is the injected slowdown. Both proxies front the same
 *      OpenSearch process: the same data, caches and JIT on both sides.
 * Writes <out>/calibration.json beside the calibration runs' scorecards (default
 * <repo>/.runs/calibrate, so calibration cards never reach the gate or the site).
 * Every other flag is a bench flag (--docs, --families, --rate, --rounds, ...).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pc from 'picocolors';
import { HELP as BENCH_HELP, parseBenchArgs, UsageError } from '../cli/args.js';
import { createProgress } from '../cli/progress.js';
import { ensureBaselineBuilt, startOpenSearch } from '../engines/opensearch.js';
import { freePort } from '../engines/ports.js';
import type { RunningEngine } from '../engines/types.js';
import { type ChildServer, spawnServer } from '../floor/spawnServer.js';
import type { RunSettings } from '../model/settings.js';
import { REPO_ROOT } from '../repo.js';
import { runBench } from '../run/bench.js';
import { type AaTally, aaTally, type PowerTally, powerTally } from './tally.js';

const PROXY = fileURLToPath(new URL('./delayProxy.ts', import.meta.url));

const HELP = `usage: npm run calibrate -- [--runs N] [--fraction F] [--skip-aa] [--skip-power] [bench flags]

  --runs N        A/A runs, OpenSearch vs OpenSearch (default 5; the issue's target is 10)
  --fraction F    injected slowdown for the power run, a fraction of each request's upstream time (default 0.1)
  --skip-aa       only the power run
  --skip-power    only the A/A runs
  --out DIR       where the calibration runs and calibration.json go (default <repo>/.runs/calibrate)
  --docs N        corpus size (default 20000 here)
Other bench flags (--families, --rate, --rounds, --max-rounds, --iterations, ...) apply to every run;
--aa, --candidate-url and --baseline-url are set by calibrate itself.

bench flags:
${BENCH_HELP.split('\n').slice(5).join('\n')}`;

interface CalibrateArgs {
  runs: number;
  fraction: number;
  aa: boolean;
  power: boolean;
  benchArgv: string[];
}

function parseCalibrateArgs(argv: string[]): CalibrateArgs | 'help' {
  const args: CalibrateArgs = { runs: 5, fraction: 0.1, aa: true, power: true, benchArgv: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--skip-aa') args.aa = false;
    else if (a === '--skip-power') args.power = false;
    else if (a === '--runs' || a === '--fraction') {
      const raw = argv[++i];
      const n = Number(raw);
      if (a === '--runs' && !(Number.isInteger(n) && n >= 1 && n <= 100))
        throw new UsageError(`--runs must be a whole number in 1-100, got "${raw}" (e.g. --runs 5)`);
      if (a === '--fraction' && !(n > 0 && n < 10))
        throw new UsageError(`--fraction must be a number in (0, 10), got "${raw}" (e.g. --fraction 0.1)`);
      if (a === '--runs') args.runs = n;
      else args.fraction = n;
    } else if (a === '--aa' || a === '--candidate-url' || a === '--baseline-url')
      throw new UsageError(`${a} is set by calibrate itself; drop it`);
    else args.benchArgv.push(a);
  }
  if (!args.aa && !args.power)
    throw new UsageError('--skip-aa and --skip-power together leave nothing to run');
  if (!args.benchArgv.includes('--docs')) args.benchArgv.push('--docs', '20000');
  if (!args.benchArgv.includes('--out')) args.benchArgv.push('--out', resolve(REPO_ROOT, '.runs/calibrate'));
  return args;
}

async function oneRun(
  settings: RunSettings,
  out: string,
  abort: AbortSignal,
  urls: { candidateUrl?: string; baselineUrl?: string } = {},
) {
  // On a shared 2-core box a JVM can miss its start deadline; one retry, then the error stands.
  for (let attempt = 1; ; attempt++) {
    const outcome = await runBench({ settings, out, ...urls, progress: createProgress(), abort });
    if (outcome.card) return outcome.card;
    const error = outcome.error ?? 'the run failed before writing a scorecard';
    if (attempt >= 2 || !error.startsWith('could not start') || abort.aborted) throw new Error(error);
    console.log(`calibrate: ${error.split('\n')[0]}; retrying once`);
  }
}

/** A vs A': one OpenSearch, two proxy processes in front of it (none / `fraction` delay). */
async function powerRun(settings: RunSettings, out: string, fraction: number, abort: AbortSignal) {
  const home = join(REPO_ROOT, '.runs', `calibrate-power-${process.pid}`);
  let engine: RunningEngine | undefined;
  const proxies: ChildServer[] = [];
  try {
    await ensureBaselineBuilt({ log: console.log });
    engine = await startOpenSearch({
      dataDir: join(home, 'home'),
      logFile: join(home, 'engine.log'),
      port: await freePort(),
      // A loaded shared machine can take minutes to bring a JVM to green.
      startTimeoutMs: 300_000,
    });
    const plain = await spawnServer(PROXY, ['--upstream', engine.url, '--fraction', '0']);
    proxies.push(plain);
    const slowed = await spawnServer(PROXY, ['--upstream', engine.url, '--fraction', String(fraction)]);
    proxies.push(slowed);
    console.log(
      `power: OpenSearch at ${engine.url}; A via ${plain.url}, A' (+${fraction * 100}%) via ${slowed.url}`,
    );
    return await oneRun(settings, out, abort, { candidateUrl: slowed.url, baselineUrl: plain.url });
  } finally {
    await Promise.all(proxies.map((p) => p.stop()));
    await engine?.stop();
    await rm(join(home, 'home', 'data'), { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseCalibrateArgs>;
  let bench: ReturnType<typeof parseBenchArgs>;
  try {
    args = parseCalibrateArgs(argv);
    if (args === 'help') {
      console.log(HELP);
      return 0;
    }
    bench = parseBenchArgs(args.benchArgv);
    // Calibration repeats one size; a --docs list would silently measure only its first.
    if (bench.scales.length > 1)
      throw new UsageError('--docs takes one size here: calibrate one size at a time');
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`calibrate: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const abort = new AbortController();
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130);
    console.error('\ninterrupted: finishing the current run as partial (Ctrl-C again to quit now)');
    abort.abort();
  });
  await mkdir(bench.out, { recursive: true });
  const started = new Date();
  const load: number[][] = [loadavg()];
  const aa: AaTally[] = [];
  let power: PowerTally | undefined;
  if (args.aa) {
    for (let k = 1; k <= args.runs && !abort.signal.aborted; k++) {
      console.log(pc.bold(`A/A run ${k}/${args.runs}`));
      const t = aaTally(await oneRun({ ...bench.settings, aa: true }, bench.out, abort.signal));
      aa.push(t);
      load.push(loadavg());
      console.log(
        `A/A run ${k}: ${t.falseVerdicts.length} false of ${t.readRows} read rows ${t.falseVerdicts.join(', ')}`,
      );
    }
  }
  if (args.power && !abort.signal.aborted) {
    console.log(pc.bold(`power: A vs A' slowed by ${args.fraction * 100}%`));
    power = powerTally(await powerRun(bench.settings, bench.out, args.fraction, abort.signal), args.fraction);
    load.push(loadavg());
  }
  const comparable = aa.reduce((n, t) => n + t.counts.WIN + t.counts.LOSE + t.counts.TIE, 0);
  const falseCount = aa.reduce((n, t) => n + t.counts.WIN + t.counts.LOSE, 0);
  const result = {
    createdAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    settings: bench.settings,
    /** 1-minute load averages at the start and after each run: the machine is shared. */
    loadAverages: load.map((l) => Math.round((l[0] as number) * 100) / 100),
    aa: {
      runs: aa,
      falseWin: aa.reduce((n, t) => n + t.counts.WIN, 0),
      falseLose: aa.reduce((n, t) => n + t.counts.LOSE, 0),
      comparableRows: comparable,
      target: '0 WIN and 0 LOSE across the read rows in 10 runs',
    },
    power: power && { ...power, target: '>= 95% of rows with p50 > 1 ms detected as LOSE at a 10% slowdown' },
  };
  const file = join(bench.out, 'calibration.json');
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  if (args.aa)
    console.log(
      `A/A: ${result.aa.falseWin} false WIN, ${result.aa.falseLose} false LOSE of ${comparable} comparable read rows over ${aa.length} runs (${falseCount} false)`,
    );
  if (power)
    console.log(
      `power at +${power.slowdown * 100}%: ${power.detected} of ${power.eligible} comparable rows with p50 > ${power.minP50Ms} ms scored LOSE (${power.power === null ? 'n/a' : `${(power.power * 100).toFixed(0)}%`})${power.missed.length ? `; missed: ${power.missed.join(', ')}` : ''}`,
    );
  console.log(`load averages (1 min): ${result.loadAverages.join(', ')}`);
  console.log(`calibration: ${file}`);
  return abort.signal.aborted ? 2 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(pc.red(`calibrate: ${(error as Error).stack ?? error}`));
    process.exit(2);
  },
);
