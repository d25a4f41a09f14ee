/**
 * `npm run calibrate -- --counts`: how far the count check (workcount/) can be trusted, with the
 * gate's own design (its corpus size, rows, requests per row and threshold):
 *   1. A/A: --aa-runs + 1 counts of this build on one index; each of runs 1..N is compared with
 *      run 0 as the gate compares two builds. Every flagged row, and every row that moved 1% or
 *      more, is false.
 *   2. Power on one row: the runner's test-only plant adds 3% of --plant-row's instructions per
 *      request (a loop inside the counted function, sized from the loop's measured cost per
 *      iteration); the gate's rule must find that row and no other.
 *   3. Power on a shared path: 20% more work on every row matching --shared-rows (default every
 *      aggregation row); every one of them must be found, and no other row.
 *   4. What it costs: the wall time of each step (the gate runs steps 1's pair: two counts at once).
 *   5. What the HTTP service path adds over the in-process call, on a few rows (--service-rows).
 * Writes scorecards/calibration/counts-<date>.json (not <date>*.json: those are the wall-clock
 * calibrations, a different shape, which the site reads).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { type Flag, parseCount, parseFlags, renderFlagHelp, type UsageError } from '../cli/flags.js';
import { corpusById } from '../corpus/corpora.js';
import { selectFamilies } from '../families/index.js';
import { workloadById } from '../families/workloads.js';
import { gitDirty, gitRevision, REPO_ROOT } from '../repo.js';
import { COUNT_THRESHOLD, compareCounts } from '../workcount/compare.js';
import { type CountSetup, countBuilds, DEFAULT_SIZES, prepareCount } from '../workcount/compareBuilds.js';
import { buildRunner } from '../workcount/runnerBuild.js';
import { measureServiceOverhead } from '../workcount/serviceOverhead.js';
import type { BuildCount } from '../workcount/types.js';
import { aaFinding, type PlantFinding, plantFinding, plantSpec } from './countsPlan.js';
import { measurePlantCost } from './plantCost.js';

export const COUNT_FLAGS: readonly Flag[] = [
  { name: 'counts', help: 'calibrate the count check (this mode)' },
  { name: 'docs', value: 'N', help: 'documents in the index (default 20000, the gate scale)' },
  { name: 'aa-runs', value: 'N', help: 'A/A comparisons, each a run against run 0 (default 20)' },
  { name: 'plant-row', value: 'ID', help: 'the row given 3% more work (default query.match)' },
  {
    name: 'shared-rows',
    value: 'GLOBS',
    help: 'the rows given 20% more work together (default metric.*,bucket.*)',
  },
  {
    name: 'service-rows',
    value: 'GLOBS',
    help: 'rows whose service path is measured against the in-process call\n(default query.term,query.match,metric.avg,bucket.terms,feature.mget; "" for none)',
  },
  { name: 'cache-sim', help: "also one count with callgrind's cache simulation (cycle estimate)" },
  { name: 'result', value: 'DIR', help: 'where the result goes (default scorecards/calibration)' },
  { name: 'help', short: 'h', help: 'this text' },
];

const HELP = `usage: npm run calibrate -- --counts [flags]

A/A comparisons of one build's instruction counts, a planted 3% on one row, a planted 20% on a
group of rows, the time each step takes, and the service path's cost over the in-process call.

${renderFlagHelp(COUNT_FLAGS)}`;

const SHARE_ONE_ROW = 0.03;
const SHARE_SHARED = 0.2;

const seconds = (ms: number) => Math.round(ms / 100) / 10;

export async function calibrateCounts(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parseFlags>;
  try {
    values = parseFlags(COUNT_FLAGS, argv);
  } catch (error) {
    console.error(`calibrate: ${(error as Error).message}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const str = (k: string, d: string) => (values[k] as string | undefined) ?? d;
  let docs: number;
  let aaRuns: number;
  try {
    docs = parseCount('docs', str('docs', '20000'), 100);
    aaRuns = parseCount('aa-runs', str('aa-runs', '20'), 1);
  } catch (error) {
    console.error(`calibrate: ${(error as UsageError).message}`);
    return 2;
  }
  const spec = corpusById('llm-telemetry');
  const families = workloadById(spec.id).families;
  const plantRow = str('plant-row', 'query.match');
  if (!families.some((f) => f.id === plantRow)) {
    console.error(`calibrate: --plant-row ${plantRow} is not a read row`);
    return 2;
  }
  const sharedRows = selectFamilies(str('shared-rows', 'metric.*,bucket.*'), families).map((f) => f.id);
  const serviceGlobs = str('service-rows', 'query.term,query.match,metric.avg,bucket.terms,feature.mget');
  const serviceFamilies = serviceGlobs.trim() === '' ? [] : selectFamilies(serviceGlobs, families);
  const resultDir = resolve(
    process.env.INIT_CWD ?? process.cwd(),
    str('result', join(REPO_ROOT, 'scorecards', 'calibration')),
  );
  const started = new Date();
  const log = (line: string) => console.log(`calibrate counts: ${line}`);
  const load = [loadavg()[0] as number];
  const setup: CountSetup = {
    corpus: spec,
    docs,
    seed: 42,
    families,
    sizes: DEFAULT_SIZES,
    workDir: join(REPO_ROOT, '.runs', 'calibrate-counts'),
    cacheSim: false,
    log,
  };
  const timings: Record<string, number> = {};
  let t = performance.now();
  const runner = buildRunner(REPO_ROOT, log);
  timings.buildRunner = performance.now() - t;
  const prepared = await prepareCount(setup);
  timings.prepare = prepared.prepareMs;
  const context = (name: string) => ({
    baseRevision: name,
    headRevision: name,
    corpus: { name: spec.id, docs, seed: setup.seed },
    sizes: setup.sizes,
    timings: {},
  });

  // 1. A/A: run 0 and the others, two at a time (as the gate counts its two builds).
  log(`A/A: ${aaRuns + 1} counts of this build`);
  t = performance.now();
  const aaCounts = await countBuilds(
    setup,
    prepared,
    Array.from({ length: aaRuns + 1 }, (_, i) => ({ name: `A/A run ${i}`, runner })),
  );
  timings.aaCounts = performance.now() - t;
  load.push(loadavg()[0] as number);
  const reference = aaCounts[0] as BuildCount;
  const aa = aaCounts.slice(1).map((c) => aaFinding(compareCounts(reference, c, context('A/A'))));
  const distinct = reference.rows.map(
    (r) => new Set(aaCounts.map((c) => c.rows.find((x) => x.row === r.row)?.instructions)).size,
  );

  // 2 and 3: the plants, sized from the loop's own measured cost.
  t = performance.now();
  const plantCost = await measurePlantCost(setup, prepared, runner, plantRow);
  timings.plantCost = performance.now() - t;
  const planted = [
    { name: `+3% on ${plantRow}`, rows: [plantRow], share: SHARE_ONE_ROW },
    { name: `+20% on ${sharedRows.length} rows`, rows: sharedRows, share: SHARE_SHARED },
  ];
  t = performance.now();
  const plantedCounts = await countBuilds(
    setup,
    prepared,
    planted.map((p) => ({
      name: p.name,
      runner,
      plant: plantSpec(reference, p.rows, p.share, plantCost.instructionsPerIteration),
    })),
  );
  timings.plantedCounts = performance.now() - t;
  load.push(loadavg()[0] as number);
  const plants: PlantFinding[] = planted.map((p, i) =>
    plantFinding(compareCounts(reference, plantedCounts[i] as BuildCount, context('plant')), p.rows, p.share),
  );

  // The cycle estimate (cache and branch simulation): what it would cost the gate.
  let cacheSim:
    | { wallMs: number; rows: { row: string; instructions: number; cycles?: number }[] }
    | undefined;
  if (values['cache-sim']) {
    t = performance.now();
    const [c] = await countBuilds({ ...setup, cacheSim: true }, prepared, [
      { name: 'cache simulation', runner },
    ]);
    cacheSim = {
      wallMs: performance.now() - t,
      rows: (c as BuildCount).rows.map((r) => ({
        row: r.row,
        instructions: Math.round(r.instructionsPerRequest),
        ...(r.cyclesPerRequest === undefined ? {} : { cycles: Math.round(r.cyclesPerRequest) }),
      })),
    };
  }

  // 5. The service path against the in-process call.
  t = performance.now();
  const cores = availableParallelism();
  const service =
    serviceFamilies.length === 0
      ? []
      : await measureServiceOverhead({
          runner,
          data: prepared.data,
          families: serviceFamilies,
          index: spec.index,
          seed: setup.seed,
          requests: 400,
          warmup: 50,
          rounds: 3,
          cpu: 0,
          clientCpu: cores - 1,
          workDir: join(setup.workDir, 'service'),
          log,
        });
  timings.serviceOverhead = performance.now() - t;
  load.push(loadavg()[0] as number);

  const byRow = new Map(reference.rows.map((r) => [r.row, r]));
  const pairWallMs = aaCounts.slice(0, 2).reduce((m, c) => Math.max(m, c.wallMs), 0);
  const result = {
    createdAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    revision: gitRevision(),
    dirty: gitDirty(),
    machine: {
      cores,
      cpu: cpus()[0]?.model ?? 'unknown',
      loadAverages: load.map((l) => Math.round(l * 100) / 100),
    },
    design: {
      corpus: spec.id,
      docs,
      seed: setup.seed,
      rows: families.length,
      warmupPerRow: setup.sizes.warmup,
      timedPerRow: setup.sizes.timed,
      threshold: COUNT_THRESHOLD,
      counted:
        'instructions (callgrind Ir) inside everycell_workcount_request on the runner thread, one dump per row',
    },
    aa: {
      comparisons: aa.length,
      rowsPerComparison: reference.rows.length,
      maxAbsChange: Math.max(0, ...aa.map((a) => a.maxAbsChange)),
      rowsAtOnePercent: aa.reduce((n, a) => n + a.rowsAtOnePercent, 0),
      falseFlags: aa.reduce((n, a) => n + a.falseFlags.length, 0),
      rowsWithOneDistinctCount: distinct.filter((d) => d === 1).length,
      perComparison: aa,
    },
    plantCost,
    plants,
    instructionsPerRequest: Object.fromEntries(
      reference.rows.map((r) => [r.row, Math.round(r.instructionsPerRequest)]),
    ),
    rowsNotOk: reference.rows
      .filter((r) => r.ok !== r.requests)
      .map((r) => ({ row: r.row, ok: r.ok, of: r.requests, error: r.firstError })),
    ...(cacheSim ? { cacheSim: { wallS: seconds(cacheSim.wallMs), rows: cacheSim.rows } } : {}),
    serviceOverhead: service.map((s) => ({
      ...s,
      inProcessInstructions: Math.round(byRow.get(s.row)?.instructionsPerRequest ?? 0),
    })),
    ciTime: {
      note: 'the gate builds the runner twice (this build, the merge base; the engine crates are already compiled by the addon builds), loads the index once, then counts both builds two at a time',
      buildRunnerS: seconds(timings.buildRunner ?? 0),
      prepareIndexS: seconds(timings.prepare ?? 0),
      oneCountS: seconds(reference.wallMs),
      ...(reference.cpuMs === undefined ? {} : { oneCountCpuS: seconds(reference.cpuMs) }),
      pairOfCountsS: seconds(pairWallMs),
      stepsS: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, seconds(v)])),
    },
  };
  await mkdir(resultDir, { recursive: true });
  const file = join(resultDir, `counts-${started.toISOString().slice(0, 10)}.json`);
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
  printSummary(result.aa, plants, file);
  const ok =
    result.aa.rowsAtOnePercent === 0 &&
    result.aa.falseFlags === 0 &&
    plants.every((p) => p.missed.length === 0 && p.falseFlags.length === 0);
  return ok ? 0 : 1;
}

function printSummary(
  aa: { comparisons: number; maxAbsChange: number; rowsAtOnePercent: number; falseFlags: number },
  plants: PlantFinding[],
  file: string,
) {
  const pct = (x: number) => `${(100 * x).toFixed(3)}%`;
  console.log(
    pc.bold(
      `A/A: ${aa.comparisons} comparisons, largest row change ${pct(aa.maxAbsChange)}, ${aa.rowsAtOnePercent} row(s) at 1% or more, ${aa.falseFlags} flagged`,
    ),
  );
  for (const p of plants)
    console.log(
      pc.bold(
        `plant +${(100 * p.share).toFixed(0)}% on ${p.planted.length} row(s): found ${p.found.length - p.falseFlags.length} of ${p.planted.length}, ${p.falseFlags.length} other row(s) flagged, largest other change ${pct(p.maxUnplantedChange)}`,
      ),
    );
  console.log(`written ${file}`);
}
