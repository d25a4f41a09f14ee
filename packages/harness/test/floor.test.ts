import { describe, expect, it } from 'vitest';
import { floorOf, measureFloor, NULL_SERVER } from '../src/floor/measureFloor.js';
import { spawnServer } from '../src/floor/spawnServer.js';
import type { Sample } from '../src/model/samples.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('null-server floor', () => {
  it('runs the null server in its own process, answering 200 with a search-shaped body, until stopped', async () => {
    const server = await spawnServer(NULL_SERVER);
    expect(server.pid).not.toBe(process.pid);
    const res = await fetch(`${server.url}/x/_search`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { hits: { total: { value: number } } }).hits.total.value).toBe(0);
    expect(alive(server.pid)).toBe(true);
    await server.stop();
    expect(alive(server.pid)).toBe(false);
  });

  it('measures the harness at the given rate and count', async () => {
    const floor = await measureFloor({
      rate: 500,
      connections: 8,
      timeoutMs: 2000,
      iterations: 200,
      prewarm: 20,
    });
    expect(floor.rate).toBe(500);
    expect(floor.p50).toBeGreaterThan(0);
    expect(floor.p99).toBeGreaterThanOrEqual(floor.p50);
    expect(floor.sendLagP99).toBeGreaterThanOrEqual(floor.sendLagP50);
    expect(floor.sendLagP50).toBeGreaterThanOrEqual(0);
    // Loopback and a do-nothing server: anything near a second means the floor is measuring something else.
    expect(floor.p50).toBeLessThan(100);
  }, 30_000);

  it('refuses to report a floor from a server that never answered', () => {
    const failed: Sample[] = [
      {
        i: 0,
        phase: 'timed',
        round: 0,
        atMs: 0,
        outcome: 'transport_error',
        status: 0,
        lagMs: 0,
        latencyMs: 1,
        serviceMs: 1,
      },
    ];
    expect(() => floorOf(failed, 200)).toThrow(/answered none of 1 requests \(1 failed\)/);
  });
});

describe('wrk output', () => {
  it('reads the 50% line in any of wrk units', async () => {
    const { wrkDurationMs, wrkP50 } = await import('../src/floor/wrk.js');
    const out = `Running 5s test @ http://127.0.0.1:1/x\n  Latency Distribution\n     50%   52.00us\n     75%    1.20ms\n`;
    expect(wrkP50(out)).toBeCloseTo(0.052, 9);
    expect(wrkDurationMs('1.20ms')).toBe(1.2);
    expect(wrkDurationMs('2.00s')).toBe(2000);
    expect(() => wrkP50('no latency here')).toThrow(/no "50%" line/);
  });
});
