/**
 * The scorecard contract (schema.ts) at run time: a corrupt, hand-edited or foreign
 * scorecard.json is refused with every problem named by file and field, e.g.
 * `scorecards/X/scorecard.json: rows[3].ratio: expected a number, got "fast"`.
 *
 * Reads schema 1 and 2 (2 only adds optional fields). Objects are loose: a field a later harness
 * adds passes through untouched, while every field a reader uses is checked. The type assertion at
 * the bottom keeps this file in step with schema.ts: if a type there changes, typecheck fails here.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { floorSplit, waterfall } from './latencyParts.js';
import type { Scorecard, Verdict } from './schema.js';
import { conformanceSchema as conformance, restSuiteSchema as restSuite } from './summarySchemas.js';

// The site reads both summaries through this module's export.
export { conformanceSchema, restSuiteSchema } from './summarySchemas.js';

/** Every schema version this file reads. */
export const READABLE_SCHEMA_VERSIONS = [1, 2] as const;

/** A scorecard as stored: any readable version (version 1 files lack the optional fields of 2). */
export type StoredScorecard = Omit<Scorecard, 'schemaVersion'> & {
  schemaVersion: (typeof READABLE_SCHEMA_VERSIONS)[number];
};

const count = z.number().int().nonnegative();
const finite = z.number();
const interval = z.tuple([finite, finite]);
const VERDICTS = ['WIN', 'LOSE', 'TIE', 'N/A'] as const;

const engine = z.looseObject({
  role: z.enum(['candidate', 'baseline']),
  product: z.string(),
  version: z.string(),
  url: z.string(),
  startedByHarness: z.boolean(),
  topology: z
    .looseObject({ nodes: count, shards: count, replicas: count, heapMbPerNode: count.optional() })
    .optional(),
});

const settingValue = z.union([z.string(), finite, z.boolean(), z.array(z.string())], {
  error: 'expected a string, number, boolean or list of strings',
});

const machine = z.looseObject({
  cpuModel: z.string(),
  cores: count,
  memoryBytes: count,
  kernel: z.string(),
  platform: z.string(),
});

const floor = z.looseObject({
  rate: finite,
  p50: finite,
  p99: finite,
  sendLagP50: finite,
  sendLagP99: finite,
  split: z.looseObject({ p50: floorSplit, p99: floorSplit }).optional(),
  runQueueWaitMs: z.looseObject({ harness: finite.optional(), server: finite.optional() }).optional(),
});

const manifest = z.looseObject({
  machine,
  node: z.string(),
  gitRevision: z.string(),
  candidate: engine,
  baseline: engine,
  corpus: z.looseObject({ name: z.string(), seed: finite, docs: count, contentHash: z.string() }),
  settings: z.record(z.string(), settingValue),
  design: z
    .looseObject({
      forks: count,
      roundsPerFork: count,
      requestsPerRound: count,
      basis: z.string(),
      othersFrozen: z.boolean().optional(),
    })
    .optional(),
  placement: z
    .looseObject({ harnessCpus: z.string().optional(), engineCpus: z.string().optional(), note: z.string() })
    .optional(),
  phases: z
    .array(
      z.looseObject({
        kind: z.string(),
        label: z.string(),
        startMs: finite.nonnegative(),
        ms: finite.nonnegative(),
        units: count.optional(),
        forecast: count.optional(),
      }),
    )
    .optional(),
  shard: z
    .looseObject({ index: count, count: count, assignment: z.record(z.string(), count) })
    .refine((s) => s.index >= 1 && s.index <= s.count, 'shard index must be within 1..count')
    .optional(),
  shards: z
    .array(
      z.looseObject({
        index: count,
        runId: z.string().min(1),
        createdAt: z.iso.datetime({ offset: true }),
        durationMs: finite.nonnegative(),
        status: z.enum(['complete', 'partial', 'failed']),
        failure: z.string().optional(),
        machine,
        node: z.string(),
        floor: floor.optional(),
        rows: count,
      }),
    )
    .optional(),
});

