import type { Family } from '../families/types.js';
import type { Clock } from '../load/clock.js';
import type { Side } from '../load/side.js';
import { probeCache } from '../measure/cacheProbe.js';
import { measureReadRow, measureRounds } from '../measure/readRow.js';
import type { ReadRowRaw } from '../model/raw.js';
import type { RunSettings } from '../model/settings.js';
import type { Floor, RowResult } from '../scorecard/schema.js';
import { readRowResult } from '../verdict/readRowResult.js';
import { wantsMoreRounds } from '../verdict/remeasure.js';

export interface AdaptiveOptions {
  /** The run's floor: rows within 2x of it on both sides are below resolution. */
  floor?: Pick<Floor, 'p50'>;
  onProgress?: (what: string) => void;
  /** The stop rule; tests swap it to drive the loop. */
  wantsMore?: (row: RowResult, tieMargin: number) => boolean;
}

/** Rounds added per re-measurement step: a pair keeps the order balanced (A B B A). */
const STEP = 2;

/**
 * A read row measured until its verdict is decisive or the round budget is spent: the configured
 * rounds, then while the interval straddles a threshold (verdict/remeasure.ts) two more rounds
 * at a time up to `settings.maxRounds`; the verdict is decided on all rounds. This is the one
 * place where the measurement listens to the verdict, and only to its interval's width, never
 * to its direction. Then the cache probe.
 *
 * Repeatedly looking at the interval makes a false verdict slightly likelier than one look
 * would; the A/A calibration (npm run calibrate) measures the rate this rule actually gives.
 */
export async function measureReadRowAdaptive(
  family: Family,
  sides: { candidate: Side; baseline: Side },
  index: string,
  settings: RunSettings,
  clock: Clock,
  options: AdaptiveOptions = {},
): Promise<{ raw: ReadRowRaw; row: RowResult }> {
  const { floor, onProgress, wantsMore = wantsMoreRounds } = options;
  const raw = await measureReadRow(family, sides, index, settings, clock, onProgress);
  let row = readRowResult(raw, settings, floor);
  while (raw.rounds > 0 && raw.rounds < settings.maxRounds && wantsMore(row, settings.tieMargin)) {
    const to = Math.min(settings.maxRounds, raw.rounds + STEP);
    await measureRounds(raw, sides, index, settings, clock, to, (what) =>
      onProgress?.(`${what} (re-measure)`),
    );
    row = readRowResult(raw, settings, floor);
  }
  await probeCache(raw, sides, index, settings, clock);
  if (raw.candidate.repeated || raw.baseline.repeated) row = readRowResult(raw, settings, floor);
  return { raw, row };
}
