import { DEFAULT_SETTINGS, type RunSettings } from '../model/settings.js';
import { type Flag, flagsForSettings, shellWord } from './flags.js';

export const DEFAULT_MIXED_WRITE_RATE = 2000;
export const DEFAULT_SWEEP_P99_MS = 50;

const d = DEFAULT_SETTINGS;

/**
 * A flag that sets one RunSettings field. A reproduce command passes every recorded value, default
 * or not: a default may have changed since the run, and the command must mean that run.
 */
function setting(name: string, key: keyof RunSettings, value: string, help: string): Flag {
  return { name, value, help, setting: key };
}

/**
 * Every flag of `npm run bench`, in --help order. parseBenchArgs (args.ts) reads them, --help
 * prints them, and the site rebuilds a published run's command from its recorded settings with
 * the same table (reproduceCommand), so the three cannot drift apart.
 */
export const BENCH_FLAGS: readonly Flag[] = [
  {
    name: 'docs',
    value: 'N[,N...]',
    setting: 'docs',
    help: `corpus size; accepts 20000, 100k, 1m (default ${d.docs}). A list (--docs 100k,1m)
runs one complete pass per size, in order, each with its own scorecard, the last
one also carrying the set's cost curve (each latency row's p50 and CPU per request
at every size); the exit status is the worst of the passes (2, then 1, then 4, then
3, then 0)`,
  },
  setting(
    'corpus',
    'corpus',
    'ID',
    `which corpus and read rows (default ${d.corpus}, seeded LLM-call telemetry); the real corpora
and their rows are listed at the end of --help. A real corpus smaller than --docs runs at its size`,
  ),
  {
    name: 'knn',
    setting: 'knn',
    help: 'add the kNN rows (knn.latency, knn.recall@10) on a separate clustered-vector index',
  },
  setting('knn-docs', 'knnDocs', 'N', `vectors in that index (default ${d.knnDocs})`),
  setting('rate', 'rate', 'R', `open-loop arrival rate per engine, requests/s (default ${d.rate})`),
  setting(
    'iterations',
    'iterations',
    'N',
    `timed requests per engine per read row, split over the forks' rounds (default ${d.iterations});
breadth rows (feature coverage) run a third of it and half of --prewarm`,
  ),
  setting('warmup', 'warmup', 'N', `untimed warmup requests per engine per round (default ${d.warmup})`),
  setting(
    'prewarm',
    'prewarm',
    'N',
    `untimed requests per engine per read row before any timing, so a JIT/JVM engine
is measured warm (default ${d.prewarm})`,
  ),
  setting(
    'forks',
    'forks',
    'N',
    `process executions per engine (default ${d.forks}): each fork restarts both engines on the same
data, waits until both are idle, prewarms, and times every read row; the interval
resamples forks, then rounds, then requests`,
  ),
  setting(
    'max-forks',
    'maxForks',
    'N',
    `budget for re-measuring a read row whose 95% interval straddles a verdict threshold:
one more fork at a time, in either direction, up to N (default --forks + ${d.maxForks - d.forks})`,
  ),
  setting(
    'rounds',
    'rounds',
    'N',
    `paired rounds per row per fork; engine order alternates each round (default ${d.rounds})`,
  ),
  setting(
    'families',
    'families',
    'GLOBS',
    `comma-separated globs over read-row ids, e.g. 'query.*,bucket.terms' (default '*');
ingest always runs because it loads the data; the same globs select the mixed
(mixed.*) and throughput (throughput.*) rows`,
  ),
  {
    name: 'mixed-write-rate',
    value: 'N',
    setting: 'mixedWriteRate',
    toArgs: (v) => (v === 0 ? ['--no-mixed'] : ['--mixed-write-rate', String(v)]),
    help: `docs/s re-indexed open loop (bulks of 100) while the mixed.* rows read
(default ${DEFAULT_MIXED_WRITE_RATE}; 0 leaves the mixed rows out)`,
  },
  { name: 'no-mixed', help: 'skip the read-under-write rows (mixed.*, about 30 s each)' },
  { name: 'mixed', help: 'run them (the default) even when --families names no mixed.* row' },
  {
    name: 'no-sweep',
    setting: 'sweep',
    toArgs: (v) => (v === false ? ['--no-sweep'] : undefined),
    help: 'skip the latency-at-throughput sweeps (throughput.* rows, about 40 s per family)',
  },
  { name: 'sweep', help: 'run them even when --families names no throughput.* row' },
  {
    name: 'sweep-p99-ms',
    value: 'N',
    setting: 'sweepP99Ms',

    help: `p99 bound of a sustained sweep rate, ms (default ${DEFAULT_SWEEP_P99_MS})`,
  },
  setting(
    'clients',
    'clients',
    'LIST',
    `bulk client counts for ingest rows, e.g. 1,8 (default ${d.clients}); 1 is ingest.1-client
(the load itself), each other n is ingest.<n>-clients on a fresh index after the reads`,
  ),
  setting('seed', 'seed', 'N', `corpus and request seed (default ${d.seed})`),
  {
    name: 'shard',
    value: 'K/N',
    setting: 'shard',
    toArgs: (v) => (typeof v === 'string' && v !== '' ? ['--shard', v] : undefined),
    help: `measure only the Kth of N shares of the matrix (each row whole, both engines on this
machine; the same deal on every machine), for \`npm run merge-cards\` to join the N cards
into one. Every shard loads the corpus. Writes to <repo>/.runs/shards unless --out is given:
a shard alone is not the matrix, so it never reaches the gate or the site`,
  },
  setting(
    'connections',
    'connections',
    'N',
    `in-flight cap per engine; requests beyond it are dropped (default ${d.connections})`,
  ),
  setting('timeout-ms', 'timeoutMs', 'N', `per-request bound in ms (default ${d.timeoutMs})`),
  setting('bulk-size', 'bulkSize', 'N', `documents per bulk request (default ${d.bulkSize})`),
  setting(
    'confidence',
    'confidence',
    'C',
    `two-sided confidence of each row's interval, e.g. 0.99 (default ${d.confidence}); the interval is a
t interval over the forks (Kalibera & Jones), so more forks make it narrower`,
  ),
  setting(
    'margin',
    'tieMargin',
    'X',
    `tie margin as a fraction: WIN/LOSE need the ratio beyond 1 +/- X (default ${d.tieMargin})`,
  ),
  setting(
    'max-send-lag-ms',
    'maxSendLagP99Ms',
    'N',
    `read rows where the harness's own send lag p99 exceeds N ms on both engines are N/A
(default ${d.maxSendLagP99Ms})`,
  ),
  {
    name: 'aa',
    value: 'ENGINE',
    setting: 'aa',
    toArgs: (v) =>
      v === 'baseline' || v === 'candidate' ? ['--aa', v] : v === true ? ['--aa', 'baseline'] : undefined,
    help: `A/A calibration, ENGINE baseline or candidate: a second process of the same engine takes the
other side, so every WIN or LOSE is false; the summary counts them. Writes to <repo>/.runs/aa
unless --out is given, so A/A cards never reach the gate or the site`,
  },

  { name: 'candidate-url', value: 'U', help: 'use a running candidate at U instead of starting one' },
  {
    name: 'base-build',
    value: 'DIR',
    help: `an engine-napi package folder of another build (the pull-request gate's merge-base build):
its service runs as a third engine on the read rows, and each row gets versusBase
(this build against it: latency and CPU per request; exit 4 on a regression)`,
  },
  {
    name: 'base-revision',
    value: 'REV',
    help: 'the commit --base-build was built from (recorded in the manifest)',
  },
  { name: 'baseline-url', value: 'U', help: 'use a running baseline at U instead of starting OpenSearch' },
  {
    name: 'baseline-nodes',
    value: 'N',
    setting: 'baselineNodes',
    // A single node is the absence of a cluster: nothing to pass (and it keeps the command of a
    // --baseline-url run valid, which this flag cannot be combined with).
    toArgs: (v) => (typeof v === 'number' && v > 1 ? ['--baseline-nodes', String(v)] : undefined),
    help: `start the baseline as an N-node OpenSearch cluster on this machine (default ${d.baselineNodes}:
one node). One JVM per node, 1 GiB heap each (as the single node), its own data folder and
free ports on 127.0.0.1. The benchmark index gets N shards (one per node) and no replicas;
every request goes to the first node; CPU and memory sum every node's process (/proc);
forks restart every node on its data. The kNN index stays one shard. A cluster run is its
own comparable set, never compared with single-node runs`,
  },
  { name: 'out', value: 'DIR', help: 'where run folders and history.duckdb go (default <repo>/scorecards)' },
  {
    name: 'cost-curve-with',
    value: 'DIR[,DIR...]',
    help: `earlier complete runs of the same corpus and seed at smaller sizes (their run folders),
put before this run's passes in the cost curve: a size too long to re-run in one pass set
(--docs 10m) joins the curve of a published 100k,1m set`,
  },
  {
    name: 'verdicts-exit-zero',
    help: `exit 0 once the run completed, whatever its verdicts (the root \`npm run bench\` passes it:
a LOSE is read in the run's last lines, not in npm's error block); a failed run still exits 2.
Scripts and the gate leave it out and get 1 (LOSE), 3 (coverage) and 4 (regression)`,
  },
  { name: 'help', short: 'h', help: 'this text' },
];

