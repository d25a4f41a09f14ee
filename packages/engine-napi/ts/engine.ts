/**
 * The hand-written wrapper over the generated native module: every call takes JSON text
 * (bodies as Buffers) and answers a `Reply`, the HTTP status and the ES body as JSON text,
 * errors included. Heavy calls (bulk, refresh, searches the engine finds may be heavy) run
 * on the libuv pool; cheap ones stay synchronous, because the hop to the pool costs more
 * than they do.
 */
import { NativeEngine, type Reply, type WarnedReply } from '../index.js';
import { decodeNativeError } from './errors.js';
import { underPressure, underPressureSync } from './node/indexing-pressure.js';
import { SearchDispatcher } from './search-dispatch.js';

export type { Reply, WarnedReply } from '../index.js';

/** Opening and closing the engine are the only native calls that throw. */
function call<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw decodeNativeError(err);
  }
}

/** URL parameters travel as a JSON object of strings ('' for none on the search paths). */
function paramsJson(params: Record<string, string>): string {
  return Object.keys(params).length === 0 ? '' : JSON.stringify(params);
}

export interface IndexRow {
  index: string;
  uuid: string;
  docs: number;
  deleted: number;
  store_bytes: number;
  health: string;
  primaries: number;
  replicas: number;
  creation_date: number;
  /** `open` or `close`. */
  status: string;
}

export class Engine {
  readonly #native: NativeEngine;
  readonly #dataDir: string;
  readonly #dispatcher = new SearchDispatcher();

  constructor(dataDir: string) {
    this.#native = call(() => new NativeEngine(dataDir));
    this.#dataDir = dataDir;
  }

  createIndex(index: string, body: Buffer): Reply {
    return this.#native.createIndex(index, body);
  }

  getSettings(index: string, names: string | undefined, params: Record<string, string>): Reply {
    return this.#native.getSettings(index, names, paramsJson(params));
  }

  putSettings(index: string, body: Buffer): Reply {
    return this.#native.putSettings(index, body);
  }

  analyze(index: string | undefined, body: Buffer): Reply {
    return this.#native.analyze(index, body);
  }

  fieldCaps(index: string | undefined, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.fieldCaps(index, body, paramsJson(params));
  }

  validateQuery(index: string | undefined, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.validateQuery(index, body, paramsJson(params));
  }

  termvectors(index: string, id: string | undefined, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.termvectors(index, id, body, paramsJson(params));
  }

  mtermvectors(index: string | undefined, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.mtermvectors(index, body, paramsJson(params));
  }

  flush(index: string, params: Record<string, string> = {}): Reply {
    return this.#native.flush(index, paramsJson(params));
  }

  putAlias(index: string, name: string, body: Buffer): Reply {
    return this.#native.putAlias(index, name, body);
  }

  deleteAlias(index: string, name: string): Reply {
    return this.#native.deleteAlias(index, name);
  }

  getAliases(index: string | undefined, name: string | undefined): Reply {
    return this.#native.getAliases(index, name);
  }

  updateAliases(body: Buffer): Reply {
    return this.#native.updateAliases(body);
  }

  putMapping(index: string, body: Buffer): Reply {
    return this.#native.putMapping(index, body);
  }

  getFieldMapping(index: string, fields: string, params: Record<string, string>): Reply {
    return this.#native.getFieldMapping(index, fields, paramsJson(params));
  }

  getMapping(index: string, params: Record<string, string>): Reply {
    return this.#native.getMapping(index, paramsJson(params));
  }

  deleteIndex(index: string, params: Record<string, string> = {}): Reply {
    return this.#native.deleteIndex(index, params.ignore_unavailable === 'true');
  }

  /** `HEAD /{index}`: 200 or 404 (an empty body), or an error reply. */
  indexExistsWith(index: string, params: Record<string, string>): Reply {
    return this.#native.indexExistsWith(index, paramsJson(params));
  }

  getIndex(index: string): Reply {
    return this.#native.getIndex(index);
  }

