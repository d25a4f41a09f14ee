import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChildServer, spawnServer } from '../src/floor/spawnServer.js';
import { type FakeEs, startFakeEs } from './helpers/fakeEs.js';

const PROXY = fileURLToPath(new URL('../src/calibrate/delayProxy.ts', import.meta.url));
const open: (ChildServer | FakeEs)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => ('stop' in s ? s.stop() : s.close())));
});

async function timeSearch(url: string): Promise<{ ms: number; status: number; total: number }> {
  const t = performance.now();
  const res = await fetch(`${url}/idx/_search`, { method: 'POST', body: '{"query":{"match_all":{}}}' });
  const json = (await res.json()) as { hits: { total: { value: number } } };
  return { ms: performance.now() - t, status: res.status, total: json.hits.total.value };
}

describe("delay proxy (calibration A')", () => {
  it('passes answers through and adds the given fraction of the upstream time', async () => {
    const upstream = await startFakeEs({ name: 'up', delayMs: 40, total: 7 });
    open.push(upstream);
    const plain = await spawnServer(PROXY, ['--upstream', upstream.url, '--fraction', '0']);
    const slowed = await spawnServer(PROXY, ['--upstream', upstream.url, '--fraction', '0.5']);
    open.push(plain, slowed);
    // Median of 5 after a warm-up request each (connection set-up, JIT), alternating the proxies.
    const runs: { a: Awaited<ReturnType<typeof timeSearch>>; b: Awaited<ReturnType<typeof timeSearch>> }[] =
      [];
    for (let k = 0; k < 6; k++)
      runs.push({ a: await timeSearch(plain.url), b: await timeSearch(slowed.url) });
    for (const r of runs) {
      expect(r.a).toMatchObject({ status: 200, total: 7 });
      expect(r.b).toMatchObject({ status: 200, total: 7 });
    }
    const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
    const a = median(runs.slice(1).map((r) => r.a.ms));
    const b = median(runs.slice(1).map((r) => r.b.ms));
    // 40 ms upstream: the plain hop adds little, the 50% proxy about 20 ms more.
    expect(a).toBeGreaterThanOrEqual(40);
    expect(b - a).toBeGreaterThan(12);
    expect(b - a).toBeLessThan(60);
  });

  it('refuses to start without an upstream, naming the fix', async () => {
    await expect(spawnServer(PROXY, ['--fraction', '0.1'])).rejects.toThrow(/needs --upstream/);
  });
});
