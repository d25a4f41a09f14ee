/**
 * The `_cat` tables about indices: `indices`, `shards`, `segments`, `aliases` and `count`, with
 * ES's columns (names, aliases, descriptions, alignment), built from the engine's own APIs
 * (`_stats`, `_segments`, the alias table, `_count`).
 */
import type { Engine, IndexRow } from '../engine.js';
import { EngineError } from '../errors.js';
import { boundHost, identity, NODE_NAME } from '../node/local-node.js';
import type { Reply } from '../route.js';
import type { Cell, Column, Table } from './table.js';

// biome-ignore lint/suspicious/noExplicitAny: ES JSON, read field by field
type Json = Record<string, any>;

function ok(reply: Reply): Json {
  if (reply.status !== 200) throw EngineError.fromReply(reply);
  return JSON.parse(reply.body ?? '{}') as Json;
}

const glob = (pattern: string, text: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(text);

/** Index-statistics columns some tables share: column, aliases, description, where in `_stats`. */
const STAT_COLUMNS: [string, string[], string, string, string][] = [
  ['completion.size', ['cs', 'completionSize'], 'size of completion', 'completion', 'size_in_bytes'],
  [
    'fielddata.memory_size',
    ['fm', 'fielddataMemory'],
    'used fielddata cache',
    'fielddata',
    'memory_size_in_bytes',
  ],
  ['fielddata.evictions', ['fe', 'fielddataEvictions'], 'fielddata evictions', 'fielddata', 'evictions'],
  [
    'query_cache.memory_size',
    ['qcm', 'queryCacheMemory'],
    'used query cache',
    'query_cache',
    'memory_size_in_bytes',
  ],
  [
    'query_cache.evictions',
    ['qce', 'queryCacheEvictions'],
    'query cache evictions',
    'query_cache',
    'evictions',
  ],
  ['flush.total', ['ft', 'flushTotal'], 'number of flushes', 'flush', 'total'],
  ['flush.total_time', ['ftt', 'flushTotalTime'], 'time spent in flush', 'flush', 'total_time_in_millis'],
  ['get.current', ['gc', 'getCurrent'], 'number of current get ops', 'get', 'current'],
  ['get.time', ['gti', 'getTime'], 'time spent in get', 'get', 'time_in_millis'],
  ['get.total', ['gto', 'getTotal'], 'number of get ops', 'get', 'total'],
  [
    'get.exists_time',
    ['geti', 'getExistsTime'],
    'time spent in successful gets',
    'get',
    'exists_time_in_millis',
  ],
  ['get.exists_total', ['geto', 'getExistsTotal'], 'number of successful gets', 'get', 'exists_total'],
  [
    'get.missing_time',
    ['gmti', 'getMissingTime'],
    'time spent in failed gets',
    'get',
    'missing_time_in_millis',
  ],
  ['get.missing_total', ['gmto', 'getMissingTotal'], 'number of failed gets', 'get', 'missing_total'],
  [
    'indexing.delete_current',
    ['idc', 'indexingDeleteCurrent'],
    'number of current deletions',
    'indexing',
    'delete_current',
  ],
  [
    'indexing.delete_time',
    ['idti', 'indexingDeleteTime'],
    'time spent in deletions',
    'indexing',
    'delete_time_in_millis',
  ],
  [
    'indexing.delete_total',
    ['idto', 'indexingDeleteTotal'],
    'number of delete ops',
    'indexing',
    'delete_total',
  ],
  [
    'indexing.index_current',
    ['iic', 'indexingIndexCurrent'],
    'number of current indexing ops',
    'indexing',
    'index_current',
  ],
  [
    'indexing.index_time',
    ['iiti', 'indexingIndexTime'],
    'time spent in indexing',
    'indexing',
    'index_time_in_millis',
  ],
  [
    'indexing.index_total',
    ['iito', 'indexingIndexTotal'],
    'number of indexing ops',
    'indexing',
    'index_total',
  ],
  [
    'indexing.index_failed',
    ['iif', 'indexingIndexFailed'],
    'number of failed indexing ops',
    'indexing',
    'index_failed',
  ],
  ['merges.current', ['mc', 'mergesCurrent'], 'number of current merges', 'merges', 'current'],
  [
    'merges.current_docs',
    ['mcd', 'mergesCurrentDocs'],
    'number of current merging docs',
    'merges',
    'current_docs',
  ],
  [
    'merges.current_size',
    ['mcs', 'mergesCurrentSize'],
    'size of current merges',
    'merges',
    'current_size_in_bytes',
  ],
  ['merges.total', ['mt', 'mergesTotal'], 'number of completed merge ops', 'merges', 'total'],
  ['merges.total_docs', ['mtd', 'mergesTotalDocs'], 'docs merged', 'merges', 'total_docs'],
  ['merges.total_size', ['mts', 'mergesTotalSize'], 'size merged', 'merges', 'total_size_in_bytes'],
  ['merges.total_time', ['mtt', 'mergesTotalTime'], 'time spent in merges', 'merges', 'total_time_in_millis'],
  ['refresh.total', ['rto', 'refreshTotal'], 'total refreshes', 'refresh', 'total'],
  ['refresh.time', ['rti', 'refreshTime'], 'time spent in refreshes', 'refresh', 'total_time_in_millis'],
  ['refresh.external_total', ['reto'], 'total external refreshes', 'refresh', 'external_total'],
  [
    'refresh.external_time',
    ['reti'],
    'time spent in external refreshes',
    'refresh',
    'external_total_time_in_millis',
  ],
  [
    'refresh.listeners',
    ['rli', 'refreshListeners'],
    'number of pending refresh listeners',
    'refresh',
    'listeners',
  ],
  [
    'search.fetch_current',
    ['sfc', 'searchFetchCurrent'],
    'current fetch phase ops',
    'search',
    'fetch_current',
  ],
  [
    'search.fetch_time',
    ['sfti', 'searchFetchTime'],
    'time spent in fetch phase',
    'search',
    'fetch_time_in_millis',
  ],
  ['search.fetch_total', ['sfto', 'searchFetchTotal'], 'total fetch ops', 'search', 'fetch_total'],
  ['search.open_contexts', ['so', 'searchOpenContexts'], 'open search contexts', 'search', 'open_contexts'],
  [
    'search.query_current',
    ['sqc', 'searchQueryCurrent'],
    'current query phase ops',
    'search',
    'query_current',
  ],
  [
    'search.query_time',
    ['sqti', 'searchQueryTime'],
    'time spent in query phase',
    'search',
    'query_time_in_millis',
  ],
  ['search.query_total', ['sqto', 'searchQueryTotal'], 'total query phase ops', 'search', 'query_total'],
  [
    'search.scroll_current',
    ['scc', 'searchScrollCurrent'],
    'open scroll contexts',
    'search',
    'scroll_current',
  ],
  [
    'search.scroll_time',
    ['scti', 'searchScrollTime'],
    'time scroll contexts held open',
    'search',
    'scroll_time_in_millis',
  ],
  [
    'search.scroll_total',
    ['scto', 'searchScrollTotal'],
    'completed scroll contexts',
    'search',
    'scroll_total',
  ],
  ['segments.count', ['sc', 'segmentsCount'], 'number of segments', 'segments', 'count'],
  ['segments.memory', ['sm', 'segmentsMemory'], 'memory used by segments', 'segments', 'memory_in_bytes'],
  [
    'segments.index_writer_memory',
    ['siwm', 'segmentsIndexWriterMemory'],
    'memory used by index writer',
    'segments',
    'index_writer_memory_in_bytes',
  ],
  [
    'segments.version_map_memory',
    ['svmm', 'segmentsVersionMapMemory'],
    'memory used by version map',
    'segments',
    'version_map_memory_in_bytes',
  ],
  [
    'segments.fixed_bitset_memory',
    ['sfbm', 'fixedBitsetMemory'],
    'memory used by fixed bit sets for nested object field types',
    'segments',
    'fixed_bit_set_memory_in_bytes',
  ],
  ['warmer.current', ['wc', 'warmerCurrent'], 'current warmer ops', 'warmer', 'current'],
  ['warmer.total', ['wto', 'warmerTotal'], 'total warmer ops', 'warmer', 'total'],
  [
    'warmer.total_time',
    ['wtt', 'warmerTotalTime'],
    'time spent in warmers',
    'warmer',
    'total_time_in_millis',
  ],
];

export const statColumns = (): Column[] =>
  STAT_COLUMNS.map(([name, aliases, desc]) => ({ name, aliases, desc, hidden: true, right: true }));

/** A statistics section's figures as the cells of `STAT_COLUMNS`. */
export function statCells(sections: Json | undefined, prefix = ''): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  for (const [name, , , section, field] of STAT_COLUMNS) {
    const value = sections?.[section]?.[field];
    const cell: Cell =
      typeof value !== 'number'
        ? null
        : field.endsWith('_in_bytes')
          ? { bytes: value }
          : field.endsWith('_millis')
            ? { millis: value }
            : value;
    out[`${prefix}${name}`] = cell;
  }
  return out;
}

