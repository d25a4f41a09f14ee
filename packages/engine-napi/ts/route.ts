/** What a route is: a request, the reply it gets, and the handler between them. */
import type { Engine } from './engine.js';

export interface Request {
  method: string;
  /** Decoded path segments, e.g. ['logs', '_search']. */
  segments: string[];
  params: Record<string, string>;
  body: Buffer;
  /** The raw request target, for error messages. */
  uri: string;
}

export interface Reply {
  status: number;
  /** JSON text, or undefined for HEAD-style answers without a body. */
  body: string | undefined;
  /** Set only for non-JSON answers (`_cat` text tables). */
  contentType?: string;
  /** Deprecation and overlap notices, sent as ES's `Warning` headers. */
  warnings?: string[];
  /** The engine's own time on the call, measured inside the addon (`Server-Timing: engine`). */
  nativeMs?: number | null;
}

export type Handler = (engine: Engine, req: Request, vars: Record<string, string>) => Reply | Promise<Reply>;

export interface Route {
  methods: string[];
  pattern: string[];
  handler: Handler;
  /**
   * The URL parameters this route implements (beyond `GLOBAL_PARAMS`); any other is refused
   * with ES's 400, so nothing is silently ignored. `'engine'`: the engine validates them itself.
   */
  params?: readonly string[] | 'engine';
}

/** Parameters every route takes: output formatting and response filtering. */
export const GLOBAL_PARAMS: readonly string[] = ['pretty', 'human', 'error_trace', 'filter_path'];

/** Write parameters that change nothing on a one-node, one-shard engine (ES accepts them). */
export const WRITE_WAIT_PARAMS: readonly string[] = ['timeout', 'wait_for_active_shards', 'master_timeout'];
