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
  /**
   * Tests the candidate is known to pass (the committed results): one that fails is run once
   * more after a wipe, so one timing hiccup on a shared machine does not read as a lost test.
   * A second pass is recorded as a pass whose reason keeps the first failure (`FLAKY_PREFIX`).
   */
  retryOnCandidate?: ReadonlySet<string>;
}

/** How a pass on the second attempt starts its reason; the gate lists these as flaky. */
export const FLAKY_PREFIX = 'passed on a second attempt; the first failed: ';

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
        const attempt = async (): Promise<Outcome> => {
          try {
            return await withTimeout(runTest(url, opts.specs, file, test), TEST_TIMEOUT_MS, result.id);
          } catch (error) {
            return { verdict: 'fail', reason: (error as Error).message };
          }
        };
        let outcome = await attempt();
        if (outcome.verdict === 'fail' && side === 'candidate' && opts.retryOnCandidate?.has(result.id)) {
          await wipe(url);
          const second = await attempt();
          if (second.verdict === 'pass')
            outcome = { verdict: 'pass', reason: `${FLAKY_PREFIX}${outcome.reason}` };
        }
        if (outcome.verdict !== 'skip') {
          const leftovers = await wipe(url);
          if (leftovers.length > 0 && outcome.verdict === 'pass')
            outcome = {
              verdict: 'pass',
              reason: [outcome.reason, `wipe after: ${leftovers.join('; ')}`].filter(Boolean).join('; '),
            };
        }
        result.outcomes[side] = outcome;
        done++;
        opts.onTest?.(side, done, work.length, outcome, result.id);
      }
    }),
  );
  return results;
}
