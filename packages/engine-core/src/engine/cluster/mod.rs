//! The one-node cluster as ES describes it: health (`health.rs`) and state (`state.rs`).

pub mod health;
pub mod state;

/// The cluster's name (ES's `cluster.name`), and this node's.
pub const CLUSTER_NAME: &str = "everycell";
