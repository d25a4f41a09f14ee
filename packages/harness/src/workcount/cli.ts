/**
 * `npm run workcount -w packages/harness -- [flags]`: each read row's instructions per request,
 * counted under callgrind (the runner binary calling the engine in process). Alone, this checkout's
 * build; with --base REV, this build against REV's with the gate's count rule (exit 4 when a row
 * counts 3% or more instructions per request than at REV, 1 on bad flags... see --help).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type Flag, parseCount, parseFlags, renderFlagHelp, UsageError } from '../cli/flags.js';
import { corpusById } from '../corpus/corpora.js';
import { selectFamilies } from '../families/index.js';
import { workloadById } from '../families/workloads.js';
import { gitRevision, REPO_ROOT } from '../repo.js';
import { revParse, worktreeAt } from '../worktree.js';
import { byChangeSize } from './compare.js';
import {
  type CountSetup,
  compareWithBase,
  countBuilds,
  DEFAULT_SIZES,
  prepareCount,
} from './compareBuilds.js';
import { buildRunner } from './runnerBuild.js';
import type { BuildCount } from './types.js';

const FLAGS: readonly Flag[] = [
  { name: 'base', value: 'REV', help: 'compare with the build at REV (a worktree under .runs/base-builds/)' },
  { name: 'corpus', value: 'ID', help: 'the corpus and its rows (default llm-telemetry)' },
  { name: 'docs', value: 'N', help: 'documents in the index (default 20000, the gate scale)' },
  { name: 'seed', value: 'N', help: 'corpus and request seed (default 42)' },
  { name: 'families', value: 'GLOBS', help: 'rows to count (default *)' },
  { name: 'timed', value: 'N', help: `counted requests per row (default ${DEFAULT_SIZES.timed})` },
  {
    name: 'warmup',
    value: 'N',
    help: `uncounted requests per row before them (default ${DEFAULT_SIZES.warmup})`,
  },
  {
    name: 'cache-sim',
    help: "callgrind's cache and branch simulation too: its cycle estimate (about 3x slower)",
  },
  { name: 'out', value: 'FILE', help: 'write the counts (or the comparison) as JSON here' },
  { name: 'help', short: 'h', help: 'this text' },
];

const HELP = `usage: npm run workcount -w packages/harness -- [flags]

Counts each read row's instructions per request under callgrind: the runner binary
(packages/engine-core/src/bin/workcount/) replays the bench's requests in process against an index
loaded through the candidate's service. Exit 0, or 4 with --base when a row counts 3% or more
instructions per request than REV's build, 2 on an error. With --base, both builds count one index
loaded by this checkout's service (the gate loads it with the merge base's): a row the two builds
answer with replies of different sizes, as when REV cannot read what this build writes, is N/A.

${renderFlagHelp(FLAGS)}`;

const fmt = (x: number | undefined) => (x === undefined ? '-' : Math.round(x).toLocaleString('en-US'));

async function main(argv: string[]): Promise<number> {
  const values = parseFlags(FLAGS, argv);
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const str = (k: string) => values[k] as string | undefined;
  const spec = corpusById(str('corpus') ?? 'llm-telemetry');
  const setup: CountSetup = {
    corpus: spec,
    docs: parseCount('docs', str('docs') ?? '20000', 1),
    seed: parseCount('seed', str('seed') ?? '42', 0),
    families: selectFamilies(str('families') ?? '*', workloadById(spec.id).families),
    sizes: {
      timed: parseCount('timed', str('timed') ?? String(DEFAULT_SIZES.timed), 1),
      warmup: parseCount('warmup', str('warmup') ?? String(DEFAULT_SIZES.warmup), 0),
    },
    workDir: join(REPO_ROOT, '.runs', 'workcount', 'cli'),
    cacheSim: values['cache-sim'] === true,
    log: (line) => console.log(`workcount: ${line}`),
  };
  if (setup.families.length === 0) throw new UsageError(`--families ${str('families')} matches no read row`);
  const out = str('out');
  const save = async (data: unknown) => {
    if (!out) return;
    const file = resolve(process.env.INIT_CWD ?? process.cwd(), out);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
    console.log(`workcount: written ${file}`);
  };
  const base = str('base');
  if (base === undefined) {
    const runner = buildRunner(REPO_ROOT, setup.log);
    const prepared = await prepareCount(setup);
    const [count] = (await countBuilds(setup, prepared, [{ name: 'this build', runner }])) as [BuildCount];
    for (const r of count.rows)
      console.log(
        `${r.row.padEnd(40)} ${fmt(r.instructionsPerRequest).padStart(14)}${r.cyclesPerRequest === undefined ? '' : ` ${fmt(r.cyclesPerRequest).padStart(14)} cycles`}${r.ok === r.requests ? '' : `  (${r.ok} of ${r.requests} ok: ${r.firstError?.slice(0, 80)})`}`,
      );
    console.log(
      `workcount: ${count.rows.length} rows in ${(count.wallMs / 1000).toFixed(1)} s under callgrind`,
    );
    await save(count);
    return 0;
  }
  const revision = revParse(base);
  if (!revision) throw new UsageError(`--base ${base} is not a commit of this repository`);
  const comparison = await compareWithBase(setup, { tree: worktreeAt(revision), revision }, gitRevision());
  if (comparison.note) console.log(`workcount: not compared: ${comparison.note}`);
  const unmatched = comparison.rows.filter((r) => r.verdict === 'N/A');
  for (const r of [...byChangeSize(comparison.rows), ...unmatched])
    console.log(`${r.row.padEnd(40)} ${r.verdict.padEnd(9)} ${r.reason}`);
  const moved = comparison.rows.filter((r) => r.verdict === 'REGRESSED');
  console.log(
    `workcount: ${comparison.rows.length} rows compared with ${revision.slice(0, 7)}: ${moved.length} regressed, ${comparison.rows.filter((r) => r.verdict === 'IMPROVED').length} improved, ${unmatched.length} not comparable (N/A)`,
  );
  await save(comparison);
  return moved.length > 0 ? 4 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(
      `workcount: ${error instanceof UsageError ? error.message : ((error as Error).stack ?? error)}`,
    );
    process.exitCode = 2;
  },
);
