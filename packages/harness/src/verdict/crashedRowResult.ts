import type { RowMeta } from '../model/rowMeta.js';
import type { Role, RowResult, SideMeasurement } from '../scorecard/schema.js';

const ROLES: readonly Role[] = ['candidate', 'baseline'];

/**
 * The verdict of a row on which an engine died, hung or was already gone. A collapsed
 * candidate loses the row; a collapsed baseline leaves nothing to compare against (N/A, not a
 * free WIN: the candidate did not earn it). The ratio and interval go: they would describe a
 * run that did not happen.
 */
export function collapseSides(row: RowResult, notes: Partial<Record<Role, string>>): RowResult {
  for (const role of ROLES) {
    const note = notes[role];
    if (note === undefined) continue;
    row[role].collapsed = true;
    row[role].error = note;
  }
  const c = notes.candidate;
  const b = notes.baseline;
  delete row.ratio;
  delete row.ci;
  delete row.roundRatios;
  delete row.forkRatios;
  if (c !== undefined && b === undefined) {
    row.verdict = 'LOSE';
    row.reason = `candidate collapsed: ${c}`;
  } else {
    row.verdict = 'N/A';
    row.reason =
      c !== undefined
        ? `both engines collapsed: candidate ${c}; baseline ${b}`
        : `not comparable, baseline collapsed: ${b}`;
  }
  return row;
}

/** A row that could not be measured at all because an engine died during it or was gone before it. */
export function crashedRowResult(meta: RowMeta, notes: Partial<Record<Role, string>>): RowResult {
  const unmeasured = (): SideMeasurement => ({ supported: true, samples: 0, errors: 0 });
  return collapseSides(
    { ...meta, candidate: unmeasured(), baseline: unmeasured(), verdict: 'N/A', reason: '' },
    notes,
  );
}
