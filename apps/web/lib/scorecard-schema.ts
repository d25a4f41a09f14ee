/**
 * The scorecard contract (packages/harness/src/scorecard/schema.ts) as a runtime schema, so a
 * corrupt or hand-edited scorecard.json stops the site build instead of rendering half-way.
 * Objects are loose: a field the harness adds later passes through untouched, while every field
 * the site reads is checked. The type assertion at the bottom keeps this file in step with the
 * TypeScript contract: if the harness changes a type, typecheck fails here.
 */
import { z } from 'zod';
import type { Scorecard } from './definitions';

const count = z.number().int().nonnegative();
const finite = z.number();

const verdict = z.enum(['WIN', 'LOSE', 'TIE', 'N/A']);
const group = z.enum([
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
]);

const engine = z.looseObject({
  role: z.enum(['candidate', 'baseline']),
  product: z.string(),
  version: z.string(),
  url: z.string(),
  startedByHarness: z.boolean(),
});

const settingValue = z.union([z.string(), finite, z.boolean(), z.array(z.string())], {
  error: 'expected a string, number, boolean or list of strings',
});

const manifest = z.looseObject({
  machine: z.looseObject({
    cpuModel: z.string(),
    cores: count,
    memoryBytes: count,
    kernel: z.string(),
    platform: z.string(),
  }),
  node: z.string(),
  gitRevision: z.string(),
  candidate: engine,
  baseline: engine,
  corpus: z.looseObject({ name: z.string(), seed: finite, docs: count, contentHash: z.string() }),
  settings: z.record(z.string(), settingValue),
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
});

/**
 * A path inside the run folder: relative, no "..", no backslashes, so the build can copy it into
 * the export without ever reading outside the scorecards folder.
 */
const runRelativePath = z
  .string()
  .regex(
    /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[\w.\-/]+$/,
    'expected a path inside the run folder (no leading /, no .. or . segments)',
  );

const row = z.looseObject({
  id: z.string().min(1),
  group,
  family: z.string(),
  title: z.string(),
  unit: z.enum(['ms', 'docs/s', 'bytes', 'recall', 'req/s']),
  betterIs: z.enum(['lower', 'higher']),
  request: z.unknown().optional(),
  candidate: side,
  baseline: side,
  ratio: finite.optional(),
  ci: z.tuple([finite, finite]).optional(),
  verdict,
  reason: z.string(),
  mismatch: z.looseObject({ summary: z.string(), candidate: z.unknown(), baseline: z.unknown() }).optional(),
  signalChecks: count.optional(),
  rounds: count.optional(),
  remeasured: z.boolean().optional(),
  belowResolution: z.boolean().optional(),
  flaky: z.looseObject({ flips: count, runs: count }).optional(),
  diffPath: runRelativePath.optional(),
});

const sweepSide = z.looseObject({
  achievedRate: finite,
  p50: finite,
  p99: finite,
  // null when the point's sample count cannot support a p99.9 (the harness shows it only then).
  p999: finite.nullable(),
  errors: count,
  dropped: count,
});

export const scorecardSchema = z.looseObject({
  schemaVersion: z.literal(1),
  runId: z.string().min(1),
  createdAt: z.iso.datetime({ offset: true }),
  status: z.enum(['complete', 'partial', 'failed']),
  failure: z.string().optional(),
  durationMs: finite.nonnegative(),
  manifest,
  counts: z.looseObject({ WIN: count, LOSE: count, TIE: count, 'N/A': count }),
  rows: z.array(row),
  floor: z
    .looseObject({ rate: finite, p50: finite, p99: finite, sendLagP50: finite, sendLagP99: finite })
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
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
});

// Compile-time guard: what the schema accepts must be a Scorecard.
type Accepted = z.infer<typeof scorecardSchema>;
const _acceptedIsScorecard: (value: Accepted) => Scorecard = (value) => value;
void _acceptedIsScorecard;
