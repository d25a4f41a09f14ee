import { differingLoads, growth } from './costCurve.js';
import { floorLines } from './floorMarkdown.js';
import { cardFigures } from './headline.js';
import type { RowResult, Scorecard, SideMeasurement, SweepSide } from './schema.js';
import { shardLines } from './shardMarkdown.js';
import { waterfallCell, waterfallLines } from './waterfallMarkdown.js';

/** SCORECARD.md: a pure function of the scorecard, so the prose can never drift from the run. */

const num = (x: number, digits = 2) =>
  x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function sideCell(row: RowResult, side: SideMeasurement): string {
  if (!side.supported) return 'unsupported';
  if (side.collapsed && side.samples === 0) return '**collapsed**';
  const mark = side.collapsed ? '**collapsed**: ' : '';
  return mark + measuredCell(row, side);
}

function measuredCell(row: RowResult, side: SideMeasurement): string {
  if (row.unit === 'docs/s') return side.value === undefined ? 'n/a' : `${num(side.value, 0)} docs/s`;
  if (row.unit === 'bytes') return side.value === undefined ? 'n/a' : `${num(side.value / 1048576, 1)} MiB`;
  if (row.unit === 'req/s') return side.value === undefined ? 'n/a' : `${num(side.value, 0)} req/s`;
  if (side.p50 === undefined) return 'no samples';
  const p99 = side.p99 === undefined ? '' : `, p99 ${num(side.p99)}`;
  return `p50 ${num(side.p50)} ms${p99}`;
}

function ratioCell(row: RowResult): string {
  return row.ratio === undefined ? '-' : `${num(row.ratio, 3)}x`;
}

function ciCell(row: RowResult): string {
  return row.ci ? `[${num(row.ci[0], 3)}, ${num(row.ci[1], 3)}]` : '-';
}

/** "99%" from the settings, "95%" for cards from before the setting existed. */
function confidenceLabel(card: Scorecard): string {
  const c = card.manifest.settings.confidence;
  return typeof c === 'number' ? `${num(c * 100, 1)}%` : '95%';
}

/** "0.21 vs 0.63 ms (3.0x [2.7, 3.4])": engine CPU per request, where both engines' CPU was read. */
function cpuCell(row: RowResult): string {
  const c = row.candidate.cpuMsPerRequest;
  const b = row.baseline.cpuMsPerRequest;
  if (c === undefined || b === undefined) return '-';
  const ratio =
    row.cpuRatio === undefined
      ? ''
      : ` (${num(row.cpuRatio, 2)}x${row.cpuCi ? ` [${num(row.cpuCi[0], 2)}, ${num(row.cpuCi[1], 2)}]` : ''})`;
  return `${num(c, 3)} vs ${num(b, 3)} ms${ratio}`;
}

/**
 * How the card's load was cut and how its ingest row got its interval: over paired rounds (its
 * round ratios), or on older cards by the rounds setting and a bootstrap over single bulks.
 */
function ingestMethod(card: Scorecard, v: (key: string) => string): { chunks: string; interval: string } {
  const rounds = card.rows.find((r) => r.id === 'ingest.1-client')?.roundRatios;
  return rounds
    ? {
        chunks: String(rounds.length),
        interval: `the ${confidenceLabel(card)} interval is a t interval over the paired rounds' ratios (each round the same chunk into both engines), and a WIN or LOSE needs most rounds to agree`,
      }
    : {
        chunks: v('rounds'),
        interval: `the interval resamples each side's per-bulk latencies (${v('bootstrapResamples')} resamples)`,
      };
}

