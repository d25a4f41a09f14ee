/**
 * What one callgrind dump says in total: its `events:` header names the counters and its
 * `summary:` (or, in older files, `totals:`) line holds their sums over the dump. Callgrind's
 * format: https://valgrind.org/docs/manual/cl-format.html
 */
export type EventTotals = Record<string, number>;

export interface DumpTotals {
  /** The dump's part number (1, 2, ...: one per --dump-after trigger, the final dump last). */
  part: number;
  /** What triggered the dump, e.g. "--dump-after=everycell_workcount_row_done". */
  trigger: string;
  totals: EventTotals;
}

export function parseDump(text: string): DumpTotals {
  let events: string[] | undefined;
  let sums: number[] | undefined;
  let part = 0;
  let trigger = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('events:')) events = line.slice(7).trim().split(/\s+/);
    else if (line.startsWith('summary:') || (sums === undefined && line.startsWith('totals:')))
      sums = line
        .slice(line.indexOf(':') + 1)
        .trim()
        .split(/\s+/)
        .map(Number);
    else if (line.startsWith('part:')) part = Number(line.slice(5).trim());
    else if (line.startsWith('desc: Trigger:')) trigger = line.slice(14).trim();
  }
  if (!events || !sums) throw new Error('not a callgrind dump: no events: or summary: line');
  const totals: EventTotals = {};
  // A counter callgrind left out at the end of the line is zero.
  events.forEach((name, i) => {
    totals[name] = sums?.[i] ?? 0;
  });
  return { part, trigger, totals };
}

/**
 * Callgrind's cycle estimate, as KCachegrind and CodSpeed compute it from the cache and branch
 * simulation: CEst = Ir + 10 Bm + 10 L1m + 100 LLm. Undefined without the simulation's events.
 */
export function cycleEstimate(t: EventTotals): number | undefined {
  if (t.I1mr === undefined || t.Bcm === undefined) return undefined;
  const l1 = (t.I1mr ?? 0) + (t.D1mr ?? 0) + (t.D1mw ?? 0);
  const ll = (t.ILmr ?? 0) + (t.DLmr ?? 0) + (t.DLmw ?? 0);
  const branches = (t.Bcm ?? 0) + (t.Bim ?? 0);
  return (t.Ir ?? 0) + 10 * branches + 10 * l1 + 100 * ll;
}
