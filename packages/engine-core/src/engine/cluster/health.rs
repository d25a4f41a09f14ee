//! `GET /_cluster/health[/{index}]`: the shard copies of the indices asked for (all of them by
//! default), as ES counts them on one node (`stats/layout.rs`), and whether the request's
//! `wait_for_*` conditions hold. The service waits by asking again until they do or its
//! `timeout` passes (ES re-checks on every cluster state change; here the state changes only
//! through other requests): an answer whose conditions do not hold is status 408 with
//! `timed_out: true`, which is ES's answer once the wait is over.

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::versioning::param_text;

use super::super::resolve::ResolveOptions;
use super::super::stats::layout::ShardLayout;
use super::super::Engine;

const STATUSES: [&str; 3] = ["green", "yellow", "red"];

fn rank(status: &str) -> usize {
    STATUSES.iter().position(|s| *s == status).unwrap_or(2)
}

#[derive(Default)]
struct Counts {
    primaries: u64,
    active: u64,
    unassigned: u64,
}

/// `wait_for_active_shards`: `all`, a number, or none (`0`, absent).
enum ActiveShards {
    None,
    All,
    AtLeast(u64),
}

fn active_shards(params: &Map<String, Value>) -> Result<ActiveShards> {
    match params.get("wait_for_active_shards").map(param_text).as_deref() {
        None | Some("0") => Ok(ActiveShards::None),
        Some("all") => Ok(ActiveShards::All),
        Some(n) => n
            .parse()
            .map(ActiveShards::AtLeast)
            .map_err(|_| EngineError::IllegalArgument(format!("cannot parse ActiveShardCount[{n}]"))),
    }
}

/// `wait_for_nodes`: `N`, `>=N`, `<=N`, `>N`, `<N` or their `ge(N)` forms, against one node.
fn nodes_condition(spec: &str) -> Result<bool> {
    let bad = || EngineError::IllegalArgument(format!("failed to parse wait_for_nodes [{spec}]"));
    let (op, n) = [(">=", "ge("), ("<=", "le("), (">", "gt("), ("<", "lt(")]
        .iter()
        .find_map(|(sym, word)| {
            spec.strip_prefix(sym)
                .or_else(|| spec.strip_prefix(word).and_then(|r| r.strip_suffix(')')))
                .map(|r| (*sym, r))
        })
        .unwrap_or(("==", spec));
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    Ok(match op {
        ">=" => 1 >= n,
        "<=" => 1 <= n,
        ">" => 1 > n,
        "<" => 1 < n,
        _ => 1 == n,
    })
}

