import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CORPORA, type CorpusSpec, corpusById } from '../corpus/corpora.js';
import { selectFamilies } from '../families/index.js';
import { selectMixed } from '../runner/mixed.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../runner/settings.js';
import { selectSweeps } from '../runner/sweep.js';
import { REPO_ROOT } from '../scorecard/manifest.js';

export interface BenchArgs {
  /** settings.docs is the first of `scales`. */
  settings: RunSettings;
  /**
   * Corpus sizes from --docs (a list runs one complete pass per size: its own engines, ingest,
   * rows, scorecard and history entry), in the order given, without duplicates.
   */
  scales: number[];
  out: string;
  candidateUrl?: string;
  baselineUrl?: string;
  help: boolean;
  /** Background write load of the mixed rows, docs/s; 0 leaves the mixed rows out. */
  mixedWriteRate: number;
  /** Latency-at-throughput sweeps: on unless --no-sweep (and only for selected throughput.* rows). */
  sweep: boolean;
  /** p99 bound a sweep point must stay under to count as sustained, ms. */
  sweepP99Ms: number;
}

export const DEFAULT_MIXED_WRITE_RATE = 2000;
export const DEFAULT_SWEEP_P99_MS = 50;

/** A bad flag: the CLI prints the message (which names the fix) and exits 2. */
export class UsageError extends Error {}

const d = DEFAULT_SETTINGS;
export const HELP = `usage: npm run bench -w packages/harness -- [flags]

Loads the same seeded corpus into the candidate (everycell) and the baseline (OpenSearch),
measures every row on both, and writes <out>/<run-id>/scorecard.json, SCORECARD.md and the
history database. Exit status: 0 no LOSE, 1 any LOSE, 2 the run failed, was interrupted or an
engine crashed (the run goes on after a crash, restarting the engine where it can), 3 coverage fell
against the previous complete run on the same corpus, size and --families.

  --docs N[,N...]     corpus size; accepts 20000, 100k, 1m (default ${d.docs}). A list (--docs 100k,1m)
                      runs one complete pass per size, in order, each with its own scorecard; the exit
                      status is the worst of the passes (2, then 1, then 3, then 0)
  --corpus ID         ${CORPORA.map((c) => c.id).join(' | ')} (default ${d.corpus}): the seeded LLM-telemetry corpus,
                      or WordNet 3.1's 117,791 real synsets with full-text rows (text.*); each has its own rows
  --knn               add the kNN rows (knn.latency, knn.recall@10) on a separate clustered-vector index
  --knn-docs N        vectors in that index (default ${d.knnDocs})
  --rate R            open-loop arrival rate per engine, requests/s (default ${d.rate})
  --iterations N      timed requests per engine per read row, split over the rounds (default ${d.iterations});
                      breadth rows (feature coverage) run a third of it and half of --prewarm
  --warmup N          untimed warmup requests per engine per round (default ${d.warmup})
  --prewarm N         untimed requests per engine per read row before any timing, so a JIT/JVM engine
                      is measured warm (default ${d.prewarm})
  --rounds N          rounds per row; engine order alternates each round (default ${d.rounds})
  --max-rounds N      budget for re-measuring a read row whose 95% interval straddles a verdict threshold:
                      two more rounds at a time, in either direction, up to N (default 3x --rounds)
  --families GLOBS    comma-separated globs over read-row ids, e.g. 'query.*,bucket.terms' (default '*');
                      ingest always runs because it loads the data; the same globs select the mixed
                      (mixed.*) and throughput (throughput.*) rows
  --mixed-write-rate N  docs/s re-indexed open loop (bulks of 100) while the mixed.* rows read
                      (default ${DEFAULT_MIXED_WRITE_RATE}; 0 leaves the mixed rows out)
  --no-mixed          skip the read-under-write rows (mixed.*, about 30 s each)
  --mixed             run them (the default) even when --families names no mixed.* row
  --no-sweep          skip the latency-at-throughput sweeps (throughput.* rows, about 40 s per family)
  --sweep             run them even when --families names no throughput.* row
  --sweep-p99-ms N    p99 bound of a sustained sweep rate, ms (default ${DEFAULT_SWEEP_P99_MS})
  --clients LIST      bulk client counts for ingest rows, e.g. 1,8 (default ${d.clients}); 1 is ingest.1-client
                      (the load itself), each other n is ingest.<n>-clients on a fresh index after the reads
  --seed N            corpus and request seed (default ${d.seed})
  --connections N     in-flight cap per engine; requests beyond it are dropped (default ${d.connections})
  --timeout-ms N      per-request bound in ms (default ${d.timeoutMs})
  --bulk-size N       documents per bulk request (default ${d.bulkSize})
  --margin X          tie margin as a fraction: WIN/LOSE need the ratio beyond 1 +/- X (default ${d.tieMargin})
  --max-send-lag-ms N read rows where the harness's own send lag p99 exceeds N ms on both engines are N/A
                      (default ${d.maxSendLagP99Ms})
  --aa                A/A calibration: a second OpenSearch process (~1.2 GB) stands in for the candidate,
                      so every WIN or LOSE is false; the summary counts them. Writes to <repo>/.runs/aa
                      unless --out is given, so A/A cards never reach the gate or the site
  --candidate-url U   use a running candidate at U instead of starting one
  --baseline-url U    use a running baseline at U instead of starting OpenSearch
  --out DIR           where run folders and history.duckdb go (default <repo>/scorecards)
  --help              this text

Rows measured once per engine (memory.rss, disk.store, ingest.<n>-clients) have no interval: WIN/LOSE
only beyond a ${d.singleMeasurementMargin * 100}% margin. memory.rss (VmRSS of each engine's process tree, from /proc;
N/A for a --*-url engine) and disk.store always run, after the reads.

${CORPORA.map((c) => `Read row ids (--corpus ${c.id}): ${c.families.map((f) => f.id).join(', ')}`).join('\n\n')}`;