  indexExists(index: string): boolean {
    return call(() => this.#native.indexExists(index));
  }

  /** The directory the engine keeps its indices in. */
  get dataDir(): string {
    return this.#dataDir;
  }

  indicesStats(index: string, metric: string | undefined, params: Record<string, string>): Reply {
    return this.#native.indicesStats(index, metric, paramsJson(params));
  }

  /** The `indices` section of node statistics, as JSON text. */
  nodeIndicesStats(metric: string | undefined, params: Record<string, string>): Reply {
    return this.#native.nodeIndicesStats(metric, paramsJson(params));
  }

  /** Health now: status 200 when the `wait_for_*` conditions hold, 408 while they do not. */
  clusterHealth(index = '', params: Record<string, string> = {}): Reply {
    return this.#native.clusterHealth(index, paramsJson(params));
  }

  /** The cluster state without `nodes` (the service adds them). */
  clusterState(metric: string | undefined, index: string, params: Record<string, string>): Reply {
    return this.#native.clusterState(metric, index, paramsJson(params));
  }

  segments(index: string, params: Record<string, string>): Reply {
    return this.#native.segments(index, paramsJson(params));
  }

  searchShards(index: string, params: Record<string, string>): Reply {
    return this.#native.searchShards(index, paramsJson(params));
  }

  clearCache(index: string, params: Record<string, string>): Reply {
    return this.#native.clearCache(index, paramsJson(params));
  }

  /** `{node_id, cluster_uuid, state_version}`. */
  nodeIdentity(): Reply {
    return this.#native.nodeIdentity();
  }

  bulk(index: string | undefined, body: Buffer, params: Record<string, string> = {}): Promise<Reply> {
    return underPressure(body.length, () => this.#native.bulk(index, body, paramsJson(params)));
  }

  refresh(index: string, params: Record<string, string> = {}): Promise<Reply> {
    return this.#native.refresh(index, paramsJson(params));
  }

  forceMerge(index: string, params: Record<string, string>): Promise<Reply> {
    return this.#native.forceMerge(index, JSON.stringify(params));
  }

  count(index: string, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.countSync(index, body, paramsJson(params));
  }

  search(index: string, body: Buffer, params: Record<string, string>): Promise<Reply> | Reply {
    const p = paramsJson(params);
    return (
      this.#native.searchSync(index, body, p, true) ??
      this.#dispatch(
        index,
        body,
        () => this.#native.searchSync(index, body, p, false) as Reply,
        () => this.#native.search(index, body, p),
      )
    );
  }

  /** `/_search` with a point in time in the body. */
  searchPit(body: Buffer, params: Record<string, string>): Promise<Reply> | Reply {
    const p = paramsJson(params);
    return (
      this.#native.searchPitSync(body, p, true) ??
      this.#dispatch(
        '',
        body,
        () => this.#native.searchPitSync(body, p, false) as Reply,
        () => this.#native.searchPit(body, p),
      )
    );
  }

