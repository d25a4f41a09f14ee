import { resolve } from 'node:path';
import { type Flag, type FlagValues, parseFlags, renderFlagHelp } from '../cli/flags.js';
import { REPO_ROOT } from '../repo.js';

/** A bad flag: printed as one line naming the fix, exit 2. */
export class GateUsageError extends Error {}

export const DEFAULT_WAIVERS = resolve(REPO_ROOT, 'scorecards', 'waivers.json');

/** npm runs workspace scripts in the package folder; a relative path means the caller's folder. */
export const fromCaller = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

export interface GateArgs {
  scorecard: string;
  previous?: string;
  waivers: string;
  summary?: string;
  comment?: string;
  help: boolean;
}

/** Every flag of the gate CLI, in --help order: parseArgs reads them and --help prints them. */
export const GATE_FLAGS: readonly Flag[] = [
  {
    name: 'scorecard',
    value: 'PATH',
    help: 'a scorecard.json, a run folder, or an --out folder (its newest run)',
  },
  {
    name: 'previous',
    value: 'PATH',
    help: `the run to compare with: a scorecard.json, a run folder, or a folder of runs
and its ci/ subfolder (then the newest committed complete run on the
same corpus and size, else the newest committed complete run)`,
  },
  { name: 'waivers', value: 'FILE', help: 'waivers file (default scorecards/waivers.json)' },
  { name: 'summary', value: 'FILE', help: 'append the summary markdown here (e.g. "$GITHUB_STEP_SUMMARY")' },
  {
    name: 'comment',
    value: 'FILE',
    help: `write the pull-request comment markdown here; the artifact link comes
from the ARTIFACT_URL environment variable when set`,
  },
  { name: 'help', short: 'h', help: 'this text' },
];

export const GATE_HELP = `usage: npm run gate -w packages/harness -- --scorecard PATH [flags]

Judges one benchmark run for the pull-request gate and prints the summary.
Exit status: 0 pass, 1 a LOSE row without an unexpired waiver, 2 the run failed (or bad input),
3 coverage fell against --previous (more N/A rows, or a row missing, on the same corpus and size),
4 regressed against the merge-base build the run measured (a row past the fail margin, or the
read rows' median CPU per request) without an unexpired regression waiver.

${renderFlagHelp(GATE_FLAGS)}`;

export function parseGateArgs(argv: string[]): GateArgs {
  let values: FlagValues;
  try {
    values = parseFlags(GATE_FLAGS, argv);
  } catch (error) {
    throw new GateUsageError((error as Error).message);
  }
  const help = values.help === true;
  const str = (k: string) => {
    const v = values[k] as string | undefined;
    if (v !== undefined && v.trim() === '')
      throw new GateUsageError(`--${k} needs a path, got an empty value`);
    return v === undefined ? undefined : fromCaller(v);
  };
  const scorecard = str('scorecard');
  if (scorecard === undefined && !help)
    throw new GateUsageError('--scorecard is required (a scorecard.json, a run folder or an --out folder)');
  const args: GateArgs = { scorecard: scorecard ?? '', waivers: str('waivers') ?? DEFAULT_WAIVERS, help };
  const previous = str('previous');
  if (previous !== undefined) args.previous = previous;
  const summary = str('summary');
  if (summary !== undefined) args.summary = summary;
  const comment = str('comment');
  if (comment !== undefined) args.comment = comment;
  return args;
}
