//! Index statistics: `GET [/{index}]/_stats[/{metric}]` and the `indices` section of node
//! statistics, in ES's shape: each index's primaries and total (the same here: replicas are
//! never allocated on one node), their sum under `_all`, and per shard copy with
//! `level=shards`. The figures are read once per index per request (`figures.rs`); the
//! sums across indices and shards add the sections' numbers (`sum.rs`).

mod clear_cache;
mod completion;
mod figures;
pub mod layout;
pub mod segments;
mod shard_entry;
mod sum;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;
use crate::store::versioning::param_text;

pub use crate::wildcard::matches_any;
pub use figures::{Detail, Figures, METRICS};
use layout::{shards_header, ShardLayout};
pub use sum::add_into;

use super::resolve::ResolveOptions;
use super::Engine;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Cluster,
    Indices,
    Shards,
    /// Node statistics' own default: one sum for the node.
    Node,
}

/// What a statistics request asks for.
#[derive(Debug, Clone)]
pub struct StatsRequest {
    /// Section names (`docs`, `merges`, ...), in ES's order.
    pub sections: Vec<&'static str>,
    pub level: Level,
    pub detail: Detail,
}

fn list(params: &Map<String, Value>, key: &str) -> Option<Vec<String>> {
    params.get(key).map(|v| param_text(v).split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
}

fn flag(params: &Map<String, Value>, key: &str) -> Result<bool> {
    match params.get(key).map(param_text).as_deref() {
        None | Some("false") => Ok(false),
        Some("true") | Some("") => Ok(true),
        Some(other) => Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{other}] as only [true] or [false] are allowed."
        ))),
    }
}

impl StatsRequest {
    /// From the URL: `metric` (a list of ES's metric names, or `_all`), `level`, the per-field
    /// lists (`fields` stands for both `fielddata_fields` and `completion_fields`), `groups`
    /// and `include_segment_file_sizes`. `node_level` picks node statistics' levels.
    pub fn parse(metric: Option<&str>, params: &Map<String, Value>, node_level: bool) -> Result<StatsRequest> {
        let metrics: Vec<&str> = metric.unwrap_or("_all").split(',').map(str::trim).collect();
        let all = metrics.iter().all(|m| *m == "_all");
        let sections =
            METRICS.iter().filter(|(rest, _)| all || metrics.contains(rest)).map(|(_, section)| *section).collect();
        if let Some(bad) = metrics.iter().find(|m| **m != "_all" && !METRICS.iter().any(|(rest, _)| rest == *m)) {
            return Err(EngineError::IllegalArgument(format!("unrecognized metric: [{bad}]")));
        }
        let level = match params.get("level").map(param_text).as_deref() {
            None => {
                if node_level {
                    Level::Node
                } else {
                    Level::Indices
                }
            }
            Some("indices") => Level::Indices,
            Some("shards") => Level::Shards,
            Some("cluster") if !node_level => Level::Cluster,
            Some("node") if node_level => Level::Node,
            Some(other) => {
                let allowed =
                    if node_level { "[node] or [indices] or [shards]" } else { "[cluster] or [indices] or [shards]" };
                return Err(EngineError::IllegalArgument(format!(
                    "level parameter must be one of {allowed} but was [{other}]"
                )));
            }
        };
        let fields = list(params, "fields");
        let detail = Detail {
            fielddata_fields: list(params, "fielddata_fields").or_else(|| fields.clone()),
            completion_fields: list(params, "completion_fields").or(fields),
            groups: list(params, "groups"),
            segment_file_sizes: flag(params, "include_segment_file_sizes")?,
            unloaded_segments: flag(params, "include_unloaded_segments")?,
        };
        Ok(StatsRequest { sections, level, detail })
    }

    /// The requested sections of one shard's figures.
    fn sections(&self, figures: &Figures) -> Map<String, Value> {
        self.sections.iter().map(|s| (s.to_string(), figures.section(s, &self.detail))).collect()
    }
}

/// One index's statistics: its sections summed over its shards, and each shard's entry.
struct IndexStats {
    layout: ShardLayout,
    primaries: Map<String, Value>,
    shards: Vec<(u64, Value)>,
}

