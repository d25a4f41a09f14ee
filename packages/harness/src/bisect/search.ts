/** What one bisect step found: a build measured against the known-good build. */
export interface BisectStep {
  revision: string;
  verdict: 'REGRESSED' | 'IMPROVED' | 'SAME' | 'N/A';
  /** The figures behind it (latency and CPU ratios with intervals), or why there are none. */
  reason: string;
  /** True when the step was decided without measuring (the engine's sources equal a known end). */
  inferred?: boolean;
}

export interface BisectResult {
  /** The first commit (oldest first order) whose build regressed against the good one. */
  first?: BisectStep;
  /** Every step in the order it was taken. */
  steps: BisectStep[];
  /** Why no first commit was named (the bad end did not regress, ...). */
  note?: string;
}

/**
 * Binary search for the first regressed commit in `commits` (oldest first; commits[0] is the
 * known-good revision, the last the bad one). `test` measures one commit against the good build
 * with the harness's regression rule. The bad end is measured first: a range whose end does not
 * regress has no first regressed commit. `sameEngine(a, b)` lets a step be inferred without a
 * build when the engine's sources did not change between two commits.
 */
export async function bisect(
  commits: readonly string[],
  test: (revision: string) => Promise<BisectStep>,
  sameEngine: (a: string, b: string) => boolean = () => false,
): Promise<BisectResult> {
  const steps: BisectStep[] = [];
  if (commits.length < 2) return { steps, note: 'need a good and a bad revision, in that order' };
  const good = commits[0] as string;
  const bad = commits[commits.length - 1] as string;
  const badStep = await test(bad);
  steps.push(badStep);
  if (badStep.verdict !== 'REGRESSED')
    return {
      steps,
      note: `${bad.slice(0, 7)} does not regress against ${good.slice(0, 7)} (${badStep.verdict}): nothing to bisect`,
    };
  let lo = 0;
  let hi = commits.length - 1;
  let hiStep = badStep;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const revision = commits[mid] as string;
    let step: BisectStep;
    if (sameEngine(revision, commits[lo] as string))
      step = {
        revision,
        verdict: 'SAME',
        reason: `engine sources as at ${(commits[lo] as string).slice(0, 7)}`,
        inferred: true,
      };
    else if (sameEngine(revision, commits[hi] as string))
      step = {
        ...hiStep,
        revision,
        reason: `engine sources as at ${(commits[hi] as string).slice(0, 7)}`,
        inferred: true,
      };
    else step = await test(revision);
    steps.push(step);
    if (step.verdict === 'REGRESSED') {
      hi = mid;
      hiStep = step;
    } else lo = mid;
  }
  // The first regressed commit: where the engine first changed after the last good one.
  return { first: { ...hiStep, revision: commits[hi] as string }, steps };
}
