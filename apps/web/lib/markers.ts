/**
 * The caveats a row carries, in words: what the harness noticed about the measurement itself
 * (collapse, saturation, a suspected cache, the resolution floor, re-measuring, flakiness) and
 * whether a gate waiver covers it. Pure; the row page lists them all, the run table the short ones.
 */
import { isExpired } from '@everycell/harness/waivers';
import type { RowResult, SideMeasurement, Waiver } from './definitions';

export type MarkerKind =
  | 'collapsed'
  | 'saturated'
  | 'cache'
  | 'below-resolution'
  | 'remeasured'
  | 'flaky'
  | 'waived'
  | 'waiver-expired';

export interface RowMarker {
  kind: MarkerKind;
  /** A word or two for the badge. */
  label: string;
  /** One sentence that says what it means for this row. */
  detail: string;
}

/** The markers the run table shows beside a row's name (the row page shows every marker). */
export const TABLE_MARKERS: readonly MarkerKind[] = ['flaky', 'below-resolution', 'collapsed'];

const SIDES = ['candidate', 'baseline'] as const;

function sideName(side: (typeof SIDES)[number]): string {
  return side === 'candidate' ? 'Candidate' : 'Baseline';
}

function sideMarkers(row: RowResult, pick: (side: SideMeasurement) => string | undefined): string[] {
  return SIDES.flatMap((key) => {
    const text = pick(row[key]);
    return text === undefined ? [] : [`${sideName(key)} ${text}`];
  });
}

export function rowMarkers(row: RowResult, waiver?: { waiver: Waiver; active: boolean }): RowMarker[] {
  const markers: RowMarker[] = [];
  const collapsed = sideMarkers(row, (side) =>
    side.collapsed
      ? `collapsed: ${side.errors} of ${side.samples + side.errors} timed requests failed`
      : undefined,
  );
  if (collapsed.length > 0)
    markers.push({ kind: 'collapsed', label: 'Collapsed', detail: `${collapsed.join('. ')}.` });
  const saturated = sideMarkers(row, (side) =>
    side.saturated ? `saturated${side.saturationReason ? `: ${side.saturationReason}` : ''}` : undefined,
  );
  if (saturated.length > 0)
    markers.push({ kind: 'saturated', label: 'Saturated', detail: `${saturated.join('. ')}.` });
  const cached = sideMarkers(row, (side) =>
    side.cache?.suspected
      ? `answered repeats of one request in ${side.cache.repeatedP50} ms (p50) against ${side.cache.variedP50} ms for varied requests: a cache may flatter it`
      : undefined,
  );
  if (cached.length > 0)
    markers.push({ kind: 'cache', label: 'Cache suspected', detail: `${cached.join('. ')}.` });
  if (row.belowResolution) {
    markers.push({
      kind: 'below-resolution',
      label: 'Below resolution',
      detail:
        "Both engines' p50 is within 2× of the harness's own floor (a null server): the difference is too small to resolve.",
    });
  }
  if (row.remeasured) {
    markers.push({
      kind: 'remeasured',
      label: 'Re-measured',
      detail: `The first interval was too wide to decide, so the row was re-measured${row.rounds ? ` with ${row.rounds} rounds per engine` : ''}.`,
    });
  }
  if (row.flaky) {
    markers.push({
      kind: 'flaky',
      label: 'Flaky',
      detail: `The verdict flipped ${row.flaky.flips} times in the last ${row.flaky.runs} runs.`,
    });
  }
  if (waiver) {
    const { waiver: w, active } = waiver;
    markers.push(
      active
        ? {
            kind: 'waived',
            label: 'Waived',
            detail: `A gate waiver lets this row through until ${w.expires} (${w.who}): ${w.reason}`,
          }
        : {
            kind: 'waiver-expired',
            label: 'Waiver expired',
            detail: `The gate waiver by ${w.who} expired on ${w.expires}: ${w.reason}`,
          },
    );
  }
  return markers;
}

/**
 * The waiver that covers a row, judged on the day the run was made (the gate's own rule: a waiver
 * holds through its `expires` day, UTC).
 */
export function waiverFor(
  waivers: readonly Waiver[],
  rowId: string,
  runCreatedAt: string,
): { waiver: Waiver; active: boolean } | undefined {
  // A waiver lets a LOSE through; newer harnesses also have "regression" waivers (against the base build).
  const waiver = waivers.find(
    (entry) => entry.row === rowId && ((entry as { kind?: string }).kind ?? 'lose') === 'lose',
  );
  if (!waiver) return undefined;
  return { waiver, active: !isExpired(waiver, runCreatedAt.slice(0, 10)) };
}
