/**
 * The two conformance summaries a scorecard carries, checked at run time (validate.ts uses them
 * inside the card; each is also read on its own from its results file).
 */
import { z } from 'zod';

const count = z.number().int().nonnegative();

const conformance = z.looseObject({
  measuredAt: z.string(),
  baseline: z.string(),
  cases: count,
  baselinePass: count,
  candidatePass: count,
  areas: z.array(
    z.looseObject({ area: z.string(), cases: count, baselinePass: count, candidatePass: count }),
  ),
  differences: z.array(z.looseObject({ area: z.string(), name: z.string(), reason: z.string() })),
});

/** The engine conformance summary on its own (packages/engine-napi/conformance/results.json). */
export const conformanceSchema = conformance;

const restSuite = z.looseObject({
  suite: z.string(),
  measuredAt: z.string(),
  baseline: z.string(),
  tests: count,
  skipped: count,
  excluded: z.array(z.looseObject({ apis: z.array(z.string()), reason: z.string(), tests: count })),
  baselinePass: count,
  candidatePass: count,
  candidateOnly: count,
  byApi: z.array(
    z.looseObject({
      api: z.string(),
      tests: count,
      skipped: count,
      excluded: count,
      baselinePass: count,
      candidatePass: count,
      candidateOnly: count,
    }),
  ),
});

/** Elasticsearch's REST suite summary on its own (packages/harness/restsuite/results.json's `summary`). */
export const restSuiteSchema = restSuite;
