import type { IngestCellRaw } from '../model/raw.js';
import type { RowResult, SideMeasurement } from '../scorecard/schema.js';
import { countMismatch } from './countMismatch.js';
import { settleSingleMeasurement } from './singleMeasurement.js';

export const ingestCellRowId = (clients: number) => `ingest.${clients}-clients`;

function summarize(raw: IngestCellRaw, bulks: number): SideMeasurement {
  const m: SideMeasurement = {
    supported: raw.supported,
    samples: raw.docsPerSec === undefined ? 0 : bulks,
    errors: raw.failedBulks,
  };
  if (raw.error) m.error = raw.error;
  if (raw.docsPerSec !== undefined) m.value = Math.round(raw.docsPerSec);
  return m;
}

/**
 * A multi-client ingest row: docs/s until searchable with `clients` concurrent bulk clients on a
 * fresh index. One run per engine, so the single-measurement rule decides (see singleMeasurement.ts).
 */
export function ingestCellRowResult(
  sides: { candidate: IngestCellRaw; baseline: IngestCellRaw },
  clients: number,
  docs: number,
  bulks: number,
  bulkSize: number,
  margin: number,
): RowResult {
  const c = sides.candidate;
  const b = sides.baseline;
  const candidate = summarize(c, bulks);
  const baseline = summarize(b, bulks);
  const row: RowResult = {
    id: ingestCellRowId(clients),
    group: 'ingest',
    family: 'bulk',
    title: `bulk ingest of ${docs} docs, ${clients} concurrent clients, ${bulkSize} docs/bulk, fresh index, until refreshed`,
    unit: 'docs/s',
    betterIs: 'higher',
    request: { bulkSize, docs, clients },
    candidate,
    baseline,
    verdict: 'N/A',
    reason: '',
  };
  const mismatch = countMismatch('after ingest', c, b, docs);
  if (mismatch) row.mismatch = mismatch;
  if (c.supported && b.supported && !row.mismatch && c.docsPerSec && b.docsPerSec)
    row.ratio = Math.round((c.docsPerSec / b.docsPerSec) * 1000) / 1000;
  return settleSingleMeasurement(row, margin);
}
