import type { Sample } from '../model/samples.js';
import type { FloorSplit } from '../scorecard/schema.js';
import { rankBand } from '../stats/waterfall.js';

/**
 * One floor request's four instants on CLOCK_MONOTONIC (ns): the harness hands it to its client,
 * the null server's handler receives it, the server replies, the harness has the whole response.
 */
export interface Trip {
  sentNs: bigint;
  receivedNs: bigint;
  repliedNs: bigint;
  gotNs: bigint;
}

/** The null server's `x-null-server-ns` header ("<received> <replied>"), or undefined if malformed. */
export function parseStamps(
  header: string | undefined,
): { receivedNs: bigint; repliedNs: bigint } | undefined {
  const m = header === undefined ? null : /^(\d+) (\d+)$/.exec(header.trim());
  if (!m) return undefined;
  return { receivedNs: BigInt(m[1] as string), repliedNs: BigInt(m[2] as string) };
}

const ms = (ns: bigint) => Number(ns) / 1e6;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * Where the floor's latency at quantile q goes: over the requests ranked around q (rankBand),
 * the mean send lag (queue), the way to the server (the client's write, loopback, the server
 * waking and parsing), the server itself, the way back (its write, loopback, the harness reading
 * the reply), and the rest (the harness's bookkeeping between its clock and the client). The
 * way there and back compare the two processes' readings of one system-wide monotonic clock.
 */
export function floorSplit(
  samples: readonly Sample[],
  trips: ReadonlyMap<number, Trip>,
  q: number,
): FloorSplit | undefined {
  const ok = samples.filter((s) => s.outcome === 'ok' && trips.has(s.i));
  if (ok.length === 0) return undefined;
  const band = rankBand(ok, q);
  const part = (f: (t: Trip) => bigint) => mean(band.map((s) => ms(f(trips.get(s.i) as Trip))));
  const latencyMs = mean(band.map((s) => s.latencyMs));
  const queueMs = mean(band.map((s) => s.lagMs));
  const toServerMs = part((t) => t.receivedNs - t.sentNs);
  const inServerMs = part((t) => t.repliedNs - t.receivedNs);
  const toClientMs = part((t) => t.gotNs - t.repliedNs);
  return {
    q,
    samples: band.length,
    latencyMs: round4(latencyMs),
    queueMs: round4(queueMs),
    toServerMs: round4(toServerMs),
    inServerMs: round4(inServerMs),
    toClientMs: round4(toClientMs),
    restMs: round4(latencyMs - queueMs - toServerMs - inServerMs - toClientMs),
  };
}
