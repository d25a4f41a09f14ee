import type { Mismatch } from '../scorecard/schema.js';

interface CountedSide {
  supported: boolean;
  count?: number;
}

/**
 * Rows that load or measure a whole index (ingest, disk) are only comparable when both engines
 * hold exactly the corpus; `when` names the moment the counts were taken.
 */
export function countMismatch(
  when: string,
  c: CountedSide,
  b: CountedSide,
  docs: number,
): Mismatch | undefined {
  if (!c.supported || !b.supported || (c.count === docs && b.count === docs)) return undefined;
  return {
    summary: `_count ${when}: ${c.count} vs ${b.count} (expected ${docs})`,
    candidate: { count: c.count },
    baseline: { count: b.count },
  };
}
