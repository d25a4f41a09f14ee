import { esErrorSummary, TransportError } from '../load/http.js';
import type { Side } from '../load/side.js';
import type { DiskSideRaw } from '../model/raw.js';

/** Store size from an `_stats` response: the index's primaries, else `_all`'s (single index either way). */
function storeBytes(body: unknown, index: string): number | undefined {
  type Stats = { primaries?: { store?: { size_in_bytes?: unknown } } };
  const b = body as { indices?: Record<string, Stats>; _all?: Stats };
  const size = b.indices?.[index]?.primaries?.store?.size_in_bytes ?? b._all?.primaries?.store?.size_in_bytes;
  return typeof size === 'number' ? size : undefined;
}

/**
 * The disk row's measurement on one engine: `_refresh`, `_forcemerge?max_num_segments=1` (so
 * both are compared at one segment, not at wherever their merge policies happen to be), then
 * `_stats/store` and `_count`. A refused force-merge is not fatal: the size after refresh is
 * still a size, and the reason says which it is.
 */
export async function measureDisk(
  side: Side,
  index: string,
  forceMergeTimeoutMs: number,
): Promise<DiskSideRaw> {
  const raw: DiskSideRaw = { supported: true, forceMerged: false };
  try {
    const refresh = await side.json('POST', `/${index}/_refresh`);
    if (refresh.status >= 300)
      return { ...raw, supported: false, error: `refresh: ${esErrorSummary(refresh.status, refresh.body)}` };
    const merge = await side.json(
      'POST',
      `/${index}/_forcemerge?max_num_segments=1`,
      undefined,
      forceMergeTimeoutMs,
    );
    if (merge.status < 300) raw.forceMerged = true;
    else
      raw.forceMergeNote = `force-merge refused (${esErrorSummary(merge.status, merge.body)}), measured after refresh`;
    // A merge can leave the replaced segments on disk until the next refresh releases them.
    await side.json('POST', `/${index}/_refresh`);
    const stats = await side.json('GET', `/${index}/_stats/store`);
    if (stats.status >= 300)
      return { ...raw, supported: false, error: `_stats: ${esErrorSummary(stats.status, stats.body)}` };
    raw.bytes = storeBytes(stats.body, index);
    if (raw.bytes === undefined)
      return { ...raw, supported: false, error: '_stats: no primaries.store.size_in_bytes in the response' };
    const count = await side.json('POST', `/${index}/_count`, { query: { match_all: {} } });
    if (count.status >= 300)
      return { ...raw, supported: false, error: `_count: ${esErrorSummary(count.status, count.body)}` };
    raw.count = (count.body as { count?: number }).count;
    return raw;
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return { ...raw, supported: false, error: `disk: ${error.message}` };
  }
}
