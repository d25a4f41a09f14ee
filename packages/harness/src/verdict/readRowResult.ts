import type { ReadRowRaw, SideRowRaw } from '../model/raw.js';
import type { Sample } from '../model/samples.js';
import type { RunSettings } from '../model/settings.js';
import type { Floor, RowResult, SideMeasurement } from '../scorecard/schema.js';
import { ecdf, timeline } from '../stats/distribution.js';
import { hdrEncode, hdrPercentile } from '../stats/hdr.js';
import { medianInPlace, nestedRatioInterval, pairRounds } from '../stats/nestedInterval.js';
import { percentile } from '../stats/percentile.js';
import { achievedRate, saturationReason } from '../stats/saturation.js';
import { sideWaterfalls } from '../stats/waterfall.js';
import { baseComparison } from './baseComparison.js';
import { cpuRatio } from './cpuRatio.js';
import { failureRate, settleRow } from './decide.js';

const round3 = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * 1000) / 1000);

/** Both engines' p50 within this multiple of the floor p50: the harness cannot resolve the row. */
export const RESOLUTION_FACTOR = 2;
/** Repeated-request p50 below the varied p50 divided by this: a cache is suspected. */
export const CACHE_FACTOR = 3;

const isOk = (s: Sample) => s.outcome === 'ok';

/**
 * What kept the harness from its schedule, as far as it was recorded: its GC pauses in the timed
 * phases, and the time its sending thread waited for its CPU (of which the hypervisor's steal).
 */
function lagNote(candidate: SideMeasurement, baseline: SideMeasurement): string {
  const gc = (m: SideMeasurement) =>
    m.harnessGc ? `${m.harnessGc.count} (longest ${m.harnessGc.maxMs.toFixed(1)} ms)` : 'not recorded';
  const sched = (m: SideMeasurement) =>
    m.harnessSched
      ? `${m.harnessSched.runQueueWaitMs.toFixed(1)} ms${m.harnessSched.stealMs !== undefined ? ` (steal ${m.harnessSched.stealMs} ms)` : ''}`
      : 'not recorded';
  const notes = [
    ...(candidate.harnessGc?.count || baseline.harnessGc?.count
      ? [`harness GC pauses in the timed phases ${gc(candidate)} / ${gc(baseline)}`]
      : []),
    ...(candidate.harnessSched || baseline.harnessSched
      ? [`its sending thread waited for its CPU ${sched(candidate)} / ${sched(baseline)}`]
      : []),
  ];
  return notes.map((note) => `; ${note}`).join('');
}

function okLatencies(samples: readonly Sample[]): number[] {
  return samples.filter(isOk).map((s) => s.latencyMs);
}

/**
 * One engine's measurement of a read row: percentiles from the intended send (open loop),
 * service time, errors, the quality flags (collapsed, saturated, cache), the compact
 * distributions the site draws and the whole one as an HDR histogram (mixed rows share this).
 */
