import { nodeStatsCpuNs } from '../engines/nodeStats.js';
import { pinTree } from '../engines/placement.js';
import { descendants, procFs, signalAll, treeCpuNs } from '../engines/proc.js';
import type { RunningEngine } from '../engines/types.js';
import { EngineFailure, Interrupted } from './errors.js';
import { EngineClient, type HttpResponse, TransportError } from './http.js';

/** How long a restarted engine gets to answer `_count` with the documents it held. */
const RECOVER_COUNT_TIMEOUT_MS = 60_000;
/** A liveness check: an engine that cannot answer GET / within this is taken to hang. */
const ALIVE_TIMEOUT_MS = 5_000;

/**
 * One side of the comparison during a run: the engine, its client, and whether it died.
 * Every request goes through `send`, so a dead engine fails the current row the moment it shows;
 * `recover` then brings a harness-started engine back on the same data, or marks the side gone.
 */
export class Side {
  private current: RunningEngine;
  private http: EngineClient;
  private deathNote: string | undefined;
  /** Bumped on every restart, so the exit of a replaced process is not taken for a new death. */
  private generation = 0;
  /** Set when the engine died and could not be brought back: every later row is collapsed. */
  gone: string | undefined;
  /** Restarts done during the run. */
  restarts = 0;
  /** Why this engine's node stats could not give its CPU time (engines by URL), once it failed. */
  nodeStatsError: string | undefined;
  /** The processes `freeze` stopped (the engine and its descendants), until `thaw` resumes them. */
  private frozen: number[] | undefined;

  constructor(
    engine: RunningEngine,
    private readonly connections: number,
    private readonly timeoutMs: number,
    private readonly abort: AbortSignal,
  ) {
    this.current = engine;
    this.http = this.attach(engine);
  }

  private attach(engine: RunningEngine): EngineClient {
    const generation = ++this.generation;
    this.current = engine;
    this.deathNote = undefined;
    engine.exited.then(({ code, signal }) => {
      if (generation === this.generation)
        this.deathNote = `engine process exited (code ${code}, signal ${signal}) during the run`;
    });
    return new EngineClient(engine.url, this.connections, this.timeoutMs);
  }

  get engine(): RunningEngine {
    return this.current;
  }

  get client(): EngineClient {
    return this.http;
  }

  get role() {
    return this.current.role;
  }

  /** Throw if the engine died (or is gone) or the user interrupted; called between phases and requests. */
  check(): void {
    if (this.abort.aborted) throw new Interrupted();
    if (this.gone) throw new EngineFailure(this.role, this.gone);
    if (this.deathNote) throw new EngineFailure(this.role, this.deathNote);
  }

  get stopped(): boolean {
    return this.deathNote !== undefined || this.gone !== undefined || this.abort.aborted;
  }

