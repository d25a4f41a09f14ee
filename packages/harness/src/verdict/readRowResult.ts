import type { ReadRowRaw, SideRowRaw } from '../model/raw.js';
import type { Sample } from '../model/samples.js';
import type { RunSettings } from '../model/settings.js';
import { Rng } from '../rng.js';
import type { Floor, RowResult, SideMeasurement } from '../scorecard/schema.js';
import { ecdf, timeline } from '../stats/distribution.js';
import { hdrPercentile } from '../stats/hdr.js';
import { percentile } from '../stats/percentile.js';
import { medianInPlace, pairRounds, roundBootstrapRatio } from '../stats/roundBootstrap.js';
import { achievedRate, saturationReason } from '../stats/saturation.js';
import { failureRate, settleRow } from './decide.js';

const round3 = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * 1000) / 1000);

/** Both engines' p50 within this multiple of the floor p50: the harness cannot resolve the row. */
export const RESOLUTION_FACTOR = 2;
/** Repeated-request p50 below the varied p50 divided by this: a cache is suspected. */
export const CACHE_FACTOR = 3;

const isOk = (s: Sample) => s.outcome === 'ok';

function okLatencies(samples: readonly Sample[]): number[] {
  return samples.filter(isOk).map((s) => s.latencyMs);
}

/**
 * One engine's measurement of a read row: percentiles from the intended send (open loop),
 * service time, errors, the quality flags (collapsed, saturated, cache) and the compact
 * distributions the site draws.
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
    const saturation = saturationReason(requests, settings.rate, achieved);
    m.saturated = saturation !== undefined;
    if (saturation) m.saturationReason = saturation;
    m.ecdf = ecdf(lat);
    // Timed sample i (renumbered across rounds) is due at i / rate in this engine's schedule.
    const msPer = 1000 / settings.rate;
    const points = raw.timed.filter(isOk).map((s) => ({ atMs: s.i * msPer, latencyMs: s.latencyMs }));
    m.timeline = timeline(points, (Math.max(...raw.timed.map((s) => s.i)) + 1) * msPer);
    const repeated = raw.repeated ? okLatencies(raw.repeated) : [];
    if (repeated.length > 0 && m.p50 !== undefined) {
      const repeatedP50 = round3(percentile(repeated, 50)) as number;
      m.cache = { repeatedP50, variedP50: m.p50, suspected: repeatedP50 < m.p50 / CACHE_FACTOR };
    }
  }
  for (const k of Object.keys(m) as (keyof SideMeasurement)[]) if (m[k] === undefined) delete m[k];
  return m;
}

/**
 * Stats and verdict for a read row: ratio = baseline p50 / candidate p50 (> 1: candidate faster).
 * With the run's floor (the harness against a null server), a row where both engines sit within
 * RESOLUTION_FACTOR x of it is marked below resolution (decide.ts says why that is a TIE).
 */
export function readRowResult(raw: ReadRowRaw, settings: RunSettings, floor?: Pick<Floor, 'p50'>): RowResult {
  const candidate = summarizeSide(raw.candidate, settings);
  const baseline = summarizeSide(raw.baseline, settings);
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
    row.remeasured = raw.rounds > settings.rounds;
  }
  if (raw.mismatch) {
    row.mismatch = raw.mismatch;
    row.mismatch.summary = `${raw.mismatch.summary} (${raw.signalMismatches} of ${raw.signalChecks} checks differ)`;
  }
  const cLat = okLatencies(raw.candidate.timed);
  const bLat = okLatencies(raw.baseline.timed);
  if (candidate.supported && baseline.supported && cLat.length > 0 && bLat.length > 0 && !raw.mismatch) {
    const seed = Rng.derive(settings.seed, 'bootstrap', raw.family.id).int(1, 2 ** 30);
    // Baseline over candidate, so > 1 favours the candidate; rounds resampled first (drift).
    const rounds = pairRounds(
      raw.baseline.timed.filter(isOk),
      raw.candidate.timed.filter(isOk),
      (s) => s.latencyMs,
    );
    const ci = roundBootstrapRatio(rounds, medianInPlace, {
      resamples: settings.bootstrapResamples,
      seed,
      blockSize: settings.bootstrapBlock,
    });
    row.ratio = round3(ci.estimate);
    row.ci = [round3(ci.low) as number, round3(ci.high) as number];
    row.roundRatios = ci.roundRatios.map((r) => round3(r) as number);
  }
  if (floor && candidate.p50 !== undefined && baseline.p50 !== undefined) {
    const limit = RESOLUTION_FACTOR * floor.p50;
    row.belowResolution = candidate.p50 <= limit && baseline.p50 <= limit;
  }
  settleRow(row, {
    tieMargin: settings.tieMargin,
    collapseErrorRate: settings.collapseErrorRate,
    maxSendLagP99Ms: settings.maxSendLagP99Ms,
    floorP50: floor?.p50,
  });
  if (row.verdict !== 'N/A' && row.rounds !== undefined) {
    row.reason += row.remeasured
      ? `; ${row.rounds} rounds (re-measured: ${settings.rounds} were not decisive)`
      : `; ${row.rounds} rounds`;
  }
  return row;
}
