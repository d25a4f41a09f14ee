/** Elasticsearch-shaped errors: the engine's (decoded from the addon) and the service's own. */

export interface EsErrorBody {
  error: unknown;
  status: number;
}

/** An error with the HTTP status and the exact body Elasticsearch would answer with. */
export class EngineError extends Error {
  constructor(
    readonly status: number,
    readonly body: EsErrorBody,
  ) {
    super(typeof body.error === 'string' ? body.error : JSON.stringify(body.error));
    this.name = 'EngineError';
  }

  /** The human-readable reason, for one-line log messages. */
  get reason(): string {
    const error = this.body.error;
    if (typeof error === 'string') return error;
    const reason = (error as { reason?: unknown } | null)?.reason;
    return typeof reason === 'string' ? reason : this.message;
  }

  /** A standard `{"error":{"root_cause":[..],"type","reason"},"status"}` error. */
  static of(status: number, type: string, reason: string, extra: Record<string, unknown> = {}): EngineError {
    const cause = { type, reason, ...extra };
    return new EngineError(status, { error: { root_cause: [cause], ...cause }, status });
  }

  /** ES answers an unknown route with a bare string `error` and no `status`. */
  static bare(status: number, message: string): EngineError {
    return new EngineError(status, { error: message } as EsErrorBody);
  }

  /** An engine reply that is an error, as an error to throw (its status and body as they are). */
  static fromReply(reply: { status: number; body: string | undefined }): EngineError {
    return new EngineError(reply.status, JSON.parse(reply.body ?? '{}') as EsErrorBody);
  }

  /** ES answers wrong methods with a bare string `error`. */
  static plain(status: number, message: string): EngineError {
    return new EngineError(status, { error: message, status });
  }
}

/**
 * The addon reports failures as `{"status":N,"body":{...}}` in the message; anything else
 * (an addon that failed in an unexpected way) becomes a 500 so the service keeps serving.
 */
export function decodeNativeError(err: unknown): EngineError {
  if (err instanceof EngineError) return err;
  const message = err instanceof Error ? err.message : String(err);
  try {
    const parsed = JSON.parse(message) as { status?: unknown; body?: unknown };
    if (typeof parsed.status === 'number' && parsed.body && typeof parsed.body === 'object') {
      return new EngineError(parsed.status, parsed.body as EsErrorBody);
    }
  } catch {
    // Not one of ours: fall through.
  }
  return EngineError.of(500, 'exception', message);
}
