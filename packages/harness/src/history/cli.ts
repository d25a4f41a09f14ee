import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../repo.js';
import { historyPath, listRuns, rebuildHistory, withHistory } from './db.js';
import { exportParquet } from './parquet.js';
import { verifyHistory } from './verify.js';

const USAGE = `usage: npm run history -- [list|rebuild|verify|export --parquet DIR] [--out DIR]
  list      recent runs in <out>/history.duckdb with their verdict counts (default)
  rebuild   recreate <out>/history.duckdb from every <out>/*/scorecard.json
  verify    recompute every published card's flaky marks and coverage from the rebuilt
            history and list any that differ from what the card published (exit 1)
  export    write the history's runs, rows, distributions and quantiles tables as
            <table>.parquet files into the folder --parquet names
  --out     scorecards folder (default: <repo>/scorecards)`;

const NEEDS_DIR = 'history: export needs a folder to write into: npm run history -- export --parquet DIR';

/** `export --parquet DIR`: the history's tables as Parquet files; a missing folder or history is exit 2. */
async function exportCommand(
  out: string,
  dir: unknown,
  fromCaller: (path: string) => string,
): Promise<number> {
  if (typeof dir !== 'string' || dir === '') {
    console.error(NEEDS_DIR);
    return 2;
  }
  const path = historyPath(out);
  const fix = 'run `npm run history -- rebuild` first';
  if (!existsSync(path)) {
    console.error(`history: no history at ${path} to export: ${fix}`);
    return 2;
  }
  const written = await withHistory(path, async (conn) =>
    (await listRuns(conn, 1)).length === 0 ? undefined : exportParquet(conn, fromCaller(dir)),
  );
  if (!written) {
    console.error(`history: no runs in the history at ${path} to export: ${fix}`);
    return 2;
  }
  for (const w of written) console.log(`${w.file}  ${w.rows} row${w.rows === 1 ? '' : 's'}`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        parquet: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    // `--parquet` given without its folder (last, or followed by another option).
    if (/'--parquet( <value>)?' argument/.test((error as Error).message)) {
      console.error(NEEDS_DIR);
      return 2;
    }
    console.error(`history: ${(error as Error).message}; see --help`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const command = parsed.positionals[0] ?? 'list';
  // npm runs workspace scripts in the package folder; a relative path means the caller's folder.
  const fromCaller = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);
  const out =
    parsed.values.out === undefined
      ? resolve(REPO_ROOT, 'scorecards')
      : fromCaller(String(parsed.values.out));
  if (command === 'rebuild') {
    const n = await rebuildHistory(out);
    console.log(`rebuilt ${historyPath(out)} from ${n} scorecard${n === 1 ? '' : 's'}`);
    return 0;
  }
  if (command === 'verify') {
    await rebuildHistory(out);
    const { checked, older, problems } = await verifyHistory(out);
    for (const p of problems) console.log(p);
    console.log(
      `${checked} published card${checked === 1 ? '' : 's'} checked${older > 0 ? ` (${older} of schema 1, annotated under the older rules, not checked)` : ''}: ${problems.length === 0 ? 'every flaky mark and coverage figure reproduces' : `${problems.length} differ`}`,
    );
    return problems.length === 0 ? 0 : 1;
  }
  if (command === 'export') return exportCommand(out, parsed.values.parquet, fromCaller);
  if (command === 'list') {
    if (!existsSync(historyPath(out))) {
      console.log(`no history at ${historyPath(out)}: run a bench, or \`rebuild\` from the scorecards`);
      return 0;
    }
    const runs = await withHistory(historyPath(out), (conn) => listRuns(conn));
    if (runs.length === 0) console.log(`no runs in ${historyPath(out)}`);
    for (const r of runs) {
      console.log(
        `${r.run_id}  ${r.status.padEnd(8)} WIN ${r.wins}  LOSE ${r.loses}  TIE ${r.ties}  N/A ${r.na}  exit ${r.exit_code}  ${r.candidate} vs ${r.baseline}`,
      );
    }
    return 0;
  }
  console.error(`history: unknown command "${command}"; use list, rebuild, verify or export`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`history: ${(error as Error).message}`);
    process.exit(2);
  },
);
