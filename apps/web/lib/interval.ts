/**
 * The confidence level of a row's interval, as the harness computed it. A scorecard does not
 * store the level beside each interval; it follows from the kind of row and the run's settings
 * (packages/harness/src/verdict/): read, read-under-write and kNN latency rows take the run's
 * `--confidence` (a t interval over forks or rounds); the one-client ingest row and kNN recall
 * are bootstraps at 95% whatever the setting; rows measured once per engine have no interval.
 * Cards from before the setting existed used 95% throughout. Each row's reason states the level
 * it was judged at, and a unit test holds this function to every committed card's reasons.
 * Pure.
 */
import type { Manifest, RowResult } from './definitions';

/** The level harnesses used before `--confidence` existed, and the bootstraps' fixed level. */
export const BOOTSTRAP_LEVEL = 0.95;

/**
 * Rows whose interval is a bootstrap at a fixed 95% (knnRowResults.ts; ingest.1-client on cards
 * from before its interval over paired rounds, which a row without round ratios is).
 */
const FIXED_LEVEL_ROWS = new Set(['ingest.1-client', 'knn.recall']);

/** The run's `--confidence`, or 95% for a card from before the setting. */
export function runConfidence(settings: Manifest['settings']): number {
  const value = settings.confidence;
  return typeof value === 'number' && value > 0 && value < 1 ? value : BOOTSTRAP_LEVEL;
}

/** The two-sided confidence of the row's interval; undefined when the row has none. */
export function intervalLevel(
  row: Pick<RowResult, 'id' | 'ci' | 'roundRatios'>,
  settings: Manifest['settings'],
): number | undefined {
  if (!row.ci) return undefined;
  const fixed = FIXED_LEVEL_ROWS.has(row.id) && !(row.id === 'ingest.1-client' && row.roundRatios);
  return fixed ? BOOTSTRAP_LEVEL : runConfidence(settings);
}

/** 0.99 -> "99%", 0.995 -> "99.5%". */
export function levelText(level: number): string {
  return `${Math.round(level * 1000) / 10}%`;
}

/** "99% CI", or "CI" when the level is not known. */
export function intervalName(level: number | undefined): string {
  return level === undefined ? 'CI' : `${levelText(level)} CI`;
}

/**
 * The levels present among some rows, highest first, in words for a caption: "99%" when all
 * agree, "99% (10 rows) and 95% (ingest.1-client)" when they do not; with `named` false, just
 * "99% or 95%".
 */
export function levelsInWords(
  rows: readonly { level?: number; id: string }[],
  named = true,
): string | undefined {
  const byLevel = new Map<number, string[]>();
  for (const row of rows) {
    if (row.level === undefined) continue;
    byLevel.set(row.level, [...(byLevel.get(row.level) ?? []), row.id]);
  }
  const levels = [...byLevel.keys()].sort((a, b) => b - a);
  if (levels.length === 0) return undefined;
  if (levels.length === 1) return levelText(levels[0] as number);
  if (!named) return levels.map(levelText).join(' or ');
  return levels
    .map((level) => {
      const ids = byLevel.get(level) ?? [];
      const shown = ids.length <= 3 ? ids.join(', ') : `${ids.length} rows`;
      return `${levelText(level)} (${shown})`;
    })
    .join(' and ');
}
