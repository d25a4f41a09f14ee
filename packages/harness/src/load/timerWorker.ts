import { Worker } from 'node:worker_threads';
import { type Clock, preciseSleepUntil, spinWhileInFlight, yieldOnce } from './clock.js';

/**
 * The worker's side: for each request { id, wakeNs }, block in Atomics.wait (futex, sub-ms
 * timeouts) until shortly before wakeNs, spin the last stretch, then post the id back. It
 * handles one sleep at a time, which is all an open loop needs.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const cell = new Int32Array(new SharedArrayBuffer(4));
parentPort.on('message', ({ id, wakeNs }) => {
  const wake = BigInt(wakeNs);
  for (;;) {
    const left = Number(wake - process.hrtime.bigint());
    if (left <= 0) break;
    if (left > 300000) Atomics.wait(cell, 0, 0, (left - 200000) / 1e6);
  }
  parentPort.postMessage(id);
});
`;

/**
 * A clock whose sleeps are timed by a dedicated worker thread instead of the event loop: the
 * main thread stays idle (in epoll, reading responses) until the worker wakes it `earlyNs`
 * before the target, then yield-spins only that last stretch. Precise like a spin, without
 * burning a core between sends (which, on a 2-core box, the server under test needs).
 */
export function workerClock(earlyNs = 150_000n): Clock & { close(): Promise<void> } {
  const worker = new Worker(WORKER_SOURCE, { eval: true });
  worker.unref();
  // A thread takes tens of ms to start: until it is up, sleep the event-loop way.
  let online = false;
  worker.once('online', () => {
    online = true;
  });
  const waiting = new Map<number, () => void>();
  let next = 0;
  worker.on('message', (id: number) => {
    waiting.get(id)?.();
    waiting.delete(id);
    // Only a pending sleep keeps the process alive.
    if (waiting.size === 0) worker.unref();
  });
  const now = () => process.hrtime.bigint();
  return {
    now,
    async sleepUntil(targetNs, inFlight) {
      if (!online) return preciseSleepUntil(targetNs, now, undefined, inFlight);
      if (inFlight) await spinWhileInFlight(targetNs, inFlight, now);
      if (targetNs - now() > earlyNs) {
        const id = next++;
        worker.ref();
        await new Promise<void>((resolve) => {
          waiting.set(id, resolve);
          worker.postMessage({ id, wakeNs: String(targetNs - earlyNs) });
        });
      }
      while (now() < targetNs) await yieldOnce();
    },
    close: () => worker.terminate().then(() => undefined),
  };
}
