/**
 * The caveats a row carries, in words: what the harness noticed about the measurement itself
 * (collapse, saturation, the harness falling behind its schedule, a suspected cache, the
 * resolution floor, re-measuring, flakiness) and whether a gate waiver covers it. Pure; the row
 * page lists them all, the run table the short ones.
 *
 * Every marker is read from the same fields the harness judged the row on (verdict/decide.ts,
 * verdict/readRowResult.ts), so a caveat and the row's reason cannot disagree: a reason that says
 * "it saturated the machine" comes from one side's send lag over `maxSendLagP99Ms`, and so does
 * the marker. A unit test holds the two together over every committed card.
 */
import type { Manifest, RowResult, SideMeasurement, Waiver } from './definitions';

export type MarkerKind =
  | 'collapsed'
  | 'saturated'
  | 'machine-saturated'
  | 'service-time'
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

/** What a row's markers need beyond the row: the run's lag limit and the waiver that covers the row. */
export interface MarkerContext {
  /** The run's `maxSendLagP99Ms`: send lag above it means the harness fell behind its schedule. */
  maxSendLagP99Ms?: number;
  waiver?: { waiver: Waiver; active: boolean };
}

/** The lag limit a run judged with, from its settings (absent on the oldest cards). */
export function lagLimit(settings: Manifest['settings']): number | undefined {
  const value = settings.maxSendLagP99Ms;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

const SIDES = ['candidate', 'baseline'] as const;
type Side = (typeof SIDES)[number];

function sideName(side: Side): string {
  return side === 'candidate' ? 'Candidate' : 'Baseline';
}

function sideMarkers(row: RowResult, pick: (side: SideMeasurement) => string | undefined): string[] {
  return SIDES.flatMap((key) => {
    const text = pick(row[key]);
    return text === undefined ? [] : [`${sideName(key)} ${text}`];
  });
}

const ms = (value: number | undefined) => `${(value ?? 0).toFixed(1)} ms`;

/**
 * The harness's own send lag (decide.ts, readRowResult.ts): over the limit on both sides, a read
 * row is scored on service time (older harnesses and read-under-write rows give no verdict); on
 * one side only, that engine saturated the machine and the delay stays in its latency.
 */
function lagMarker(row: RowResult, limit: number | undefined): RowMarker | undefined {
  if (limit === undefined || row.candidate.sendLagP99 === undefined || row.baseline.sendLagP99 === undefined)
    return undefined;
  const lagging = SIDES.filter((side) => (row[side].sendLagP99 ?? 0) > limit);
  if (lagging.length === 2) {
    const lags = `send lag p99 ${ms(row.candidate.sendLagP99)} and ${ms(row.baseline.sendLagP99)}, over the ${limit} ms limit`;
    return row.verdict === 'N/A'
      ? {
          kind: 'service-time',
          label: 'Harness behind',
          detail: `The harness fell behind its schedule on both sides (${lags}): the machine was overloaded while this row ran.`,
        }
      : {
          kind: 'service-time',
          label: 'Service time',
          detail: `The harness fell behind its schedule on both sides (${lags}): latency from the intended send would measure its queue, so the row is scored on service time, from the actual send.`,
        };
  }
  const [side] = lagging;
  if (side === undefined || row.verdict === 'N/A') return undefined;
  return {
    kind: 'machine-saturated',
    label: 'Saturated the machine',
    detail: `The harness fell behind its schedule only while the ${side} ran (send lag p99 ${ms(row[side].sendLagP99)}, over the ${limit} ms limit): the ${side} saturated the machine, and the delay stays in its latency.`,
  };
}

export function rowMarkers(row: RowResult, context: MarkerContext = {}): RowMarker[] {
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
  const lag = lagMarker(row, context.maxSendLagP99Ms);
  if (lag) markers.push(lag);
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
  const waiver = context.waiver;
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
 * What "no caveats" may claim: exactly the checks rowMarkers makes, so the sentence can never sit
 * beside a reason that says otherwise.
 */
export const NO_CAVEATS =
  "No caveats: neither engine collapsed or saturated, the harness kept its schedule on both sides, both engines sit above the harness's resolution, no cache was suspected, the first interval decided, and the verdict was steady.";