function methodology(card: Scorecard): string[] {
  const s = card.manifest.settings;
  const v = (key: string) => {
    const x = s[key];
    return x === undefined ? '?' : Array.isArray(x) ? x.join(', ') : String(x);
  };
  const pct = (key: string) => (typeof s[key] === 'number' ? `${num((s[key] as number) * 100, 2)}%` : '?');
  const c = card.manifest.corpus;
  const ingest = ingestMethod(card, v);
  return [
    `- **Corpus**: \`${c.name}\`, ${num(c.docs, 0)} documents from seed ${c.seed}, sha256 \`${c.contentHash}\`. Both engines receive the same documents with explicit ids.`,
    `- **Ingest** (\`ingest.1-client\`): one client, ${v('bulkSize')} documents per bulk, bodies built before the clock starts; each engine first indexes ${v('ingestWarmupBatches')} bulks into a throwaway index (warmup), then the corpus goes in as ${ingest.chunks} contiguous chunks with the engine order alternating per round (C B, B C, ...)${card.manifest.design?.othersFrozen ? ', the other engine frozen while a chunk is timed' : ''}; an engine's time is the sum of its chunks, from the first bulk of a chunk to its last response, the last chunk ending with the \`_refresh\`. \`_count\` must equal the corpus size on both. Ratio = candidate docs/s / baseline docs/s over the whole load; ${ingest.interval}.`,
    // Cards from before these rows existed have no margin setting: no bullet rather than a guess.
    ...(s.singleMeasurementMargin === undefined
      ? []
      : [
          `- **More ingest and disk** (\`ingest.<n>-clients\`, \`disk.store\`): measured after the read rows. Each multi-client cell loads the corpus into a fresh index with n concurrent clients, timed from the first bulk to the \`_refresh\`, \`_count\` must equal the corpus; the disk row refreshes, force-merges the main index to one segment (a refusal is named in the reason) and reads \`_stats\` primaries store bytes at equal \`_count\`. These rows are one measurement per engine, with no interval: WIN / LOSE only beyond a ${pct('singleMeasurementMargin')} margin, TIE inside it.`,
        ]),
    ...(card.rows.some((r) => r.group === 'memory')
      ? [
          `- **Memory** (\`memory.rss\`): once the read rows are done (before the disk row's force-merge), VmRSS from \`/proc/<pid>/status\` of each engine process the harness started, plus its child processes summed; the reason gives the peak (VmHWM), the split into anonymous and file-backed pages (mmapped index files count as resident), and the JVM heap flags the baseline was started with. Ratio = baseline RSS / candidate RSS; one measurement per engine, so WIN / LOSE only beyond the ${pct('singleMeasurementMargin')} margin. An engine given by URL is read through its \`_nodes/stats\` instead: \`process.mem.resident_in_bytes\` where it reports one (the candidate does), else a JVM's committed heap + non-heap, a lower bound of its resident memory, against which only a WIN for the candidate (or a LOSE for a bounded candidate) is a verdict; the row names the field.`,
        ]
      : []),
    ...(card.rows.some((r) => r.group === 'mixed')
      ? [
          `- **Mixed rows** (\`mixed.*\`, read under write): while an engine's reads run (open loop, as below), a writer re-indexes corpus documents by id into the same index, open loop at ${v('mixedWriteRate')} docs/s in bulks of 100 (dropped, never queued, past 4 bulks in flight); engines take turns, order alternating per round. Scored on p99: ratio = baseline p99 / candidate p99 with the same two-level bootstrap and verdict rules as the read rows. Both engines must have acknowledged the same write load within 5% (docs/s), or the row is N/A. Results are not compared under writes (the read rows check them).`,
        ]
      : []),
    ...(card.sweeps && card.sweeps.length > 0
      ? [
          `- **Throughput rows** (\`throughput.*\`): each engine's closed-loop capacity (8 clients, 3 s after 1 s untimed), then open loop on a geometric ladder of 9 rates from a quarter of the slower engine's capacity to 1.5x the faster one's, about 3 s per point (200 to 6,000 requests), engines alternating per point; an engine that fails two rates in a row is past its knee and is offered no more. The row's value per engine is the highest offered rate it sustained (>= 95% achieved, <= ${pct('collapseErrorRate')} failed or dropped, p99 <= ${v('sweepP99Ms')} ms), "at least" when it sustained the ladder's top; one measurement per engine, so WIN / LOSE only beyond the ${pct('singleMeasurementMargin')} margin.`,
        ]
      : []),
    `- **Read rows**: open loop at ${v('rate')} requests/s per engine: request *i* is due at t0 + i/rate whatever happened before; latency is measured from that intended instant, service time from the actual send. At most ${v('connections')} requests in flight; beyond that a request is dropped and counted, never queued. Each request is bounded by ${v('timeoutMs')} ms and its body is read in full.`,
    // Cards from before forks described a single process per engine.
    ...(card.manifest.design
      ? [
          `- **Forks and schedule**: ${designLine(card)} Each fork restarts both engines on the same data (JIT, caches and heap start over), pins them to ${card.manifest.placement?.engineCpus === undefined ? 'the machine' : `CPU ${card.manifest.placement.engineCpus}`} while the harness spins on ${card.manifest.placement?.harnessCpus === undefined ? 'the same CPUs' : `CPU ${card.manifest.placement.harnessCpus}`}, prewarms every row (${v('prewarm')} untimed requests per engine, a few in flight, the first engine alternating per fork), then waits until both engines' process trees spend under 30 ms of CPU per second for 1.5 s (merges, refreshes and JIT compilation finished${idleLine(card)}), and times every row in an order shuffled per fork. Within a fork an engine is measured one at a time, ${card.manifest.design.othersFrozen ? "the other frozen (SIGSTOP on its process tree, so its JIT, GC and merges cannot run on the timed engine's CPUs; the floor is measured with both frozen)" : 'the other idle'}, the order alternating per round (C B, B C, ...), ${v('warmup')} untimed warmups before each engine's round. Rows still undecided after ${v('forks')} forks get more forks, up to ${v('maxForks')}, whichever way they lean. Both engines receive the identical request sequence; every search carries \`track_total_hits: true\` and \`request_cache=false\`.`,
        ]
      : [
          `- **Schedule**: engines are measured one at a time, the other idle; ${v('iterations')} timed requests per engine per row over ${v('rounds')} rounds with the engine order alternating per round (C B, B C, ...); ${v('warmup')} untimed warmup requests per engine per round. Before any read row is timed, each engine (one at a time) gets ${v('prewarm')} untimed requests of every row, so a JIT-compiled engine is measured warm (breadth rows, marked in the code, get a third of the timed requests and half the prewarm). Both engines receive the identical request sequence; every search carries \`track_total_hits: true\` and \`request_cache=false\`.`,
        ]),
    `- **Correctness**: a probe request per row must succeed on both (a 4xx makes the row N/A with the engine's error), and result signals (hit totals and relation, top ids for sorts on unique fields, sorted values, bucket keys and doc counts, metric values to 1e-6 relative, or 5% for the approximate percentiles and cardinality; empty buckets ignored) are compared on the probe and on every ${v('signalEvery')}th timed response. Any difference makes the row N/A.`,
    card.manifest.design
      ? `- **Statistics**: percentiles are nearest-rank over successful timed requests; p99 is reported only with at least 100 samples. Latency ratio = baseline p50 / candidate p50 (> 1: candidate faster). Its ${pct('confidence')} interval is a t interval over the forks' log ratios (each fork's rounds pooled), centred on the pooled ratio, with forks - 1 degrees of freedom (Kalibera & Jones): a fork carries the noise of its rounds and requests, and forks are the independent replications, since two processes of one engine can differ for their whole life. Rows measured in one process (kNN, read-under-write) use their rounds instead. **Engine CPU per request**: each engine's process tree's on-CPU time during its timed phases (every thread's \`/proc/<pid>/task/<tid>/schedstat\`, read just before and after each phase; for an engine given by URL, the process CPU time its \`GET /_nodes/stats/process\` reports, in whole ms, summed over its nodes, and each row's \`cpuSource\` says which) over the requests sent; its ratio (baseline / candidate, > 1: the candidate spends less) has its own interval from the forks; the idle engine's CPU during the other's phases is reported to show it stayed idle.`
      : `- **Statistics**: percentiles are nearest-rank over successful timed requests; p99 is reported only with at least 100 samples. Latency ratio = baseline p50 / candidate p50 (> 1: candidate faster) with a seeded two-level bootstrap 95% interval (${v('bootstrapResamples')} resamples) over the paired rounds, then blocks of requests inside each round, widened for few rounds as a t interval on the rounds would be.`,
    `- **Verdicts**: latency is the headline. WIN when the whole interval is above 1, the ratio is at least 1 + ${pct('tieMargin')} and a strict majority of the forks (or, in one process, of the paired rounds) favour the candidate; LOSE in the mirror case (interval below 1, ratio at most 1 / (1 + ${pct('tieMargin')}), most forks favour the baseline); TIE otherwise. A side with more than ${pct('collapseErrorRate')} failed or dropped requests has collapsed and loses the row; a candidate with more failed requests than the baseline cannot WIN. A read row where the harness's own send lag p99 exceeded ${v('maxSendLagP99Ms')} ms on both sides (both engines saturated the machine) is scored on service time, from the actual send, and says so; on one side only, the engine measured then is taken to have saturated the machine, the lag stays in its latency and the reason says so.`,
  ];
}