const INDEX_COLUMNS: Column[] = [
  { name: 'health', aliases: ['h'], desc: 'current health status' },
  { name: 'status', aliases: ['s'], desc: 'open/close status' },
  { name: 'index', aliases: ['i', 'idx'], desc: 'index name' },
  { name: 'uuid', aliases: ['id', 'uuid'], desc: 'index uuid' },
  {
    name: 'pri',
    aliases: ['p', 'shards.primary', 'shardsPrimary'],
    desc: 'number of primary shards',
    right: true,
  },
  {
    name: 'rep',
    aliases: ['r', 'shards.replica', 'shardsReplica'],
    desc: 'number of replica shards',
    right: true,
  },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], desc: 'available docs', right: true },
  { name: 'docs.deleted', aliases: ['dd', 'docsDeleted'], desc: 'deleted docs', right: true },
  {
    name: 'creation.date',
    aliases: ['cd'],
    desc: 'index creation date (millisecond value)',
    hidden: true,
    right: true,
  },
  {
    name: 'creation.date.string',
    aliases: ['cds'],
    desc: 'index creation date (as string)',
    hidden: true,
    right: true,
  },
  {
    name: 'store.size',
    aliases: ['ss', 'storeSize'],
    desc: 'store size of primaries & replicas',
    right: true,
  },
  { name: 'pri.store.size', desc: 'store size of primaries', right: true },
];