const memory = z.looseObject({
  rssBytes: count,
  hwmBytes: count.optional(),
  source: z.literal('nodes-stats').optional(),
  field: z.string().optional(),
  lowerBound: z.boolean().optional(),
  nodes: z.array(z.looseObject({ name: z.string(), bytes: count })).optional(),
  rssAnonBytes: count.optional(),
  rssFileBytes: count.optional(),
  rssShmemBytes: count.optional(),
  processes: z.array(z.looseObject({ pid: count, name: z.string(), rssBytes: count, hwmBytes: count })),
  jvmHeap: z.string().optional(),
});

/** One engine's measurement of a row; ECDF and timeline lists must line up entry for entry. */
const side = z.looseObject({
  supported: z.boolean(),
  error: z.string().optional(),
  samples: count,
  errors: count,
  dropped: count.optional(),
  sendLagP99: finite.optional(),
  p50: finite.optional(),
  p99: finite.optional(),
  serviceP50: finite.optional(),
  achievedRate: finite.optional(),
  value: finite.optional(),
  p999: finite.optional(),
  collapsed: z.boolean().optional(),
  saturated: z.boolean().optional(),
  saturationReason: z.string().optional(),
  cache: z.looseObject({ repeatedP50: finite, variedP50: finite, suspected: z.boolean() }).optional(),
  ecdf: z
    .looseObject({ q: z.array(finite), ms: z.array(finite) })
    .refine((e) => e.q.length === e.ms.length, 'q and ms must have the same length')
    .optional(),
  hdr: z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'expected a base64 HDR histogram')
    .optional(),
  timeline: z
    .looseObject({
      binMs: finite.positive(),
      p50: z.array(finite),
      p99: z.array(finite),
      count: z.array(count),
    })
    .refine(
      (t) => t.p50.length === t.count.length && t.p99.length === t.count.length,
      'p50, p99 and count must have the same length',
    )
    .optional(),
  writeLoad: z
    .looseObject({
      offeredDocsPerSec: finite,
      ackedDocsPerSec: finite,
      failedBulks: count,
      droppedBulks: count,
    })
    .optional(),
  memory: memory.optional(),
  cpuMsPerRequest: finite.nonnegative().optional(),
  cpuSource: z.enum(['proc-schedstat', 'nodes-stats']).optional(),
  idleCpuMsPerSecond: finite.nonnegative().optional(),
  waterfall: z.looseObject({ p50: waterfall, p99: waterfall }).optional(),
});

/**
 * A path inside the run folder: relative, no "..", no backslashes, so a reader can copy it
 * without ever reading outside the scorecards folder.
 */
const runRelativePath = z
  .string()
  .regex(
    /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[\w.\-/]+$/,
    'expected a path inside the run folder (no leading /, no .. or . segments)',
  );

const row = z.looseObject({
  id: z.string().min(1),
  group: z.enum([
    'ingest',
    'query',
    'metric',
    'bucket',
    'pipeline',
    'feature',
    'mixed',
    'knn',
    'throughput',
    'disk',
    'memory',
  ]),
  family: z.string(),
  title: z.string(),
  unit: z.enum(['ms', 'docs/s', 'bytes', 'recall', 'req/s']),
  betterIs: z.enum(['lower', 'higher']),
  request: z.unknown().optional(),
  candidate: side,
  baseline: side,
  ratio: finite.optional(),
  ci: interval.optional(),
  roundRatios: z.array(finite).optional(),
  verdict: z.enum(VERDICTS),
  reason: z.string(),
  mismatch: z.looseObject({ summary: z.string(), candidate: z.unknown(), baseline: z.unknown() }).optional(),
  signalChecks: count.optional(),
  rounds: count.optional(),
  remeasured: z.boolean().optional(),
  belowResolution: z.boolean().optional(),
  flaky: z.looseObject({ flips: count, runs: count }).optional(),
  diffPath: runRelativePath.optional(),
  cpuRatio: finite.optional(),
  cpuCi: interval.optional(),
  forks: count.optional(),
  shard: count.optional(),
  shrunk: z
    .looseObject({
      path: runRelativePath.optional(),
      requestTests: count.optional(),
      documentTests: count.optional(),
      documentsBefore: count.optional(),
      documents: count.optional(),
      skipped: z.string().optional(),
    })
    .optional(),
  belowFloorP99: z.boolean().optional(),
  versusBase: z
    .looseObject({
      baseRevision: z.string(),
      ratio: finite.optional(),
      ci: interval.optional(),
      cpuRatio: finite.optional(),
      cpuCi: interval.optional(),
      verdict: z.enum(['REGRESSED', 'IMPROVED', 'SAME', 'N/A']),
      blocking: z.boolean().optional(),
      reason: z.string(),
    })
    .optional(),
});

