//! One shard's figures, read once per request from the index (its searcher, segments,
//! translog and counters), and each statistics section ES renders from them. A shard the
//! store does not live on (`layout.rs`) has all-zero figures.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering::Relaxed;

use serde_json::{json, Map, Value};

use crate::error::Result;
use crate::store::counters::{IndexCounters, SearchCounters};
use crate::store::index::IndexHandle;
use crate::store::segment_files::{component_sizes, COMPONENTS};
use crate::wildcard::matches_any;

/// The statistics sections ES knows, in its order, with the name each takes in a `metric` list.
pub const METRICS: [(&str, &str); 16] = [
    ("docs", "docs"),
    ("store", "store"),
    ("indexing", "indexing"),
    ("get", "get"),
    ("search", "search"),
    ("merge", "merges"),
    ("refresh", "refresh"),
    ("flush", "flush"),
    ("warmer", "warmer"),
    ("query_cache", "query_cache"),
    ("fielddata", "fielddata"),
    ("completion", "completion"),
    ("segments", "segments"),
    ("translog", "translog"),
    ("request_cache", "request_cache"),
    ("recovery", "recovery"),
];

/// What a request asks of the sections beyond which ones: per-field and per-group detail.
#[derive(Debug, Default, Clone)]
pub struct Detail {
    pub fielddata_fields: Option<Vec<String>>,
    pub completion_fields: Option<Vec<String>>,
    pub groups: Option<Vec<String>>,
    pub segment_file_sizes: bool,
    /// `include_unloaded_segments`: a closed index's segments count too (they are on disk,
    /// not loaded).
    pub unloaded_segments: bool,
}

#[derive(Default)]
pub struct Figures<'a> {
    pub docs: u64,
    pub deleted: u64,
    pub store_bytes: u64,
    pub segments: u64,
    pub file_sizes: BTreeMap<&'static str, u64>,
    pub version_map_bytes: u64,
    pub translog_ops: u64,
    pub translog_bytes: u64,
    pub translog_age_ms: u64,
    pub counters: Option<&'a IndexCounters>,
    pub fielddata: BTreeMap<String, u64>,
    pub completion: BTreeMap<String, u64>,
    pub query_cache: (u64, u64),
    /// kNN graph builds of new segments (`knn::graph`): in progress, done, milliseconds.
    pub warmer: (u64, u64, u64),
}

