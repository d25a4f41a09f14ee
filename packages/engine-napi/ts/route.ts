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
}

export type Handler = (engine: Engine, req: Request, vars: Record<string, string>) => Reply | Promise<Reply>;

export interface Route {
  methods: string[];
  pattern: string[];
  handler: Handler;
}
