//! The engine: a data directory of indices, the ES-level operations over them (JSON in,
//! JSON out) and the background refresher that gives ES's 1s near-real-time default.
//!
//! Layer: the top. Uses every layer below (ARCHITECTURE.md).

mod alias_api;
pub mod aliases;
mod analyze_api;
pub mod cluster;
mod cluster_settings;
mod cluster_state_parts;
mod date_math_names;
mod delete_by_query;
mod documents;
mod explain;
mod field_caps;
mod index_state;
mod indices;
mod indices_boost;
mod mapping_reads;
mod mappings;
mod mlt_items;
mod msearch;
mod multi_collapse;
mod multi_search;
pub mod node;
mod resize;
pub mod resolve;
mod resolve_index;
mod rollover;
mod search_shards;
mod settings_api;
mod stats;
mod templates;
mod terms_lookup;
pub mod termvectors;
mod uri_query;
mod validate_query;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::search::contexts::ReaderContexts;
use crate::search::pit::{self, Dialect};
use crate::search::scroll;
use crate::store::index::IndexHandle;

const INDICES_DIR: &str = "indices";
const REFRESH_TICK: Duration = Duration::from_millis(100);

struct Shared {
    data_dir: PathBuf,
    indices: RwLock<HashMap<String, Arc<IndexHandle>>>,
    stop: AtomicBool,
    /// Indices created, deleted or given new mappings or settings since the engine opened
    /// (part of the cluster state's `version`).
    changes: std::sync::atomic::AtomicU64,
}

pub struct Engine {
    /// Exclusive lock on `<data-dir>/engine.lock`, held for the engine's lifetime so two
    /// processes never serve (and write) the same data directory.
    _lock: std::fs::File,
    shared: Arc<Shared>,
    refresher: Mutex<Option<JoinHandle<()>>>,
    /// Open points in time and scrolls.
    contexts: ReaderContexts,
    /// Held while a mapping update swaps an index's handle (`documents.rs`).
    mapping_updates: Mutex<()>,
    /// Index aliases (`aliases.rs`).
    aliases: aliases::Aliases,
    /// The node's id and cluster UUID, stable across restarts (`node.rs`).
    pub identity: node::NodeIdentity,
    /// `_cluster/settings` (`cluster_settings.rs`).
    cluster: cluster_settings::ClusterSettings,
    /// Legacy, composable and component index templates (`templates/`).
    templates: templates::Templates,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshPolicy {
    None,
    Immediate,
    WaitFor,
}

impl RefreshPolicy {
    pub fn parse(value: Option<&str>) -> Result<RefreshPolicy> {
        match value {
            None | Some("false") => Ok(RefreshPolicy::None),
            Some("true") | Some("") => Ok(RefreshPolicy::Immediate),
            Some("wait_for") => Ok(RefreshPolicy::WaitFor),
            Some(other) => Err(EngineError::IllegalArgument(format!("Unknown value for refresh: [{other}]."))),
        }
    }
}

/// An index creation body; a key given twice is refused, as ES's strict parser refuses it.
fn parse_json_body(body: &[u8]) -> Result<Value> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))
}