/** "5 forks x 2 rounds x 60 requests per engine per row (basis)". */
function designLine(card: Scorecard): string {
  const d = card.manifest.design;
  if (!d) return '';
  return `${d.forks} forks x ${d.roundsPerFork} rounds x ${d.requestsPerRound} timed requests per engine per row (${d.basis}).`;
}

/** How long the forks waited for idle engines, and whether every wait ended quiet. */
function idleLine(card: Scorecard): string {
  const idle = card.manifest.idle;
  if (!idle || idle.length === 0) return '';
  const waited = idle.map((i) => num(i.waitedMs / 1000, 1)).join(', ');
  const busy = idle.filter((i) => !i.quiet).length;
  return `; waited ${waited} s per fork${busy > 0 ? `, ${busy} fork${busy === 1 ? '' : 's'} timed out still busy` : ''}`;
}

/** A row whose verdict changed across recent comparable runs: how often, so a reader discounts it. */
function flakyMark(row: RowResult): string {
  if (!row.flaky) return '';
  const { flips, runs } = row.flaky;
  return ` (flaky: ${flips} flip${flips === 1 ? '' : 's'} in ${runs} runs)`;
}

/** The read rows in two numbers (the README's and the site's headline): latency and CPU, geometric means. */
export function headlineLine(card: Scorecard): string {
  const { read, cpu } = cardFigures(card);
  if (!read) return '';
  const cpuWords = cpu
    ? `; engine CPU per request ${num(cpu.geomean)}x over ${cpu.rows} rows, lowest ${num(cpu.lowest.ratio)}x (\`${cpu.lowest.id}\`)`
    : '';
  return `Read rows (queries, aggregations, search features): p50 ratio geometric mean **${num(read.geomean)}x** over ${read.rows} rows, ${read.atLeastTwice} at 2x or more${cpuWords}.`;
}

