/**
 * The `_cat` tables about the node and the cluster: `nodes`, `nodeattrs`, `plugins`,
 * `fielddata`, `master` and `health`, with ES's columns, from the node's own measurements
 * (`node/`) and the engine's statistics.
 */
import { statfsSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Engine } from '../engine.js';
import { EngineError } from '../errors.js';
import { boundHost, HOSTNAME, httpAddress, identity, NODE_NAME, VERSION } from '../node/local-node.js';
import { maxFiles, openFiles, osStats, processStats } from '../node/os-process.js';
import { jvmStats } from '../node/runtime.js';
import { statCells, statColumns, TIMESTAMP_COLUMNS, timestampCells } from './index-tables.js';
import type { Cell, Column, Table } from './table.js';

// biome-ignore lint/suspicious/noExplicitAny: ES JSON, read field by field
type Json = Record<string, any>;

const NODE_COLUMNS: Column[] = [
  { name: 'id', aliases: ['nodeId'], desc: 'unique node id', hidden: true },
  { name: 'pid', aliases: ['p'], desc: 'process id', hidden: true },
  { name: 'ip', aliases: ['i'], desc: 'ip address' },
  { name: 'port', aliases: ['po'], desc: 'bound transport port', hidden: true },
  { name: 'http_address', aliases: ['http'], desc: 'bound http address', hidden: true },
  { name: 'version', aliases: ['v'], desc: 'es version', hidden: true },
  { name: 'disk.total', aliases: ['dt', 'diskTotal'], desc: 'total disk space', hidden: true, right: true },
  { name: 'disk.used', aliases: ['du', 'diskUsed'], desc: 'used disk space', hidden: true, right: true },
  {
    name: 'disk.avail',
    aliases: ['d', 'da', 'disk', 'diskAvail'],
    desc: 'available disk space',
    hidden: true,
    right: true,
  },
  {
    name: 'disk.used_percent',
    aliases: ['dup', 'diskUsedPercent'],
    desc: 'used disk space percentage',
    hidden: true,
    right: true,
  },
  { name: 'heap.current', aliases: ['hc', 'heapCurrent'], desc: 'used heap', hidden: true, right: true },
  { name: 'heap.percent', aliases: ['hp', 'heapPercent'], desc: 'used heap ratio', right: true },
  { name: 'heap.max', aliases: ['hm', 'heapMax'], desc: 'max configured heap', hidden: true, right: true },
  {
    name: 'ram.current',
    aliases: ['rc', 'ramCurrent'],
    desc: 'used machine memory',
    hidden: true,
    right: true,
  },
  { name: 'ram.percent', aliases: ['rp', 'ramPercent'], desc: 'used machine memory ratio', right: true },
  { name: 'ram.max', aliases: ['rm', 'ramMax'], desc: 'total machine memory', hidden: true, right: true },
  {
    name: 'file_desc.current',
    aliases: ['fdc', 'fileDescriptorCurrent'],
    desc: 'used file descriptors',
    hidden: true,
    right: true,
  },
  {
    name: 'file_desc.percent',
    aliases: ['fdp', 'fileDescriptorPercent'],
    desc: 'used file descriptor ratio',
    hidden: true,
    right: true,
  },
  {
    name: 'file_desc.max',
    aliases: ['fdm', 'fileDescriptorMax'],
    desc: 'max file descriptors',
    hidden: true,
    right: true,
  },
  { name: 'cpu', desc: 'recent cpu usage', right: true },
  { name: 'load_1m', aliases: ['l'], desc: '1m load avg', right: true },
  { name: 'load_5m', aliases: ['l'], desc: '5m load avg', right: true },
  { name: 'load_15m', aliases: ['l'], desc: '15m load avg', right: true },
  { name: 'uptime', aliases: ['u'], desc: 'node uptime', hidden: true, right: true },
  {
    name: 'node.role',
    aliases: ['r', 'role', 'nodeRole'],
    desc: 'm:master eligible node, d:data node, i:ingest node, -:coordinating node only',
  },
  { name: 'master', aliases: ['m'], desc: '*:current master' },
  { name: 'name', aliases: ['n'], desc: 'node name' },
];

