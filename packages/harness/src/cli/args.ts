import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selectFamilies } from '../families/index.js';
import { type Workload, workloadById } from '../families/workloads.js';
import { selectMixed } from '../measure/mixed.js';
import { selectSweeps } from '../measure/sweep.js';
import { DEFAULT_SETTINGS, type RunSettings } from '../model/settings.js';
import { REPO_ROOT } from '../repo.js';
import { parseShard } from '../run/shard.js';
import type { Scorecard } from '../scorecard/schema.js';

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
  /** Exit 0 after a completed run whatever its verdicts (the root `npm run bench`). */
  verdictsExitZero: boolean;
  /** Things the CLI changed from what was asked, to print before the run (a capped --docs). */
  notes?: string[];
  /** The merge-base build to measure beside the candidate (the gate's regression check). */
  base?: { server: string; revision: string };
  /** Background write load of the mixed rows, docs/s; 0 leaves the mixed rows out. */
  mixedWriteRate: number;
  /** Latency-at-throughput sweeps: on unless --no-sweep (and only for selected throughput.* rows). */
  sweep: boolean;
  /** p99 bound a sweep point must stay under to count as sustained, ms. */
  sweepP99Ms: number;
  /** Earlier published runs at smaller sizes that open the cost curve (--cost-curve-with). */
  costCurveRuns: Scorecard[];
}

import { BENCH_FLAGS, DEFAULT_MIXED_WRITE_RATE, DEFAULT_SWEEP_P99_MS } from './benchFlags.js';
import { readCostCurveRuns } from './costCurveWith.js';
import { type FlagValues, parseCount, parseFlags, parsePositive, parseUrl, UsageError } from './flags.js';

export { HELP } from './help.js';

/**
 * More nodes than this would not fit beside the candidate: each node is a JVM with a pre-touched
 * 1 GiB heap (about 1.2 GiB resident), and every node shares the same cores.
 */
export const MAX_BASELINE_NODES = 8;
export { UsageError };

const d = DEFAULT_SETTINGS;