function exitLine(card: Scorecard): string {
  const why =
    card.exitCode === 0
      ? 'no LOSE'
      : card.exitCode === 1
        ? 'at least one LOSE'
        : card.exitCode === 3
          ? `no LOSE, but coverage fell against \`${card.coverage?.previousRunId ?? '?'}\``
          : card.exitCode === 4
            ? 'no LOSE, but a row regressed against the merge-base build'
            : 'the run did not complete cleanly';
  return `Exit status ${card.exitCode}: ${why}.`;
}

const sweepCell = (p: SweepSide) =>
  p.skipped
    ? 'not run (past its knee)'
    : `${num(p.achievedRate, 0)} req/s, p50 ${num(p.p50 ?? Number.NaN)} / p99 ${num(p.p99 ?? Number.NaN)} / p99.9 ${p.p999 === null || Number.isNaN(p.p999) ? 'n/a' : num(p.p999)} ms${p.inFlight === undefined ? '' : `, ${num(p.inFlight, 1)} in flight`}${p.dropped + p.errors > 0 ? `, ${p.dropped} dropped, ${p.errors} failed` : ''}`;

/** Latency at target throughput: one table per swept family, offered rate against each engine. */
function sweepLines(card: Scorecard): string[] {
  if (!card.sweeps || card.sweeps.length === 0) return [];
  const out = ['## Latency at target throughput', ''];
  for (const sw of card.sweeps) {
    const cap = sw.closedLoopCapacity;
    const high = (role: 'candidate' | 'baseline') =>
      sw.highest === undefined
        ? ''
        : `${sw.atLeast?.[role] ? 'at least ' : ''}${num(sw.highest[role], 0)} req/s`;
    out.push(
      `\`${sw.rowId}\`: closed-loop capacity candidate ${num(cap.candidate, 0)} req/s, baseline ${num(cap.baseline, 0)} req/s; open loop on a ladder from a quarter of the slower to 1.5x the faster, each engine until it fails two rates in a row. Sustained = at least 95% of the offered rate answered and p99 <= ${num(sw.p99BoundMs)} ms${sw.highest ? `; highest sustained: candidate ${high('candidate')}, baseline ${high('baseline')}` : ''}. In flight = achieved rate x mean latency (Little's law).`,
      '',
      '| Offered | Candidate | Baseline |',
      '|---|---|---|',
      ...sw.points.map(
        (p) => `| ${num(p.offeredRate, 0)} req/s | ${sweepCell(p.candidate)} | ${sweepCell(p.baseline)} |`,
      ),
      '',
    );
  }
  return out;
}