const sweepSide = z
  .looseObject({
    achievedRate: finite,
    // null on a rate the engine was not offered (skipped: past its knee).
    p50: finite.nullable(),
    p99: finite.nullable(),
    // null where the point's sample count cannot support a p99.9.
    p999: finite.nullable(),
    errors: count,
    dropped: count,
    skipped: z.boolean().optional(),
  })
  .refine((side) => side.skipped === true || (side.p50 !== null && side.p99 !== null), {
    message: 'p50 and p99 are numbers on a rate the engine was offered (null only when skipped)',
    path: ['p50'],
  });

export const scorecardSchema = z.looseObject({
  schemaVersion: z.union([z.literal(1), z.literal(2)]),
  runId: z.string().min(1),
  createdAt: z.iso.datetime({ offset: true }),
  status: z.enum(['complete', 'partial', 'failed']),
  failure: z.string().optional(),
  durationMs: finite.nonnegative(),
  manifest,
  counts: z.looseObject({ WIN: count, LOSE: count, TIE: count, 'N/A': count }),
  rows: z.array(row),
  floor: floor.optional(),
  versusBaseOverall: z
    .looseObject({
      baseRevision: z.string(),
      rows: count,
      cpuMedian: finite,
      cpuCi: interval,
      verdict: z.enum(['REGRESSED', 'IMPROVED', 'SAME', 'N/A']),
      reason: z.string(),
    })
    .optional(),
  coverage: z
    .looseObject({
      previousRunId: z.string(),
      previousNA: count,
      na: count,
      missingRows: z.array(z.string()),
      fell: z.boolean(),
    })
    .optional(),
  sweeps: z
    .array(
      z.looseObject({
        family: z.string(),
        rowId: z.string(),
        p99BoundMs: finite,
        closedLoopCapacity: z.looseObject({ candidate: finite, baseline: finite }),
        points: z.array(z.looseObject({ offeredRate: finite, candidate: sweepSide, baseline: sweepSide })),
      }),
    )
    .optional(),
  conformance: conformance.optional(),
  restSuite: restSuite.optional(),
  costCurve: z
    .looseObject({
      docs: z.array(count),
      runIds: z.array(z.string()),
      loads: z.array(z.looseObject({ rate: finite, iterations: count })).optional(),
      rows: z.array(
        z.looseObject({
          id: z.string(),
          candidateP50: z.array(finite.nullable()),
          baselineP50: z.array(finite.nullable()),
          candidateCpuMs: z.array(finite.nullable()),
          baselineCpuMs: z.array(finite.nullable()),
        }),
      ),
    })
    .optional(),
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
});

/** A file a reader refuses; `problems` holds one line per problem, the message all of them. */
export class ScorecardFileError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

type Path = readonly PropertyKey[];

/** `rows[3].ratio`, `counts["N/A"]`. */
export function formatPath(path: Path): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out || '(top level)';
}