impl<'a> Figures<'a> {
    /// The figures of the shard that holds the index's store.
    pub fn of(handle: &'a IndexHandle, detail: &Detail) -> Result<Figures<'a>> {
        let searcher = handle.searcher();
        let deleted = searcher.segment_readers().iter().map(|s| u64::from(s.num_deleted_docs())).sum();
        let committed = handle.committed_segments()?;
        let mut file_sizes = BTreeMap::new();
        if detail.segment_file_sizes {
            let dir = handle.tantivy_dir();
            for meta in &committed {
                for (name, bytes) in component_sizes(&dir, meta) {
                    *file_sizes.entry(name).or_insert(0) += bytes;
                }
            }
        }
        let (translog_ops, translog_bytes, age) = handle.translog_stats();
        let (_, versions) = handle.pending_writes();
        Ok(Figures {
            docs: searcher.num_docs(),
            deleted,
            store_bytes: handle.store_size_in_bytes(),
            segments: committed.len() as u64,
            file_sizes,
            // An entry of the live version map: the id, its version and sequence number, the
            // map's own slot (ES estimates its version map the same way).
            version_map_bytes: versions as u64 * 64,
            translog_ops,
            translog_bytes,
            translog_age_ms: age.as_millis() as u64,
            counters: Some(&handle.counters),
            fielddata: handle.counters.fielddata(),
            completion: super::completion::sizes(&handle.mapping, &searcher)?,
            query_cache: crate::query::tantivy::query_cache::usage(&searcher),
            warmer: graph_builds(handle),
        })
    }

    /// The figures of a closed index: what its last commit holds (documents, store, and its
    /// segments only with `include_unloaded_segments`, as a closed shard loads none); nothing
    /// runs on it, so every activity counter reads zero.
    pub fn closed(handle: &'a IndexHandle, detail: &Detail) -> Result<Figures<'a>> {
        let searcher = handle.searcher();
        let committed = handle.committed_segments()?;
        Ok(Figures {
            docs: searcher.num_docs(),
            deleted: searcher.segment_readers().iter().map(|s| u64::from(s.num_deleted_docs())).sum(),
            store_bytes: handle.store_size_in_bytes(),
            segments: if detail.unloaded_segments { committed.len() as u64 } else { 0 },
            ..Figures::default()
        })
    }

    /// The section a metric renders (`metric` as ES names the section).
    pub fn section(&self, metric: &str, detail: &Detail) -> Value {
        let zero = IndexCounters::default();
        let c = self.counters.unwrap_or(&zero);
        match metric {
            "docs" => json!({ "count": self.docs, "deleted": self.deleted }),
            "store" => json!({
                "size_in_bytes": self.store_bytes,
                "total_data_set_size_in_bytes": self.store_bytes,
                "reserved_in_bytes": 0,
            }),
            "indexing" => json!({
                "index_total": c.index.count(),
                "index_time_in_millis": c.index.millis(),
                "index_current": c.index_current.get(),
                "index_failed": c.index_failed.load(Relaxed),
                "delete_total": c.delete.count(),
                "delete_time_in_millis": c.delete.millis(),
                "delete_current": c.delete_current.get(),
                "noop_update_total": c.noop_update.load(Relaxed),
                "is_throttled": false,
                "throttle_time_in_millis": 0,
            }),
            "get" => json!({
                "total": c.get.count(),
                "time_in_millis": c.get.millis(),
                "exists_total": c.get_exists.count(),
                "exists_time_in_millis": c.get_exists.millis(),
                "missing_total": c.get_missing.count(),
                "missing_time_in_millis": c.get_missing.millis(),
                "current": c.get_current.get(),
            }),
            "search" => self.search(c, detail),
            "merges" => json!({
                "current": c.merge_current.get(),
                "current_docs": 0,
                "current_size_in_bytes": 0,
                "total": c.merge.count(),
                "total_time_in_millis": c.merge.millis(),
                "total_docs": c.merge_docs.load(Relaxed),
                "total_size_in_bytes": c.merge_bytes.load(Relaxed),
                "total_stopped_time_in_millis": 0,
                "total_throttled_time_in_millis": 0,
                "total_auto_throttle_in_bytes": 0,
            }),
            "refresh" => json!({
                "total": c.refresh.count(),
                "total_time_in_millis": c.refresh.millis(),
                "external_total": c.external_refresh.count(),
                "external_total_time_in_millis": c.external_refresh.millis(),
                "listeners": 0,
            }),
            "flush" => json!({ "total": c.flush.count(), "periodic": 0, "total_time_in_millis": c.flush.millis() }),
            // The only warming: kNN graphs of large new segments, built after a refresh.
            "warmer" => {
                let (current, total, millis) = self.warmer;
                json!({ "current": current, "total": total, "total_time_in_millis": millis })
            }
            "query_cache" => json!({
                "memory_size_in_bytes": self.query_cache.1,
                "total_count": 0,
                "hit_count": 0,
                "miss_count": 0,
                "cache_size": self.query_cache.0,
                "cache_count": self.query_cache.0,
                "evictions": 0,
            }),
            "fielddata" => self.fielddata(c, detail),
            "completion" => super::completion::section(&self.completion, detail.completion_fields.as_deref()),
            "segments" => self.segments(detail),
            "translog" => json!({
                "operations": self.translog_ops,
                "size_in_bytes": self.translog_bytes,
                "uncommitted_operations": self.translog_ops,
                "uncommitted_size_in_bytes": self.translog_bytes,
                "earliest_last_modified_age": self.translog_age_ms,
            }),
            // No shard request cache in this engine.
            "request_cache" => json!({ "memory_size_in_bytes": 0, "evictions": 0, "hit_count": 0, "miss_count": 0 }),
            // One node: no shard is ever recovered from or to a peer.
            "recovery" => json!({ "current_as_source": 0, "current_as_target": 0, "throttle_time_in_millis": 0 }),
            _ => Value::Null,
        }
    }

    fn search(&self, c: &IndexCounters, detail: &Detail) -> Value {
        let mut out = search_section(&c.search);
        if let Some(patterns) = &detail.groups {
            let groups: Map<String, Value> = c
                .groups()
                .into_iter()
                .filter(|(name, _)| matches_any(patterns, name))
                .map(|(name, g)| (name, search_section(&g)))
                .collect();
            if !groups.is_empty() {
                out["groups"] = Value::Object(groups);
            }
        }
        out
    }

    fn fielddata(&self, c: &IndexCounters, detail: &Detail) -> Value {
        let mut out = json!({
            "memory_size_in_bytes": self.fielddata.values().sum::<u64>(),
            "evictions": c.fielddata_evictions.load(Relaxed),
        });
        if let Some(patterns) = &detail.fielddata_fields {
            let fields: Map<String, Value> = self
                .fielddata
                .iter()
                .filter(|(name, _)| matches_any(patterns, name))
                .map(|(name, bytes)| (name.clone(), json!({ "memory_size_in_bytes": bytes })))
                .collect();
            if !fields.is_empty() {
                out["fields"] = Value::Object(fields);
            }
        }
        out
    }

    fn segments(&self, detail: &Detail) -> Value {
        // Segment readers keep their term dictionaries, columns and stored documents in
        // memory-mapped files, not on the heap: the per-structure memory ES reports for Lucene
        // is none here.
        let mut out = json!({
            "count": self.segments,
            "memory_in_bytes": 0,
            "terms_memory_in_bytes": 0,
            "stored_fields_memory_in_bytes": 0,
            "term_vectors_memory_in_bytes": 0,
            "norms_memory_in_bytes": 0,
            "points_memory_in_bytes": 0,
            "doc_values_memory_in_bytes": 0,
            "index_writer_memory_in_bytes": 0,
            "version_map_memory_in_bytes": self.version_map_bytes,
            "fixed_bit_set_memory_in_bytes": 0,
            "max_unsafe_auto_id_timestamp": -1,
            "file_sizes": {},
        });
        if detail.segment_file_sizes {
            let described: Map<String, Value> = COMPONENTS
                .iter()
                .filter_map(|(name, description)| {
                    let bytes = self.file_sizes.get(name)?;
                    Some((name.to_string(), json!({ "size_in_bytes": bytes, "description": description })))
                })
                .collect();
            out["file_sizes"] = Value::Object(described);
        }
        out
    }
}

fn search_section(c: &SearchCounters) -> Value {
    json!({
        "open_contexts": c.scroll_current.get(),
        "query_total": c.query.count(),
        "query_time_in_millis": c.query.millis(),
        "query_current": c.query_current.get(),
        "fetch_total": c.fetch.count(),
        "fetch_time_in_millis": c.fetch.millis(),
        "fetch_current": c.fetch_current.get(),
        "scroll_total": c.scroll.count(),
        "scroll_time_in_millis": c.scroll.millis(),
        "scroll_current": c.scroll_current.get(),
        "suggest_total": 0,
        "suggest_time_in_millis": 0,
        "suggest_current": 0,
    })
}

/// The index's kNN graph builds, summed over its vector fields: (pending, built, milliseconds).
fn graph_builds(handle: &IndexHandle) -> (u64, u64, u64) {
    use std::sync::atomic::Ordering::Relaxed;
    handle.mapping.vectors.values().fold((0, 0, 0), |(p, b, m), vf| {
        let g = &vf.cache.graphs;
        (p + g.pending.load(Relaxed), b + g.built.load(Relaxed), m + g.millis.load(Relaxed))
    })
}
