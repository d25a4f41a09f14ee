import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../repo.js';
import { historyPath, listRuns, rebuildHistory, withHistory } from './db.js';
import { verifyHistory } from './verify.js';

const USAGE = `usage: npm run history -- [list|rebuild|verify] [--out DIR]
  list      recent runs in <out>/history.duckdb with their verdict counts (default)
  rebuild   recreate <out>/history.duckdb from every <out>/*/scorecard.json
  verify    recompute every published card's flaky marks and coverage from the rebuilt
            history and list any that differ from what the card published (exit 1)
  --out     scorecards folder (default: <repo>/scorecards)`;

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (error) {
    console.error(`history: ${(error as Error).message}; see --help`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const command = parsed.positionals[0] ?? 'list';
  // npm runs workspace scripts in the package folder; a relative --out means the caller's folder.
  const out =
    parsed.values.out === undefined
      ? resolve(REPO_ROOT, 'scorecards')
      : resolve(process.env.INIT_CWD ?? process.cwd(), String(parsed.values.out));
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
  console.error(`history: unknown command "${command}"; use list, rebuild or verify`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`history: ${(error as Error).message}`);
    process.exit(2);
  },
);