const load = (n: number | undefined) => (n === undefined ? null : n.toFixed(2));

export function catNodes(engine: Engine, params: Record<string, string>): Table {
  const now = Date.now();
  const id = identity(engine).node_id;
  const os = osStats(now);
  const proc = processStats(now);
  const jvm = jvmStats(now);
  const fs = statfsSync(engine.dataDir);
  const total = fs.blocks * fs.bsize;
  const avail = fs.bavail * fs.bsize;
  const used = total - fs.bfree * fs.bsize;
  const indices = JSON.parse(engine.nodeIndicesStats(undefined, {}).body) as Json;
  const fullId = params.full_id !== undefined && params.full_id !== 'false';
  const [one, five, fifteen] = loadavg();
  const fds = openFiles();
  const max = maxFiles();
  const row: Record<string, Cell> = {
    id: fullId ? id : id.slice(0, 4),
    pid: process.pid,
    ip: boundHost(),
    port: Number(httpAddress().split(':')[1]),
    http_address: httpAddress(),
    version: VERSION,
    'disk.total': { bytes: total },
    'disk.used': { bytes: used },
    'disk.avail': { bytes: avail },
    'disk.used_percent': total > 0 ? ((used / total) * 100).toFixed(2) : null,
    'heap.current': { bytes: jvm.mem.heap_used_in_bytes },
    'heap.percent': jvm.mem.heap_used_percent,
    'heap.max': { bytes: jvm.mem.heap_max_in_bytes },
    'ram.current': { bytes: os.mem.used_in_bytes },
    'ram.percent': os.mem.used_percent,
    'ram.max': { bytes: os.mem.total_in_bytes },
    'file_desc.current': fds,
    'file_desc.percent': max > 0 && fds >= 0 ? Math.round((fds / max) * 100) : -1,
    'file_desc.max': max,
    cpu: proc.cpu.percent,
    load_1m: load(one),
    load_5m: load(five),
    load_15m: load(fifteen),
    uptime: { millis: Math.round(process.uptime() * 1000) },
    'node.role': 'dim',
    master: '*',
    name: NODE_NAME,
    ...statCells(indices),
  };
  return { columns: [...NODE_COLUMNS, ...statColumns()], rows: [row] };
}

/** The node has no custom attributes: the table has its columns and no row. */
export function catNodeattrs(): Table {
  return {
    columns: [
      { name: 'node', aliases: ['name'], desc: 'node name' },
      { name: 'id', aliases: ['id', 'nodeId'], desc: 'unique node id', hidden: true },
      { name: 'pid', aliases: ['p'], desc: 'process id', hidden: true },
      { name: 'host', aliases: ['h'], desc: 'host name' },
      { name: 'ip', aliases: ['i'], desc: 'ip address' },
      { name: 'port', aliases: ['po'], desc: 'bound transport port', hidden: true },
      { name: 'attr', aliases: ['attr.name'], desc: 'attribute description' },
      { name: 'value', aliases: ['attr.value'], desc: 'attribute value' },
    ],
    rows: [],
  };
}

/** No plugins are installed: the table has its columns and no row. */
export function catPlugins(): Table {
  return {
    columns: [
      { name: 'id', desc: 'unique node id', hidden: true },
      { name: 'name', aliases: ['n'], desc: 'node name' },
      { name: 'component', aliases: ['c'], desc: 'component' },
      { name: 'version', aliases: ['v'], desc: 'component version' },
      { name: 'description', aliases: ['d'], desc: 'plugin details', hidden: true },
    ],
    rows: [],
  };
}