impl Engine {
    /// Opens every index under `data_dir` (replaying translogs) and starts the refresher.
    pub fn open(data_dir: &Path) -> Result<Engine> {
        let indices_dir = data_dir.join(INDICES_DIR);
        std::fs::create_dir_all(&indices_dir)?;
        let lock = std::fs::File::create(data_dir.join("engine.lock"))?;
        if lock.try_lock().is_err() {
            return Err(EngineError::IllegalArgument(format!(
                "data directory {} is in use by another everycell engine",
                data_dir.display()
            )));
        }
        let mut indices = HashMap::new();
        for entry in std::fs::read_dir(&indices_dir)? {
            let path = entry?.path();
            if !path.is_dir() {
                continue;
            }
            let handle = IndexHandle::open(&path)?;
            indices.insert(handle.name.clone(), Arc::new(handle));
        }
        let shared = Arc::new(Shared {
            data_dir: data_dir.to_path_buf(),
            indices: RwLock::new(indices),
            stop: AtomicBool::new(false),
            changes: Default::default(),
        });
        let worker = shared.clone();
        let refresher =
            std::thread::Builder::new().name("everycell-refresh".into()).spawn(move || refresh_loop(&worker))?;
        let engine = Engine {
            _lock: lock,
            shared,
            refresher: Mutex::new(Some(refresher)),
            contexts: ReaderContexts::default(),
            mapping_updates: Mutex::new(()),
            aliases: aliases::Aliases::open(data_dir)?,
            identity: node::NodeIdentity::load_or_create(data_dir)?,
            cluster: cluster_settings::ClusterSettings::open(data_dir)?,
            templates: templates::Templates::open(data_dir)?,
        };
        engine.follow_cluster_settings();
        Ok(engine)
    }

    /// Notes a change of the indices' metadata (a cluster state change in ES).
    pub(crate) fn metadata_changed(&self) {
        self.shared.changes.fetch_add(1, Ordering::Relaxed);
    }

    /// The open index `name`: a closed one is ES's `index_closed_exception`.
    pub(crate) fn get(&self, name: &str) -> Result<Arc<IndexHandle>> {
        let handle = self.get_meta(name)?;
        if handle.closed {
            return Err(EngineError::IndexClosed { index: handle.name.clone(), uuid: handle.uuid.clone() });
        }
        Ok(handle)
    }

    /// The open index `name`, if its blocks allow an operation at `level`.
    pub(crate) fn get_for(&self, name: &str, level: crate::store::blocks::Level) -> Result<Arc<IndexHandle>> {
        Self::usable(self.get_meta(name)?, level)
    }

    /// `handle` if it is open and its blocks allow an operation at `level`.
    pub(crate) fn usable(handle: Arc<IndexHandle>, level: crate::store::blocks::Level) -> Result<Arc<IndexHandle>> {
        if handle.closed {
            return Err(EngineError::IndexClosed { index: handle.name.clone(), uuid: handle.uuid.clone() });
        }
        handle.settings.blocks.check(&handle.name, level)?;
        Ok(handle)
    }

    /// The index `name`, open or closed: for the APIs that read or change its metadata.
    pub(crate) fn get_meta(&self, name: &str) -> Result<Arc<IndexHandle>> {
        self.shared
            .indices
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
            .cloned()
            .ok_or_else(|| EngineError::IndexNotFound(name.to_string()))
    }

    /// `POST /{index}/_forcemerge`: only `max_num_segments` (>= 1) and `flush` are accepted; the
    /// index is always merged to one segment (see `IndexHandle::force_merge`).
    pub fn force_merge(&self, name: &str, params: &Map<String, Value>) -> Result<String> {
        for (key, value) in params {
            match key.as_str() {
                "max_num_segments" => {
                    let n = value.as_str().and_then(|v| v.parse::<u64>().ok()).or_else(|| value.as_u64());
                    if n.is_none_or(|n| n < 1) {
                        return Err(EngineError::IllegalArgument(format!(
                            "max_num_segments must be a positive integer, got [{value}]"
                        )));
                    }
                }
                "flush" | "wait_for_completion" | "pretty" | "error_trace" => {}
                other => {
                    return Err(EngineError::IllegalArgument(format!(
                        "request [/{name}/_forcemerge] contains unrecognized parameter: [{other}]"
                    )))
                }
            }
        }
        let handle = self.get(name)?;
        handle.force_merge()?;
        let layout = stats::layout::ShardLayout::of(&handle.settings);
        Ok(json!({ "_shards": stats::layout::shards_header([&layout]) }).to_string())
    }

