import type { IngestSideRaw } from '../model/raw.js';
import type { RunSettings } from '../model/settings.js';
import type { RowResult, SideMeasurement } from '../scorecard/schema.js';
import { nestedRatioOfSums } from '../stats/nestedInterval.js';
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

/**
 * Ingest row: ratio = candidate docs/s / baseline docs/s over the whole load. The interval is a
 * t interval over the paired rounds (the same chunk into each engine, order alternating), like
 * a read row's over forks: a bulk's latency depends on the merges and the JIT state its
 * predecessors left, so resampling single bulks as if independent gave two identical
 * OpenSearch processes 1.737x [1.405, 2.111]; a round carries that noise in its own time.
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
  const paired = Math.min(c.chunks.length, b.chunks.length);
  if (c.supported && b.supported && !row.mismatch && paired > 0) {
    // Time per document, baseline over candidate: the candidate's docs/s over the baseline's.
    const ci = nestedRatioOfSums(
      Array.from({ length: paired }, (_, r) => ({
        fork: 0,
        num: [b.chunks[r]?.ms ?? 0, b.chunks[r]?.docs ?? 0] as [number, number],
        den: [c.chunks[r]?.ms ?? 0, c.chunks[r]?.docs ?? 0] as [number, number],
      })),
      settings.confidence,
    );
    row.ratio = round3(ci.estimate);
    // One round gives no interval: nothing can be decided from one replication.
    if (Number.isFinite(ci.high)) row.ci = [round3(ci.low) as number, round3(ci.high) as number];
    row.roundRatios = ci.roundRatios.map((x) => round3(x) as number);
  }
  return settleRow(row, {
    tieMargin: settings.tieMargin,
    collapseErrorRate: settings.collapseErrorRate,
    confidence: settings.confidence,
  });
}
