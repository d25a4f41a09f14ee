/**
 * `npm run conformance`: Elasticsearch's REST API tests on the candidate and on OpenSearch.
 * Starts both engines (or uses running ones), runs every test on each, prints the table by API,
 * writes `restsuite/RESULTS.md` and `restsuite/results.json`, and exits 5 when the candidate
 * fails a test it passed at the floor (the committed results, or `--against REV`'s) that no
 * waiver in `restsuite/waivers.json` covers.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startCandidate } from '../engines/candidate.js';
import { freePort, startOpenSearch } from '../engines/opensearch.js';
import type { RunningEngine } from '../engines/types.js';
import { defaultBaseRevision } from '../gate/baseBuild.js';
import { REPO_ROOT } from '../repo.js';
import type { Outcome } from './execute.js';
import { ensureSuite, RESTSUITE_DIR, SUITE_VERSION } from './fetch.js';
import { checkFloor, type RestSuiteResults, renderMarkdown, summarise, type Waiver } from './results.js';
import { type EngineUnderTest, FLAKY_PREFIX, runSuite, type Side, type TestResult } from './run.js';
import { loadSpecs } from './spec.js';
import { loadExclusions, loadTestFiles } from './suite.js';

const RESULTS_JSON = join(RESTSUITE_DIR, 'results.json');
const RESULTS_MD = join(RESTSUITE_DIR, 'RESULTS.md');
const WAIVERS = join(RESTSUITE_DIR, 'waivers.json');
const RUNS = join(REPO_ROOT, '.runs', 'restsuite');
const LAST_REPORT = join(RUNS, 'last-report.json');
/** Exit status of a candidate that lost tests against the floor (the gate's 0-4 are taken). */
export const EXIT_LOST_TESTS = 5;

const HELP = `npm run conformance -- [options]

Runs Elasticsearch's REST API YAML tests (org.elasticsearch:rest-api-spec:${SUITE_VERSION}, fetched
with Maven) against the candidate and against OpenSearch, both started here unless given by URL.

  --candidate-url URL     use a running candidate instead of starting one
  --baseline-url URL      use a running OpenSearch instead of starting one
  --baseline-from FILE    take OpenSearch's outcomes from an earlier run's report (no baseline run)
  --candidate-only        run the candidate alone, judged on the committed results' OpenSearch
                          passes (what the test command and the gate do); writes nothing
  --only API[,API...]     only these API folders (a trailing * matches a prefix); writes nothing
  --run-excluded          also run the left-out APIs' tests (shown, never counted)
  --against REV           also hold the candidate to REV's committed results (merge-base: the
                          gate's base revision); the working tree's committed results always count
  --summary FILE          append a markdown summary (a CI job summary)
  --no-write              do not rewrite restsuite/RESULTS.md and results.json
  --report FILE           every outcome with its reason (default .runs/restsuite/last-report.json)
  --verbose               print every failing test as it fails
  -h, --help              this text

Exit: 0 no test lost, 5 the candidate fails a test it passed at the floor (waivers aside),
2 the run could not be made (an engine did not start, the suite could not be fetched).`;

