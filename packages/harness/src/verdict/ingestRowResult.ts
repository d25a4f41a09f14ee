import type { IngestSideRaw } from '../model/raw.js';
import type { RunSettings } from '../model/settings.js';
import { Rng } from '../rng.js';
import type { RowResult, SideMeasurement } from '../scorecard/schema.js';
import { bootstrapRatio, throughputStatistic } from '../stats/bootstrap.js';
import { percentile } from '../stats/percentile.js';
import { countMismatch } from './countMismatch.js';
import { settleRow } from './decide.js';

export const INGEST_ROW_ID = 'ingest.1-client';

const round3 = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * 1000) / 1000);

function summarize(raw: IngestSideRaw): SideMeasurement {
  const m: SideMeasurement = {
    supported: raw.supported,
    samples: raw.bulkMs.length,
    errors: raw.failedBulks,
  };
  if (raw.error) m.error = raw.error;
  if (raw.bulkMs.length > 0) {
    m.p50 = round3(percentile(raw.bulkMs, 50));
    m.p99 = round3(percentile(raw.bulkMs, 99));
  }
  if (raw.docsPerSec !== undefined) m.value = Math.round(raw.docsPerSec);
  for (const k of Object.keys(m) as (keyof SideMeasurement)[]) if (m[k] === undefined) delete m[k];
  return m;
}

const fixedMs = (raw: IngestSideRaw) => raw.elapsedMs - raw.bulkMs.reduce((a, b) => a + b, 0);

/**
 * Ingest row: ratio = candidate docs/s / baseline docs/s. The interval resamples each side's
 * bulk latencies (keeping refresh and gaps fixed), one whole-run docs/s per resample.
 */
export function ingestRowResult(
  sides: { candidate: IngestSideRaw; baseline: IngestSideRaw },
  docs: number,
  settings: RunSettings,
): RowResult {
  const candidate = summarize(sides.candidate);
  const baseline = summarize(sides.baseline);
  const row: RowResult = {
    id: INGEST_ROW_ID,
    group: 'ingest',
    family: 'bulk',
    title: `bulk ingest of ${docs} docs, 1 client, ${settings.bulkSize} docs/bulk, until refreshed`,
    unit: 'docs/s',
    betterIs: 'higher',
    request: { bulkSize: settings.bulkSize, docs },
    candidate,
    baseline,
    verdict: 'N/A',
    reason: '',
  };
  const c = sides.candidate;
  const b = sides.baseline;
  const mismatch = countMismatch('after ingest', c, b, docs);
  if (mismatch) row.mismatch = mismatch;
  if (c.supported && b.supported && !row.mismatch && c.bulkMs.length > 0 && b.bulkMs.length > 0) {
    const seed = Rng.derive(settings.seed, 'bootstrap', INGEST_ROW_ID).int(1, 2 ** 30);
    const ci = bootstrapRatio(
      c.bulkMs,
      b.bulkMs,
      throughputStatistic(docs, fixedMs(c)),
      { resamples: settings.bootstrapResamples, seed },
      throughputStatistic(docs, fixedMs(b)),
    );
    row.ratio = round3(ci.estimate);
    row.ci = [round3(ci.low) as number, round3(ci.high) as number];
  }
  return settleRow(row, {
    tieMargin: settings.tieMargin,
    collapseErrorRate: settings.collapseErrorRate,
  });
}
