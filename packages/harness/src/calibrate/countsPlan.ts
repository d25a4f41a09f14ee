import type { BuildCount, CountComparison } from '../workcount/types.js';

/**
 * The count check's calibration as pure functions: how many loop iterations plant a given share
 * of a row's count, and what each comparison found. The runs themselves are in counts.ts.
 */

/** Iterations that add at least `share` of the row's instructions per request. */
export function plantIterations(perRequest: number, share: number, instructionsPerIteration: number): number {
  return Math.ceil((share * perRequest) / instructionsPerIteration);
}

/** The plant spec the runner reads (`ROW=ITERATIONS,...`) for `share` of each named row's count. */
export function plantSpec(
  reference: BuildCount,
  rows: readonly string[],
  share: number,
  instructionsPerIteration: number,
): string {
  const byRow = new Map(reference.rows.map((r) => [r.row, r.instructionsPerRequest]));
  return rows
    .map((row) => {
      const perRequest = byRow.get(row);
      if (perRequest === undefined) throw new Error(`no count for row ${row} to plant on`);
      return `${row}=${plantIterations(perRequest, share, instructionsPerIteration)}`;
    })
    .join(',');
}

/** One A/A comparison: how far rows moved between two runs of one build. */
export interface AaFinding {
  /** Largest |change| of any row. */
  maxAbsChange: number;
  rowsChanged: number;
  rowsAtOnePercent: number;
  /** Rows the gate's rule would flag (REGRESSED or IMPROVED). */
  falseFlags: string[];
}

export function aaFinding(c: CountComparison): AaFinding {
  const changes = c.rows.map((r) => Math.abs(r.change ?? 0));
  return {
    maxAbsChange: Math.max(0, ...changes),
    rowsChanged: changes.filter((x) => x > 0).length,
    rowsAtOnePercent: changes.filter((x) => x >= 0.01).length,
    falseFlags: c.rows.filter((r) => r.verdict === 'REGRESSED' || r.verdict === 'IMPROVED').map((r) => r.row),
  };
}

/** A planted comparison: which rows the gate's rule found, against the rows the plant touched. */
export interface PlantFinding {
  planted: string[];
  share: number;
  /** Rows found REGRESSED. */
  found: string[];
  /** Planted rows not found. */
  missed: string[];
  /** Rows found that were not planted. */
  falseFlags: string[];
  /** Each planted row's measured change. */
  measured: Record<string, number>;
  /** Largest |change| of a row that was not planted. */
  maxUnplantedChange: number;
}

export function plantFinding(c: CountComparison, planted: readonly string[], share: number): PlantFinding {
  const touched = new Set(planted);
  const found = c.rows.filter((r) => r.verdict === 'REGRESSED').map((r) => r.row);
  return {
    planted: [...planted],
    share,
    found,
    missed: planted.filter((row) => !found.includes(row)),
    falseFlags: found.filter((row) => !touched.has(row)),
    measured: Object.fromEntries(
      c.rows.filter((r) => touched.has(r.row)).map((r) => [r.row, r.change ?? Number.NaN]),
    ),
    maxUnplantedChange: Math.max(
      0,
      ...c.rows.filter((r) => !touched.has(r.row)).map((r) => Math.abs(r.change ?? 0)),
    ),
  };
}