interface Report {
  measuredAt: string;
  baseline: string;
  results: TestResult[];
}

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'candidate-url': { type: 'string' },
      'baseline-url': { type: 'string' },
      'baseline-from': { type: 'string' },
      'candidate-only': { type: 'boolean', default: false },
      summary: { type: 'string' },
      only: { type: 'string' },
      'run-excluded': { type: 'boolean', default: false },
      against: { type: 'string' },
      'no-write': { type: 'boolean', default: false },
      report: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    allowPositionals: false,
  });
  return values;
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** A floor: `rev`'s committed results (`merge-base`: the gate's base revision), or the working tree's. */
function floorAt(rev: string | undefined): RestSuiteResults | undefined {
  if (!rev) return readJson<RestSuiteResults>(RESULTS_JSON);
  const at = rev === 'merge-base' ? defaultBaseRevision() : rev;
  if (!at) return undefined;
  try {
    const text = execFileSync('git', ['show', `${at}:packages/harness/restsuite/results.json`], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(text) as RestSuiteResults;
  } catch {
    return undefined;
  }
}

const onlyMatches = (patterns: string[] | undefined, api: string): boolean =>
  !patterns || patterns.some((p) => (p.endsWith('*') ? api.startsWith(p.slice(0, -1)) : api === p));

async function startEngines(values: ReturnType<typeof parse>, stamp: string): Promise<RunningEngine[]> {
  const dir = join(RUNS, stamp);
  const started: RunningEngine[] = [];
  if (!values['candidate-url'])
    started.push(
      await startCandidate({
        dataDir: join(dir, 'candidate'),
        logFile: join(dir, 'candidate.log'),
        port: await freePort(),
      }),
    );
  if (!values['baseline-url'] && !values['baseline-from'] && !values['candidate-only'])
    started.push(
      await startOpenSearch({
        dataDir: join(dir, 'baseline'),
        logFile: join(dir, 'baseline.log'),
        port: await freePort(),
      }),
    );
  return started;
}

async function main(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>;
  try {
    values = parse(argv);
  } catch (error) {
    console.error(`conformance: ${(error as Error).message} (see --help)`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const only = values.only?.split(',').filter(Boolean);
  const write = !values['no-write'] && !only && !values['candidate-only'];
  const { apiDir, testDir } = await ensureSuite((line) => console.log(line));
  const specs = loadSpecs(apiDir);
  const exclusions = loadExclusions();
  const files = loadTestFiles(testDir).filter((f) => onlyMatches(only, f.api));
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, 'Z');
  const prior = values['baseline-from'] ? readJson<Report>(values['baseline-from']) : undefined;
  if (values['baseline-from'] && !prior) {
    console.error(`conformance: cannot read ${values['baseline-from']}; run once without --baseline-from`);
    return 2;
  }
  const committed = readJson<RestSuiteResults>(RESULTS_JSON);
  if (values['candidate-only'] && !committed) {
    console.error(
      `conformance: --candidate-only needs the committed ${RESULTS_JSON}; run npm run conformance once`,
    );
    return 2;
  }

  let started: RunningEngine[] = [];
  try {
    started = await startEngines(values, stamp);
  } catch (error) {
    for (const e of started) await e.stop();
    console.error(`conformance: an engine did not start: ${(error as Error).message}`);
    return 2;
  }
  const urlOf = (role: string): string | undefined => started.find((e) => e.role === role)?.url;
  const engines: EngineUnderTest[] = [];
  const candidateUrl = values['candidate-url'] ?? urlOf('candidate');
  const baselineUrl = values['baseline-url'] ?? urlOf('baseline');
  if (candidateUrl) engines.push({ side: 'candidate', url: candidateUrl });
  if (baselineUrl && !prior) engines.push({ side: 'baseline', url: baselineUrl });
  const baselineName =
    prior?.baseline ?? (started.find((e) => e.role === 'baseline')?.product || 'OpenSearch 2.19.1');

  const counts: Record<Side, Record<Outcome['verdict'], number>> = {
    baseline: { pass: 0, fail: 0, skip: 0 },
    candidate: { pass: 0, fail: 0, skip: 0 },
  };
  const startedAt = Date.now();
  let results: TestResult[];
  try {
    results = await runSuite({
      files,
      specs,
      exclusions,
      engines,
      runExcluded: values['run-excluded'] === true,
      retryOnCandidate: new Set(committed?.candidatePasses ?? []),
      onTest: (side, done, total, outcome, id) => {
        counts[side][outcome.verdict]++;
        if (values.verbose && outcome.verdict === 'fail')
          console.log(`  ${side} FAIL ${id}: ${outcome.reason}`);
        if (done % 100 === 0 || done === total) {
          const c = counts[side];
          console.log(
            `${side}: ${done}/${total} (pass ${c.pass}, fail ${c.fail}, skip ${c.skip}) ${((Date.now() - startedAt) / 1000).toFixed(0)} s`,
          );
        }
      },
    });
  } finally {
    for (const e of started) await e.stop();
  }
  if (prior) {
    const before = new Map(prior.results.map((r) => [r.id, r.outcomes.baseline]));
    for (const r of results) {
      const outcome = before.get(r.id);
      if (outcome) r.outcomes.baseline = outcome;
    }
  } else if (values['candidate-only'] && committed) adoptCommittedBaseline(results, committed);

  const measuredAt = new Date().toISOString().slice(0, 10);
  const reportFile = values.report ?? LAST_REPORT;
  mkdirSync(join(reportFile, '..'), { recursive: true });
  writeFileSync(
    reportFile,
    `${JSON.stringify({ measuredAt, baseline: baselineName, results } satisfies Report)}\n`,
  );
  const tallied = summarise(results, exclusions, {
    measuredAt,
    baseline: baselineName,
    suite: `org.elasticsearch:rest-api-spec:${SUITE_VERSION}`,
  });
  printTable(tallied);
  console.log(`report: ${reportFile} (${((Date.now() - startedAt) / 1000).toFixed(0)} s)`);

  const flaky = results.filter((r) => r.outcomes.candidate?.reason?.startsWith(FLAKY_PREFIX));
  for (const r of flaky) console.log(`flaky: ${r.id} ${r.outcomes.candidate?.reason ?? ''}`);
  if (only) return 0;
  const waivers = readJson<{ waivers: Waiver[] }>(WAIVERS)?.waivers ?? [];
  const floors: [string, RestSuiteResults | undefined][] = [['the committed results', committed]];
  if (values.against) floors.push([values.against, floorAt(values.against)]);
  let exit = 0;
  const lines: string[] = [];
  if (flaky.length > 0)
    lines.push(
      `- ${flaky.length} test(s) the candidate passed only on a second attempt: ${flaky.map((r) => `\`${r.id}\``).join(', ')}`,
    );
  for (const [name, floor] of floors) {
    if (!floor) {
      console.log(`no floor at ${name} (no results.json there)`);
      continue;
    }
    const check = checkFloor(tallied, floor, waivers, measuredAt);
    for (const w of check.waived) console.log(`waived: ${w.test} (${w.reason})`);
    if (check.gained.length > 0)
      console.log(`against ${name}: the candidate passes ${check.gained.length} more tests`);
    lines.push(
      `- against ${name}: ${check.lost.length} lost, ${check.waived.length} waived, ${check.gained.length} gained`,
    );
    if (check.lost.length > 0) {
      console.error(`conformance: the candidate fails ${check.lost.length} test(s) it passed at ${name}:`);
      for (const id of check.lost)
        console.error(`  ${id}: ${tallied.candidateFails.find((f) => f.id === id)?.reason ?? 'fails'}`);
      console.error(`fix the engine, or waive a test in ${WAIVERS} with a reason and an expiry date`);
      lines.push(...check.lost.map((id) => `  - lost \`${id}\``));
      exit = EXIT_LOST_TESTS;
    }
  }
  if (values.summary) appendFileSync(values.summary, `${summaryMarkdown(tallied, lines)}\n`);
  if (write) {
    writeFileSync(RESULTS_JSON, `${JSON.stringify(tallied, null, 2)}\n`);
    writeFileSync(RESULTS_MD, renderMarkdown(tallied));
    console.log(`wrote ${RESULTS_JSON} and ${RESULTS_MD}`);
  }
  return exit;
}

