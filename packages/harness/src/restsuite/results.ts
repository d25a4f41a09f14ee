/**
 * What a run of the suite says, in the form committed beside the engine (`restsuite/results.json`,
 * `RESULTS.md`) and carried by scorecards: by API, how many tests ran, how many OpenSearch passed,
 * how many of those the candidate passed; every exclusion with its count; and the tests the
 * candidate passes, by id, so a later run can name each one it lost.
 */
import type { RestSuiteSummary } from '../scorecard/schema.js';
import type { TestResult } from './run.js';
import type { Exclusion } from './suite.js';

export interface RestSuiteResults {
  summary: RestSuiteSummary;
  /** Ids of the counted tests OpenSearch passes (what a candidate-only run is judged on). */
  baselinePasses: string[];
  /** Ids of the counted tests the candidate passes (the gate's floor). */
  candidatePasses: string[];
  /** Counted tests OpenSearch passes and the candidate fails, with the candidate's reason. */
  candidateFails: { id: string; reason: string }[];
}

interface Tally {
  api: string;
  tests: number;
  skipped: number;
  excluded: number;
  baselinePass: number;
  candidatePass: number;
  candidateOnly: number;
}

const newTally = (api: string): Tally => ({
  api,
  tests: 0,
  skipped: 0,
  excluded: 0,
  baselinePass: 0,
  candidatePass: 0,
  candidateOnly: 0,
});

/** A test counts where it ran on both engines and OpenSearch passed it (or the candidate alone did). */
export function summarise(
  results: TestResult[],
  exclusions: Exclusion[],
  meta: { measuredAt: string; baseline: string; suite: string },
): RestSuiteResults {
  const byApi = new Map<string, Tally>();
  const baselinePasses: string[] = [];
  const candidatePasses: string[] = [];
  const candidateFails: { id: string; reason: string }[] = [];
  for (const r of results) {
    const t = byApi.get(r.api) ?? newTally(r.api);
    byApi.set(r.api, t);
    t.tests++;
    if (r.excluded) {
      t.excluded++;
      continue;
    }
    const base = r.outcomes.baseline;
    const cand = r.outcomes.candidate;
    if (base?.verdict === 'skip' || cand?.verdict === 'skip') {
      t.skipped++;
      continue;
    }
    if (base?.verdict === 'pass') {
      t.baselinePass++;
      baselinePasses.push(r.id);
      if (cand?.verdict === 'pass') {
        t.candidatePass++;
        candidatePasses.push(r.id);
      } else candidateFails.push({ id: r.id, reason: (cand?.reason ?? 'not run').slice(0, 300) });
    } else if (cand?.verdict === 'pass') {
      t.candidateOnly++;
    }
  }
  const apis = [...byApi.values()].sort((a, b) => a.api.localeCompare(b.api));
  const sum = (key: keyof Omit<Tally, 'api'>): number => apis.reduce((n, t) => n + t[key], 0);
  const summary: RestSuiteSummary = {
    suite: meta.suite,
    measuredAt: meta.measuredAt,
    baseline: meta.baseline,
    tests: sum('tests'),
    skipped: sum('skipped'),
    excluded: exclusions.map((e) => ({
      apis: e.apis,
      reason: e.reason,
      tests: results.filter((r) => r.excluded !== undefined && e.apis.includes(r.excluded)).length,
    })),
    baselinePass: sum('baselinePass'),
    candidatePass: sum('candidatePass'),
    candidateOnly: sum('candidateOnly'),
    byApi: apis,
  };
  return {
    summary,
    baselinePasses: baselinePasses.sort(),
    candidatePasses: candidatePasses.sort(),
    candidateFails,
  };
}

const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

export function renderMarkdown(r: RestSuiteResults): string {
  const s = r.summary;
  const lines = [
    "# Elasticsearch's REST API tests: candidate against OpenSearch",
    '',
    `Suite: \`${s.suite}\` (fetched from Maven Central by \`npm run conformance\`; never copied here).`,
    `Measured ${s.measuredAt} against ${s.baseline}. A test counts against the candidate only where`,
    'OpenSearch passes it; skipped tests (a version range that excludes 7.10.2, or a runner',
    'feature not implemented) and left-out API groups are not counted, and their counts are shown.',
    '',
    `**The candidate passes ${s.candidatePass} of the ${s.baselinePass} tests OpenSearch passes (${pct(s.candidatePass, s.baselinePass)})**; ` +
      `it also passes ${s.candidateOnly} that OpenSearch fails. ${s.tests} tests in all, ${s.skipped} skipped, ` +
      `${s.excluded.reduce((n, e) => n + e.tests, 0)} left out.`,
    '',
    '## Left out, and why',
    '',
    '| APIs | tests | reason |',
    '| --- | --- | --- |',
    ...s.excluded.map((e) => `| ${e.apis.join(', ')} | ${e.tests} | ${e.reason} |`),
    '',
    '## By API',
    '',
    '| API | tests | skipped | left out | OpenSearch passes | candidate passes | share | candidate only |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...s.byApi.map(
      (t) =>
        `| ${t.api} | ${t.tests} | ${t.skipped} | ${t.excluded} | ${t.baselinePass} | ${t.candidatePass} | ${pct(t.candidatePass, t.baselinePass)} | ${t.candidateOnly} |`,
    ),
    '',
    `## Tests OpenSearch passes and the candidate fails (${r.candidateFails.length})`,
    '',
    ...r.candidateFails.map((f) => `- \`${f.id}\`: ${f.reason.replace(/\s+/g, ' ').replace(/\|/g, '\\|')}`),
    '',
  ];
  return lines.join('\n');
}

export interface Waiver {
  test: string;
  reason: string;
  /** ISO date after which the waiver no longer holds. */
  expires: string;
}

export interface FloorCheck {
  /** Tests the floor's candidate passed that this run's candidate does not (waived ones left out). */
  lost: string[];
  waived: { test: string; reason: string }[];
  gained: string[];
}

/** This run against a floor (the committed results, or another revision's). */
export function checkFloor(
  now: RestSuiteResults,
  floor: RestSuiteResults,
  waivers: Waiver[],
  today: string,
): FloorCheck {
  const passing = new Set(now.candidatePasses);
  const before = new Set(floor.candidatePasses);
  const valid = waivers.filter((w) => w.expires >= today);
  const lost: string[] = [];
  const waived: { test: string; reason: string }[] = [];
  for (const id of floor.candidatePasses) {
    if (passing.has(id)) continue;
    const w = valid.find((v) => v.test === id);
    if (w) waived.push({ test: id, reason: w.reason });
    else lost.push(id);
  }
  const gained = now.candidatePasses.filter((id) => !before.has(id));
  return { lost, waived, gained };
}
