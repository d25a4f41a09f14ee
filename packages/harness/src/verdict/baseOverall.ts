import type { JudgeSettings } from '../model/settings.js';
import type { BaseOverall, RowResult } from '../scorecard/schema.js';
import { medianInterval } from '../stats/medianInterval.js';

/** Fewer rows than this with a CPU ratio against the base build are not judged together. */
export const MIN_ROWS_TOGETHER = 8;

const fmt = (x: number) => x.toFixed(3);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The read rows against the merge-base build taken together: the median over rows of the
 * engine-CPU-per-request ratios (merge-base build / this build; < 1: this build costs more), with
 * its distribution-free interval. A change to a shared path (parsing, routing, rendering) moves
 * most rows a little: each row alone stays inside its own interval, the median over ~85 rows
 * does not. REGRESSED when the median is worse than 1 / (1 + margin) and the whole interval is
 * worse than 1 / (1 + margin / 2).
 *
 * Calibrated at the CI scale (20k docs, 85 rows, 2026-11-26). Two A/A runs, the merge-base
 * build being the same build: 0.925 [0.897, 0.966] while the base build was left on the
 * harness's core (fixed in run/placement.ts), 0.964 [0.932, 0.980] pinned like the others, on a
 * machine busy with other work (12 rows N/A): two processes of one build differ by a few
 * percent, so the margin is 10% and the interval must clear 5%. Planted: 20% more CPU in every
 * request gave 0.762 [0.739, 0.794]; only `_count` slowed, the other rows 0.964 [0.932, 1.002].
 * CPU only: latency ratios at this scale sit near the harness's floor, and the unpinned A/A read
 * a 7% latency offset. The one-row rule (`versusBase.blocking`) stays for a change that hits one
 * family hard.
 */
export function baseOverall(
  rows: readonly RowResult[],
  settings: Pick<JudgeSettings, 'confidence' | 'regressionMargin'>,
  baseRevision: string,
): BaseOverall {
  const ratios = rows.flatMap((r) =>
    r.versusBase && r.versusBase.verdict !== 'N/A' && r.versusBase.cpuRatio !== undefined
      ? [r.versusBase.cpuRatio]
      : [],
  );
  const m = medianInterval(ratios, settings.confidence);
  if (m === undefined || m.n < MIN_ROWS_TOGETHER)
    return {
      baseRevision,
      rows: ratios.length,
      cpuMedian: m ? round3(m.median) : 1,
      cpuCi: m ? [round3(m.low), round3(m.high)] : [1, 1],
      verdict: 'N/A',
      reason: `${ratios.length} rows with CPU per request against ${baseRevision.slice(0, 7)}: fewer than ${MIN_ROWS_TOGETHER} to judge together`,
    };
  const margin = settings.regressionMargin;
  const worse = m.median <= 1 / (1 + margin) && m.high < 1 / (1 + margin / 2);
  const better = m.median >= 1 + margin && m.low > 1 + margin / 2;
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  const what = `median CPU per request over ${m.n} rows ${fmt(m.median)}x [${fmt(m.low)}, ${fmt(m.high)}] against ${baseRevision.slice(0, 7)} (> 1: this build cheaper)`;
  return {
    baseRevision,
    rows: m.n,
    cpuMedian: round3(m.median),
    cpuCi: [round3(m.low), round3(m.high)],
    verdict: worse ? 'REGRESSED' : better ? 'IMPROVED' : 'SAME',
    reason: worse
      ? `${what}: worse than ${pct(margin)} with the whole interval worse than ${pct(margin / 2)}`
      : better
        ? `${what}: better than ${pct(margin)} with the whole interval better than ${pct(margin / 2)}`
        : `${what}: within ${pct(margin)}, or the interval reaches within ${pct(margin / 2)}`,
  };
}