export function summarizeSide(
  raw: SideRowRaw,
  settings: Pick<RunSettings, 'rate' | 'collapseErrorRate'>,
): SideMeasurement {
  const m: SideMeasurement = {
    supported: raw.supported,
    samples: raw.timed.length,
    errors: raw.timed.filter((s) => s.outcome !== 'ok' && s.outcome !== 'dropped').length,
    dropped: raw.timed.filter((s) => s.outcome === 'dropped').length,
  };
  if (raw.error) m.error = raw.error;
  const lat = okLatencies(raw.timed);
  if (raw.supported && raw.timed.length > 0) m.collapsed = failureRate(m) > settings.collapseErrorRate;
  if (lat.length > 0) {
    m.p50 = round3(percentile(lat, 50));
    m.p99 = round3(percentile(lat, 99));
    m.p999 = round3(hdrPercentile(lat, 99.9));
    m.serviceP50 = round3(
      percentile(
        raw.timed.filter(isOk).map((s) => s.serviceMs),
        50,
      ),
    );
    const requests = raw.timed.map((s) => ({ ...s, ok: isOk(s) }));
    const achieved = achievedRate(requests);
    m.achievedRate = round3(achieved);
    m.sendLagP99 = round3(
      percentile(
        raw.timed.filter((s) => s.outcome !== 'dropped').map((s) => s.lagMs),
        99,
      ),
    );
    if (raw.harnessGc) {
      const { count, totalMs, maxMs } = raw.harnessGc;
      const ms = (x: number) => Math.round(x * 1000) / 1000;
      m.harnessGc = { count, totalMs: ms(totalMs), maxMs: ms(maxMs) };
    }
    if (raw.harnessSched) {
      const { runQueueWaitMs, involuntarySwitches, stealMs } = raw.harnessSched;
      m.harnessSched = { runQueueWaitMs: Math.round(runQueueWaitMs * 1000) / 1000, involuntarySwitches };
      if (stealMs !== undefined) m.harnessSched.stealMs = stealMs;
    }
    const saturation = saturationReason(requests, settings.rate, achieved);
    m.saturated = saturation !== undefined;
    if (saturation) m.saturationReason = saturation;
    m.ecdf = ecdf(lat);
    // The whole distribution, so any percentile can be read later without the uncommitted samples.
    m.hdr = hdrEncode(lat);
    // Each sample's own intended send on the engine's timed schedule for the row (readRow.ts).
    const points = raw.timed.filter(isOk).map((s) => ({ atMs: s.atMs, latencyMs: s.latencyMs }));
    const span = Math.max(...raw.timed.map((s) => s.atMs));
    m.timeline = timeline(points, span + span / Math.max(raw.timed.length - 1, 1));
    const repeated = raw.repeated ? okLatencies(raw.repeated) : [];
    if (repeated.length > 0 && m.p50 !== undefined) {
      const repeatedP50 = round3(percentile(repeated, 50)) as number;
      m.cache = { repeatedP50, variedP50: m.p50, suspected: repeatedP50 < m.p50 / CACHE_FACTOR };
    }
  }
  const cpu = raw.cpu ?? [];
  const cpuRequests = cpu.reduce((n, w) => n + w.requests, 0);
  if (cpuRequests > 0) {
    m.cpuMsPerRequest = round4(cpu.reduce((n, w) => n + w.cpuNs, 0) / 1e6 / cpuRequests);
    m.cpuSource = raw.cpuSource ?? 'proc-schedstat';
  }
  const idle = raw.idle ?? [];
  const idleWall = idle.reduce((n, w) => n + w.wallNs, 0);
  if (idleWall > 0)
    m.idleCpuMsPerSecond = round3(idle.reduce((n, w) => n + w.cpuNs, 0) / 1e6 / (idleWall / 1e9));
  for (const k of Object.keys(m) as (keyof SideMeasurement)[]) if (m[k] === undefined) delete m[k];
  return m;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * Stats and verdict for a read row: ratio = baseline p50 / candidate p50 (> 1: candidate faster).
 * With the run's floor (the harness against a null server), a row where both engines sit within
 * RESOLUTION_FACTOR x of it is marked below resolution (decide.ts says why that is a TIE).
 */
/**
 * Why scores differ against a cluster baseline: its index has a shard per node, and each shard
 * scores with its own term statistics (query_then_fetch), while the candidate's one index uses
 * the whole corpus's. Said on the row, so a reader does not take it for a wrong answer.
 */
function shardedScores(summary: string, settings: RunSettings): string {
  const shards = settings.baselineNodes;
  if (shards <= 1 || !summary.includes('_score')) return '';
  return `; the baseline's ${shards} shards each score with their own term statistics, the candidate's one index with the whole corpus's`;
}

const isWholeFloor = (floor: Partial<Floor> | undefined): floor is Floor =>
  floor?.p99 !== undefined && floor.sendLagP50 !== undefined && floor.sendLagP99 !== undefined;

export function readRowResult(
  raw: ReadRowRaw,
  settings: RunSettings,
  floor?: Pick<Floor, 'p50'> & Partial<Floor>,
  baseRevision?: string,
): RowResult {
  const candidate = summarizeSide(raw.candidate, settings);
  const baseline = summarizeSide(raw.baseline, settings);
  if (isWholeFloor(floor)) {
    // Where each engine's p50 and p99 go: the harness, the queue, the engine, the plumbing.
    const c = sideWaterfalls(raw.candidate.timed, floor);
    const b = sideWaterfalls(raw.baseline.timed, floor);
    if (c) candidate.waterfall = c;
    if (b) baseline.waterfall = b;
  }
  const row: RowResult = {
    id: raw.family.id,
    group: raw.family.group,
    family: raw.family.family,
    title: raw.family.title,
    unit: 'ms',
    betterIs: 'lower',
    request: raw.probeBody,
    candidate,
    baseline,
    verdict: 'N/A',
    reason: '',
    signalChecks: raw.signalChecks,
  };
  if (raw.rounds > 0) {
    row.rounds = raw.rounds;
    row.forks = raw.forks;
    row.remeasured = raw.forks > settings.forks;
  }
  // A copy: the raw measurement is judged again when a row gets more forks, and a summary edited
  // in place said "(n of m checks differ)" once per judgement.
  if (raw.mismatch)
    row.mismatch = {
      ...raw.mismatch,
      summary: `${raw.mismatch.summary} (${raw.signalMismatches} of ${raw.signalChecks} checks differ)${shardedScores(raw.mismatch.summary, settings)}`,
    };
  const cLat = okLatencies(raw.candidate.timed);
  const bLat = okLatencies(raw.baseline.timed);
  // Where the harness could not keep its schedule on either side (both engines saturated the
  // machine), latency from the intended send measures the queue, not the engines: the row is
  // scored on service time (from the actual send) instead, and says so. Never N/A for it: an 8x
  // slower engine once came out N/A "machine overloaded" with the gate green.
  const lagging = (m: SideMeasurement) => (m.sendLagP99 ?? 0) > settings.maxSendLagP99Ms;
  const onService = lagging(candidate) && lagging(baseline);
  if (candidate.supported && baseline.supported && cLat.length > 0 && bLat.length > 0 && !raw.mismatch) {
    // Baseline over candidate, so > 1 favours the candidate; the interval from the forks.
    const rounds = pairRounds(raw.baseline.timed.filter(isOk), raw.candidate.timed.filter(isOk), (s) =>
      onService ? s.serviceMs : s.latencyMs,
    );
    const ci = nestedRatioInterval(rounds, medianInPlace, settings.confidence);
    row.ratio = round3(ci.estimate);
    if (Number.isFinite(ci.high)) row.ci = [round3(ci.low) as number, round3(ci.high) as number];
    row.roundRatios = ci.roundRatios.map((r) => round3(r) as number);
    if (ci.level === 'forks') row.forkRatios = ci.forkRatios.map((r) => round3(r) as number);
    const cpu = cpuRatio(raw, settings.confidence);
    if (cpu) {
      row.cpuRatio = round3(cpu.estimate);
      if (Number.isFinite(cpu.high)) row.cpuCi = [round3(cpu.low) as number, round3(cpu.high) as number];
    }
  }
  if (floor && candidate.p50 !== undefined && baseline.p50 !== undefined) {
    const limit = RESOLUTION_FACTOR * floor.p50;
    row.belowResolution = candidate.p50 <= limit && baseline.p50 <= limit;
  }
  settleRow(row, {
    tieMargin: settings.tieMargin,
    confidence: settings.confidence,
    collapseErrorRate: settings.collapseErrorRate,
    ...(onService ? {} : { maxSendLagP99Ms: settings.maxSendLagP99Ms }),
    floorP50: floor?.p50,
  });
  if (onService && row.verdict !== 'N/A')
    row.reason = `scored on service time: the harness fell behind its schedule on both sides (send lag p99 ${candidate.sendLagP99} / ${baseline.sendLagP99} ms > ${settings.maxSendLagP99Ms} ms${lagNote(candidate, baseline)}), so latency from the intended send would measure the queue; ${row.reason}`;
  if (row.verdict !== 'N/A' && row.rounds !== undefined) {
    const design = `${row.forks ?? 1} fork${row.forks === 1 ? '' : 's'}, ${row.rounds} rounds`;
    row.reason += row.remeasured
      ? `; ${design} (re-measured: ${settings.forks} forks were not decisive)`
      : `; ${design}`;
  }
  if (row.verdict === 'N/A') {
    delete row.cpuRatio;
    delete row.cpuCi;
  }
  const versusBase = baseRevision === undefined ? undefined : baseComparison(raw, settings, baseRevision);
  if (versusBase) row.versusBase = versusBase;
  return row;
}