export function catFielddata(engine: Engine, fields: string | undefined): Table {
  const reply = engine.nodeIndicesStats('fielddata', { fielddata_fields: fields ?? '*' });
  if (reply.status !== 200) throw EngineError.fromReply(reply);
  const held = ((JSON.parse(reply.body) as Json).fielddata?.fields ?? {}) as Json;
  const id = identity(engine).node_id;
  const rows = Object.entries(held).map(([field, f]) => ({
    id,
    host: HOSTNAME,
    ip: boundHost(),
    node: NODE_NAME,
    field,
    size: { bytes: (f as Json).memory_size_in_bytes as number },
  }));
  return {
    columns: [
      { name: 'id', desc: 'node id' },
      { name: 'host', aliases: ['h'], desc: 'host name' },
      { name: 'ip', desc: 'ip address' },
      { name: 'node', aliases: ['n'], desc: 'node name' },
      { name: 'field', aliases: ['f'], desc: 'field name' },
      { name: 'size', aliases: ['s'], desc: 'field data usage', right: true },
    ],
    rows,
  };
}

export function catMaster(engine: Engine): Table {
  return {
    columns: [
      { name: 'id', desc: 'node id' },
      { name: 'host', aliases: ['h'], desc: 'host name' },
      { name: 'ip', desc: 'ip address' },
      { name: 'node', aliases: ['n'], desc: 'node name' },
    ],
    rows: [{ id: identity(engine).node_id, host: HOSTNAME, ip: boundHost(), node: NODE_NAME }],
  };
}

export function catHealth(engine: Engine): Table {
  const h = JSON.parse(engine.clusterHealth('', {}).body) as Json;
  return {
    columns: [
      ...TIMESTAMP_COLUMNS,
      { name: 'cluster', aliases: ['cl'], desc: 'cluster name' },
      { name: 'status', aliases: ['st'], desc: 'health status' },
      { name: 'node.total', aliases: ['nt', 'nodeTotal'], desc: 'total number of nodes', right: true },
      {
        name: 'node.data',
        aliases: ['nd', 'nodeData'],
        desc: 'number of nodes that can store data',
        right: true,
      },
      {
        name: 'shards',
        aliases: ['t', 'sh', 'shards.total', 'shardsTotal'],
        desc: 'total number of shards',
        right: true,
      },
      {
        name: 'pri',
        aliases: ['p', 'shards.primary', 'shardsPrimary'],
        desc: 'number of primary shards',
        right: true,
      },
      {
        name: 'relo',
        aliases: ['r', 'shards.relocating', 'shardsRelocating'],
        desc: 'number of relocating nodes',
        right: true,
      },
      {
        name: 'init',
        aliases: ['i', 'shards.initializing', 'shardsInitializing'],
        desc: 'number of initializing nodes',
        right: true,
      },
      {
        name: 'unassign',
        aliases: ['u', 'shards.unassigned', 'shardsUnassigned'],
        desc: 'number of unassigned shards',
        right: true,
      },
      {
        name: 'pending_tasks',
        aliases: ['pt', 'pendingTasks'],
        desc: 'number of pending tasks',
        right: true,
      },
      {
        name: 'max_task_wait_time',
        aliases: ['mtwt', 'maxTaskWaitTime'],
        desc: 'wait time of longest task pending',
        right: true,
      },
      {
        name: 'active_shards_percent',
        aliases: ['asp', 'activeShardsPercent'],
        desc: 'active number of shards in percent',
        right: true,
      },
    ],
    rows: [
      {
        ...timestampCells(),
        cluster: h.cluster_name,
        status: h.status,
        'node.total': h.number_of_nodes,
        'node.data': h.number_of_data_nodes,
        shards: h.active_shards,
        pri: h.active_primary_shards,
        relo: h.relocating_shards,
        init: h.initializing_shards,
        unassign: h.unassigned_shards,
        pending_tasks: h.number_of_pending_tasks,
        max_task_wait_time: '-',
        active_shards_percent: `${(h.active_shards_percent_as_number as number).toFixed(1)}%`,
      },
    ],
  };
}
