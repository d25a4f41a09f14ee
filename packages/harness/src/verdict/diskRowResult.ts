import type { DiskSideRaw } from '../model/raw.js';
import type { RowResult, SideMeasurement } from '../scorecard/schema.js';
import { countMismatch } from './countMismatch.js';
import { settleSingleMeasurement } from './singleMeasurement.js';

export const DISK_ROW_ID = 'disk.store';

function summarize(raw: DiskSideRaw): SideMeasurement {
  const m: SideMeasurement = {
    supported: raw.supported,
    samples: raw.bytes === undefined ? 0 : 1,
    errors: 0,
  };
  if (raw.error) m.error = raw.error;
  if (raw.bytes !== undefined) m.value = raw.bytes;
  return m;
}

/**
 * Disk row: primary store bytes after ingest, refresh and force-merge to one segment, with
 * equal `_count` on both. ratio = baseline bytes / candidate bytes (> 1: the candidate is smaller).
 */
export function diskRowResult(
  sides: { candidate: DiskSideRaw; baseline: DiskSideRaw },
  docs: number,
  margin: number,
): RowResult {
  const c = sides.candidate;
  const b = sides.baseline;
  const candidate = summarize(c);
  const baseline = summarize(b);
  const perDoc = (raw: DiskSideRaw) =>
    raw.bytes === undefined || !raw.count ? 'n/a' : `${(raw.bytes / raw.count).toFixed(1)} B/doc`;
  const row: RowResult = {
    id: DISK_ROW_ID,
    group: 'disk',
    family: 'store',
    title: `index store size of ${docs} docs after refresh and force-merge to 1 segment`,
    unit: 'bytes',
    betterIs: 'lower',
    request: { forcemerge: { max_num_segments: 1 }, stats: '_stats/store', docs },
    candidate,
    baseline,
    verdict: 'N/A',
    reason: '',
  };
  const mismatch = countMismatch('before measuring', c, b, docs);
  if (mismatch) row.mismatch = mismatch;
  const notes = [
    ...(['candidate', 'baseline'] as const).flatMap((role) => {
      const note = sides[role].forceMergeNote;
      return note ? [`${role} ${note}`] : [];
    }),
    `candidate ${perDoc(c)}, baseline ${perDoc(b)}`,
  ];
  const ratio = c.bytes && b.bytes ? Math.round((b.bytes / c.bytes) * 1000) / 1000 : undefined;
  if (c.supported && b.supported && !row.mismatch && ratio !== undefined) row.ratio = ratio;
  return settleSingleMeasurement(row, margin, notes.join('; '));
}
