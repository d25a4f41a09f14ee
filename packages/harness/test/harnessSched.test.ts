import { describe, expect, it } from 'vitest';
import { addSched, type ProcReader, recordHarnessSched } from '../src/load/harnessSched.js';
import { summarizeSide } from '../src/verdict/readRowResult.js';
import { okTimedSamples } from './helpers/samples.js';

/** A /proc whose counters the test moves between the two readings. */
function fakeProc(cpus: string) {
  const state = { waitNs: 5_000_000, involuntary: 7, steal: [100, 200] as [number, number] };
  const reader: ProcReader = (path) => {
    if (path === '/proc/thread-self/schedstat') return `123456 ${state.waitNs} 42\n`;
    if (path === '/proc/thread-self/status')
      return `Name:\tnode\nCpus_allowed_list:\t${cpus}\nvoluntary_ctxt_switches:\t3\nnonvoluntary_ctxt_switches:\t${state.involuntary}\n`;
    if (path === '/proc/stat')
      return `cpu  1 2 3 4 5 6 7 ${state.steal[0] + state.steal[1]} 0 0\n${state.steal
        .map((s, i) => `cpu${i} 1 2 3 4 5 6 7 ${s} 0 0`)
        .join('\n')}\nintr 0\n`;
    throw new Error(`ENOENT ${path}`);
  };
  return { state, reader };
}

describe("the harness's sending thread's scheduling", () => {
  it('reports the run-queue wait, involuntary switches and its CPU steal over a window', () => {
    const { state, reader } = fakeProc('1');
    const end = recordHarnessSched(reader);
    state.waitNs += 12_500_000;
    state.involuntary += 4;
    state.steal = [150, 203];
    expect(end()).toEqual({ runQueueWaitMs: 12.5, involuntarySwitches: 4, stealMs: 30 });
  });

  it('leaves steal out when the thread may run on several CPUs', () => {
    const { state, reader } = fakeProc('0-1');
    const end = recordHarnessSched(reader);
    state.steal = [150, 203];
    expect(end()).toEqual({ runQueueWaitMs: 0, involuntarySwitches: 0 });
  });

  it('reports nothing where the kernel keeps no schedstats', () => {
    const end = recordHarnessSched(() => {
      throw new Error('ENOENT');
    });
    expect(end()).toBeUndefined();
  });

  it('reads the real kernel on Linux', () => {
    if (process.platform !== 'linux') return;
    const end = recordHarnessSched();
    let x = 0;
    for (let i = 0; i < 1e6; i++) x += i;
    const window = end();
    expect(x).toBeGreaterThan(0);
    expect(window?.runQueueWaitMs).toBeGreaterThanOrEqual(0);
    expect(window?.involuntarySwitches).toBeGreaterThanOrEqual(0);
  });

  it('adds windows, and is published on the side with the reason', () => {
    expect(addSched(undefined, { runQueueWaitMs: 1, involuntarySwitches: 2 })).toEqual({
      runQueueWaitMs: 1,
      involuntarySwitches: 2,
    });
    expect(
      addSched(
        { runQueueWaitMs: 1, involuntarySwitches: 2, stealMs: 10 },
        { runQueueWaitMs: 2, involuntarySwitches: 1 },
      ),
    ).toEqual({ runQueueWaitMs: 3, involuntarySwitches: 3, stealMs: 10 });
    const timed = okTimedSamples(50);
    const side = summarizeSide(
      {
        supported: true,
        timed,
        warmup: [],
        harnessSched: { runQueueWaitMs: 4.12345, involuntarySwitches: 9, stealMs: 20 },
      },
      { rate: 200, collapseErrorRate: 0.01 },
    );
    expect(side.harnessSched).toEqual({ runQueueWaitMs: 4.123, involuntarySwitches: 9, stealMs: 20 });
  });
});
