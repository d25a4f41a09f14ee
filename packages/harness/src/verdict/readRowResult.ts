import { Rng } from '../rng.js';
import type { ReadRowRaw, SideRowRaw } from '../runner/readRow.js';
import type { RunSettings } from '../runner/settings.js';
import type { RowResult, SideMeasurement } from '../scorecard/schema.js';
import { bootstrapMedianRatio } from '../stats/bootstrap.js';
import { percentile } from '../stats/percentile.js';
import { settleRow } from './decide.js';

const round3 = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * 1000) / 1000);

function okLatencies(raw: SideRowRaw): number[] {
  return raw.timed.filter((s) => s.outcome === 'ok').map((s) => s.latencyMs);
}

/** Requests answered per second over the timed phases (each phase lasts until its last response). */
function achievedRate(raw: SideRowRaw): number | undefined {
  const byRound = new Map<number, number>();
  for (const s of raw.timed) {
    if (s.outcome === 'dropped') continue;
    byRound.set(s.round, Math.max(byRound.get(s.round) ?? 0, s.atMs + s.latencyMs));
  }
  const seconds = [...byRound.values()].reduce((a, b) => a + b, 0) / 1000;
  const answered = raw.timed.filter((s) => s.outcome === 'ok').length;
  return seconds > 0 ? answered / seconds : undefined;
}

export function summarizeSide(raw: SideRowRaw): SideMeasurement {
  const m: SideMeasurement = {
    supported: raw.supported,
    samples: raw.timed.length,
    errors: raw.timed.filter((s) => s.outcome !== 'ok' && s.outcome !== 'dropped').length,
    dropped: raw.timed.filter((s) => s.outcome === 'dropped').length,
  };
  if (raw.error) m.error = raw.error;
  const lat = okLatencies(raw);
  if (lat.length > 0) {
    m.p50 = round3(percentile(lat, 50));
    m.p99 = round3(percentile(lat, 99));
    m.serviceP50 = round3(
      percentile(
        raw.timed.filter((s) => s.outcome === 'ok').map((s) => s.serviceMs),
        50,
      ),
    );
    m.achievedRate = round3(achievedRate(raw));
    m.sendLagP99 = round3(
      percentile(
        raw.timed.filter((s) => s.outcome !== 'dropped').map((s) => s.lagMs),
        99,
      ),
    );
  }
  for (const k of Object.keys(m) as (keyof SideMeasurement)[]) if (m[k] === undefined) delete m[k];
  return m;
}

/** Stats and verdict for a read row: ratio = baseline p50 / candidate p50 (> 1: candidate faster). */
export function readRowResult(raw: ReadRowRaw, settings: RunSettings): RowResult {
  const candidate = summarizeSide(raw.candidate);
  const baseline = summarizeSide(raw.baseline);
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
  if (raw.mismatch) {
    row.mismatch = raw.mismatch;
    row.mismatch.summary = `${raw.mismatch.summary} (${raw.signalMismatches} of ${raw.signalChecks} checks differ)`;
  }
  const cLat = okLatencies(raw.candidate);
  const bLat = okLatencies(raw.baseline);
  if (candidate.supported && baseline.supported && cLat.length > 0 && bLat.length > 0 && !raw.mismatch) {
    const seed = Rng.derive(settings.seed, 'bootstrap', raw.family.id).int(1, 2 ** 30);
    const ci = bootstrapMedianRatio(bLat, cLat, {
      resamples: settings.bootstrapResamples,
      seed,
      blockSize: settings.bootstrapBlock,
    });
    row.ratio = round3(ci.estimate);
    row.ci = [round3(ci.low) as number, round3(ci.high) as number];
  }
  return settleRow(row, {
    tieMargin: settings.tieMargin,
    collapseErrorRate: settings.collapseErrorRate,
    maxSendLagP99Ms: settings.maxSendLagP99Ms,
  });
}