/** Settings the manifest records that no flag sets: fixed by the code at the run's revision. */
const FIXED_BY_CODE = new Set(
  Object.keys(DEFAULT_SETTINGS).filter((k) => !BENCH_FLAGS.some((f) => f.setting === k)),
);

export interface Reproduction {
  /** Shell lines, in order: check out the revision, install, run with the recorded flags. */
  lines: string[];
  /** What the command cannot bring back exactly (engines given by URL, a dirty tree, ...). */
  caveats: string[];
  /** Recorded settings without a flag (fixed by the code at that revision). */
  fixedSettings: string[];
}

/** The command that recreates a published run from its manifest (revision and recorded settings). */
export function reproduceCommand(manifest: {
  gitRevision: string;
  settings: Record<string, unknown>;
  candidate?: { startedByHarness?: boolean };
  baseline?: { startedByHarness?: boolean };
}): Reproduction {
  const { settings } = manifest;
  const flags = flagsForSettings(BENCH_FLAGS, settings);
  const caveats: string[] = [];
  if (settings.gitDirty === true)
    caveats.push(
      'the run was made from a working tree with uncommitted changes: its revision alone does not reproduce it',
    );
  for (const role of ['candidate', 'baseline'] as const)
    if (manifest[role]?.startedByHarness === false)
      caveats.push(`the ${role} was given by URL (--${role}-url): point the command at the same engine`);
  return {
    lines: [
      `git checkout ${manifest.gitRevision}`,
      `npm install && npm run bench${flags.length > 0 ? ` -- ${flags.map(shellWord).join(' ')}` : ''}`,
    ],
    caveats,
    fixedSettings: [...FIXED_BY_CODE].filter((k) => k in settings),
  };
}
