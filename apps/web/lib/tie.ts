/**
 * Why a TIE is a TIE, in a few words, from the same fields the harness judged it on
 * (verdict/decide.ts, verdict/singleMeasurement.ts): a TIE at 3.21× is not "no difference", it is
 * a difference the measurement could not establish. Pure; a unit test holds each explanation to
 * the reason the harness wrote, over every committed card.
 */
import type { Manifest, RowResult } from './definitions';
import { formatCi } from './format';
import { intervalLevel, levelText } from './interval';
import { tieMarginOf } from './tails';

export type TieKind =
  | 'below-resolution'
  | 'interval-reaches-one'
  | 'within-margin'
  | 'units-disagree'
  | 'more-failures'
  | 'single-measurement'
  | 'no-interval';

export interface TieWhy {
  kind: TieKind;
  /** "its 99% interval 0.85–12.10 reaches below 1" */
  text: string;
}

/** The explanation in two or three words, for a table cell beside the interval. */
export const TIE_SHORT: Record<TieKind, string> = {
  'below-resolution': 'below resolution',
  'interval-reaches-one': 'interval reaches 1',
  'within-margin': 'within the margin',
  'units-disagree': 'forks disagree',
  'more-failures': 'more failures',
  'single-measurement': 'one measurement',
  'no-interval': 'no interval',
};

const units = (row: Pick<RowResult, 'forkRatios' | 'roundRatios'>) =>
  row.forkRatios && row.forkRatios.length > 0
    ? { name: 'forks', ratios: row.forkRatios }
    : { name: 'paired rounds', ratios: row.roundRatios ?? [] };

export function tieExplanation(
  row: Pick<
    RowResult,
    'id' | 'unit' | 'verdict' | 'ratio' | 'ci' | 'belowResolution' | 'forkRatios' | 'roundRatios'
  >,
  settings: Manifest['settings'],
): TieWhy | undefined {
  if (row.verdict !== 'TIE' || row.ratio === undefined) return undefined;
  const margin = tieMarginOf(settings);
  const ratio = row.ratio;
  if (row.belowResolution) {
    return {
      kind: 'below-resolution',
      text: "below the harness's resolution: both engines' p50 within 2× of its floor",
    };
  }
  if (!row.ci) {
    // Latency rows always have an interval unless one fork of one round ran (decide.ts); the other
    // rows without one (disk, memory, ingest cells, capacity) are one measurement per engine.
    if (row.unit === 'ms')
      return { kind: 'no-interval', text: 'a single replication: no interval to decide on' };
    const single = settings.singleMeasurementMargin;
    const within =
      typeof single === 'number' ? `the ${Math.round(single * 1000) / 10}% margin` : 'its margin';
    return { kind: 'single-measurement', text: `one measurement per engine (no interval), within ${within}` };
  }
  const level = intervalLevel(row, settings);
  const named = `its ${level === undefined ? '' : `${levelText(level)} `}interval ${formatCi(row.ci)}`;
  const [low, high] = row.ci;
  if (low <= 1 && high >= 1) {
    return {
      kind: 'interval-reaches-one',
      text: ratio >= 1 ? `${named} reaches below 1` : `${named} reaches above 1`,
    };
  }
  if (ratio < 1 + margin && ratio > 1 / (1 + margin)) {
    return {
      kind: 'within-margin',
      text: `the ratio is within the ${Math.round(margin * 1000) / 10}% tie margin`,
    };
  }
  const who = low > 1 ? 'candidate' : 'baseline';
  const { name, ratios } = units(row);
  const agreeing = ratios.filter((r) => (who === 'candidate' ? r > 1 : r < 1)).length;
  if (ratios.length > 0 && agreeing * 2 <= ratios.length) {
    return { kind: 'units-disagree', text: `only ${agreeing} of ${ratios.length} ${name} favour the ${who}` };
  }
  return { kind: 'more-failures', text: 'the candidate had more failed requests than the baseline' };
}

/** The words of the harness's reason that each explanation stands for (for the unit test and the curious). */
export const TIE_REASON_WORDS: Record<TieKind, RegExp> = {
  'below-resolution': /below resolution/,
  'interval-reaches-one': /interval contains 1/,
  'within-margin': /tie margin/,
  'units-disagree': /but only \d+ of \d+/,
  'more-failures': /more failed requests/,
  'single-measurement': /one measurement per engine|within the [\d.]+% margin/,
  'no-interval': /single replication/,
};
