/**
 * Writes N synthetic runs made from the real ones into a scratch folder, to measure how the site
 * build grows with the number of runs: `npx tsx scripts/synthetic-runs.ts --count 1000 --out DIR`
 * (from apps/web; `--from` defaults to the repository's scorecards/). Never into scorecards/: these
 * are not measurements.
 *
 * Run i copies real run i mod R (R real runs), shifted forward by whole rounds of the real runs'
 * time span, with a run id and a commit of its own; every other byte is the real run's (its rows,
 * distributions, SCORECARD.md, diffs), so each synthetic run weighs what a real one does and stays
 * in the real run's comparable set. The gate waivers and calibrations are copied as they are.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scorecard } from '../lib/definitions';
import { compareRuns } from '../lib/prepare';
import { scorecardsDirFromEnv } from './paths';

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    count: { type: 'string', default: '1000' },
    out: { type: 'string' },
  },
});
const from = values.from ? resolve(values.from) : scorecardsDirFromEnv();
const count = Number(values.count);
if (!values.out || !Number.isInteger(count) || count < 1) {
  console.error('usage: synthetic-runs.ts --count N --out DIR [--from SCORECARDS]');
  process.exit(2);
}
const out = resolve(values.out);
if (out === resolve(scorecardsDirFromEnv())) {
  console.error('error: --out is the real scorecards folder: synthetic runs are never written there');
  process.exit(2);
}

const real = readdirSync(from, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(from, entry.name, 'scorecard.json')))
  .map((entry) => ({
    folder: entry.name,
    card: JSON.parse(readFileSync(join(from, entry.name, 'scorecard.json'), 'utf8')) as Scorecard,
  }))
  .sort((a, b) => compareRuns(a.card, b.card));
if (real.length === 0) {
  console.error(`error: no runs under ${from}`);
  process.exit(2);
}
const first = Date.parse(real[0]?.card.createdAt ?? '');
const last = Date.parse(real.at(-1)?.card.createdAt ?? '');
// One round of copies spans the real runs' time and a day more, so rounds never overlap.
const round = last - first + 86_400_000;

const hex = (text: string, length: number) =>
  createHash('sha256').update(text).digest('hex').slice(0, length);
/** "20261127T145248Z", as the harness stamps its run ids. */
const stamp = (time: number) =>
  new Date(time)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (let i = 0; i < count; i++) {
  const source = real[i % real.length] as (typeof real)[number];
  const shift = Math.floor(i / real.length) * round;
  const createdAt = new Date(Date.parse(source.card.createdAt) + shift).toISOString();
  const gitRevision = hex(`synthetic ${i}`, 40);
  const runId = `${stamp(Date.parse(createdAt))}-${gitRevision.slice(0, 7)}`;
  const card: Scorecard = {
    ...source.card,
    runId,
    createdAt,
    manifest: { ...source.card.manifest, gitRevision },
  };
  const dir = join(out, runId);
  // The files a published run folder holds (local runs may also keep samples and logs: not published).
  cpSync(join(from, source.folder), dir, {
    recursive: true,
    filter: (path) => !/[/\\](samples|logs)([/\\]|$)/.test(path.slice(join(from, source.folder).length)),
  });
  writeFileSync(join(dir, 'scorecard.json'), `${JSON.stringify(card, null, 2)}\n`);
  const markdown = join(dir, 'SCORECARD.md');
  if (existsSync(markdown)) {
    writeFileSync(markdown, readFileSync(markdown, 'utf8').replaceAll(source.card.runId, runId));
  }
}
for (const extra of ['waivers.json', 'calibration']) {
  if (existsSync(join(from, extra))) cpSync(join(from, extra), join(out, extra), { recursive: true });
}
console.log(`wrote ${count} synthetic runs from ${real.length} real ones into ${out}`);
