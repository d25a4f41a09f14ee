import { WORKLOADS } from '../families/workloads.js';
import { DEFAULT_SETTINGS } from '../model/settings.js';
import { BENCH_FLAGS } from './benchFlags.js';
import { renderFlagHelp } from './flags.js';

const d = DEFAULT_SETTINGS;

/** `npm run bench -- --help`: the flag table, then every corpus with its read rows. */
export const HELP = `usage: npm run bench -- [flags]

Loads the same seeded corpus into the candidate (everycell) and the baseline (OpenSearch),
measures every row on both, and writes <out>/<run-id>/scorecard.json, SCORECARD.md and the
history database. Exit status: 0 no LOSE, 1 any LOSE, 2 the run failed, was interrupted or an
engine crashed (the run goes on after a crash, restarting the engine where it can), 3 coverage fell
against the previous complete run on the same corpus, size and --families.

${renderFlagHelp(BENCH_FLAGS)}

Rows measured once per engine (memory.rss, disk.store, ingest.<n>-clients) have no interval: WIN/LOSE
only beyond a ${d.singleMeasurementMargin * 100}% margin. memory.rss (VmRSS of each engine's process tree, from /proc;
for a --*-url engine from its _nodes/stats) and disk.store always run, after the reads.

${WORKLOADS.map((w) => `Read row ids (--corpus ${w.corpus.id}): ${w.families.map((f) => f.id).join(', ')}`).join('\n\n')}`;
