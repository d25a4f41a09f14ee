import type { RunningEngine } from '../engines/types.js';
import { EngineFailure, Interrupted } from './errors.js';
import { EngineClient, type HttpResponse, TransportError } from './http.js';

/**
 * One side of the comparison during a run: the engine, its client, and whether it died.
 * Every request goes through `send`, so a dead engine stops the run the moment it shows.
 */
export class Side {
  readonly client: EngineClient;
  private deathNote: string | undefined;

  constructor(
    readonly engine: RunningEngine,
    connections: number,
    timeoutMs: number,
    private readonly abort: AbortSignal,
  ) {
    this.client = new EngineClient(engine.url, connections, timeoutMs);
    engine.exited.then(({ code, signal }) => {
      this.deathNote = `engine process exited (code ${code}, signal ${signal}) during the run`;
    });
  }

  get role() {
    return this.engine.role;
  }

  /** Throw if the engine died or the user interrupted; called between phases and requests. */
  check(): void {
    if (this.deathNote) throw new EngineFailure(this.role, this.deathNote);
    if (this.abort.aborted) throw new Interrupted();
  }

  get stopped(): boolean {
    return this.deathNote !== undefined || this.abort.aborted;
  }

  /**
   * Send one request. Timeouts and resets come back as TransportError for the error counts;
   * a refused connection or an exited process means the engine is gone: EngineFailure.
   */
  async send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: string,
    timeoutMs?: number,
  ): Promise<HttpResponse> {
    this.check();
    try {
      return await this.client.request(method, path, body, timeoutMs);
    } catch (error) {
      this.check();
      if (error instanceof TransportError && error.kind === 'refused')
        throw new EngineFailure(this.role, error.message);
      throw error;
    }
  }

  async json(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, timeoutMs?: number) {
    const res = await this.send(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      timeoutMs,
    );
    let parsed: unknown;
    try {
      parsed = JSON.parse(res.text);
    } catch {
      parsed = res.text;
    }
    return { status: res.status, body: parsed };
  }
}