impl Engine {
    fn index_stats(&self, handle: &IndexHandle, req: &StatsRequest) -> Result<IndexStats> {
        let layout = ShardLayout::of(&handle.settings);
        let holder =
            if handle.closed { Figures::closed(handle, &req.detail)? } else { Figures::of(handle, &req.detail)? };
        let primaries = req.sections(&holder);
        let mut shards = Vec::new();
        if req.level == Level::Shards {
            let empty = Figures::default();
            for shard in 0..layout.primaries {
                let figures = if shard == 0 { &holder } else { &empty };
                let entry = shard_entry::entry(self, handle, shard, req.sections(figures))?;
                shards.push((shard, entry));
            }
        }
        Ok(IndexStats { layout, primaries, shards })
    }

    /// `GET [/{index}]/_stats[/{metric}]`.
    pub fn indices_stats(&self, expression: &str, metric: Option<&str>, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        // `forbid_closed_indices` (ES's default): a closed index is an error, or skipped with
        // `ignore_unavailable`; without it, a closed index shows what its commit holds.
        let forbid_closed = params.get("forbid_closed_indices").is_none() || flag(&params, "forbid_closed_indices")?;
        params.remove("forbid_closed_indices");
        let req = StatsRequest::parse(metric, &params, false)?;
        let mut targets = Vec::new();
        for target in self.resolve(expression, options)? {
            let handle = self.get_meta(&target.index)?;
            if handle.closed && forbid_closed {
                if options.ignore_unavailable {
                    continue;
                }
                return Err(crate::error::EngineError::IndexClosed {
                    index: handle.name.clone(),
                    uuid: handle.uuid.clone(),
                });
            }
            targets.push(handle);
        }
        let mut all = Map::new();
        let mut indices = Map::new();
        let mut layouts = Vec::new();
        for handle in &targets {
            let stats = self.index_stats(handle, &req)?;
            add_into(&mut all, &stats.primaries);
            layouts.push(stats.layout);
            if req.level == Level::Cluster {
                continue;
            }
            let mut entry = json!({
                "uuid": handle.uuid,
                "health": stats.layout.health(),
                "status": handle.state_name(),
                "primaries": stats.primaries,
                "total": stats.primaries,
            });
            if req.level == Level::Shards {
                let shards: Map<String, Value> =
                    stats.shards.into_iter().map(|(n, e)| (n.to_string(), json!([e]))).collect();
                entry["shards"] = Value::Object(shards);
            }
            indices.insert(handle.name.clone(), entry);
        }
        let mut body = json!({
            "_shards": shards_header(&layouts),
            "_all": { "primaries": all, "total": all },
        });
        if req.level != Level::Cluster {
            body["indices"] = Value::Object(indices);
        }
        Ok(body.to_string())
    }

    /// The `indices` section of node statistics: every index's sections summed for the node;
    /// with `level=indices` by index, with `level=shards` by index and shard.
    pub fn node_indices_stats(&self, metric: Option<&str>, params: &Map<String, Value>) -> Result<Value> {
        let req = StatsRequest::parse(metric, params, true)?;
        // A node without indices still shows every section, at zero.
        let mut node = req.sections(&Figures::default());
        let mut by_index = Map::new();
        let mut by_shard = Map::new();
        for target in self.resolve("_all", ResolveOptions::default())? {
            let handle = self.get(&target.index)?;
            let stats = self.index_stats(&handle, &req)?;
            add_into(&mut node, &stats.primaries);
            match req.level {
                Level::Indices => {
                    by_index.insert(target.index.clone(), Value::Object(stats.primaries));
                }
                Level::Shards => {
                    let shards: Vec<Value> =
                        stats.shards.into_iter().map(|(n, e)| json!({ n.to_string(): e })).collect();
                    by_shard.insert(target.index.clone(), Value::Array(shards));
                }
                _ => {}
            }
        }
        let mut out = Value::Object(node);
        match req.level {
            Level::Indices => out["indices"] = Value::Object(by_index),
            Level::Shards => out["shards"] = Value::Object(by_shard),
            _ => {}
        }
        Ok(out)
    }
}