function parseCount(flag: string, raw: string, min: number): number {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(raw.trim());
  const n = m
    ? Number(m[1]) * (m[2]?.toLowerCase() === 'k' ? 1e3 : m[2]?.toLowerCase() === 'm' ? 1e6 : 1)
    : Number.NaN;
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(
      `--${flag} must be a whole number >= ${min}, got "${raw}" (e.g. --${flag} ${min === 0 ? 0 : Math.max(min, 10)})`,
    );
  return n;
}

function parsePositive(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${flag} must be a number > 0, got "${raw}"`);
  return n;
}

function parseUrl(flag: string, raw: string): string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return url.origin;
  } catch {
    throw new UsageError(`--${flag} must be an http URL like http://127.0.0.1:9200, got "${raw}"`);
  }
}

export function parseBenchArgs(argv: string[]): BenchArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        docs: { type: 'string' },
        rate: { type: 'string' },
        iterations: { type: 'string' },
        warmup: { type: 'string' },
        prewarm: { type: 'string' },
        rounds: { type: 'string' },
        'max-rounds': { type: 'string' },
        families: { type: 'string' },
        corpus: { type: 'string' },
        knn: { type: 'boolean' },
        'knn-docs': { type: 'string' },
        'mixed-write-rate': { type: 'string' },
        mixed: { type: 'boolean' },
        'no-mixed': { type: 'boolean' },
        sweep: { type: 'boolean' },
        'no-sweep': { type: 'boolean' },
        'sweep-p99-ms': { type: 'string' },
        seed: { type: 'string' },
        clients: { type: 'string' },
        connections: { type: 'string' },
        'timeout-ms': { type: 'string' },
        'bulk-size': { type: 'string' },
        margin: { type: 'string' },
        'max-send-lag-ms': { type: 'string' },
        'candidate-url': { type: 'string' },
        'baseline-url': { type: 'string' },
        out: { type: 'string' },
        aa: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]}; run with --help for the flags`);
  }
  const s: RunSettings = { ...DEFAULT_SETTINGS };
  const str = (k: string) => values[k] as string | undefined;
  const scales =
    str('docs') === undefined
      ? [s.docs]
      : [...new Set((str('docs') as string).split(',').map((x) => parseCount('docs', x, 1)))];
  s.docs = scales[0] as number;
  if (str('rate') !== undefined) s.rate = parsePositive('rate', str('rate') as string);
  if (str('iterations') !== undefined)
    s.iterations = parseCount('iterations', str('iterations') as string, 1);
  if (str('warmup') !== undefined) s.warmup = parseCount('warmup', str('warmup') as string, 0);
  if (str('prewarm') !== undefined) s.prewarm = parseCount('prewarm', str('prewarm') as string, 0);
  if (str('rounds') !== undefined) s.rounds = parseCount('rounds', str('rounds') as string, 1);
  if (str('seed') !== undefined) s.seed = parseCount('seed', str('seed') as string, 0);
  if (str('connections') !== undefined)
    s.connections = parseCount('connections', str('connections') as string, 1);
  if (str('timeout-ms') !== undefined) s.timeoutMs = parseCount('timeout-ms', str('timeout-ms') as string, 1);
  if (str('bulk-size') !== undefined) s.bulkSize = parseCount('bulk-size', str('bulk-size') as string, 1);
  if (str('max-send-lag-ms') !== undefined)
    s.maxSendLagP99Ms = parsePositive('max-send-lag-ms', str('max-send-lag-ms') as string);
  if (str('margin') !== undefined) {
    const m = Number(str('margin'));
    if (!(m >= 0 && m < 1))
      throw new UsageError(
        `--margin must be a fraction in [0, 1), got "${str('margin')}" (e.g. --margin 0.05)`,
      );
    s.tieMargin = m;
  }
  let corpus: CorpusSpec;
  try {
    corpus = corpusById(str('corpus') ?? d.corpus);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  s.corpus = corpus.id;
  for (const docs of scales) {
    if (corpus.maxDocs !== undefined && docs > corpus.maxDocs)
      throw new UsageError(
        `the ${corpus.id} corpus has ${corpus.maxDocs} documents: use --docs ${corpus.maxDocs} or fewer`,
      );
  }
  if (values.knn === true) s.knn = true;
  if (str('knn-docs') !== undefined) s.knnDocs = parseCount('knn-docs', str('knn-docs') as string, 100);
  if (str('families') !== undefined) {
    s.families = str('families') as string;
    // Mixed and throughput rows exist on the telemetry corpus only.
    const telemetry = corpus.id === 'llm-telemetry';
    const any =
      selectFamilies(s.families, corpus.families).length +
      (telemetry ? selectMixed(s.families).length + selectSweeps(s.families).length : 0);
    if (any === 0) {
      throw new UsageError(
        `--families "${s.families}" matches no row of the ${corpus.id} corpus; ids are ${corpus.families.map((f) => f.id).join(', ')}`,
      );
    }
  }
  if (str('clients') !== undefined) {
    const raw = str('clients') as string;
    const parts = raw.split(',').map((x) => x.trim());
    if (parts.length === 0 || parts.some((x) => !/^\d+$/.test(x) || Number(x) < 1 || Number(x) > 256))
      throw new UsageError(
        `--clients must be a comma-separated list of counts 1-256, got "${raw}" (e.g. --clients 1,8)`,
      );
    s.clients = parts.join(',');
  }
  if (s.iterations < s.rounds)
    throw new UsageError(`--iterations (${s.iterations}) must be at least --rounds (${s.rounds})`);
  s.maxRounds =
    str('max-rounds') === undefined ? 3 * s.rounds : parseCount('max-rounds', str('max-rounds') as string, 1);
  if (s.maxRounds < s.rounds)
    throw new UsageError(`--max-rounds (${s.maxRounds}) must be at least --rounds (${s.rounds})`);
  if (values.aa === true) {
    if (str('candidate-url') !== undefined)
      throw new UsageError('--aa starts its own second OpenSearch as the candidate; drop --candidate-url');
    s.aa = true;
  }
  const args: BenchArgs = {
    settings: s,
    scales,
    // npm runs workspace scripts in the package folder; a relative --out means the caller's folder.
    out:
      str('out') === undefined
        ? resolve(REPO_ROOT, s.aa ? '.runs/aa' : 'scorecards')
        : resolve(process.env.INIT_CWD ?? process.cwd(), str('out') as string),
    help: values.help === true,
    mixedWriteRate:
      str('mixed-write-rate') === undefined
        ? DEFAULT_MIXED_WRITE_RATE
        : parseCount('mixed-write-rate', str('mixed-write-rate') as string, 0),
    sweep: values['no-sweep'] !== true,
    sweepP99Ms:
      str('sweep-p99-ms') === undefined
        ? DEFAULT_SWEEP_P99_MS
        : parsePositive('sweep-p99-ms', str('sweep-p99-ms') as string),
  };
  if (values.mixed === true && values['no-mixed'] === true)
    throw new UsageError('--mixed and --no-mixed contradict each other: pass one');
  if (values['no-mixed'] === true) args.mixedWriteRate = 0;
  if (values.mixed === true && args.mixedWriteRate === 0)
    throw new UsageError('--mixed needs a write load: drop --mixed-write-rate 0 (or --mixed)');
  // --mixed adds the read-under-write rows to an explicit --families selection.
  if (values.mixed === true && selectMixed(s.families).length === 0) s.families += ',mixed.*';
  if (values.sweep === true && values['no-sweep'] === true)
    throw new UsageError('--sweep and --no-sweep contradict each other: pass one');
  // --sweep adds the throughput rows to an explicit --families selection.
  if (values.sweep === true && selectSweeps(s.families).length === 0) s.families += ',throughput.*';
  if (str('candidate-url') !== undefined)
    args.candidateUrl = parseUrl('candidate-url', str('candidate-url') as string);
  if (str('baseline-url') !== undefined)
    args.baselineUrl = parseUrl('baseline-url', str('baseline-url') as string);
  return args;
}