const HEALTH = ['green', 'yellow', 'red'];

/** The cells every row has, open or closed. */
function identityCells(row: IndexRow): Record<string, Cell> {
  return {
    health: row.health,
    status: row.status,
    index: row.index,
    uuid: row.uuid,
    pri: row.primaries,
    rep: row.replicas,
    'creation.date': row.creation_date,
    'creation.date.string': new Date(row.creation_date).toISOString(),
  };
}

/**
 * The indices `expression` names (wildcards expanded to open and closed ones, as `_cat/indices`
 * lists both; aliases to their indices), or undefined when it resolves to none.
 */
function scopeOf(engine: Engine, expression: string, resolve: Record<string, string>): string[] | undefined {
  const reply = engine.resolveIndex(expression, { expand_wildcards: 'all', ...resolve });
  if (reply.status !== 200 || reply.body === undefined) return undefined;
  const resolved = JSON.parse(reply.body) as {
    indices?: { name: string }[];
    aliases?: { indices: string[] }[];
  };
  const names = new Set([
    ...(resolved.indices ?? []).map((i) => i.name),
    ...(resolved.aliases ?? []).flatMap((a) => a.indices),
  ]);
  // Nothing resolved: the statistics call answers for the expression (ES's 404 for a missing name).
  return names.size === 0 ? undefined : [...names];
}

export function catIndices(engine: Engine, params: Record<string, string>, expression = ''): Table {
  if (params.health !== undefined && !HEALTH.includes(params.health))
    throw EngineError.of(
      400,
      'illegal_argument_exception',
      `unknown cluster health status [${params.health}]`,
    );
  const resolve = Object.fromEntries(
    ['expand_wildcards', 'ignore_unavailable', 'allow_no_indices']
      .filter((k) => k in params)
      .map((k) => [k, params[k] ?? '']),
  );
  const listed = engine.listIndices();
  const rows = new Map<string, IndexRow>(listed.map((r) => [r.index, r]));
  // A closed index is listed with its shards and no statistics, as ES's table shows it:
  // statistics are asked for the open indices in scope only (a closed one refuses them).
  const inScope = expression === '' ? listed.map((r) => r.index) : scopeOf(engine, expression, resolve);
  const closed = (inScope ?? []).filter((name) => rows.get(name)?.status === 'close');
  const open = inScope?.filter((name) => rows.get(name)?.status !== 'close');
  const names = open === undefined ? expression : open.join(',');
  const stats = names === '' ? { indices: {} } : ok(engine.indicesStats(names, undefined, resolve));
  const table: Record<string, Cell>[] = [];
  for (const [name, entry] of Object.entries((stats.indices ?? {}) as Json)) {
    const row = rows.get(name);
    if (!row || (params.health !== undefined && row.health !== params.health)) continue;
    const primaries = entry.primaries as Json;
    table.push({
      ...identityCells(row),
      'docs.count': row.docs,
      'docs.deleted': row.deleted,
      'store.size': { bytes: row.store_bytes },
      'pri.store.size': { bytes: row.store_bytes },
      ...statCells(entry.total as Json),
      ...statCells(primaries, 'pri.'),
    });
  }
  for (const name of closed) {
    const row = rows.get(name);
    if (row && (params.health === undefined || row.health === params.health)) table.push(identityCells(row));
  }
  const priColumns: Column[] =
    params.pri === undefined || params.pri === 'false'
      ? []
      : STAT_COLUMNS.map(([name, , desc]) => ({ name: `pri.${name}`, desc, right: true, hidden: true }));
  return { columns: [...INDEX_COLUMNS, ...statColumns(), ...priColumns], rows: table };
}

