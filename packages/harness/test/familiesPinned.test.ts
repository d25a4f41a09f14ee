import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_FAMILIES } from '../src/families/index.js';
import { WORKLOADS } from '../src/families/workloads.js';
import { MIXED_SOURCE_FAMILIES } from '../src/measure/mixed.js';
import { type Pin, pinOf } from './helpers/pins.js';

/**
 * The read rows as a run sends them, pinned. `fixtures/families-pinned.json` was written from the
 * rows as they stood before the families were regrouped by what they exercise (per corpus: id,
 * order, metadata and a hash of the first request bodies for a fixed seed). A run before and after
 * sends byte-identical requests; rows added since sit at the end of their group's run and leave
 * the others' order alone.
 */

const fixture = JSON.parse(
  readFileSync(new URL('./fixtures/families-pinned.json', import.meta.url), 'utf8'),
) as { 'before-regroup': Record<string, Pin[]>; 'llm-telemetry ids': string[] };
const pinned = fixture['before-regroup'];
/** Every row of the default corpus in scorecard order, the rows added since the regroup included. */
const TELEMETRY_IDS = fixture['llm-telemetry ids'];

describe('the read rows are pinned', () => {
  for (const workload of WORKLOADS) {
    const before = pinned[workload.corpus.id];
    if (!before) continue;
    it(`${workload.corpus.id}: each row pinned before the regroup keeps its id, order, metadata and requests`, () => {
      const now = new Map(workload.families.map((f) => [f.id, pinOf(f)]));
      for (const p of before) expect(now.get(p.id), p.id).toEqual(p);
      const order = workload.families.map((f) => f.id).filter((id) => before.some((p) => p.id === id));
      expect(order).toEqual(before.map((p) => p.id));
    });
  }

  it('llm-telemetry: the full list of row ids, in scorecard order', () => {
    expect(ALL_FAMILIES.map((f) => f.id)).toEqual(TELEMETRY_IDS);
  });

  it('mixed rows read from rows of the default corpus', () => {
    for (const id of MIXED_SOURCE_FAMILIES)
      expect(
        ALL_FAMILIES.some((f) => f.id === id),
        id,
      ).toBe(true);
  });
});
