import { existsSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renderOutcome, renderSummary } from '../cli/summary.js';
import { annotateFromHistory } from '../history/annotate.js';
import { appendRun, historyPath, withHistory } from '../history/db.js';
import { REPO_ROOT } from '../repo.js';
import type { Scorecard } from '../scorecard/schema.js';
import { readScorecardFile, ScorecardFileError } from '../scorecard/validate.js';
import { writeScorecard } from '../scorecard/write.js';
import { MergeError, mergeCards } from './mergeCards.js';

const HELP = `npm run merge-cards -- DIR... [--out DIR]

Joins the cards of one split run (npm run bench -- --shard K/N, on N machines or one after
another) into one card, as a whole run would have written it: each row from the shard it was
dealt to and tagged with it, counts and exit status from the rows, each shard's run, machine
and floor in manifest.shards. The shards must share revision, engines, corpus and settings.

  DIR...       the N shard run folders (each holds a scorecard.json)
  --out DIR    where the merged run folder and history.duckdb go (default <repo>/scorecards)

Exit status: the merged card's (0 no LOSE, 1 a LOSE, 2 a shard failed, 3 coverage fell); 2 when
the folders are not the N shards of one run.`;

/** The raw files a row points at (samples/<row>.json, its diff), copied beside the merged card. */
async function copyRowFiles(from: string, to: string, card: Scorecard): Promise<void> {
  for (const row of card.rows) {
    const files = [join('samples', `${row.id}.json`), ...(row.diffPath ? [row.diffPath] : [])];
    for (const file of files) {
      if (!existsSync(join(from, file))) continue;
      await mkdir(dirname(join(to, file)), { recursive: true });
      await cp(join(from, file), join(to, file));
    }
  }
}

const OPTIONS = { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

async function main(argv: string[]): Promise<number> {
  let parsed: { values: { out?: string; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    console.error(`merge-cards: ${(error as Error).message.split('\n')[0]}; run with --help`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(HELP);
    return 0;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const out =
    parsed.values.out === undefined ? join(REPO_ROOT, 'scorecards') : resolve(cwd, parsed.values.out);
  const dirs = parsed.positionals.map((d) => resolve(cwd, d));
  if (dirs.length === 0) {
    console.error('merge-cards: pass the shard run folders, e.g. npm run merge-cards -- .runs/shards/*');
    return 2;
  }
  const shards: Scorecard[] = [];
  for (const dir of dirs) {
    const file = join(dir, 'scorecard.json');
    if (!existsSync(file)) {
      console.error(`merge-cards: ${dir} has no scorecard.json: pass run folders of --shard runs`);
      return 2;
    }
    try {
      shards.push(readScorecardFile(file, file, basename(dir)) as Scorecard);
    } catch (error) {
      if (!(error instanceof ScorecardFileError)) throw error;
      console.error(`merge-cards: ${error.message}`);
      return 2;
    }
  }
  let card: Scorecard;
  try {
    card = mergeCards(shards);
  } catch (error) {
    if (!(error instanceof MergeError)) throw error;
    console.error(`merge-cards: ${error.message}`);
    return 2;
  }
  const unread = await annotateFromHistory(out, card);
  if (unread) console.error(unread);
  const dir = await writeScorecard(out, card);
  for (const [k, shard] of shards.entries()) await copyRowFiles(dirs[k] as string, dir, shard);
  await withHistory(historyPath(out), (conn) => appendRun(conn, card));
  console.log(renderSummary(card));
  console.log(renderOutcome(card, dir));
  return card.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`merge-cards: internal error: ${(error as Error).stack ?? error}`);
    process.exit(2);
  },
);