/** "0.31 -> 0.52 (1.68x)": one side's values over the pass set, and how much they grew. */
function curveCell(values: readonly (number | null)[]): string {
  const g = growth(values);
  return `${values.map((v) => (v === null ? 'n/a' : num(v, 3))).join(' -> ')}${g === undefined ? '' : ` (${num(g)}x)`}`;
}

/** Said when the sizes ran at different loads: a saturated row's p50 then includes a different queue. */
function loadNote(curve: NonNullable<Scorecard['costCurve']>): string {
  const words = differingLoads(curve);
  if (words.length === 0) return '';
  return ` The sizes ran at different read loads (${words.join('; ')}): a row that saturated an engine has its queue in its p50, so across sizes compare CPU per request, which the load does not change.`;
}

/** The pass set's cost curve: how each latency row's p50 and CPU per request grow with the corpus. */
function costCurveLines(card: Scorecard): string[] {
  const curve = card.costCurve;
  if (!curve || curve.rows.length === 0) return [];
  const sizes = curve.docs.map((d) => num(d, 0)).join(', ');
  return [
    '## Cost curve',
    '',
    `The corpus at ${sizes} documents (scorecards ${curve.runIds.map((id) => `\`${id}\``).join(', ')}), each size with its own engines and load. Per latency row: each engine's p50 (ms, from the intended send) and engine CPU per request (ms) at each size, in that order, and in brackets the last size's value over the first's.${loadNote(curve)}`,
    '',
    '| Row | Candidate p50 | Baseline p50 | Candidate CPU | Baseline CPU |',
    '|---|---|---|---|---|',
    ...curve.rows.map(
      (r) =>
        `| \`${r.id}\` | ${curveCell(r.candidateP50)} | ${curveCell(r.baselineP50)} | ${curveCell(r.candidateCpuMs)} | ${curveCell(r.baselineCpuMs)} |`,
    ),
    '',
  ];
}

function coverageLines(card: Scorecard): string[] {
  const c = card.coverage;
  if (!c) return [];
  const missing =
    c.missingRows.length > 0
      ? `; rows missing since then: ${c.missingRows.map((id) => `\`${id}\``).join(', ')}`
      : '';
  return [
    '## Coverage',
    '',
    `Against \`${c.previousRunId}\` (the previous complete run on the same corpus, size and rows): N/A rows ${c.previousNA} then, ${c.na} now${missing}. ${c.fell ? '**Coverage fell.**' : 'Coverage held.'}`,
    '',
  ];
}