/** Baseline outcomes for a candidate-only run: OpenSearch passed what the committed results say. */
function adoptCommittedBaseline(results: TestResult[], committed: RestSuiteResults): void {
  const passed = new Set(committed.baselinePasses);
  for (const r of results) {
    const candidate = r.outcomes.candidate;
    if (!candidate || r.excluded) continue;
    // A skip is decided by the runner from the test alone, so it is the same on both engines.
    r.outcomes.baseline =
      candidate.verdict === 'skip' ? candidate : { verdict: passed.has(r.id) ? 'pass' : 'fail' };
  }
}

function summaryMarkdown(r: RestSuiteResults, floorLines: string[]): string {
  const s = r.summary;
  const share = s.baselinePass === 0 ? 0 : (100 * s.candidatePass) / s.baselinePass;
  return [
    "### Elasticsearch's REST API tests",
    '',
    `The candidate passes **${s.candidatePass} of the ${s.baselinePass}** tests ${s.baseline} passes (${share.toFixed(1)}%); ${s.excluded.reduce((n, e) => n + e.tests, 0)} tests left out by reasoned API groups.`,
    ...floorLines,
  ].join('\n');
}

function printTable(r: RestSuiteResults): void {
  const s = r.summary;
  const width = Math.max(...s.byApi.map((t) => t.api.length));
  console.log(`\n${'API'.padEnd(width)}  tests  skip  out  OpenSearch  candidate`);
  for (const t of s.byApi)
    console.log(
      `${t.api.padEnd(width)}  ${String(t.tests).padStart(5)}  ${String(t.skipped).padStart(4)}  ${String(t.excluded).padStart(3)}  ${String(t.baselinePass).padStart(10)}  ${String(t.candidatePass).padStart(9)}`,
    );
  const share = s.baselinePass === 0 ? 0 : (100 * s.candidatePass) / s.baselinePass;
  console.log(
    `\ncandidate passes ${s.candidatePass} of the ${s.baselinePass} tests OpenSearch passes (${share.toFixed(1)}%), and ${s.candidateOnly} it alone passes; ${s.tests} tests, ${s.skipped} skipped, ${s.excluded.reduce((n, e) => n + e.tests, 0)} left out`,
  );
  for (const e of s.excluded) console.log(`  left out: ${e.apis.join(', ')} (${e.tests} tests): ${e.reason}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${(error as Error).stack ?? String(error)}`);
    process.exit(2);
  },
);
