import { describe, expect, it } from 'vitest';
import type { Side } from '../src/load/side.js';
import type { RunContext } from '../src/run/context.js';
import { placeEngines } from '../src/run/placement.js';

/** A side that records the CPUs it was pinned to. */
const side = () => {
  const pins: number[][] = [];
  return { pins, pin: async (cpus: readonly number[]) => void pins.push([...cpus]) };
};

describe('placeEngines', () => {
  it('pins every engine that is timed, the merge-base build included, and each stage again', async () => {
    const [candidate, baseline, base] = [side(), side(), side()];
    const ctx = {
      cpus: { harness: [1], engines: [0], all: [0, 1] },
      sides: { candidate: candidate as unknown as Side, baseline: baseline as unknown as Side },
      base: base as unknown as Side,
    } as unknown as RunContext;
    await placeEngines(ctx, 'load');
    await placeEngines(ctx, 'timed');
    // Started as a child of the pinned harness, an unpinned base build would share the harness's core.
    for (const s of [candidate, baseline, base]) expect(s.pins).toEqual([[0, 1], [0]]);
  });

  it('does nothing on a single CPU', async () => {
    const candidate = side();
    const ctx = { sides: { candidate, baseline: side() } } as unknown as RunContext;
    await placeEngines(ctx, 'timed');
    expect(candidate.pins).toEqual([]);
  });
});
