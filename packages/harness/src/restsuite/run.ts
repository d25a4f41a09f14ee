/**
 * The suite over a set of engines: every test of every file on each engine in the same order,
 * the engine wiped after each test. Engines run side by side (each holds its own state); tests
 * on one engine run one at a time, as they share the cluster.
 */
import { type Outcome, runTest } from './execute.js';
import type { ApiSpecs } from './spec.js';
import { type Exclusion, exclusionOf } from './suite.js';
import type { TestFile } from './testFile.js';
import { wipe } from './wipe.js';

export type Side = 'baseline' | 'candidate';

export interface TestResult {
  /** `file::test name`, stable across runs. */
  id: string;
  api: string;
  /** The exclusion's first API pattern when the test's API is left out. */
  excluded?: string;
  outcomes: Partial<Record<Side, Outcome>>;
}

export interface EngineUnderTest {
  side: Side;
  url: string;
}

export const testId = (file: TestFile, name: string): string => `${file.path}::${name}`;

const TEST_TIMEOUT_MS = 180_000;

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface RunOptions {
  files: TestFile[];
  specs: ApiSpecs;
  exclusions: Exclusion[];
  engines: EngineUnderTest[];
  /** Also run excluded APIs' tests (their outcomes are shown, never counted). */
  runExcluded: boolean;
  onTest?: (side: Side, done: number, total: number, result: Outcome, id: string) => void;
}

export async function runSuite(opts: RunOptions): Promise<TestResult[]> {
  const results: TestResult[] = [];
  const work: { file: TestFile; name: string; result: TestResult }[] = [];
  for (const file of opts.files) {
    const excluded = exclusionOf(file.api, opts.exclusions)?.apis[0];
    for (const test of file.tests) {
      const result: TestResult = { id: testId(file, test.name), api: file.api, outcomes: {} };
      if (excluded) result.excluded = excluded;
      results.push(result);
      if (!excluded || opts.runExcluded) work.push({ file, name: test.name, result });
    }
  }
  await Promise.all(
    opts.engines.map(async ({ side, url }) => {
      await wipe(url);
      let done = 0;
      for (const { file, name, result } of work) {
        const test = file.tests.find((t) => t.name === name);
        if (!test) continue;
        let outcome: Outcome;
        try {
          outcome = await withTimeout(runTest(url, opts.specs, file, test), TEST_TIMEOUT_MS, result.id);
        } catch (error) {
          outcome = { verdict: 'fail', reason: (error as Error).message };
        }
        if (outcome.verdict !== 'skip') {
          const leftovers = await wipe(url);
          if (leftovers.length > 0 && outcome.verdict === 'pass')
            outcome = { verdict: 'pass', reason: `wipe after: ${leftovers.join('; ')}` };
        }
        result.outcomes[side] = outcome;
        done++;
        opts.onTest?.(side, done, work.length, outcome, result.id);
      }
    }),
  );
  return results;
}
