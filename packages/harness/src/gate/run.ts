import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Flag, renderFlagHelp } from '../cli/flags.js';
import { REPO_ROOT } from '../repo.js';
import { DEFAULT_WAIVERS, fromCaller } from './args.js';
import { buildBase, defaultBaseRevision, engineChanged, revParse } from './baseBuild.js';
import { runCountCheck, treeOfPackage, writeCountFailure } from './countCheck.js';
import { judge, reportNoScorecard } from './judge.js';
import { ScorecardInputError } from './scorecards.js';
import { WaiverFileError } from './waivers.js';

/**
 * `npm run ci:gate`: the pull-request gate exactly as the workflow runs it. Runs the bench at CI
 * scale into --out, then judges the new run against the newest committed comparable run in
 * scorecards/ (main's latest) with the waivers file, and exits with the gate status.
 */

/**
 * CI scale: a fifth of the published corpus and half the timed requests, so a PR run finishes in
 * a few minutes on a 2-core runner; p99 still has >= 100 samples per engine per row.
 */
// No sweeps at CI scale: they add about 40 s per family and pull requests are judged on the rest.
export const CI_SCALE = ['--docs', '20000', '--iterations', '300', '--prewarm', '100', '--no-sweep'];

/**
 * The runner's own flags, declared once: its parser below reads them (anything else goes to the
 * bench, so the runner cannot use a strict parser) and --help prints them.
 */
export const CI_GATE_FLAGS: readonly Flag[] = [
  { name: 'out', value: 'DIR', help: 'where the bench writes its run (default ci-out)' },
  {
    name: 'scorecards',
    value: 'DIR',
    help: 'committed runs to judge against: the newest comparable one (default scorecards/)',
  },
  { name: 'waivers', value: 'FILE', help: 'waivers file (default scorecards/waivers.json)' },
  { name: 'summary', value: 'FILE', help: 'append the job summary markdown here' },
  { name: 'comment', value: 'FILE', help: 'write the pull-request comment markdown here' },
  {
    name: 'base',
    value: 'REV',
    help: `build the candidate at REV and measure this build against it (default: the
merge base with main, or HEAD's parent on main itself; only when the engine's
sources changed since)`,
  },
  { name: 'no-base', help: 'measure no merge-base build' },
  {
    name: 'no-counts',
    help: `skip the count check (each read row's instructions per request under
callgrind, this build against the merge-base build; runs when --base does)`,
  },
  { name: 'help', short: 'h', help: 'this text' },
];

const HELP = `usage: npm run ci:gate -- [flags] [bench flags...]

Builds the candidate at the merge base when the engine's sources changed since, then runs the
bench at CI scale (${CI_SCALE.join(' ')}) into --out with that build as a third engine on the
read rows, and judges the new run against the newest committed run in --scorecards: LOSE rows
against the baseline, and regressions against the merge-base build (one row past the fail
margin, or the read rows' median CPU per request). Any other flag goes to the bench after the
CI-scale ones, so it overrides them (e.g. --docs 5000).
With a merge-base build it then counts each read row's instructions per request under callgrind on
both builds (workcount.json in the run folder): a row up 3% or more is a regression too.
Exit status: 0 pass, 1 unwaived LOSE, 2 run failed (or the count check could not run), 3 coverage
fell, 4 regressed against the merge-base build (unwaived).

${renderFlagHelp(CI_GATE_FLAGS)}`;

interface RunnerArgs {
  /** The merge-base revision to build and compare with; null: --no-base. */
  base?: string | null;
  /** Skip the count check against the merge-base build. */
  noCounts: boolean;
  out: string;
  scorecards: string;
  waivers: string;
  summary?: string;
  comment?: string;
  bench: string[];
  help: boolean;
}

/** The runner's flags that take a value, as typed. */
const OWN = new Set(CI_GATE_FLAGS.filter((f) => f.value !== undefined).map((f) => `--${f.name}`));

function parseRunnerArgs(argv: string[]): RunnerArgs {
  const own = new Map<string, string>();
  const bench: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    const [flag, inline] = token.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--no-base') own.set('--no-base', 'yes');
    else if (flag === '--no-counts') own.set('--no-counts', 'yes');
    else if (OWN.has(flag)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith('--') || value.trim() === '')
        throw new Error(`${flag} needs a value, e.g. ${flag} ci-out`);
      own.set(flag, value);
    } else bench.push(token);
  }
  // The gate judges one scorecard: a --docs list would run several and judge only the last.
  const docs = bench.flatMap((t, i) =>
    t === '--docs' ? [bench[i + 1] ?? ''] : t.startsWith('--docs=') ? [t.slice(7)] : [],
  );
  if (docs.some((d) => d.includes(',')))
    throw new Error(`--docs takes one size here (the gate judges one run), got "${docs.join(' ')}"`);
  const path = (flag: string) => (own.has(flag) ? fromCaller(own.get(flag) as string) : undefined);
  const args: RunnerArgs = {
    out: path('--out') ?? resolve(REPO_ROOT, 'ci-out'),
    scorecards: path('--scorecards') ?? resolve(REPO_ROOT, 'scorecards'),
    waivers: path('--waivers') ?? DEFAULT_WAIVERS,
    noCounts: own.has('--no-counts'),
    bench,
    help,
  };
  if (own.has('--no-base')) args.base = null;
  else if (own.has('--base')) args.base = own.get('--base') as string;
  const summary = path('--summary');
  if (summary) args.summary = summary;
  const comment = path('--comment');
  if (comment) args.comment = comment;
  return args;
}

const runFolders = (dir: string) =>
  new Set(
    existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true })
          .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'scorecard.json')))
          .map((e) => e.name)
      : [],
  );