const SHARD_COLUMNS: Column[] = [
  { name: 'index', aliases: ['i', 'idx'], desc: 'index name' },
  { name: 'shard', aliases: ['s', 'sh'], desc: 'shard name' },
  { name: 'prirep', aliases: ['p', 'pr', 'primaryOrReplica'], desc: 'primary or replica' },
  { name: 'state', aliases: ['st'], desc: 'shard state' },
  { name: 'docs', aliases: ['d', 'dc'], desc: 'number of docs in shard', right: true },
  { name: 'store', aliases: ['sto'], desc: 'store size of shard (how much disk it uses)', right: true },
  { name: 'ip', desc: 'ip of node where it lives' },
  { name: 'id', desc: 'unique id of node where it lives', hidden: true },
  { name: 'node', aliases: ['n'], desc: 'name of node where it lives' },
  { name: 'unassigned.reason', aliases: ['ur'], desc: 'reason shard is unassigned', hidden: true },
  { name: 'unassigned.at', aliases: ['ua'], desc: 'time shard became unassigned (UTC)', hidden: true },
  {
    name: 'seq_no.max',
    aliases: ['sqm', 'maxSeqNo'],
    desc: 'max sequence number',
    hidden: true,
    right: true,
  },
  {
    name: 'seq_no.local_checkpoint',
    aliases: ['sql', 'localCheckpoint'],
    desc: 'local checkpoint',
    hidden: true,
    right: true,
  },
  {
    name: 'seq_no.global_checkpoint',
    aliases: ['sqg', 'globalCheckpoint'],
    desc: 'global checkpoint',
    hidden: true,
    right: true,
  },
];

export function catShards(engine: Engine, expression = ''): Table {
  const stats = ok(engine.indicesStats(expression, undefined, { level: 'shards' }));
  const layouts = new Map<string, IndexRow>(engine.listIndices().map((r) => [r.index, r]));
  const node = identity(engine).node_id;
  const rows: Record<string, Cell>[] = [];
  for (const [index, entry] of Object.entries((stats.indices ?? {}) as Json)) {
    const replicas = layouts.get(index)?.replicas ?? 0;
    for (const [shard, copies] of Object.entries((entry.shards ?? {}) as Json)) {
      const copy = (copies as Json[])[0] ?? {};
      rows.push({
        index,
        shard: Number(shard),
        prirep: 'p',
        state: 'STARTED',
        docs: copy.docs?.count ?? 0,
        store: { bytes: copy.store?.size_in_bytes ?? 0 },
        ip: boundHost(),
        id: node,
        node: NODE_NAME,
        'seq_no.max': copy.seq_no?.max_seq_no ?? -1,
        'seq_no.local_checkpoint': copy.seq_no?.local_checkpoint ?? -1,
        'seq_no.global_checkpoint': copy.seq_no?.global_checkpoint ?? -1,
        ...statCells(copy),
      });
      for (let r = 0; r < replicas; r++)
        rows.push({
          index,
          shard: Number(shard),
          prirep: 'r',
          state: 'UNASSIGNED',
          'unassigned.reason': 'INDEX_CREATED',
        });
    }
  }
  return { columns: [...SHARD_COLUMNS, ...statColumns()], rows };
}

