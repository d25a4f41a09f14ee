/**
 * Gate waivers (scorecards/waivers.json, written by people, read by the harness's gate): the site
 * shows them on the rows they cover. A bad file stops the build like a bad scorecard, naming the
 * file and the field; the gate itself (packages/harness/src/gate/waivers.ts) applies the same rules.
 */
import { z } from 'zod';
import type { Waiver } from './definitions';
import { formatPath } from './validate-scorecard';

const day = z.string().refine((value) => {
  const date = new Date(`${value}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && date.toISOString().slice(0, 10) === value;
}, 'expected a date YYYY-MM-DD');

const waiversFile = z.looseObject({
  waivers: z.array(
    z.strictObject({
      row: z.string().trim().min(1),
      reason: z.string().trim().min(1),
      who: z.string().trim().min(1),
      expires: day,
    }),
  ),
});

export function parseWaivers(file: string, raw: unknown): Waiver[] {
  const result = waiversFile.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`${file}: ${formatPath(issue?.path ?? [])}: ${issue?.message ?? 'not a waivers file'}`);
  }
  return result.data.waivers;
}

/** A waiver holds through its `expires` day; the site judges it on the day the run was made. */
export function waiverFor(
  waivers: readonly Waiver[],
  rowId: string,
  runCreatedAt: string,
): { waiver: Waiver; active: boolean } | undefined {
  const waiver = waivers.find((entry) => entry.row === rowId);
  if (!waiver) return undefined;
  return { waiver, active: runCreatedAt.slice(0, 10) <= waiver.expires };
}
