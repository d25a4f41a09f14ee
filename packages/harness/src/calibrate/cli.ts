/**
 * `npm run calibrate`: how far the verdicts can be trusted on this machine, with the same design
 * the bench runs (forks, rounds, requests) and the default matrix's read rows.
 *   1. A/A for both engines: --runs runs of the candidate against a second candidate process and
 *      of OpenSearch against a second OpenSearch (alternating), each a full bench run. Every WIN or
 *      LOSE, by latency or by engine CPU per request, is false.
 *   2. Power: the candidate against a second candidate process whose service adds --fraction of
 *      each request's CPU cost as extra CPU work (a calibration-only switch the service reads from
 *      its environment; no bench flag sets it). The share of rows found LOSE, by CPU per request
 *      (every row) and by latency (rows with p50 >= 1 ms).
 * Writes scorecards/calibration/<date>.json (committed: the README and the site's methodology
 * page show it); the runs' own scorecards stay in .runs/calibrate, away from the gate and the site.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { parseBenchArgs, UsageError } from '../cli/args.js';
import { createProgress } from '../cli/progress.js';
import type { RunSettings } from '../model/settings.js';
import { REPO_ROOT } from '../repo.js';
import { runBench } from '../run/bench.js';
import type { Scorecard } from '../scorecard/schema.js';
import { calibrateCounts } from './counts.js';
import { type AaTally, aaTally, type PowerTally, powerTally } from './tally.js';
import { optimalRoundsPerFork, varianceComponents } from './variance.js';

const HELP = `usage: npm run calibrate -- [--runs N] [--engines LIST] [--fraction F] [--skip-aa] [--skip-power] [bench flags]

  --runs N        A/A runs per engine (default 10)
  --engines LIST  which engines run against themselves: candidate,baseline (default both)
  --fraction F    extra engine CPU for the power run, a fraction of each request's CPU cost (default 0.1)
  --skip-aa       only the power run
  --skip-power    only the A/A runs
  --result DIR    where the committed result goes (default <repo>/scorecards/calibration)
  --counts        calibrate the count check instead (npm run calibrate -- --counts --help)
Other bench flags (--docs, --families, --forks, --rounds, --iterations, ...) apply to every run;
--aa is set by calibrate itself. The default is the bench's default matrix of read rows
(--no-mixed --no-sweep: those rows are not read rows).`;

interface CalibrateArgs {
  runs: number;
  engines: ('candidate' | 'baseline')[];
  fraction: number;
  aa: boolean;
  power: boolean;
  result: string;
  benchArgv: string[];
}

function parseCalibrateArgs(argv: string[]): CalibrateArgs | 'help' {
  const args: CalibrateArgs = {
    runs: 10,
    engines: ['candidate', 'baseline'],
    fraction: 0.1,
    aa: true,
    power: true,
    result: resolve(REPO_ROOT, 'scorecards', 'calibration'),
    benchArgv: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--help' || a === '-h') return 'help';
    if (a === '--skip-aa') args.aa = false;
    else if (a === '--skip-power') args.power = false;
    else if (a === '--result') args.result = resolve(process.env.INIT_CWD ?? process.cwd(), argv[++i] ?? '');
    else if (a === '--engines') {
      const list = (argv[++i] ?? '').split(',').map((x) => x.trim());
      if (list.length === 0 || list.some((x) => x !== 'candidate' && x !== 'baseline'))
        throw new UsageError(`--engines takes candidate, baseline or both, got "${list.join(',')}"`);
      args.engines = list as CalibrateArgs['engines'];
    } else if (a === '--runs' || a === '--fraction') {
      const raw = argv[++i];
      const n = Number(raw);
      if (a === '--runs' && !(Number.isInteger(n) && n >= 1 && n <= 100))
        throw new UsageError(`--runs must be a whole number in 1-100, got "${raw}" (e.g. --runs 10)`);
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
  for (const flag of ['--no-mixed', '--no-sweep'])
    if (!args.benchArgv.includes(flag)) args.benchArgv.push(flag);
  if (!args.benchArgv.includes('--out')) args.benchArgv.push('--out', resolve(REPO_ROOT, '.runs/calibrate'));
  return args;
}

async function oneRun(settings: RunSettings, out: string, abort: AbortSignal): Promise<Scorecard> {
  // On a shared 2-core box a JVM can miss its start deadline; one retry, then the error stands.
  for (let attempt = 1; ; attempt++) {
    const outcome = await runBench({ settings, out, progress: createProgress(), abort });
    if (outcome.card) return outcome.card;
    const error = outcome.error ?? 'the run failed before writing a scorecard';
    if (attempt >= 2 || !error.startsWith('could not start') || abort.aborted) throw new Error(error);
    console.log(`calibrate: ${error.split('\n')[0]}; retrying once`);
  }
}

const sum = (xs: AaTally[], f: (t: AaTally) => number) => xs.reduce((n, t) => n + f(t), 0);

function aaSummary(tallies: AaTally[]) {
  return {
    // A run stopped before its rows (Ctrl-C, a failure) is listed in perRun but is not a run.
    runs: tallies.filter((t) => t.status === 'complete').length,
    incompleteRuns: tallies.filter((t) => t.status !== 'complete').length,
    readRowRuns: sum(tallies, (t) => t.readRows),
    comparableRowRuns: sum(tallies, (t) => t.counts.WIN + t.counts.LOSE + t.counts.TIE),
    falseWin: sum(tallies, (t) => t.counts.WIN),
    falseLose: sum(tallies, (t) => t.counts.LOSE),
    cpuRowRuns: sum(tallies, (t) => t.cpuRows),
    falseCpu: sum(tallies, (t) => t.falseCpuVerdicts.length),
    ingestRuns: tallies.filter((t) => t.ingest).length,
    falseIngest: tallies.filter((t) => t.ingest?.false).length,
    perRun: tallies,
  };
}

async function main(argv: string[]): Promise<number> {
  // The count check has a calibration of its own (calibrate/counts.ts): no engines, no bench.
  if (argv.includes('--counts')) return calibrateCounts(argv);
  let args: ReturnType<typeof parseCalibrateArgs>;
  let bench: ReturnType<typeof parseBenchArgs>;
  try {
    args = parseCalibrateArgs(argv);
    if (args === 'help') {
      console.log(HELP);
      return 0;
    }
    bench = parseBenchArgs(args.benchArgv);
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
  const load: number[] = [loadavg()[0] as number];
  const aaCards: Scorecard[] = [];
  const tallies: AaTally[] = [];
  let power: PowerTally | undefined;
  const s = bench.settings;
  const file = join(args.result, `${started.toISOString().slice(0, 10)}.json`);
  await mkdir(args.result, { recursive: true });
  /** The result so far, written after every run: a long calibration that stops early keeps what it measured. */
  const write = async (complete: boolean) => {
    const variance = varianceComponents(aaCards);
    // Cost of one more fork (restarts, prewarm, idle wait) and one more round, from the runs.
    const waits = aaCards.flatMap((c) => c.manifest.idle ?? []);
    const forkCostS =
      (waits.length > 0 ? waits.reduce((n, i) => n + i.waitedMs, 0) / 1000 / waits.length : 0) + 30;
    const roundCostS = (2 * (s.warmup + Math.ceil(s.iterations / (s.forks * s.rounds)))) / s.rate;
    const result = {
      createdAt: started.toISOString(),
      durationMs: Date.now() - started.getTime(),
      complete,
      runsPlanned: { aaPerEngine: args.aa ? args.runs : 0, engines: args.engines, power: args.power },
      machine: aaCards[0]?.manifest.machine,
      design: {
        forks: s.forks,
        roundsPerFork: s.rounds,
        iterations: s.iterations,
        confidence: s.confidence,
        tieMargin: s.tieMargin,
      },
      settings: { docs: s.docs, corpus: s.corpus, families: s.families, rate: s.rate },
      /** 1-minute load averages at the start and after each run: the machine is shared. */
      loadAverages: load.map((l) => Math.round(l * 100) / 100),
      aa: Object.fromEntries(args.engines.map((e) => [e, aaSummary(tallies.filter((t) => t.engine === e))])),
      power: power ?? null,
      variance: {
        ...variance,
        forkCostS: Math.round(forkCostS),
        roundCostS: Math.round(roundCostS * 100) / 100,
        optimalRoundsPerFork: optimalRoundsPerFork(variance, forkCostS, roundCostS),
      },
      targets: {
        aa: '0 false WIN/LOSE in the A/A runs (10 per engine)',
        powerCpu: '>= 95% of rows found LOSE by CPU per request at +10%',
        powerLatency: '>= 80% of rows with p50 >= 1 ms found LOSE by latency at +10%',
      },
    };
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
    return result;
  };
  // Each finished run saves the result so far.
  const checkpoint = () => write(false);
  if (args.power && !abort.signal.aborted) {
    console.log(
      pc.bold(`power: the candidate against itself with +${args.fraction * 100}% engine CPU on one side`),
    );
    const card = await oneRun(
      { ...bench.settings, aa: 'candidate', calibrationExtraCpu: args.fraction },
      bench.out,
      abort.signal,
    );
    power = powerTally(card, args.fraction);
    load.push(loadavg()[0] as number);
    await checkpoint();
  }
  if (args.aa) {
    // Alternate the engines run by run, so a drifting machine touches both calibrations alike.
    for (let k = 0; k < args.runs && !abort.signal.aborted; k++) {
      for (const engine of args.engines) {
        if (abort.signal.aborted) break;
        console.log(pc.bold(`A/A ${engine} run ${k + 1}/${args.runs}`));
        const card = await oneRun({ ...bench.settings, aa: engine }, bench.out, abort.signal);
        aaCards.push(card);
        const t = aaTally(card);
        tallies.push(t);
        load.push(loadavg()[0] as number);
        console.log(
          `A/A ${engine} run ${k + 1}: ${t.falseVerdicts.length} false by latency, ${t.falseCpuVerdicts.length} false by CPU, of ${t.readRows} read rows ${[...t.falseVerdicts, ...t.falseCpuVerdicts].join(', ')}${t.ingest ? `; ingest ${t.ingest.row}` : ''}`,
        );
        await checkpoint();
      }
    }
  }
  const result = await write(!abort.signal.aborted);
  const { variance } = result;
  for (const [engine, a] of Object.entries(result.aa))
    console.log(
      `A/A ${engine}: ${a.falseWin} false WIN, ${a.falseLose} false LOSE of ${a.comparableRowRuns} comparable row-runs over ${a.runs} runs; ${a.falseCpu} false by CPU of ${a.cpuRowRuns}; ingest ${a.falseIngest} false of ${a.ingestRuns}`,
    );
  if (power)
    console.log(
      `power at +${power.slowdown * 100}%: CPU ${power.cpu.detected}/${power.cpu.eligible}, latency ${power.latency.detected}/${power.latency.eligible} (rows with p50 >= ${power.minP50Ms} ms)`,
    );
  console.log(
    `variance: fork sd ${variance.forkSd}, round sd within a fork ${variance.roundSdWithinFork} (log ratios, median of ${variance.rows} rows); rounds per fork for the least cost: ${result.variance.optimalRoundsPerFork}`,
  );
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
