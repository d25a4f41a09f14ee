import { parseArgs } from 'node:util';
import pc from 'picocolors';
import { selectFamilies } from '../families/index.js';
import { workloadById } from '../families/workloads.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../model/settings.js';
import { runBisect } from './run.js';

const USAGE = `usage: npm run bisect -- --row ID [--good REV] [--bad REV] [--by latency|count] [--docs N] [--forks N] [--iterations N]

Builds the candidate at the commits between --good and --bad (first-parent line) and measures one
read row on each against the good build, with the gate's regression rule (latency or engine CPU per
request worse beyond ${DEFAULT_SETTINGS.regressionMargin * 100}% with the whole interval): a binary search that names the first
commit where the row regressed, with its figures. Commits that did not touch the engine are not
built. Exit 0 when a first regressed commit was found, 1 when the bad end does not regress.

  --row ID        a read-row id, e.g. bucket.date_range
  --by WHAT       latency (default): the rule above, in forks of both builds; count: the row's
                  instructions per request under callgrind, 3% or more being a regression (the
                  gate's count check; one exact run per commit, no engine processes)
  --good REV      a revision where the row was fine (default: HEAD~20)
  --bad REV       a revision where it regressed (default: HEAD)
  --corpus ID     the corpus the row belongs to (default llm-telemetry)
  --docs N        documents loaded into both builds (default 20000)
  --forks N       process executions per build per step (default 3)
  --iterations N  timed requests per build per step (default 300)`;

async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        row: { type: 'string' },
        good: { type: 'string' },
        bad: { type: 'string' },
        corpus: { type: 'string' },
        docs: { type: 'string' },
        forks: { type: 'string' },
        iterations: { type: 'string' },
        by: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`bisect: ${(error as Error).message.split('\n')[0]}; run with --help`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const rowId = values.row as string | undefined;
  if (!rowId) {
    console.error('bisect: --row is required, e.g. npm run bisect -- --row bucket.date_range');
    return 2;
  }
  const by = (values.by as string | undefined) ?? 'latency';
  if (by !== 'latency' && by !== 'count') {
    console.error(`bisect: --by takes latency or count, got "${by}"`);
    return 2;
  }
  const corpus = (values.corpus as string | undefined) ?? 'llm-telemetry';
  const family = selectFamilies(rowId, workloadById(corpus).families)[0];
  if (!family || family.id !== rowId) {
    console.error(
      `bisect: --row ${rowId} is not a read row of the ${corpus} corpus (see npm run bench -- --help)`,
    );
    return 2;
  }
  const num = (k: string, d: number) => {
    const n = Number(values[k] ?? d);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${k} must be a whole number >= 1`);
    return n;
  };
  const settings: RunSettings = {
    ...DEFAULT_SETTINGS,
    corpus,
    docs: num('docs', 20_000),
    forks: num('forks', 3),
    iterations: num('iterations', 300),
  };
  const result = await runBisect({
    family,
    corpus,
    good: (values.good as string | undefined) ?? 'HEAD~20',
    bad: (values.bad as string | undefined) ?? 'HEAD',
    settings,
    by,
    log: (line) => console.log(line),
  });
  if (!result.first) {
    console.log(pc.yellow(`bisect: ${result.note ?? 'no first regressed commit'}`));
    return 1;
  }
  console.log(
    `${pc.bold(`first regressed commit for ${rowId}: ${result.first.revision}`)}\n  ${result.first.reason}`,
  );
  console.log(`  git show ${result.first.revision.slice(0, 12)}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bisect: ${(error as Error).message}`);
    process.exit(2);
  },
);
