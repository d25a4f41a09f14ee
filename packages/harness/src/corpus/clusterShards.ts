/**
 * The index a baseline cluster (`--baseline-nodes N`) receives: one primary shard per node, so
 * every node holds part of the data and every search fans out to all of them, and no replicas.
 *
 * Why no replicas: on one machine a replica buys no durability, doubles the write work and the
 * memory the baseline holds, and makes each search choose between copies; with 0 the cluster
 * holds exactly the documents the single node and the candidate hold. Why one shard per node at
 * most (`routing.allocation.total_shards_per_node`): the balancer would spread N shards over N
 * nodes anyway, and the cap makes that certain, also after a restart; a node that does not come
 * back leaves its shard unassigned and the cluster red, never doubled up on another node.
 */

export interface IndexShape {
  shards: number;
  replicas: number;
}

/** What the cluster's index holds: one shard per node, no replicas. */
export const clusterIndexShape = (nodes: number): IndexShape => ({ shards: nodes, replicas: 0 });

type Body = { settings?: Record<string, unknown>; [key: string]: unknown };

/**
 * `body` with its shard settings replaced by `shape`, one shard per node at most. Settings may be
 * written nested (`settings.index.number_of_shards`, as the corpora do) or flat
 * (`settings.number_of_shards`); both spellings are replaced so the index cannot carry two.
 */
export function shardedIndexBody(body: object, shape: IndexShape): object {
  const own = body as Body;
  const {
    number_of_shards: _shards,
    number_of_replicas: _replicas,
    'index.number_of_shards': _flatShards,
    'index.number_of_replicas': _flatReplicas,
    ...settings
  } = own.settings ?? {};
  const index = (settings.index as Record<string, unknown> | undefined) ?? {};
  const routing = (index.routing as Record<string, unknown> | undefined) ?? {};
  const allocation = (routing.allocation as Record<string, unknown> | undefined) ?? {};
  return {
    ...own,
    settings: {
      ...settings,
      index: {
        ...index,
        number_of_shards: shape.shards,
        number_of_replicas: shape.replicas,
        routing: { ...routing, allocation: { ...allocation, total_shards_per_node: 1 + shape.replicas } },
      },
    },
  };
}