  /**
   * A search the engine found may be heavy (it ran the cheap ones already): inline or on the
   * pool as `search-dispatch.ts` decides, with its time reported back.
   */
  async #dispatch(
    index: string,
    body: Buffer,
    inline: () => Reply,
    pooled: () => Promise<Reply>,
  ): Promise<Reply> {
    const { async, key } = this.#dispatcher.decide(index, body);
    const started = performance.now();
    try {
      return async ? await pooled() : inline();
    } finally {
      this.#dispatcher.record(key, performance.now() - started);
    }
  }

  /** `PUT|POST /{index}/_doc[/{id}]`, `_create/{id}` (`create`): 201 created, 200 updated. */
  indexDoc(
    index: string,
    id: string | undefined,
    body: Buffer,
    params: Record<string, string>,
    create = false,
  ): Reply {
    return underPressureSync(body.length, () =>
      this.#native.indexDoc(index, id, body, JSON.stringify(params), create),
    );
  }

  /** `DELETE /{index}/_doc/{id}`: 200 `deleted` or 404 `not_found`. */
  deleteDoc(index: string, id: string, params: Record<string, string>): Reply {
    return this.#native.deleteDoc(index, id, JSON.stringify(params));
  }

  /** `POST /{index}/_update/{id}`: 200 updated/noop, 201 created by upsert. */
  updateDoc(index: string, id: string, body: Buffer, params: Record<string, string>): Reply {
    return underPressureSync(body.length, () =>
      this.#native.updateDoc(index, id, body, JSON.stringify(params)),
    );
  }

  deleteByQuery(index: string, body: Buffer, params: Record<string, string>): Promise<Reply> {
    return this.#native.deleteByQuery(index, body, JSON.stringify(params));
  }

  /** Every index: name, uuid, doc counts, store bytes, health, shard layout, creation date. */
  listIndices(): IndexRow[] {
    return JSON.parse(this.#native.listIndices().body);
  }

  /** Opens a point in time; `opensearch` answers in OpenSearch's shape (`pit_id`). */
  openPit(index: string, params: Record<string, string>, opensearch: boolean): Reply {
    return this.#native.openPit(index, JSON.stringify(params), opensearch);
  }

  /** Closes points in time (all of them with `all`); 404 when none was open. */
  closePit(body: Buffer, opensearch: boolean, all: boolean): Reply {
    return this.#native.closePit(body, opensearch, all);
  }

  /** `GET /_search/point_in_time/_all` (OpenSearch): the open points in time. */
  listPits(): Reply {
    return this.#native.listPits();
  }

  /** The next page of a scroll; the id and keep-alive come in the body or the URL. */
  scroll(body: Buffer, params: Record<string, string>): Reply {
    return this.#native.scroll(body, JSON.stringify(params));
  }

  /** Frees scrolls (all of them with `all`); 404 when none was open. */
  clearScroll(body: Buffer, all: boolean): Reply {
    return this.#native.clearScroll(body, all);
  }

  /** `GET /{index}/_doc/{id}`: status 200 with `found: true`, or 404 with `found: false`. */
  getDoc(index: string, id: string, params: Record<string, string>): Reply {
    return this.#native.getDoc(index, id, paramsJson(params));
  }

  /** `GET _script_context`: the contexts scripts run in. */
  scriptContexts(): Reply {
    return this.#native.scriptContexts();
  }

  /** `GET|POST /{index}/_explain/{id}`: whether the document matches the query, and why. */
  explain(index: string, id: string, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.explain(index, id, body, paramsJson(params));
  }

  /** `GET /{index}/_source/{id}`: the `_source` alone, or 404 `resource_not_found_exception`. */
  getSource(index: string, id: string, params: Record<string, string>): Reply {
    return this.#native.getSource(index, id, paramsJson(params));
  }

  mget(index: string | undefined, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.mget(index, body, paramsJson(params));
  }

  msearch(index: string | undefined, body: Buffer, params: Record<string, string> = {}): Promise<Reply> {
    return this.#native.msearch(index, body, paramsJson(params));
  }

  /** `PUT /{index}`, with the warnings matching templates give. */
  createIndexWarned(index: string, body: Buffer): WarnedReply {
    return this.#native.createIndexWarned(index, body);
  }

  getIndexWith(index: string, params: Record<string, string>): Reply {
    return this.#native.getIndexWith(index, paramsJson(params));
  }

  deleteIndicesWith(index: string, params: Record<string, string>): Reply {
    return this.#native.deleteIndicesWith(index, paramsJson(params));
  }

  putSettingsWith(index: string, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.putSettingsWith(index, body, paramsJson(params));
  }

  getAliasesWith(index: string | undefined, name: string | undefined, params: Record<string, string>): Reply {
    return this.#native.getAliasesWith(index, name, paramsJson(params));
  }

  putLegacyTemplate(name: string, body: Buffer, params: Record<string, string>): WarnedReply {
    return this.#native.putLegacyTemplate(name, body, paramsJson(params));
  }

  getLegacyTemplates(names: string | undefined, params: Record<string, string>): Reply {
    return this.#native.getLegacyTemplates(names, paramsJson(params));
  }

  legacyTemplateExists(names: string): Reply {
    return this.#native.legacyTemplateExists(names);
  }

  deleteLegacyTemplate(name: string): Reply {
    return this.#native.deleteLegacyTemplate(name);
  }

  putIndexTemplate(name: string, body: Buffer, params: Record<string, string>): WarnedReply {
    return this.#native.putIndexTemplate(name, body, paramsJson(params));
  }

  getIndexTemplates(name: string | undefined, params: Record<string, string>): Reply {
    return this.#native.getIndexTemplates(name, paramsJson(params));
  }

  indexTemplateExists(name: string): Reply {
    return this.#native.indexTemplateExists(name);
  }

  deleteIndexTemplate(name: string): Reply {
    return this.#native.deleteIndexTemplate(name);
  }

  putComponentTemplate(name: string, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.putComponentTemplate(name, body, paramsJson(params));
  }

  getComponentTemplates(name: string | undefined, params: Record<string, string>): Reply {
    return this.#native.getComponentTemplates(name, paramsJson(params));
  }

  componentTemplateExists(name: string): Reply {
    return this.#native.componentTemplateExists(name);
  }

  deleteComponentTemplate(name: string): Reply {
    return this.#native.deleteComponentTemplate(name);
  }

  simulateIndexTemplate(index: string, body: Buffer): WarnedReply {
    return this.#native.simulateIndexTemplate(index, body);
  }

  simulateTemplate(name: string | undefined, body: Buffer): WarnedReply {
    return this.#native.simulateTemplate(name, body);
  }

  /** `_cat/templates` rows: name, index_patterns, order, version, composed_of (text cells). */
  catTemplates(name: string | undefined): Record<string, string>[] {
    return JSON.parse(this.#native.catTemplates(name).body);
  }

  closeIndex(index: string, params: Record<string, string>): Reply {
    return this.#native.closeIndex(index, paramsJson(params));
  }

  openIndex(index: string, params: Record<string, string>): Reply {
    return this.#native.openIndex(index, paramsJson(params));
  }

  addBlock(index: string, block: string, params: Record<string, string>): Reply {
    return this.#native.addBlock(index, block, paramsJson(params));
  }

  getClusterSettings(params: Record<string, string>): Reply {
    return this.#native.getClusterSettings(paramsJson(params));
  }

  putClusterSettings(body: Buffer, params: Record<string, string>): Reply {
    return this.#native.putClusterSettings(body, paramsJson(params));
  }

  rollover(alias: string, newIndex: string | undefined, body: Buffer, params: Record<string, string>): Reply {
    return this.#native.rollover(alias, newIndex, body, paramsJson(params));
  }

  cloneIndex(index: string, target: string, body: Buffer): Reply {
    return this.#native.cloneIndex(index, target, body);
  }

  resolveIndex(name: string, params: Record<string, string>): Reply {
    return this.#native.resolveIndex(name, paramsJson(params));
  }

  debugPanic(): Reply {
    return this.#native.debugPanic();
  }

  /** Commits every index; the engine must not be used afterwards. */
  close(): void {
    call(() => this.#native.close());
  }
}
