import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEngine } from '../src/engines/types.js';
import { Side, whileFrozen } from '../src/load/side.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A process with a child of its own, as the OpenSearch launcher or a shell wrapper would have. */
function engineProcess(): ChildProcess {
  const child = spawn('sh', ['-c', 'sleep 60 & wait'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

function sideOf(child: ChildProcess): Side {
  const engine: RunningEngine = {
    role: 'baseline',
    product: 'test',
    version: '0',
    url: 'http://127.0.0.1:1',
    pid: child.pid,
    exited: new Promise(() => {}),
    stop: async () => {},
  };
  return new Side(engine, 1, 1000, new AbortController().signal);
}

/** The scheduler state of `pid` (R, S, T for stopped, ...). */
const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
const childPids = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

async function settled(pid: number, want: string): Promise<string | undefined> {
  for (let i = 0; i < 100 && state(pid) !== want; i++) await new Promise((r) => setTimeout(r, 10));
  return state(pid);
}

describe('freezing the engines that are not timed', () => {
  it('stops every process of the tree while the phase runs and resumes them after', async () => {
    const child = engineProcess();
    const pid = child.pid as number;
    await new Promise((r) => setTimeout(r, 100));
    const [grandchild] = childPids(pid);
    expect(grandchild).toBeGreaterThan(0);
    const inside = await whileFrozen([sideOf(child)], async () => [
      await settled(pid, 'T'),
      await settled(grandchild as number, 'T'),
    ]);
    expect(inside).toEqual(['T', 'T']);
    expect(await settled(pid, 'S')).toBe('S');
    expect(await settled(grandchild as number, 'S')).toBe('S');
  });

  it('thaws them when the timed phase throws', async () => {
    const child = engineProcess();
    const pid = child.pid as number;
    await expect(
      whileFrozen([sideOf(child)], async () => {
        expect(await settled(pid, 'T')).toBe('T');
        throw new Error('the engine under test failed');
      }),
    ).rejects.toThrow('the engine under test failed');
    expect(await settled(pid, 'S')).toBe('S');
  });

  it('thaws an engine before it is stopped for a restart', async () => {
    const child = engineProcess();
    const pid = child.pid as number;
    const side = sideOf(child);
    await side.freeze();
    expect(await settled(pid, 'T')).toBe('T');
    await side.pause();
    expect(await settled(pid, 'S')).toBe('S');
  });

  it('leaves an engine given by URL alone', async () => {
    const side = sideOf({ pid: undefined } as ChildProcess);
    await expect(whileFrozen([side], async () => 'ran')).resolves.toBe('ran');
  });
});
