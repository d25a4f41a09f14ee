/**
 * Which gate waiver covers a row. Apart from the markers (lib/markers.ts) because it reads the
 * harness's waiver rules, whose module also reads files: the markers are shipped to the browser.
 */
import { isExpired } from '@everycell/harness/waivers';
import type { Waiver } from './definitions';

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