export function parseBenchArgs(argv: string[]): BenchArgs {
  const values = parseFlags(BENCH_FLAGS, argv);
  const s: RunSettings = { ...DEFAULT_SETTINGS };
  const str = (k: string) => values[k] as string | undefined;
  let capped: string | undefined;
  let scales =
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
  if (str('confidence') !== undefined) {
    const c = Number(str('confidence'));
    if (!(c >= 0.5 && c < 1))
      throw new UsageError(
        `--confidence must be a fraction in [0.5, 1), got "${str('confidence')}" (e.g. --confidence 0.99)`,
      );
    s.confidence = c;
  }
  if (str('margin') !== undefined) {
    const m = Number(str('margin'));
    if (!(m >= 0 && m < 1))
      throw new UsageError(
        `--margin must be a fraction in [0, 1), got "${str('margin')}" (e.g. --margin 0.05)`,
      );
    s.tieMargin = m;
  }
  let workload: Workload;
  try {
    workload = workloadById(str('corpus') ?? d.corpus);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { corpus } = workload;
  s.corpus = corpus.id;
  // A real corpus has as many documents as it has: a larger --docs runs at its real size (and
  // says so), never padded with copies.
  const max = corpus.maxDocs;
  if (max !== undefined && scales.some((n) => n > max)) {
    capped = `the ${corpus.id} corpus has ${max.toLocaleString('en-US')} documents: running at its real size instead of --docs ${scales.filter((n) => n > max).join(', ')}`;
    scales = [...new Set(scales.map((n) => Math.min(n, max)))];
    s.docs = scales[0] as number;
  }
  if (values.knn === true) s.knn = true;
  if (str('knn-docs') !== undefined) s.knnDocs = parseCount('knn-docs', str('knn-docs') as string, 100);
  if (str('families') !== undefined) {
    s.families = str('families') as string;
    // Mixed and throughput rows exist on the telemetry corpus only.
    const telemetry = corpus.id === 'llm-telemetry';
    const any =
      selectFamilies(s.families, workload.families).length +
      (telemetry ? selectMixed(s.families).length + selectSweeps(s.families).length : 0);
    if (any === 0) {
      throw new UsageError(
        `--families "${s.families}" matches no row of the ${corpus.id} corpus; ids are ${workload.families.map((f) => f.id).join(', ')}`,
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
  if (str('forks') !== undefined) s.forks = parseCount('forks', str('forks') as string, 1);
  s.maxForks =
    str('max-forks') === undefined
      ? Math.max(s.forks, d.maxForks - d.forks + s.forks)
      : parseCount('max-forks', str('max-forks') as string, 1);
  if (s.maxForks < s.forks)
    throw new UsageError(`--max-forks (${s.maxForks}) must be at least --forks (${s.forks})`);
  if (s.iterations < s.forks * s.rounds)
    throw new UsageError(
      `--iterations (${s.iterations}) must be at least --forks x --rounds (${s.forks * s.rounds}): one timed request per round`,
    );
  if (str('aa') !== undefined) {
    const engine = str('aa');
    if (engine !== 'baseline' && engine !== 'candidate')
      throw new UsageError(
        `--aa takes the engine to run against itself: --aa baseline or --aa candidate, got "${engine}"`,
      );
    if (engine === 'baseline' && str('candidate-url') !== undefined)
      throw new UsageError(
        '--aa baseline starts its own second OpenSearch as the candidate; drop --candidate-url',
      );
    if (engine === 'candidate' && str('baseline-url') !== undefined)
      throw new UsageError(
        '--aa candidate starts its own second candidate as the baseline; drop --baseline-url',
      );
    s.aa = engine;
  }
  if (str('baseline-nodes') !== undefined) s.baselineNodes = parseBaselineNodes(values);
  if (str('shard') !== undefined) {
    const shard = parseShard(str('shard') as string);
    if (typeof shard === 'string') throw new UsageError(shard);
    if (scales.length > 1)
      throw new UsageError('--shard splits one matrix: pass one --docs size with it (one run per size)');
    if (s.aa) throw new UsageError('--shard splits a comparison; an A/A calibration runs whole: drop one');
    s.shard = `${shard.index}/${shard.count}`;
  }
  const args: BenchArgs = {
    settings: s,
    scales,
    // npm runs workspace scripts in the package folder; a relative --out means the caller's folder.
    out:
      str('out') === undefined
        ? resolve(REPO_ROOT, s.aa ? '.runs/aa' : s.shard ? '.runs/shards' : 'scorecards')
        : resolve(process.env.INIT_CWD ?? process.cwd(), str('out') as string),
    help: values.help === true,
    verdictsExitZero: values['verdicts-exit-zero'] === true,
    ...(capped ? { notes: [capped] } : {}),
    mixedWriteRate:
      str('mixed-write-rate') === undefined
        ? DEFAULT_MIXED_WRITE_RATE
        : parseCount('mixed-write-rate', str('mixed-write-rate') as string, 0),
    sweep: values['no-sweep'] !== true,
    sweepP99Ms:
      str('sweep-p99-ms') === undefined
        ? DEFAULT_SWEEP_P99_MS
        : parsePositive('sweep-p99-ms', str('sweep-p99-ms') as string),
    costCurveRuns:
      str('cost-curve-with') === undefined
        ? []
        : readCostCurveRuns(
            str('cost-curve-with') as string,
            corpus.name,
            s.seed,
            scales,
            process.env.INIT_CWD ?? process.cwd(),
          ),
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
  if ((str('base-build') === undefined) !== (str('base-revision') === undefined))
    throw new UsageError('--base-build and --base-revision go together: pass both, or neither');
  if (str('base-build') !== undefined) {
    const dir = resolve(process.env.INIT_CWD ?? process.cwd(), str('base-build') as string);
    const server = join(dir, 'dist', 'server.js');
    if (!existsSync(server))
      throw new UsageError(
        `--base-build ${dir} has no dist/server.js: build it (npm run build -w packages/engine-napi there)`,
      );
    args.base = { server, revision: str('base-revision') as string };
  }
  if (str('candidate-url') !== undefined)
    args.candidateUrl = parseUrl('candidate-url', str('candidate-url') as string);
  if (str('baseline-url') !== undefined)
    args.baselineUrl = parseUrl('baseline-url', str('baseline-url') as string);
  return args;
}

/** --baseline-nodes: a node count for a cluster the harness starts itself. */
function parseBaselineNodes(values: FlagValues): number {
  const raw = String(values['baseline-nodes']);
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!(n >= 1 && n <= MAX_BASELINE_NODES))
    throw new UsageError(
      `--baseline-nodes must be a whole number 1-${MAX_BASELINE_NODES}, got "${raw}" (e.g. --baseline-nodes 3)`,
    );
  if (values['baseline-url'] !== undefined)
    throw new UsageError(
      '--baseline-nodes starts its own OpenSearch nodes and --baseline-url uses a running baseline: drop one of them',
    );
  if (values.aa !== undefined)
    throw new UsageError(
      '--aa compares one single-node engine with a twin of itself: drop --baseline-nodes for an A/A run',
    );
  return n;
}