  /**
   * Send one request. Timeouts and resets come back as TransportError for the error counts;
   * a refused connection or an exited process means the engine is gone: EngineFailure.
   */
  async send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: string | Buffer,
    timeoutMs?: number,
  ): Promise<HttpResponse> {
    this.check();
    try {
      return await this.http.request(method, path, body, timeoutMs);
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

  /**
   * On-CPU ns of the engine so far: its process tree's threads (schedstat) when the harness
   * started it, else the process CPU its node stats API reports (engines given by URL; ms
   * resolution, summed over a cluster's nodes). Undefined when neither can be read: an engine
   * whose node stats failed once is not asked again.
   */
  async cpuNs(): Promise<number | undefined> {
    const pid = this.current.pid;
    if (pid !== undefined) return treeCpuNs(pid);
    if (this.nodeStatsError !== undefined) return undefined;
    const ns = await nodeStatsCpuNs((path) => this.json('GET', path, undefined, ALIVE_TIMEOUT_MS));
    if (typeof ns === 'string') {
      this.nodeStatsError = ns;
      return undefined;
    }
    return ns;
  }

  /** Where `cpuNs` reads from. */
  get cpuSource(): 'proc-schedstat' | 'nodes-stats' {
    return this.current.pid === undefined ? 'nodes-stats' : 'proc-schedstat';
  }

  /** Pin the engine's threads to `cpus` (engines the harness started; a no-op for engines by URL). */
  async pin(cpus: readonly number[]): Promise<void> {
    const pid = this.current.pid;
    if (pid !== undefined) await pinTree(pid, cpus);
  }

  /**
   * A planned restart between forks: a fresh process on the same data (JIT, caches and heap start
   * over), ready once `index` answers `_count` = `expectedDocs`. Unlike `recover`, nothing failed.
   * Engines given by URL cannot be restarted: false, and the fork runs on the same process.
   * `expectedDocs` undefined: the engine refused the corpus, so only its answering is awaited.
   */
  async fork(index: string, expectedDocs: number | undefined): Promise<boolean> {
    const old = this.current;
    if (!old.restart) return false;
    this.check();
    await this.thaw();
    // Generation first: the old process's exit is expected, not a death.
    this.generation++;
    await old.stop();
    await this.http.close().catch(() => {});
    const fresh = await old.restart();
    this.http = this.attach(fresh);
    // An engine that never took the corpus (it refused the index) has nothing to wait for.
    if (expectedDocs === undefined) return true;
    const counted = await this.waitForCount(index, expectedDocs);
    if (counted !== expectedDocs)
      throw new EngineFailure(
        this.role,
        `restarted for a new fork, but ${index}/_count is ${counted ?? 'unanswered'}, expected ${expectedDocs}`,
      );
    return true;
  }

  /**
   * Stop the engine's process for a moment (its next `fork` starts it again), e.g. so its data
   * folder can be copied while nothing writes to it. The exit is expected, not a death.
   */
  async pause(): Promise<void> {
    await this.thaw();
    this.generation++;
    await this.current.stop();
  }

  /**
   * Freeze the engine's process tree (SIGSTOP) while another engine is timed on the same CPUs:
   * an idle JVM is not idle (its JIT compiles what the last phase ran: OpenSearch took a median
   * 522 ms of CPU per second while the candidate was timed, on the candidate's CPU). A no-op for
   * engines given by URL. Always paired with `thaw` (see `whileFrozen`).
   */
  async freeze(): Promise<void> {
    const pid = this.current.pid;
    if (pid === undefined || this.frozen || this.stopped) return;
    // A stopped tree cannot fork, so the list taken here is the one to resume.
    this.frozen = [pid, ...(await descendants(pid, procFs))];
    signalAll(this.frozen, 'SIGSTOP');
  }

  /** Undo `freeze` (SIGCONT); the engine then catches up on whatever it had deferred, on its own time. */
  async thaw(): Promise<void> {
    if (!this.frozen) return;
    signalAll(this.frozen, 'SIGCONT');
    this.frozen = undefined;
  }

  /** Does the engine answer GET / at all? A hung engine (alive process, no answers) does not. */
  async alive(): Promise<boolean> {
    if (this.stopped) return false;
    try {
      const res = await this.http.request('GET', '/', undefined, ALIVE_TIMEOUT_MS);
      return res.status === 200;
    } catch {
      return false;
    }
  }

  /**
   * After the engine died or hung: stop what is left of it, start a fresh process on the same
   * data (the harness-started engines keep a translog, so acknowledged documents survive), and
   * wait until `index` answers `_count` = `expectedDocs`. An engine the harness did not start
   * is only checked for having come back by itself. Returns what happened, for the failure note;
   * when the engine cannot come back, `gone` is set and every later row collapses on this side.
   */
  async recover(index: string, expectedDocs: number): Promise<string> {
    if (this.abort.aborted) throw new Interrupted();
    const old = this.current;
    await this.thaw();
    if (old.restart) {
      try {
        await old.stop();
        await this.http.close().catch(() => {});
        const fresh = await old.restart();
        this.http = this.attach(fresh);
        this.restarts++;
      } catch (error) {
        this.gone = `could not be restarted: ${(error as Error).message.split('\n')[0]}`;
        return this.gone;
      }
    } else if (!(await this.aliveIgnoringDeath())) {
      this.gone = 'not started by the harness, so not restarted, and it does not answer';
      return this.gone;
    }
    const counted = await this.waitForCount(index, expectedDocs);
    if (counted !== expectedDocs) {
      this.gone = `${old.restart ? 'restarted, but' : 'answers again, but'} ${index}/_count is ${counted ?? 'unanswered'} after ${RECOVER_COUNT_TIMEOUT_MS / 1000} s, expected ${expectedDocs}`;
      return this.gone;
    }
    this.deathNote = undefined;
    return old.restart
      ? `restarted on the same data (_count ${expectedDocs})`
      : `answers again (_count ${expectedDocs})`;
  }

  private async aliveIgnoringDeath(): Promise<boolean> {
    try {
      return (await this.http.request('GET', '/', undefined, ALIVE_TIMEOUT_MS)).status === 200;
    } catch {
      return false;
    }
  }

  private async waitForCount(index: string, expected: number): Promise<number | undefined> {
    const deadline = performance.now() + RECOVER_COUNT_TIMEOUT_MS;
    let last: number | undefined;
    while (performance.now() < deadline) {
      if (this.abort.aborted) throw new Interrupted();
      try {
        // A replayed translog may need a refresh before its documents are searchable.
        await this.http.request('POST', `/${index}/_refresh`, undefined, 10_000);
        const res = await this.http.request('GET', `/${index}/_count`, undefined, 10_000);
        if (res.status === 200) {
          last = (JSON.parse(res.text) as { count?: number }).count;
          if (last === expected) return last;
        }
      } catch {
        // Not up yet, or still replaying: try again shortly.
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return last;
  }
}

/**
 * Run `timed` with `others` frozen (Side.freeze), thawing them whatever happens: the engine being
 * timed then has its CPUs to itself, as the one engine on a server would.
 */
export async function whileFrozen<T>(others: readonly Side[], timed: () => Promise<T>): Promise<T> {
  try {
    await Promise.all(others.map((side) => side.freeze()));
    return await timed();
  } finally {
    await Promise.all(others.map((side) => side.thaw()));
  }
}

/** The other side of the comparison: the engine to freeze while `role` is timed. */
export const otherRole = (role: 'candidate' | 'baseline'): 'candidate' | 'baseline' =>
  role === 'candidate' ? 'baseline' : 'candidate';
