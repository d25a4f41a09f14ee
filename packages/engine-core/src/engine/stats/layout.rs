//! An index's shard copies as a one-node cluster sees them. The index declares
//! `number_of_shards` primaries and `number_of_replicas` replicas of each; this engine keeps
//! all of an index's documents in one store, which every primary addresses: shard 0 holds the
//! store (its documents, segments and counters), the other primaries are started and empty.
//! A replica can never be allocated on the node that holds its primary, so every replica is
//! unassigned (ES's yellow), unless `auto_expand_replicas` lets the count drop to what one
//! node can hold.

use crate::store::settings::IndexSettings;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardLayout {
    pub primaries: u64,
    /// Replicas of each primary the index asks for (after `auto_expand_replicas` on one node).
    pub replicas: u64,
}

/// One shard copy: which shard, primary or replica, and whether the node holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardCopy {
    pub shard: u64,
    pub primary: bool,
    pub assigned: bool,
}

impl ShardLayout {
    pub fn of(settings: &IndexSettings) -> ShardLayout {
        ShardLayout { primaries: settings.number_of_shards.max(1), replicas: effective_replicas(settings) }
    }

    /// Every copy the index asks for.
    pub fn total(&self) -> u64 {
        self.primaries * (1 + self.replicas)
    }

    /// The copies the node holds (its primaries).
    pub fn active(&self) -> u64 {
        self.primaries
    }

    pub fn unassigned(&self) -> u64 {
        self.total() - self.active()
    }

    /// ES's index health: green when every copy is allocated, yellow when only replicas wait.
    pub fn health(&self) -> &'static str {
        if self.replicas == 0 {
            "green"
        } else {
            "yellow"
        }
    }

    /// The copies by shard number, each primary before its replicas.
    pub fn copies(&self) -> impl Iterator<Item = ShardCopy> + '_ {
        (0..self.primaries).flat_map(move |shard| {
            std::iter::once(ShardCopy { shard, primary: true, assigned: true })
                .chain((0..self.replicas).map(move |_| ShardCopy { shard, primary: false, assigned: false }))
        })
    }
}

/// `auto_expand_replicas` (`0-1`, `0-all`, `false`): on one node the range's lower bound.
fn effective_replicas(settings: &IndexSettings) -> u64 {
    let auto = settings.given.get("auto_expand_replicas").and_then(|v| v.as_str());
    match auto.and_then(|range| range.split_once('-')) {
        Some((min, _)) => min.trim().parse().unwrap_or(settings.number_of_replicas),
        None => settings.number_of_replicas,
    }
}

/// The `_shards` header of a broadcast over these layouts (`_stats`, `_refresh`, `_flush`, ...):
/// every copy addressed, the active ones answering.
pub fn shards_header<'a>(layouts: impl IntoIterator<Item = &'a ShardLayout>) -> serde_json::Value {
    let (mut total, mut successful) = (0, 0);
    for layout in layouts {
        total += layout.total();
        successful += layout.active();
    }
    serde_json::json!({ "total": total, "successful": successful, "failed": 0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn layout(settings: serde_json::Value) -> ShardLayout {
        ShardLayout::of(&IndexSettings::parse(&settings).unwrap())
    }

    #[test]
    fn replicas_wait_unassigned_on_one_node() {
        let l = layout(json!({ "number_of_shards": 5, "number_of_replicas": 1 }));
        assert_eq!((l.total(), l.active(), l.unassigned(), l.health()), (10, 5, 5, "yellow"));
        let copies: Vec<ShardCopy> = l.copies().collect();
        assert_eq!(copies.len(), 10);
        assert_eq!(copies[1], ShardCopy { shard: 0, primary: false, assigned: false });
        assert_eq!(layout(json!({ "number_of_replicas": 0 })).health(), "green");
    }

    #[test]
    fn auto_expanded_replicas_take_the_lower_bound() {
        assert_eq!(layout(json!({ "auto_expand_replicas": "0-1" })).replicas, 0);
        assert_eq!(layout(json!({ "number_of_replicas": 2, "auto_expand_replicas": "false" })).replicas, 2);
    }

    #[test]
    fn broadcast_header_counts_copies() {
        let a = layout(json!({ "number_of_shards": 5, "number_of_replicas": 1 }));
        let b = layout(json!({ "number_of_shards": 4, "number_of_replicas": 1 }));
        assert_eq!(shards_header([&a, &b]), json!({ "total": 18, "successful": 9, "failed": 0 }));
    }
}
