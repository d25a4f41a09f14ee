/** How one scheduled request ended. */
export type Outcome = 'ok' | 'http_error' | 'timeout' | 'transport_error' | 'dropped';

/** One scheduled request of a timed or warmup phase, kept raw for the samples/ folder. */
export interface Sample {
  /** Index within its phase (timed samples: unique within the row across rounds). */
  i: number;
  phase: 'warmup' | 'timed';
  /** Process execution (fork) of the engine the sample was measured in, from 0. */
  fork?: number;
  round: number;
  /**
   * Intended send instant, ms: after the phase started as the open loop records it; read rows
   * renumber it onto the engine's own timed schedule for the row (phases laid end to end).
   */
  atMs: number;
  outcome: Outcome;
  /** HTTP status, 0 when there was none. */
  status: number;
  /** Actual send minus intended send, ms (NaN when dropped). */
  lagMs: number;
  /** Response end minus INTENDED send, ms: includes any wait the schedule imposed. */
  latencyMs: number;
  /** Response end minus actual send, ms. */
  serviceMs: number;
  /** What the engine said about its own time on this request (read rows): see EngineTiming. */
  engine?: EngineTiming;
}

/**
 * An engine's own account of one request's time, ms, for the latency waterfall
 * (stats/waterfall.ts). `tookMs` is the response's `took` (whole milliseconds, rounded down, as
 * Elasticsearch and OpenSearch report it); the others come from a `Server-Timing` header (the
 * candidate's: `engine` inside the addon, `call` the napi call with routing and any pool trip,
 * `service` the whole HTTP handler).
 */
export interface EngineTiming {
  tookMs?: number;
  engineMs?: number;
  callMs?: number;
  handlerMs?: number;
}

/** What a send reports back to the open loop. */
export interface SendResult {
  outcome: Exclude<Outcome, 'dropped'>;
  status: number;
  engine?: EngineTiming;
}