    /// `/{index}/_search`; with a `scroll` parameter, the first page of a scroll.
    pub fn search(&self, name: &str, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        Ok(self.search_gated(name, body, params, false)?.expect("runs whatever it costs"))
    }

    /// As `search`, but a search that may be heavy (`search::Cost`) stops once parsed and
    /// answers `None`: the caller then runs it with `search` where heavy work belongs.
    pub fn search_if_cheap(&self, name: &str, body: &[u8], params: &Map<String, Value>) -> Result<Option<String>> {
        self.search_gated(name, body, params, true)
    }

    fn search_gated(
        &self,
        name: &str,
        body: &[u8],
        params: &Map<String, Value>,
        cheap_only: bool,
    ) -> Result<Option<String>> {
        self.with_search_limits(|| match self.search_gated_limited(name, body, params, cheap_only) {
            Err(e) if Self::needs_mlt_items(&e) => {
                let body = self.resolve_mlt_items(name, body)?;
                self.search_gated_limited(name, &body, params, cheap_only)
            }
            other => other,
        })
    }

    fn search_gated_limited(
        &self,
        name: &str,
        body: &[u8],
        params: &Map<String, Value>,
        cheap_only: bool,
    ) -> Result<Option<String>> {
        let looked_up = self.resolve_terms_lookups(body)?;
        let body = looked_up.as_deref().unwrap_or(body);
        // One index by its own name (the common case) goes straight to it; lists, wildcards,
        // aliases and the resolution options go through `resolve`.
        let plain = match self.get(name) {
            Ok(handle) if !params.keys().any(|k| resolve::OPTION_PARAMS.contains(&k.as_str())) => Some(handle),
            _ => None,
        };
        if let Some(handle) = &plain {
            handle.settings.blocks.check(&handle.name, crate::store::blocks::Level::Read)?;
        }
        let Some(handle) = plain else { return self.search_expression(name, body, params, cheap_only) };
        let uri = uri_query::for_search(body, params)?;
        let (body, params) = (uri.body.as_ref(), uri.params.as_ref());
        if params.contains_key("scroll") {
            return scroll::start(&self.contexts, handle, body, params, cheap_only);
        }
        crate::search::search(handle.as_ref(), body, params, cheap_only)
    }

    /// `POST /{index}/_delete_by_query`.
    pub fn delete_by_query(&self, name: &str, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let max_docs = match params.get("max_docs") {
            None => None,
            Some(v) => Some(v.as_str().and_then(|s| s.parse().ok()).filter(|n| *n > 0).ok_or_else(|| {
                EngineError::ActionRequestValidation("Validation Failed: 1: maxDocs must be greater than 0;".into())
            })?),
        };
        let refresh = refresh_param(params)? != RefreshPolicy::None;
        self.with_search_limits(|| {
            if let Ok(handle) = self.get(name) {
                handle.settings.blocks.check(&handle.name, crate::store::blocks::Level::Write)?;
                return delete_by_query::delete_by_query(handle.as_ref(), body, max_docs, refresh);
            }
            let targets = self.resolve(name, resolve::ResolveOptions::default())?;
            delete_by_query::over_targets(self, &targets, body, max_docs, refresh)
        })
    }

    /// Every index with its doc counts, store size, health, shard layout and creation date, by
    /// name (for `_cat/indices`).
    pub fn list_indices(&self) -> String {
        let indices = self.shared.indices.read().unwrap_or_else(|p| p.into_inner());
        let mut names: Vec<&String> = indices.keys().collect();
        names.sort();
        let rows: Vec<Value> = names
            .into_iter()
            .map(|name| {
                let h = &indices[name];
                let layout = stats::layout::ShardLayout::of(&h.settings);
                let deleted: u64 = h.searcher().segment_readers().iter().map(|s| u64::from(s.num_deleted_docs())).sum();
                json!({
                    "index": name,
                    "uuid": h.uuid,
                    "docs": h.num_docs(),
                    "deleted": deleted,
                    "store_bytes": h.store_size_in_bytes(),
                    "health": layout.health(),
                    "primaries": layout.primaries,
                    "replicas": layout.replicas,
                    "creation_date": h.creation_date,
                    "status": h.state_name(),
                })
            })
            .collect();
        Value::Array(rows).to_string()
    }