/** The candidate's differential conformance, next to the verdicts: speed counts only with right answers. */
function conformanceLines(card: Scorecard): string[] {
  const c = card.conformance;
  if (!c) return [];
  return [
    '## Conformance',
    '',
    `The candidate answers **${num(c.candidatePass, 0)} of ${num(c.cases, 0)}** differential cases as ${c.baseline} does (the baseline passes ${num(c.baselinePass, 0)}; measured ${c.measuredAt}, \`packages/engine-napi/conformance/RESULTS.md\` lists every difference with its reason).`,
    '',
    '| Area | Cases | Candidate | Baseline |',
    '|---|---|---|---|',
    ...c.areas.map((a) => `| ${cell(a.area)} | ${a.cases} | ${a.candidatePass} | ${a.baselinePass} |`),
    '',
  ];
}

/** Elasticsearch's own REST API tests on both engines: the outside yardstick beside the project's cases. */
function restSuiteLines(card: Scorecard): string[] {
  const r = card.restSuite;
  if (!r) return [];
  const leftOut = r.excluded.reduce((n, e) => n + e.tests, 0);
  const share = r.baselinePass === 0 ? 0 : (100 * r.candidatePass) / r.baselinePass;
  return [
    "## Elasticsearch's REST API tests",
    '',
    `Elasticsearch's own YAML suite (\`${r.suite}\`, ${num(r.tests, 0)} tests), run on both engines (measured ${r.measuredAt}): the candidate passes **${num(r.candidatePass, 0)} of the ${num(r.baselinePass, 0)}** tests ${r.baseline} passes (${share.toFixed(1)}%), and ${num(r.candidateOnly, 0)} that ${r.baseline} fails. ${num(r.skipped, 0)} skipped (a version range excluding 7.10.2, or a runner feature not implemented); ${num(leftOut, 0)} left out with their reasons (\`packages/harness/restsuite/RESULTS.md\` lists every test the candidate fails).`,
    '',
    '| Left out | Tests | Reason |',
    '|---|---|---|',
    ...r.excluded.map((e) => `| ${cell(e.apis.join(', '))} | ${e.tests} | ${cell(e.reason)} |`),
    '',
    '| API | Tests | OpenSearch passes | Candidate passes | Skipped | Left out |',
    '|---|---|---|---|---|---|',
    ...r.byApi.map(
      (a) =>
        `| ${cell(a.api)} | ${a.tests} | ${a.baselinePass} | ${a.candidatePass} | ${a.skipped} | ${a.excluded} |`,
    ),
    '',
  ];
}

/** The regression check's table: each read row of this build against the merge-base build. */
function baseLines(card: Scorecard): string[] {
  const base = card.manifest.base;
  if (!base) return [];
  const rows = card.rows.filter((r) => r.versusBase);
  return [
    `## Against the merge-base build \`${base.revision.slice(0, 7)}\``,
    '',
    "This build's candidate against the candidate built at the merge base, measured in the same forks and rounds (ratio = merge-base build / this build: > 1 this build is faster). A row regressed when its latency or its engine CPU per request is worse beyond the margin with the whole interval (listed); it fails the run alone (exit 4) only when its latency and CPU per request are both worse and one of them is past the fail margin (**REGRESSED, fails**), because runs of one build against itself flag about one row per run on one signal alone (12-23% worse). Smaller regressions count together: the run also fails when the median over rows of the CPU-per-request ratios regresses (below). A regression waiver lets either through.",
    '',
    ...(card.versusBaseOverall
      ? [
          `**All read rows together: ${card.versusBaseOverall.verdict}**: ${cell(card.versusBaseOverall.reason)}.`,
          '',
        ]
      : []),
    '| Row | Latency ratio | CI | CPU per request ratio | CI | Verdict |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => {
      const v = r.versusBase as NonNullable<RowResult['versusBase']>;
      const f = (x: number | undefined) => (x === undefined ? '-' : `${num(x, 3)}x`);
      const ci = (c: [number, number] | undefined) => (c ? `[${num(c[0], 3)}, ${num(c[1], 3)}]` : '-');
      return `| \`${r.id}\` | ${f(v.ratio)} | ${ci(v.ci)} | ${f(v.cpuRatio)} | ${ci(v.cpuCi)} | **${v.verdict}${v.blocking ? ', fails' : ''}** |`;
    }),
    '',
  ];
}

