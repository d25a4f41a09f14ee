import type { MixedRowRaw, MixedSideRaw } from '../model/raw.js';
import type { RunSettings } from '../model/settings.js';
import type { Floor, RowResult, SideMeasurement } from '../scorecard/schema.js';
import { nestedRatioInterval, pairRounds } from '../stats/nestedInterval.js';
import { minSamplesFor, percentileSorted } from '../stats/percentile.js';
import { settleRow } from './decide.js';
import { summarizeSide } from './readRowResult.js';

/** Both engines must have taken the same write load within this share, or the reads are not comparable. */
export const WRITE_LOAD_TOLERANCE = 0.05;

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const p99 = (values: Float64Array) => percentileSorted(values.sort(), 99);
const okTimed = (raw: MixedSideRaw) => raw.timed.filter((s) => s.outcome === 'ok');
const okLatencies = (raw: MixedSideRaw) => okTimed(raw).map((s) => s.latencyMs);

function writeLoad(raw: MixedSideRaw, offered: number): SideMeasurement['writeLoad'] | undefined {
  const seconds = raw.writes.reduce((a, w) => a + w.elapsedMs, 0) / 1000;
  if (raw.writes.length === 0 || seconds <= 0) return undefined;
  return {
    offeredDocsPerSec: offered,
    ackedDocsPerSec: Math.round(raw.writes.reduce((a, w) => a + w.ackedDocs, 0) / seconds),
    failedBulks: raw.writes.reduce((a, w) => a + w.failedBulks, 0),
    droppedBulks: raw.writes.reduce((a, w) => a + w.droppedBulks, 0),
  };
}

/**
 * A read-under-write row: ratio = baseline p99 / candidate p99 (> 1: the candidate's tail is
 * shorter while both take the same writes), interval from its rounds (one process: the writes
 * live in it) as nestedInterval.ts computes it, verdict from the same rules as the read rows. N/A when the engines did not receive the same write
 * load (acknowledged docs/s more than 5% apart): then the reads ran under different conditions.
 */
export function mixedRowResult(raw: MixedRowRaw, settings: RunSettings, floor?: Floor): RowResult {
  const rules = { rate: settings.rate, collapseErrorRate: settings.collapseErrorRate };
  const candidate = summarizeSide(raw.candidate, rules);
  const baseline = summarizeSide(raw.baseline, rules);
  const cLoad = writeLoad(raw.candidate, raw.writeRate);
  const bLoad = writeLoad(raw.baseline, raw.writeRate);
  if (cLoad) candidate.writeLoad = cLoad;
  if (bLoad) baseline.writeLoad = bLoad;
  const f = raw.family;
  const row: RowResult = {
    id: `mixed.${f.family}`,
    group: 'mixed',
    family: f.family,
    title: `${f.title}, p99 under ${raw.writeRate} docs/s of re-index writes`,
    unit: 'ms',
    betterIs: 'lower',
    request: raw.probeBody,
    candidate,
    baseline,
    verdict: 'N/A',
    reason: '',
    rounds: settings.rounds,
  };
  const cLat = okLatencies(raw.candidate);
  const bLat = okLatencies(raw.baseline);
  const enough = cLat.length >= minSamplesFor(99) && bLat.length >= minSamplesFor(99);
  if (candidate.supported && baseline.supported && enough) {
    const rounds = pairRounds(okTimed(raw.baseline), okTimed(raw.candidate), (s) => s.latencyMs);
    const ci = nestedRatioInterval(rounds, p99, settings.confidence);
    row.ratio = round3(ci.estimate);
    if (Number.isFinite(ci.high)) row.ci = [round3(ci.low) as number, round3(ci.high) as number];
    row.roundRatios = ci.roundRatios.map(round3);
  }
  settleRow(row, {
    tieMargin: settings.tieMargin,
    confidence: settings.confidence,
    collapseErrorRate: settings.collapseErrorRate,
    maxSendLagP99Ms: settings.maxSendLagP99Ms,
    floorP50: floor?.p50,
  });
  if (!candidate.supported || !baseline.supported) return row;
  if (!enough && row.verdict !== 'LOSE') {
    row.verdict = 'N/A';
    row.reason = `too few successful reads for a p99 (candidate ${cLat.length}, baseline ${bLat.length}; need ${minSamplesFor(99)} each): raise --iterations`;
    delete row.ratio;
    delete row.ci;
    delete row.roundRatios;
    return row;
  }
  const loads = `write load acked ${cLoad?.ackedDocsPerSec ?? 0} / ${bLoad?.ackedDocsPerSec ?? 0} docs/s (offered ${raw.writeRate})`;
  const c = cLoad?.ackedDocsPerSec ?? 0;
  const b = bLoad?.ackedDocsPerSec ?? 0;
  const apart = Math.max(c, b) > 0 ? Math.abs(c - b) / Math.max(c, b) : 1;
  if (apart > WRITE_LOAD_TOLERANCE) {
    row.verdict = 'N/A';
    row.reason = `not comparable, the engines took different write loads: ${loads}, ${(apart * 100).toFixed(1)}% apart (limit ${WRITE_LOAD_TOLERANCE * 100}%)`;
    delete row.ratio;
    delete row.ci;
    delete row.roundRatios;
    return row;
  }
  row.reason = `p99 ${row.reason}; ${loads}`;
  return row;
}
