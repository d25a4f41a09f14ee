import { describe, expect, it } from 'vitest';
import { floorSplit, parseStamps } from '../src/floor/floorSplit.js';
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
    // Split by the null server's stamps: the parts add up, each crossing takes time, and the
    // split's bands sit where the floor's own quantiles are.
    for (const s of [floor.split?.p50, floor.split?.p99]) {
      expect(s).toBeDefined();
      if (!s) continue;
      expect(s.toServerMs).toBeGreaterThan(0);
      expect(s.inServerMs).toBeGreaterThanOrEqual(0);
      expect(s.toClientMs).toBeGreaterThan(0);
      expect(s.queueMs + s.toServerMs + s.inServerMs + s.toClientMs + s.restMs).toBeCloseTo(s.latencyMs, 3);
    }
    expect(floor.split?.p99.latencyMs).toBeGreaterThanOrEqual(floor.split?.p50.latencyMs as number);
    expect(floor.runQueueWaitMs?.server).toBeGreaterThanOrEqual(0);
  }, 30_000);

  it('splits a floor request by the stamps, and ignores replies without them', () => {
    const sample = (i: number, latencyMs: number): Sample => ({
      i,
      phase: 'timed',
      round: 0,
      atMs: i,
      outcome: 'ok',
      status: 200,
      lagMs: 0.01,
      latencyMs,
      serviceMs: latencyMs - 0.01,
    });
    // Sent at 1 ms, received 0.1 ms later, replied 0.02 ms after that, back 0.05 ms later.
    const trip = (base: bigint) => ({
      sentNs: base,
      receivedNs: base + 100_000n,
      repliedNs: base + 120_000n,
      gotNs: base + 170_000n,
    });
    const trips = new Map([
      [0, trip(1_000_000n)],
      [1, trip(2_000_000n)],
    ]);
    const split = floorSplit([sample(0, 0.2), sample(1, 0.2), sample(2, 9)], trips, 50);
    // Sample 2 has no stamps: the band is around the median of the other two (one request each side at most).
    expect(split).toEqual({
      q: 50,
      samples: 1,
      latencyMs: 0.2,
      queueMs: 0.01,
      toServerMs: 0.1,
      inServerMs: 0.02,
      toClientMs: 0.05,
      restMs: 0.02,
    });
    expect(parseStamps('12 34')).toEqual({ receivedNs: 12n, repliedNs: 34n });
    expect(parseStamps('12')).toBeUndefined();
    expect(floorSplit([sample(0, 1)], new Map(), 50)).toBeUndefined();
  });

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