    /// `/_search` with no index: a point-in-time search (its `pit` names the index), or a
    /// search of every index.
    pub fn search_pit(&self, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        if !names_a_pit(body) {
            return self.search("_all", body, params);
        }
        self.with_search_limits(|| {
            Ok(pit::search(&self.contexts, body, params, false)?.expect("runs whatever it costs"))
        })
    }

    /// As `search_pit`, but `None` once parsed when the search may be heavy (see `search_if_cheap`).
    pub fn search_pit_if_cheap(&self, body: &[u8], params: &Map<String, Value>) -> Result<Option<String>> {
        if !names_a_pit(body) {
            return self.search_if_cheap("_all", body, params);
        }
        self.with_search_limits(|| pit::search(&self.contexts, body, params, true))
    }

    /// Opens a point in time on `name` (`opensearch` picks OpenSearch's response shape).
    pub fn open_pit(&self, name: &str, params: &Map<String, Value>, opensearch: bool) -> Result<String> {
        pit::open(&self.contexts, self.get(name)?, params, dialect(opensearch))
    }

    /// Closes points in time named in the body (or all of them, OpenSearch's `_all`).
    pub fn close_pit(&self, body: &[u8], opensearch: bool, all: bool) -> Result<(String, u16)> {
        if all {
            return Ok(pit::close_all(&self.contexts));
        }
        pit::close(&self.contexts, body, dialect(opensearch))
    }

    /// `GET /_search/point_in_time/_all` (OpenSearch): the open points in time.
    pub fn list_pits(&self) -> String {
        pit::list_all(&self.contexts)
    }

    /// `/_search/scroll`: the next page of a scroll.
    pub fn scroll(&self, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        self.with_search_limits(|| scroll::next(&self.contexts, body, params))
    }

    /// `DELETE /_search/scroll` (or `…/_all`).
    pub fn clear_scroll(&self, body: &[u8], all: bool) -> Result<(String, u16)> {
        scroll::clear(&self.contexts, body, all)
    }

    /// Points in time and scrolls open now (for tests and `_nodes/stats`-like checks).
    pub fn open_contexts(&self) -> usize {
        self.contexts.open_count()
    }

    /// The open index `name` (for per-item lookups such as `_mget`).
    pub fn handle(&self, name: &str) -> Result<Arc<IndexHandle>> {
        self.get(name)
    }

    /// `_msearch`; `index` is the URL's default for headers without one.
    pub fn msearch(&self, index: Option<&str>, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        msearch::msearch(&|name, body, params| self.search(name, body, params), index, body, params)
    }

    pub fn count(&self, name: &str, body: &[u8]) -> Result<String> {
        self.count_with(name, body, &Map::new())
    }

    /// `/{index}/_count` with its URL parameters: URI search (`q`), `terminate_after`, and index
    /// lists, wildcards and aliases in `name`.
    pub fn count_with(&self, name: &str, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        self.with_search_limits(|| self.count_limited(name, body, params))
    }

    fn count_limited(&self, name: &str, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        if self.get(name).is_ok() && !params.keys().any(|k| resolve::OPTION_PARAMS.contains(&k.as_str())) {
            return self.count_one(name, body, params);
        }
        let mut params = params.clone();
        let options = resolve::ResolveOptions::take(&mut params)?;
        let targets = self.resolve(name, options)?;
        self.searchable(&targets)?;
        match targets.as_slice() {
            [one] if one.filter.is_none() => self.count_one(&one.index, body, &params),
            _ => {
                let uri = uri_query::for_count(body, &params)?;
                self.count_targets(&targets, &uri.body, &uri.params)
            }
        }
    }