impl Engine {
    /// The health body and whether the request's conditions hold (status 200), or not yet
    /// (status 408, `timed_out: true`).
    pub fn cluster_health(&self, expression: &str, params: &Map<String, Value>) -> Result<(String, u16)> {
        let mut params = params.clone();
        // Health's own defaults (ES's `lenientExpandHidden`): wildcards expand to open, closed
        // and hidden indices, and a closed index counts with its shard copies (closed indices
        // keep their replicated shards since ES 7.2).
        let base = ResolveOptions {
            expand_closed: true,
            expand_hidden: true,
            forbid_closed: false,
            ..ResolveOptions::default()
        };
        let mut options = ResolveOptions::take_over(&mut params, base)?;
        options.ignore_unavailable = true;
        options.allow_no_indices = true;
        let level = params.get("level").map(param_text).unwrap_or_else(|| "cluster".into());
        if !["cluster", "indices", "shards"].contains(&level.as_str()) {
            return Err(EngineError::IllegalArgument(format!(
                "No enum constant ClusterHealthRequest.Level.{}",
                level.to_uppercase()
            )));
        }
        let named = !expression.is_empty() && expression != "_all";
        let targets = self.resolve(if named { expression } else { "_all" }, options)?;
        // A name that is no index: red until it exists (ES waits for it, then times out).
        let missing =
            named && self.resolve(expression, ResolveOptions { ignore_unavailable: false, ..options }).is_err();
        let mut totals = Counts::default();
        let mut status = "green";
        let mut indices = Map::new();
        for target in &targets {
            let handle = self.get_meta(&target.index)?;
            let layout = ShardLayout::of(&handle.settings);
            totals.primaries += layout.primaries;
            totals.active += layout.active();
            totals.unassigned += layout.unassigned();
            if rank(layout.health()) > rank(status) {
                status = layout.health();
            }
            if level != "cluster" {
                indices.insert(target.index.clone(), index_health(&layout, level == "shards"));
            }
        }
        if missing {
            status = "red";
        }
        let mut met = true;
        if let Some(wanted) = params.get("wait_for_status").map(param_text) {
            if !STATUSES.contains(&wanted.as_str()) {
                return Err(EngineError::IllegalArgument(format!("unknown cluster health status [{wanted}]")));
            }
            met &= rank(status) <= rank(&wanted);
        }
        met &= match active_shards(&params)? {
            ActiveShards::None => true,
            ActiveShards::All => totals.unassigned == 0,
            ActiveShards::AtLeast(n) => totals.active >= n,
        };
        if let Some(spec) = params.get("wait_for_nodes").map(param_text).filter(|s| !s.is_empty()) {
            met &= nodes_condition(&spec)?;
        }
        // Nothing relocates or initializes on one node, and no cluster task ever waits:
        // `wait_for_no_relocating_shards`, `wait_for_no_initializing_shards` and
        // `wait_for_events` always hold.
        met &= !missing;
        let total = totals.active + totals.unassigned;
        let percent = if total == 0 { 100.0 } else { totals.active as f64 * 100.0 / total as f64 };
        let mut body = json!({
            "cluster_name": super::CLUSTER_NAME,
            "status": status,
            "timed_out": !met,
            "number_of_nodes": 1,
            "number_of_data_nodes": 1,
            "discovered_master": true,
            "discovered_cluster_manager": true,
            "active_primary_shards": totals.primaries,
            "active_shards": totals.active,
            "relocating_shards": 0,
            "initializing_shards": 0,
            "unassigned_shards": totals.unassigned,
            "delayed_unassigned_shards": 0,
            "number_of_pending_tasks": 0,
            "number_of_in_flight_fetch": 0,
            "task_max_waiting_in_queue_millis": 0,
            "active_shards_percent_as_number": percent,
        });
        if level != "cluster" {
            body["indices"] = Value::Object(indices);
        }
        Ok((body.to_string(), if met { 200 } else { 408 }))
    }
}

fn index_health(layout: &ShardLayout, shards: bool) -> Value {
    let mut out = json!({
        "status": layout.health(),
        "number_of_shards": layout.primaries,
        "number_of_replicas": layout.replicas,
        "active_primary_shards": layout.primaries,
        "active_shards": layout.active(),
        "relocating_shards": 0,
        "initializing_shards": 0,
        "unassigned_shards": layout.unassigned(),
    });
    if shards {
        let by_shard: Map<String, Value> = (0..layout.primaries)
            .map(|n| {
                let shard = json!({
                    "status": layout.health(),
                    "primary_active": true,
                    "active_shards": 1,
                    "relocating_shards": 0,
                    "initializing_shards": 0,
                    "unassigned_shards": layout.replicas,
                });
                (n.to_string(), shard)
            })
            .collect();
        out["shards"] = Value::Object(by_shard);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_count_conditions_against_one_node() {
        assert!(nodes_condition("1").unwrap() && nodes_condition(">=1").unwrap() && nodes_condition("ge(1)").unwrap());
        assert!(!nodes_condition("10").unwrap() && !nodes_condition(">1").unwrap());
        assert!(nodes_condition("<2").unwrap() && nodes_condition("le(1)").unwrap());
        assert!(nodes_condition("x").is_err());
    }
}
