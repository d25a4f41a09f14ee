/**
 * Where a latency goes, split into parts that add up: an engine's waterfall per read row
 * (stats/waterfall.ts) and the harness floor's split (floor/floorSplit.ts). The types of the
 * scorecard contract (re-exported by schema.ts) and their run-time checks (used by validate.ts).
 */
import { z } from 'zod';

const finite = z.number();
const count = z.number().int().nonnegative();

/**
 * Where one engine's latency at a quantile goes, ms: the mean of each part over the requests in a
 * band of ranks around the quantile (`band`), so the parts of one set of requests add up to its
 * mean latency. `restMs` is what is left: HTTP and JSON beyond the floor's round trip, and for an
 * engine that only reports `took`, its own time below the millisecond it rounds down. It can be
 * below zero when the engine's HTTP layer answers faster than the floor's null server.
 */
export interface Waterfall {
  /** The quantile, in percent (50 or 99). */
  q: number;
  /** Successful timed requests in the band whose parts are averaged. */
  samples: number;
  /** Mean latency from the intended send over the band. */
  latencyMs: number;
  /** The harness's own round trip: the floor's latency at q less the floor's send lag at q. */
  floorMs: number;
  /** Send lag: how late the harness sent (queueing behind the schedule). */
  queueMs: number;
  /** The engine's own time: the addon's (`Server-Timing: engine`) or the response's `took`. */
  engineMs?: number;
  /** Where engineMs came from; 'took' is whole milliseconds rounded down. */
  engineSource?: 'server-timing' | 'took';
  /** Candidate: the napi call beyond the engine (routing, argument and reply conversion, pool trip). */
  hopMs?: number;
  /** Candidate: the HTTP handler beyond the call (body read, URL parse, response filtering). */
  serviceMs?: number;
  restMs: number;
}

/**
 * The floor's latency at a quantile split by the null server's own clock stamps, ms: the mean of
 * each part over the requests ranked around the quantile, adding up to their mean latency.
 */
export interface FloorSplit {
  q: number;
  samples: number;
  latencyMs: number;
  /** Send lag: how late the harness sent. */
  queueMs: number;
  /** From the harness's send to the server's handler: client write, loopback, the server waking and parsing. */
  toServerMs: number;
  /** The null server's handler, reading the body to replying. */
  inServerMs: number;
  /** From the server's reply to the harness holding it: loopback, the harness waking and reading. */
  toClientMs: number;
  /** The harness's bookkeeping around the client call (promise hand-offs). */
  restMs: number;
}

/** The floor's latency at a quantile split by the null server's stamps (floor/floorSplit.ts). */
export const floorSplit = z.looseObject({
  q: finite.positive(),
  samples: count,
  latencyMs: finite,
  queueMs: finite,
  toServerMs: finite,
  inServerMs: finite,
  toClientMs: finite,
  restMs: finite,
});

/** Where an engine's latency at one quantile goes (stats/waterfall.ts). */
export const waterfall = z.looseObject({
  q: finite.positive(),
  samples: count,
  latencyMs: finite,
  floorMs: finite.nonnegative(),
  queueMs: finite,
  engineMs: finite.nonnegative().optional(),
  engineSource: z.enum(['server-timing', 'took']).optional(),
  hopMs: finite.optional(),
  serviceMs: finite.optional(),
  restMs: finite,
});