    /// `_count` on one index.
    fn count_one(&self, name: &str, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let uri = uri_query::for_count(body, params)?;
        let (mut terminate_after, mut min_score) = (None, None);
        for (key, value) in uri.params.iter() {
            match key.as_str() {
                // One shard: routing and preference pick nothing.
                "routing" | "preference" => {}
                "min_score" => {
                    let text = crate::store::versioning::param_text(value);
                    min_score = Some(text.parse::<f32>().map_err(|_| {
                        EngineError::IllegalArgument(format!(
                            "Failed to parse float parameter [min_score] with value [{text}]"
                        ))
                    })?);
                }
                "terminate_after" => {
                    let text = crate::store::versioning::param_text(value);
                    terminate_after = Some(text.parse::<u64>().map_err(|_| {
                        EngineError::IllegalArgument(format!(
                            "Failed to parse int parameter [terminate_after] with value [{text}]"
                        ))
                    })?);
                }
                other => {
                    return Err(EngineError::IllegalArgument(format!(
                        "request [/{name}/_count] contains unrecognized parameter: [{other}]"
                    )))
                }
            }
        }
        let reply = crate::search::count(
            self.get_for(name, crate::store::blocks::Level::Read)?.as_ref(),
            &uri.body,
            min_score,
        )?;
        let Some(limit) = terminate_after else { return Ok(reply) };
        // One shard counts up to the limit and says whether it stopped there.
        let mut v: Value = serde_json::from_str(&reply).map_err(|e| EngineError::Internal(e.to_string()))?;
        let n = v["count"].as_u64().unwrap_or(0);
        v["count"] = json!(n.min(limit));
        v["terminated_early"] = json!(limit > 0 && n >= limit);
        Ok(v.to_string())
    }

    /// Stops the refresher and commits every index; safe to call more than once.
    pub fn close(&self) -> Result<()> {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(handle) = self.refresher.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = handle.join();
        }
        let indices: Vec<_> = self.shared.indices.read().unwrap_or_else(|p| p.into_inner()).values().cloned().collect();
        for index in indices {
            index.close()?;
        }
        Ok(())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

fn refresh_loop(shared: &Shared) {
    while !shared.stop.load(Ordering::SeqCst) {
        std::thread::sleep(REFRESH_TICK);
        let due: Vec<_> = shared
            .indices
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|h| h.refresh_due())
            .cloned()
            .collect();
        for index in due {
            if let Err(e) = index.scheduled_refresh() {
                eprintln!("everycell: scheduled refresh of [{}] failed: {e}", index.name);
            }
        }
        crate::store::memory_release::release_if_idle();
    }
}

/// Whether a `/_search` body holds a `pit` (a body that does not parse is the PIT path's to refuse).
fn names_a_pit(body: &[u8]) -> bool {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => map.contains_key("pit"),
        Ok(_) => false,
        Err(_) => !body.iter().all(u8::is_ascii_whitespace),
    }
}

fn dialect(opensearch: bool) -> Dialect {
    if opensearch {
        Dialect::OpenSearch
    } else {
        Dialect::Elasticsearch
    }
}

/// The `refresh` URL parameter of a single-document write (any refresh makes it visible now).
pub(crate) fn refresh_param(params: &Map<String, Value>) -> Result<RefreshPolicy> {
    RefreshPolicy::parse(params.get("refresh").and_then(Value::as_str))
}

/// ES reports a write that forced a refresh (`?refresh` or `?refresh=true`, not `wait_for`).
pub(crate) fn forced_refresh((mut body, status): (String, u16), refresh: RefreshPolicy) -> (String, u16) {
    if refresh == RefreshPolicy::Immediate && body.ends_with('}') {
        body.insert_str(body.len() - 1, r#","forced_refresh":true"#);
    }
    (body, status)
}
