/**
 * The hand-written wrapper over the generated native module: every call takes and returns
 * JSON text (bodies as Buffers), and native failures become `EngineError`s carrying the ES
 * status and body. Heavy calls (bulk, refresh, aggregating searches) run on the libuv pool;
 * cheap ones stay synchronous, because the hop to the pool costs more than they do.
 */
import { NativeEngine } from '../index.js';
import { decodeNativeError } from './errors.js';
import { SearchDispatcher } from './search-dispatch.js';

function call<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw decodeNativeError(err);
  }
}

async function callAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw decodeNativeError(err);
  }
}

/** Decodes a native `{"status", "body"}` reply (calls whose ES status is not always 200). */
function statusReply(json: string): { status: number; body: string } {
  const reply = JSON.parse(json) as { status: number; body: unknown };
  return { status: reply.status, body: JSON.stringify(reply.body) };
}

export class Engine {
  readonly #native: NativeEngine;
  readonly #dispatcher = new SearchDispatcher();

  constructor(dataDir: string) {
    this.#native = call(() => new NativeEngine(dataDir));
  }

  createIndex(index: string, body: Buffer): string {
    return call(() => this.#native.createIndex(index, body));
  }

  deleteIndex(index: string): string {
    return call(() => this.#native.deleteIndex(index));
  }

  getIndex(index: string): string {
    return call(() => this.#native.getIndex(index));
  }

  indexExists(index: string): boolean {
    return call(() => this.#native.indexExists(index));
  }

  stats(index: string): string {
    return call(() => this.#native.stats(index));
  }

  clusterHealth(): string {
    return call(() => this.#native.clusterHealth());
  }

  bulk(index: string | undefined, body: Buffer, refresh: string | undefined): Promise<string> {
    return callAsync(() => this.#native.bulk(index, body, refresh));
  }

  refresh(index: string): Promise<string> {
    return callAsync(() => this.#native.refresh(index));
  }

  /** URL parameters travel as a JSON object of strings, as for search. */
  forceMerge(index: string, params: Record<string, string>): Promise<string> {
    return callAsync(() => this.#native.forceMerge(index, JSON.stringify(params)));
  }

  count(index: string, body: Buffer): string {
    return call(() => this.#native.countSync(index, body));
  }

  /** URL parameters travel as a JSON object of strings. */
  async search(index: string, body: Buffer, params: Record<string, string>): Promise<string> {
    const paramsJson = Object.keys(params).length === 0 ? '' : JSON.stringify(params);
    return this.#dispatch(
      index,
      body,
      () => this.#native.searchSync(index, body, paramsJson),
      () => this.#native.search(index, body, paramsJson),
    );
  }

  /** Runs a search inline or on the pool (see `search-dispatch.ts`) and reports its time. */
  async #dispatch(
    index: string,
    body: Buffer,
    inline: () => string,
    pooled: () => Promise<string>,
  ): Promise<string> {
    const { async, key } = this.#dispatcher.decide(index, body);
    const started = performance.now();
    try {
      return async ? await callAsync(pooled) : call(inline);
    } finally {
      this.#dispatcher.record(key, performance.now() - started);
    }
  }

  /** `DELETE /{index}/_doc/{id}`: 200 `deleted` or 404 `not_found`. */
  deleteDoc(index: string, id: string, params: Record<string, string>): { status: number; body: string } {
    return statusReply(call(() => this.#native.deleteDoc(index, id, JSON.stringify(params))));
  }

  /** `POST /{index}/_update/{id}`: 200 updated/noop, 201 created by upsert. */
  updateDoc(
    index: string,
    id: string,
    body: Buffer,
    params: Record<string, string>,
  ): { status: number; body: string } {
    return statusReply(call(() => this.#native.updateDoc(index, id, body, JSON.stringify(params))));
  }

  deleteByQuery(index: string, body: Buffer, params: Record<string, string>): Promise<string> {
    return callAsync(() => this.#native.deleteByQuery(index, body, JSON.stringify(params)));
  }

  /** Every index: name, uuid, live doc count and store bytes. */
  listIndices(): { index: string; uuid: string; docs: number; store_bytes: number }[] {
    return JSON.parse(call(() => this.#native.listIndices()));
  }

  /** `/_search` with a point in time in the body. */
  async searchPit(body: Buffer, params: Record<string, string>): Promise<string> {
    const paramsJson = Object.keys(params).length === 0 ? '' : JSON.stringify(params);
    return this.#dispatch(
      '',
      body,
      () => this.#native.searchPitSync(body, paramsJson),
      () => this.#native.searchPit(body, paramsJson),
    );
  }

  /** Opens a point in time; `opensearch` answers in OpenSearch's shape (`pit_id`). */
  openPit(index: string, params: Record<string, string>, opensearch: boolean): string {
    return call(() => this.#native.openPit(index, JSON.stringify(params), opensearch));
  }

  /** Closes points in time (all of them with `all`); 404 when none was open. */
  closePit(body: Buffer, opensearch: boolean, all: boolean): { status: number; body: string } {
    return statusReply(call(() => this.#native.closePit(body, opensearch, all)));
  }

  /** The next page of a scroll; the id and keep-alive come in the body or the URL. */
  scroll(body: Buffer, params: Record<string, string>): string {
    return call(() => this.#native.scroll(body, JSON.stringify(params)));
  }

  /** Frees scrolls (all of them with `all`); 404 when none was open. */
  clearScroll(body: Buffer, all: boolean): { status: number; body: string } {
    return statusReply(call(() => this.#native.clearScroll(body, all)));
  }

  /** `GET /{index}/_doc/{id}`: status 200 with `found: true`, or 404 with `found: false`. */
  getDoc(index: string, id: string): { status: number; body: string } {
    return statusReply(call(() => this.#native.getDoc(index, id)));
  }

  mget(index: string | undefined, body: Buffer): string {
    return call(() => this.#native.mget(index, body));
  }

  msearch(index: string | undefined, body: Buffer): Promise<string> {
    return callAsync(() => this.#native.msearch(index, body));
  }

  debugPanic(): string {
    return call(() => this.#native.debugPanic());
  }

  /** Commits every index; the engine must not be used afterwards. */
  close(): void {
    call(() => this.#native.close());
  }
}