const SEGMENT_COLUMNS: Column[] = [
  { name: 'index', aliases: ['i', 'idx'], desc: 'index name' },
  { name: 'shard', aliases: ['s', 'sh'], desc: 'shard name' },
  { name: 'prirep', aliases: ['p', 'pr', 'primaryOrReplica'], desc: 'primary or replica' },
  { name: 'ip', desc: 'ip of node where it lives' },
  { name: 'id', desc: 'unique id of node where it lives', hidden: true },
  { name: 'segment', aliases: ['seg'], desc: 'segment name' },
  { name: 'generation', aliases: ['g', 'gen'], desc: 'segment generation', right: true },
  { name: 'docs.count', aliases: ['dc', 'docsCount'], desc: 'number of docs in segment', right: true },
  {
    name: 'docs.deleted',
    aliases: ['dd', 'docsDeleted'],
    desc: 'number of deleted docs in segment',
    right: true,
  },
  { name: 'size', aliases: ['si'], desc: 'segment size in bytes', right: true },
  { name: 'size.memory', aliases: ['sm', 'sizeMemory'], desc: 'segment memory in bytes', right: true },
  { name: 'committed', aliases: ['ic', 'isCommitted'], desc: 'is segment committed' },
  { name: 'searchable', aliases: ['is', 'isSearchable'], desc: 'is segment searched' },
  { name: 'version', aliases: ['v', 'ver'], desc: 'version' },
  { name: 'compound', aliases: ['ico', 'isCompound'], desc: 'is segment compound' },
];

export function catSegments(engine: Engine, expression = ''): Table {
  const segments = ok(engine.segments(expression, {}));
  const node = identity(engine).node_id;
  const rows: Record<string, Cell>[] = [];
  for (const [index, entry] of Object.entries((segments.indices ?? {}) as Json)) {
    for (const [shard, copies] of Object.entries((entry.shards ?? {}) as Json)) {
      for (const copy of copies as Json[]) {
        for (const [name, s] of Object.entries((copy.segments ?? {}) as Json)) {
          rows.push({
            index,
            shard: Number(shard),
            prirep: 'p',
            ip: boundHost(),
            id: node,
            segment: name,
            generation: s.generation,
            'docs.count': s.num_docs,
            'docs.deleted': s.deleted_docs,
            size: { bytes: s.size_in_bytes },
            // A plain number, as ES prints this column.
            'size.memory': s.memory_in_bytes,
            committed: String(s.committed),
            searchable: String(s.search),
            version: s.version,
            compound: String(s.compound),
          });
        }
      }
    }
  }
  return { columns: SEGMENT_COLUMNS, rows };
}

const ALIAS_COLUMNS: Column[] = [
  { name: 'alias', aliases: ['a'], desc: 'alias name' },
  { name: 'index', aliases: ['i', 'idx'], desc: 'index alias points to' },
  { name: 'filter', aliases: ['f', 'fi'], desc: 'filter' },
  { name: 'routing.index', aliases: ['ri', 'routingIndex'], desc: 'index routing' },
  { name: 'routing.search', aliases: ['rs', 'routingSearch'], desc: 'search routing' },
  { name: 'is_write_index', aliases: ['w', 'isWriteIndex'], desc: 'write index' },
];

export function catAliases(engine: Engine, names?: string): Table {
  const all = ok(engine.getAliases(undefined, undefined));
  const patterns = names?.split(',').map((n) => n.trim());
  const rows: Record<string, Cell>[] = [];
  for (const [index, entry] of Object.entries(all)) {
    for (const [alias, def] of Object.entries((entry.aliases ?? {}) as Json)) {
      if (patterns && !patterns.some((p) => p === '_all' || glob(p, alias))) continue;
      rows.push({
        alias,
        index,
        filter: def.filter === undefined ? '-' : '*',
        'routing.index': def.index_routing ?? '-',
        'routing.search': def.search_routing ?? '-',
        is_write_index: def.is_write_index === undefined ? '-' : String(def.is_write_index),
      });
    }
  }
  return { columns: ALIAS_COLUMNS, rows };
}

/** `epoch` and `timestamp`, the columns ES puts first in timestamped tables. */
export const TIMESTAMP_COLUMNS: Column[] = [
  { name: 'epoch', aliases: ['t', 'time'], desc: 'seconds since 1970-01-01 00:00:00' },
  { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], desc: 'time in HH:MM:SS' },
];

export function timestampCells(now = Date.now()): Record<string, Cell> {
  return { epoch: Math.floor(now / 1000), timestamp: new Date(now).toISOString().slice(11, 19) };
}

export function catCount(engine: Engine, expression = ''): Table {
  const reply = engine.count(expression === '' ? '_all' : expression, Buffer.alloc(0), {});
  const count = ok(reply).count as number;
  return {
    columns: [
      ...TIMESTAMP_COLUMNS,
      { name: 'count', aliases: ['dc', 'docs.count', 'docsCount'], desc: 'the document count' },
    ],
    rows: [{ ...timestampCells(), count }],
  };
}
