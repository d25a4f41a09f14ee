/**
 * This node as ES describes a node: its id (made once per data directory by the engine, so
 * stable across restarts), name, roles, version, and the address it serves HTTP on (known
 * once the server listens). The engine has no transport layer: its HTTP address is the only
 * one it publishes, and transport sections say so with empty address lists.
 */
import { hostname } from 'node:os';
import type { Engine } from '../engine.js';

export const NODE_NAME = 'everycell';
export const CLUSTER_NAME = 'everycell';
export const VERSION = '8.15.0';
/** Sorted, as ES sorts them; `ingest`: documents are parsed and indexed on this node. */
export const ROLES = ['data', 'ingest', 'master'];

let bound = { host: '127.0.0.1', port: 0 };

/** Called by the HTTP service once it listens. */
export function setBoundAddress(host: string, port: number): void {
  bound = { host: host === '::' || host === '0.0.0.0' ? '127.0.0.1' : host, port };
}

export function httpAddress(): string {
  return `${bound.host}:${bound.port}`;
}

export function boundHost(): string {
  return bound.host;
}

export interface Identity {
  node_id: string;
  cluster_uuid: string;
}

// Made once per data directory: fixed for the life of an engine.
const cached = new WeakMap<Engine, Identity>();

export function identity(engine: Engine): Identity {
  let known = cached.get(engine);
  if (known === undefined) {
    const { node_id, cluster_uuid } = JSON.parse(engine.nodeIdentity().body) as Identity;
    known = { node_id, cluster_uuid };
    cached.set(engine, known);
  }
  return known;
}

/** The node's entry in `_cluster/state` `nodes` and `_search_shards` `nodes`. */
export function discoveryNode(engine: Engine): Record<string, unknown> {
  return {
    [identity(engine).node_id]: {
      name: NODE_NAME,
      ephemeral_id: identity(engine).node_id,
      transport_address: httpAddress(),
      attributes: {},
      roles: ROLES,
    },
  };
}

/** The fields every node entry of `_nodes` and `_nodes/stats` starts with. */
export function nodeHeader(): Record<string, unknown> {
  return {
    name: NODE_NAME,
    transport_address: httpAddress(),
    host: boundHost(),
    ip: boundHost(),
    roles: ROLES,
    attributes: {},
  };
}

export const HOSTNAME = hostname();

/** ES's node selectors that name this node; any other id or name selects none. */
export function selectsThisNode(engine: Engine, selector: string | undefined): boolean {
  if (selector === undefined) return true;
  const id = identity(engine).node_id;
  return selector
    .split(',')
    .map((s) => s.trim())
    .some(
      (s) =>
        ['_all', '_local', '_master', '*', 'master:true', 'data:true', 'ingest:true', id, NODE_NAME].includes(
          s,
        ) ||
        (s.includes('*') &&
          new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(id)),
    );
}
