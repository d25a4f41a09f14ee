/**
 * A run's conformance, as the run recorded it: the scorecard carries the summary of each suite
 * committed at its revision, so a run page shows its own result and never a newer run's. Each
 * suite becomes one entry of the same shape (title, date, scale, passes, known differences), so a
 * second suite is one more entry here and the panel needs no change. Pure.
 */
import type { ConformanceSummary, RestSuiteSummary } from '@everycell/harness/schema';
import type { Scorecard } from './definitions';

export interface ConformanceDifference {
  area: string;
  name: string;
  reason: string;
}

export interface ConformanceView {
  /** Stable id of the suite, for tests and anchors. */
  id: string;
  title: string;
  /** What the suite checks, in one sentence. */
  about: string;
  /** ISO date the suite last ran against the baseline. */
  measuredAt: string;
  baseline: string;
  /** How many cases the suite holds (its scale). */
  cases: number;
  /** Cases the baseline passes: the expectations hold on the real server. */
  baselinePass: number;
  candidatePass: number;
  areas: { area: string; cases: number; candidatePass: number }[];
  /** Known, reasoned differences: counted in the cases, not in the passes. */
  differences: ConformanceDifference[];
  /** Where the figures come from: "this run" or a file of the repository. */
  source: string;
}

/** The engine's differential suite (packages/engine-napi/conformance/): request/expected pairs run on both engines. */
export function differentialView(summary: ConformanceSummary, source: string): ConformanceView {
  return {
    id: 'differential',
    title: 'Differential conformance suite',
    about:
      'Request and expected-response pairs, each run on both engines; an expectation counts only when the real baseline passes it.',
    measuredAt: summary.measuredAt,
    baseline: summary.baseline,
    cases: summary.cases,
    baselinePass: summary.baselinePass,
    candidatePass: summary.candidatePass,
    areas: summary.areas.map(({ area, cases, candidatePass }) => ({ area, cases, candidatePass })),
    differences: summary.differences.map(({ area, name, reason }) => ({ area, name, reason })),
    source,
  };
}

/** Every suite the run recorded; empty for a run from before the card carried conformance. */
export function runConformance(card: Pick<Scorecard, 'conformance'>): ConformanceView[] {
  return card.conformance ? [differentialView(card.conformance, 'this run')] : [];
}

/**
 * Elasticsearch's own REST API tests (`org.elasticsearch:rest-api-spec`) on both engines, as the
 * run's card recorded them (`restSuite`): the outside yardstick beside the project's own cases.
 * A test counts against the candidate only where the baseline passes it.
 */
export interface RestSuiteView {
  id: 'rest-suite';
  title: string;
  /** Maven coordinates of the suite. */
  suite: string;
  measuredAt: string;
  baseline: string;
  /** Every test section in the suite. */
  tests: number;
  skipped: number;
  /** Tests in API groups left out, with their reasons in `excluded`. */
  leftOut: number;
  baselinePass: number;
  candidatePass: number;
  /** Tests the candidate passes and the baseline fails (not counted in `candidatePass`). */
  candidateOnly: number;
  excluded: { apis: string[]; reason: string; tests: number }[];
  byApi: {
    api: string;
    tests: number;
    baselinePass: number;
    candidatePass: number;
    skipped: number;
    excluded: number;
  }[];
  /** Where the figures come from: "this run" or a file of the repository. */
  source: string;
}

export function restSuiteView(summary: RestSuiteSummary, source: string): RestSuiteView {
  return {
    id: 'rest-suite',
    title: "Elasticsearch's REST API tests",
    suite: summary.suite,
    measuredAt: summary.measuredAt,
    baseline: summary.baseline,
    tests: summary.tests,
    skipped: summary.skipped,
    leftOut: summary.excluded.reduce((sum, group) => sum + group.tests, 0),
    baselinePass: summary.baselinePass,
    candidatePass: summary.candidatePass,
    candidateOnly: summary.candidateOnly,
    excluded: summary.excluded.map(({ apis, reason, tests }) => ({ apis: [...apis], reason, tests })),
    byApi: summary.byApi.map(({ api, tests, baselinePass, candidatePass, skipped, excluded }) => ({
      api,
      tests,
      baselinePass,
      candidatePass,
      skipped,
      excluded,
    })),
    source,
  };
}

/** The REST suite the run recorded; undefined for a card from before cards carried it. */
export function runRestSuite(card: Pick<Scorecard, 'restSuite'>): RestSuiteView | undefined {
  return card.restSuite ? restSuiteView(card.restSuite, 'this run') : undefined;
}

/** "36.2%": the candidate's passes as a share of the baseline's; "no tests" when the baseline passes none. */
export function restSuiteShare(view: Pick<RestSuiteView, 'candidatePass' | 'baselinePass'>): string {
  return view.baselinePass === 0
    ? 'no tests'
    : `${((100 * view.candidatePass) / view.baselinePass).toFixed(1)}%`;
}