/** Where a mismatch's shrunk conformance case is (src/shrink/), or why there is none. */
function shrunkNote(row: RowResult): string {
  const s = row.shrunk;
  if (!s) return '';
  if (s.path)
    return `. Shrunk to a conformance case: [${s.path}](${s.path}) (${s.documents ?? 0} of ${s.documentsBefore ?? 0} documents)`;
  return `. Not shrunk: ${cell(s.skipped ?? '')}`;
}

function resultsTable(card: Scorecard): string[] {
  const lines = [
    `| Row | What | Candidate | Baseline | Ratio (>1: candidate better) | ${confidenceLabel(card)} CI | CPU per request (ratio, CI) | Engine share of p50 (C · B) | Verdict | Reason |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of card.rows) {
    lines.push(
      `| \`${row.id}\` | ${cell(row.title)} | ${sideCell(row, row.candidate)} | ${sideCell(row, row.baseline)} | ${ratioCell(row)} | ${ciCell(row)} | ${cpuCell(row)} | ${waterfallCell(row)} | **${row.verdict}**${flakyMark(row)} | ${cell(row.reason)} |`,
    );
  }
  return lines;
}

export function renderMarkdown(card: Scorecard): string {
  const m = card.manifest;
  const { WIN, LOSE, TIE } = card.counts;
  const na = card.counts['N/A'];
  const status =
    card.status === 'complete'
      ? ''
      : `\n> **This run is ${card.status}**${card.failure ? `: ${cell(card.failure)}` : ''}. ${
          card.rows.some((r) => r.candidate.collapsed || r.baseline.collapsed)
            ? 'The run went on after the crash: rows where an engine was down are marked collapsed.'
            : 'Rows measured before it stopped are shown.'
        }\n`;
  const out = [
    `# everycell scorecard \`${card.runId}\``,
    status,
    `**${m.candidate.product}** (candidate) vs **${m.baseline.product}** (baseline), ${num(m.corpus.docs, 0)} docs, ${card.rows.length} rows, ${num(card.durationMs / 1000, 1)} s.`,
    '',
    '| WIN | LOSE | TIE | N/A |',
    '|---|---|---|---|',
    `| ${WIN} | ${LOSE} | ${TIE} | ${na} |`,
    '',
    exitLine(card),
    '',
    ...(headlineLine(card) ? [headlineLine(card), ''] : []),
    '## Results',
    '',
    ...resultsTable(card),
    '',
    ...baseLines(card),
    ...waterfallLines(card),
    ...floorLines(card),
    ...sweepLines(card),
    ...costCurveLines(card),
    ...coverageLines(card),
    ...shardLines(card),
    ...conformanceLines(card),
    ...restSuiteLines(card),
  ];
  const mismatches = card.rows.filter((r) => r.mismatch);
  if (mismatches.length > 0) {
    out.push('## Result differences', '');
    for (const r of mismatches) out.push(`- \`${r.id}\`: ${cell(r.mismatch?.summary ?? '')}${shrunkNote(r)}`);
    out.push('');
  }
  out.push(
    '## Setup',
    '',
    '| | |',
    '|---|---|',
    `| Machine | ${m.machine.cpuModel}, ${m.machine.cores} cores, ${num(m.machine.memoryBytes / 2 ** 30, 1)} GiB, ${m.machine.kernel} (${m.machine.platform}) |`,
    `| Candidate | ${m.candidate.product} at ${m.candidate.url}${m.candidate.startedByHarness ? ', started by the harness' : ', external'} |`,
    `| Baseline | ${m.baseline.product} at ${m.baseline.url}${m.baseline.startedByHarness ? ', started by the harness' : ', external'} |`,
    `| Harness | Node ${m.node}, undici ${m.settings.undici ?? '?'}, git ${m.gitRevision}${m.settings.gitDirty === true ? ' (uncommitted changes)' : ''} |`,
    `| Created | ${card.createdAt} |`,
    '',
    '## Methodology',
    '',
    ...methodology(card),
    '',
    '## Settings',
    '',
    '```json',
    JSON.stringify(m.settings, null, 2),
    '```',
    '',
  );
  return out.join('\n');
}