/** What was actually found, short enough for one line. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}

function valueAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  tuple: 'a list',
};

function issueText(issue: z.core.$ZodIssue, input: unknown): string {
  const found = describeValue(valueAt(input, issue.path));
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${found}`;
    case 'invalid_value':
      return `expected ${issue.values
        .map((v) => JSON.stringify(v))
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}, got ${found}`;
    case 'too_small':
    case 'too_big':
    case 'invalid_format':
    case 'invalid_union':
    case 'custom':
      return `${issue.message}, got ${found}`;
    default:
      return issue.message;
  }
}

/** Verdict counts recomputed from the rows. */
function countVerdicts(rows: readonly { verdict: Verdict }[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { WIN: 0, LOSE: 0, TIE: 0, 'N/A': 0 };
  for (const r of rows) counts[r.verdict] += 1;
  return counts;
}

/**
 * Every problem of one parsed file, one line each (empty when the file is a readable scorecard).
 * `file` names it in the lines; `folder`, when given, is the run folder's name, which the harness
 * makes the run id.
 */
export function scorecardProblems(file: string, input: unknown, folder?: string): string[] {
  const at = (path: Path, text: string) => `${file}: ${formatPath(path)}: ${text}`;
  const version = valueAt(input, ['schemaVersion']);
  if (typeof version === 'number' && !(READABLE_SCHEMA_VERSIONS as readonly number[]).includes(version)) {
    // Another harness's file is not a corrupt one: say which side to update, not every field.
    return [
      at(
        ['schemaVersion'],
        `version ${version} is not one this reader knows (${READABLE_SCHEMA_VERSIONS.join(' or ')}): update @everycell/harness/validate`,
      ),
    ];
  }
  const result = scorecardSchema.safeParse(input);
  if (!result.success) return result.error.issues.map((issue) => at(issue.path, issueText(issue, input)));
  const card = input as StoredScorecard;
  const problems: string[] = [];
  if (folder !== undefined && card.runId !== folder) {
    problems.push(at(['runId'], `"${card.runId}" is not the name of its folder "${folder}"`));
  }
  const seen = new Map<string, number>();
  card.rows.forEach((r, index) => {
    const first = seen.get(r.id);
    if (first !== undefined) problems.push(at(['rows', index, 'id'], `"${r.id}" repeats rows[${first}].id`));
    else seen.set(r.id, index);
  });
  // Readers show counts recomputed from the rows; stored counts that differ mean the file was edited.
  const counted = countVerdicts(card.rows);
  for (const verdict of VERDICTS) {
    if (counted[verdict] !== card.counts[verdict]) {
      problems.push(
        at(
          ['counts', verdict],
          `${card.counts[verdict]} does not match the ${counted[verdict]} ${verdict} rows in the file`,
        ),
      );
    }
  }
  return problems;
}

/** The file's scorecard, or a ScorecardFileError listing every problem. */
export function parseScorecard(file: string, input: unknown, folder?: string): StoredScorecard {
  const problems = scorecardProblems(file, input, folder);
  if (problems.length > 0) throw new ScorecardFileError(problems);
  // The parsed copy drops nothing (objects are loose), so keep the file's own object.
  return input as StoredScorecard;
}

/**
 * Reads and checks one scorecard.json. `shown` names it in problems (e.g. relative to the
 * repository); `folder` is its run folder's name.
 */
export function readScorecardFile(path: string, shown = path, folder?: string): StoredScorecard {
  let input: unknown;
  try {
    input = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ScorecardFileError([
      `${shown}: not valid JSON (${(error as Error).message}): re-run the benchmark or delete the run folder`,
    ]);
  }
  return parseScorecard(shown, input, folder);
}

// Compile-time guard: what the schema accepts must be a stored scorecard.
type Accepted = z.infer<typeof scorecardSchema>;
const acceptedIsScorecard: (value: Accepted) => StoredScorecard = (value) => value;
void acceptedIsScorecard;
