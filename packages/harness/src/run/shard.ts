/**
 * A run split over machines (`--shard K/N`): the matrix's measurements are dealt to N shards, each
 * shard measures its own on one machine (both engines there, as in a whole run), and
 * `npm run merge-cards` joins the N cards into one (merge/). A measurement is dealt whole: a read
 * row with all its forks, the two kNN rows (one index, one measurement), a sweep, an ingest cell.
 * Every shard loads the corpus (every read row needs the index); only one records the load as
 * the ingest.1-client row.
 *
 * The deal is a pure function of the run's settings, so every shard computes the same one without
 * talking to the others: the longest measurement first, each to the shard with the least work so
 * far (Graham's LPT rule: at most 4/3 of the best possible longest shard), ties by id and then by
 * the lowest shard.
 */

/** Which shard a run is: 1-based index of count. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** Shards a matrix splits into at most: beyond this each shard would hold a row or two. */
export const MAX_SHARDS = 32;

/** "K/N" to a spec; a message naming the fix when it is not one. */
export function parseShard(text: string): ShardSpec | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || count > MAX_SHARDS || index < 1 || index > count)
    return `--shard takes K/N with 1 <= K <= N <= ${MAX_SHARDS} (e.g. --shard 1/2), got "${text}"`;
  return { index, count };
}

/** One measurement of the matrix: the id it is dealt by and its expected seconds on one machine. */
export interface ShardUnit {
  id: string;
  seconds: number;
}

/** The kNN rows (knn.latency, knn.recall) come from one index and one measurement: one unit. */
export const KNN_UNIT = 'knn';

/** The unit a row of a card was dealt as. */
export const unitOfRow = (rowId: string): string => (rowId.startsWith('knn.') ? KNN_UNIT : rowId);

/** The deal: every unit's shard (1-based), keyed in the run's row order. */
export type ShardAssignment = Record<string, number>;

export function assignShards(units: readonly ShardUnit[], count: number): ShardAssignment {
  const ids = new Set<string>();
  for (const u of units) {
    if (ids.has(u.id)) throw new Error(`shard deal: the unit ${u.id} is listed twice`);
    ids.add(u.id);
  }
  const order = [...units].sort((a, b) => b.seconds - a.seconds || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const load = Array<number>(count).fill(0);
  const dealt = new Map<string, number>();
  for (const unit of order) {
    let best = 0;
    for (let k = 1; k < count; k++) if ((load[k] as number) < (load[best] as number)) best = k;
    load[best] = (load[best] as number) + Math.max(0, unit.seconds);
    dealt.set(unit.id, best + 1);
  }
  // In the units' own order (the run's row order), which a merged card keeps.
  return Object.fromEntries(units.map((u) => [u.id, dealt.get(u.id) as number]));
}

/** A shard's view of the deal, as the run uses it and its manifest records it. */
export interface ShardPlan extends ShardSpec {
  assignment: ShardAssignment;
}

/** Whether a run measures the unit: a whole run measures every one; a shard only its own. */
export const ownsUnit = (shard: ShardPlan | undefined, id: string): boolean =>
  shard === undefined || shard.assignment[id] === shard.index;

/** The units a shard measures, in the deal's id order. */
export const unitsOf = (shard: ShardPlan, index = shard.index): string[] =>
  Object.keys(shard.assignment)
    .filter((id) => shard.assignment[id] === index)
    .sort();

/** Expected seconds of each shard under a deal (for the run's log and the tests). */
export function shardSeconds(
  units: readonly ShardUnit[],
  assignment: ShardAssignment,
  count: number,
): number[] {
  const out = Array<number>(count).fill(0);
  for (const u of units) {
    const k = assignment[u.id];
    if (k !== undefined) out[k - 1] = (out[k - 1] as number) + u.seconds;
  }
  return out;
}