/** Run the bench through npm, as a developer would; resolves with its exit status (null: killed). */
function runBench(args: string[]): Promise<number | null> {
  // Under `npm run`, npm_execpath is npm's own script: reuse it rather than trusting PATH (but
  // not when another tool, e.g. npx or yarn, set it).
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm && /npm-cli\.[cm]?js$/.test(npm) ? [process.execPath, [npm]] : ['npm', []];
  const child = spawn(command, [...prefix, 'run', 'bench', '-w', 'packages/harness', '--', ...args], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  // A cancelled CI job sends SIGTERM: let the bench stop its engines and write what it has.
  const forward = () => child.kill('SIGTERM');
  process.once('SIGTERM', forward);
  // Ctrl-C reaches the bench too (same process group): it writes a partial scorecard, which
  // this process must stay alive to judge (a partial run fails the gate with 2).
  const ignore = () => {};
  process.on('SIGINT', ignore);
  return new Promise((resolveCode, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      process.off('SIGTERM', forward);
      process.off('SIGINT', ignore);
      resolveCode(code);
    });
  });
}

/**
 * The merge-base build (its engine package folder and revision), or none: --no-base, no base
 * revision (a first commit), or no engine change since it (the same engine would be measured
 * against itself).
 */
function baseBuild(base: string | null | undefined): { pkg: string; revision: string } | undefined {
  if (base === null) return undefined;
  const revision = base === undefined ? defaultBaseRevision() : revParse(base);
  if (base !== undefined && !revision) throw new Error(`--base ${base} is not a commit of this repository`);
  if (!revision) {
    console.log('ci:gate: no merge base to compare with (no parent commit): regression check skipped');
    return undefined;
  }
  if (!engineChanged(revision)) {
    console.log(
      `ci:gate: the candidate engine's sources are the same at ${revision.slice(0, 7)}: regression check skipped (nothing to compare)`,
    );
    return undefined;
  }
  return { pkg: buildBase(revision, (line) => console.log(`ci:gate: ${line}`)), revision };
}

async function main(argv: string[]): Promise<number> {
  let args: RunnerArgs;
  try {
    args = parseRunnerArgs(argv);
  } catch (error) {
    console.error(`ci:gate: ${(error as Error).message}; run with --help for the flags`);
    return 2;
  }
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  mkdirSync(args.out, { recursive: true });
  const before = runFolders(args.out);
  // A candidate given by URL is not this checkout's build: there is no merge-base build to pit it against.
  const byUrl = args.bench.some((t) => t === '--candidate-url' || t.startsWith('--candidate-url='));
  const base = byUrl ? undefined : baseBuild(args.base);
  const baseArgs = base ? ['--base-build', base.pkg, '--base-revision', base.revision] : [];
  const benchArgs = ['--out', args.out, ...CI_SCALE, ...baseArgs, ...args.bench];
  console.log(`ci:gate: npm run bench -w packages/harness -- ${benchArgs.join(' ')}`);
  const benchCode = await runBench(benchArgs);
  const fresh = [...runFolders(args.out)].filter((name) => !before.has(name)).sort();
  const newest = fresh.at(-1);
  if (newest === undefined) {
    const message = `the bench exited with ${benchCode ?? 'a signal'} and wrote no scorecard into ${args.out}`;
    console.error(`ci:gate: ${message}`);
    // Still produce the summary and the comment, which say there is nothing to judge.
    reportNoScorecard(args, message);
    return 2;
  }

  // The count check (each read row's instructions per request against the merge-base build) runs
  // after the bench, on its own index, so its callgrind runs never share the machine with timing.
  let countFailure: string | undefined;
  if (base && !args.noCounts) {
    try {
      const comparison = await runCountCheck(
        join(args.out, newest),
        {
          tree: treeOfPackage(base.pkg),
          revision: base.revision,
          server: join(base.pkg, 'dist', 'server.js'),
        },
        (line) => console.log(`ci:gate: ${line}`),
      );
      console.log(
        `ci:gate: count check done in ${((comparison.timings.total ?? 0) / 1000).toFixed(0)} s${comparison.note ? ` (not compared: ${comparison.note})` : ''}`,
      );
    } catch (error) {
      countFailure = (error as Error).message;
      console.error(`ci:gate: the count check failed: ${countFailure}`);
      writeCountFailure(join(args.out, newest), base.revision, countFailure);
    }
  }

  let gateCode: number;
  try {
    const options = { ...args, scorecard: join(args.out, newest), withScorecardMarkdown: true };
    gateCode = judge(existsSync(args.scorecards) ? { ...options, previous: args.scorecards } : options);
  } catch (error) {
    if (error instanceof ScorecardInputError || error instanceof WaiverFileError) {
      console.error(`ci:gate: ${error.message}`);
      return 2;
    }
    throw error;
  }
  // A count check that could not run leaves the landing unchecked: a failed run, after the summary.
  if (countFailure !== undefined && gateCode !== 1) return 2;
  // The bench's own status can only make things worse: a crash after writing is still a failed run.
  // 3 is the bench's own coverage check against its out folder; the gate judged coverage above;
  // 4 is a regression the gate judged with the waivers.
  if (benchCode !== 0 && benchCode !== 1 && benchCode !== 3 && benchCode !== 4 && gateCode !== 2) {
    console.error(`ci:gate: the bench exited with ${benchCode ?? 'a signal'}: the run counts as failed`);
    return 2;
  }
  return gateCode;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`ci:gate: internal error: ${(error as Error).stack ?? error}`);
    process.exitCode = 2;
  },
);
