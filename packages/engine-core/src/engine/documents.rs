//! The document APIs' engine side: `_doc` (with or without an id), `_create`, `_update`,
//! DELETE, and `_bulk`, with their URL parameters read and validated here (write conditions,
//! `refresh`, `retry_on_conflict`, `_source`). A write to a missing index creates it, as ES's
//! `action.auto_create_index` (on by default) does.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::store::blocks::Level;
use crate::store::bulk::{execute_bulk, parse_bulk, parse_bulk_with, BulkDefaults, Indices, MappingRounds};
use crate::store::get::ReadOptions;
use crate::store::index::IndexHandle;
use crate::store::names::validate_index_name;
use crate::store::source_filter::SourceFilter;
use crate::store::versioning::{param_text, Conditions, WriteKind};
use crate::store::writes;

use super::{forced_refresh, refresh_param, Engine, RefreshPolicy};

/// The URL's write conditions (`op_type`, `if_seq_no`, `version`, ...).
fn conditions(params: &Map<String, Value>, kind: WriteKind) -> Result<Conditions> {
    Conditions::parse(&|k| params.get(k).map(param_text), kind)
}

/// `_source`, `_source_includes` and `_source_excludes` of a URL, if any is given.
pub(crate) fn url_source_filter(params: &Map<String, Value>) -> Result<Option<SourceFilter>> {
    let text = |k: &str| params.get(k).map(param_text);
    let (source, includes, excludes) = (text("_source"), text("_source_includes"), text("_source_excludes"));
    if source.is_none() && includes.is_none() && excludes.is_none() {
        return Ok(None);
    }
    let list = |t: &str| t.split(',').map(str::trim).filter(|p| !p.is_empty()).map(str::to_string).collect::<Vec<_>>();
    let mut filter = SourceFilter::all();
    match source.as_deref() {
        None | Some("true") | Some("") => {}
        Some("false") => filter.enabled = false,
        Some(patterns) => filter.includes = list(patterns),
    }
    if let Some(i) = includes {
        filter.includes = list(&i);
    }
    if let Some(e) = excludes {
        filter.excludes = list(&e);
    }
    Ok(Some(filter))
}

/// The URL's `routing` (an empty value is none, as in ES).
fn routing_param(params: &Map<String, Value>) -> Option<String> {
    params.get("routing").map(param_text).filter(|r| !r.is_empty())
}

/// `GET _doc` and `_mget` URL parameters.
fn read_options(params: &Map<String, Value>) -> Result<ReadOptions> {
    let flag = |k: &str| -> Result<bool> {
        match params.get(k).map(param_text).as_deref() {
            None | Some("false") => Ok(false),
            Some("true") | Some("") => Ok(true),
            Some(other) => Err(EngineError::IllegalArgument(format!(
                "Failed to parse value [{other}] as only [true] or [false] are allowed."
            ))),
        }
    };
    let version = match params.get("version").map(param_text) {
        None => None,
        Some(v) => Some(v.parse::<u64>().map_err(|_| {
            EngineError::IllegalArgument(format!("Failed to parse long parameter [version] with value [{v}]"))
        })?),
    };
    // A read conflicts when the document's version differs from the one given, whatever the
    // version type (ES's `isVersionConflictForReads` is the same test for all three).
    match params.get("version_type").map(param_text).as_deref() {
        None | Some("internal" | "external" | "external_gte") => {}
        Some(other) => return Err(EngineError::IllegalArgument(format!("No version type match [{other}]"))),
    }
    Ok(ReadOptions {
        source: url_source_filter(params)?,
        stored_fields: params.contains_key("stored_fields"),
        stored_names: params.get("stored_fields").map(crate::store::get::stored_names).unwrap_or_default(),
        not_realtime: params.get("realtime").is_some() && !flag("realtime")?,
        refresh: flag("refresh")?,
        version,
        routing: routing_param(params),
    })
}

impl Indices for Engine {
    fn resolve(&self, name: &str) -> Result<Arc<IndexHandle>> {
        self.write_target(name)
    }

    fn is_alias(&self, name: &str) -> bool {
        self.aliases.is_alias(name)
    }

    /// Applies a mapping update: the index gets a new handle under the new mapping (updates
    /// are serialized; one that adds nothing keeps the current handle).
    fn update_mapping(&self, name: &str, update: &Value) -> Result<Arc<IndexHandle>> {
        let _one_at_a_time = self.mapping_updates.lock().unwrap_or_else(|p| p.into_inner());
        let current = self.get(name)?;
        let mapping = current.mapping.extend(update)?;
        // A change only the mappings show (a field's `meta`) still gets a new handle.
        let shown_changes = || {
            let mut merged = current.mappings_json.clone();
            crate::store::mapping_update::merge_json(&mut merged, update);
            merged != current.mappings_json
        };
        if !current.mapping.differs_from(&mapping) && !shown_changes() {
            return Ok(current);
        }
        let limit = current.settings.total_fields_limit;
        if mapping.total_fields() > limit {
            return Err(EngineError::IllegalArgument(format!("Limit of total fields [{limit}] has been exceeded")));
        }
        current.settings.limits.check_mapping(&mapping)?;
        let next = Arc::new(current.with_mapping(mapping, update)?);
        self.shared.indices.write().unwrap_or_else(|p| p.into_inner()).insert(name.to_string(), next.clone());
        self.metadata_changed();
        Ok(next)
    }
}

impl Engine {
    /// `GET /{index}/_doc/{id}`: the ES body (found or not) and its HTTP status.
    pub fn get_doc(&self, name: &str, id: &str, params: &Map<String, Value>) -> Result<(String, u16)> {
        let options = read_options(params)?;
        let index = self.single_index(name)?;
        let (body, found) = crate::store::get::get_doc_body(self.get_for(&index, Level::Read)?.as_ref(), id, &options)?;
        Ok((body, if found { 200 } else { 404 }))
    }

    /// `GET /{index}/_source/{id}`: the (filtered) `_source` alone, or ES's 404.
    pub fn get_source(&self, name: &str, id: &str, params: &Map<String, Value>) -> Result<(String, u16)> {
        let options = read_options(params)?;
        let index = self.single_index(name)?;
        let (body, found) = crate::store::get::get_doc_body(self.get_for(&index, Level::Read)?.as_ref(), id, &options)?;
        let missing = || EngineError::ResourceNotFound(format!("Document not found [{name}]/[{id}]"));
        if !found {
            return Err(missing());
        }
        let doc: Value = serde_json::from_str(&body).map_err(|e| EngineError::Internal(e.to_string()))?;
        Ok((doc.get("_source").ok_or_else(missing)?.to_string(), 200))
    }

    /// `_mget`; `index` is the URL's default for items without `_index`.
    pub fn mget(&self, index: Option<&str>, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        crate::store::get::mget(
            &|name| self.get_for(&self.single_index(name)?, Level::Read),
            index,
            body,
            &read_options(params)?,
        )
    }

    /// The index a write names: its name checked, created with defaults when missing.
    pub(crate) fn write_target(&self, name: &str) -> Result<Arc<IndexHandle>> {
        if let Ok(handle) = self.get_meta(name) {
            return Self::usable(handle, Level::Write);
        }
        if let Some(index) = self.write_index(name)? {
            return self.get_for(&index, Level::Write);
        }
        validate_index_name(name)?;
        match self.create_index(name, b"") {
            Ok(_) | Err(EngineError::IndexAlreadyExists(_)) => self.get_for(name, Level::Write),
            Err(e) => Err(e),
        }
    }

    pub fn bulk(&self, default_index: Option<&str>, body: &[u8], refresh: RefreshPolicy) -> Result<String> {
        let items = parse_bulk(body, default_index)?;
        execute_bulk(items, self, refresh != RefreshPolicy::None)
    }

    /// `POST [/{index}]/_bulk` with its URL parameters (`refresh`, and the items' defaults:
    /// `routing`, `_source*` for updates, `require_alias`).
    pub fn bulk_with(&self, default_index: Option<&str>, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let refresh = refresh_param(params)?;
        let defaults = BulkDefaults {
            index: default_index.map(str::to_string),
            routing: routing_param(params),
            source: url_source_filter(params)?.map(|f| f.to_body()),
            require_alias: params.get("require_alias").is_some_and(|v| param_text(v) != "false"),
        };
        let items = parse_bulk_with(body, &defaults)?;
        execute_bulk(items, self, refresh != RefreshPolicy::None)
    }

    /// Runs a single-document write on the index's current handle, applying the mapping
    /// update a document needs first (dynamic mapping) and running it again; an update that
    /// lost a race runs again up to `retries` times.
    fn with_dynamic_mapping<T>(
        &self,
        name: &str,
        retries: u32,
        write: impl Fn(&IndexHandle) -> Result<T>,
    ) -> Result<T> {
        let (mut races, mut rounds) = (0, MappingRounds::default());
        loop {
            let handle = self.write_target(name)?;
            match write(&handle) {
                Err(EngineError::MappingUpdate(update)) if rounds.left() => {
                    // The index itself: `name` may be an alias of it.
                    let next = self.update_mapping(&handle.name, &update)?;
                    rounds.count(&handle, &next);
                }
                Err(e) if writes::lost_race(&e) && races < retries => races += 1,
                other => return other,
            }
        }
    }

    /// `PUT|POST /{index}/_doc/{id}`, `POST /{index}/_doc` (`id` None: the engine picks one) and
    /// `PUT|POST /{index}/_create/{id}` (`create`): the ES body and status (201 or 200).
    pub fn index_doc(
        &self,
        name: &str,
        id: Option<&str>,
        body: &[u8],
        params: &Map<String, Value>,
        create: bool,
    ) -> Result<(String, u16)> {
        let kind = if create { WriteKind::Create } else { WriteKind::Index };
        if params.get("require_alias").is_some_and(|v| param_text(v) != "false") && !self.aliases.is_alias(name) {
            return Err(EngineError::RequireAlias(name.to_string()));
        }
        let cond = conditions(params, kind)?;
        let source = writes::source_text(body).ok_or(EngineError::RequestBodyRequired)?;
        let refresh = refresh_param(params)?;
        let refreshed = refresh != RefreshPolicy::None;
        let reply = self.with_dynamic_mapping(name, 0, |handle| {
            writes::index_doc(handle, id, cond.clone(), routing_param(params), source.as_bytes(), refreshed)
        })?;
        Ok(forced_refresh(reply, refresh))
    }

    /// `DELETE /{index}/_doc/{id}`: the ES body and status (404 `not_found`).
    pub fn delete_doc(&self, name: &str, id: &str, params: &Map<String, Value>) -> Result<(String, u16)> {
        let cond = conditions(params, WriteKind::Delete)?;
        let refresh = refresh_param(params)?;
        let index = self.write_index(name)?.unwrap_or_else(|| name.to_string());
        let routing = routing_param(params);
        let reply = writes::delete_doc(
            self.get_for(&index, Level::Write)?.as_ref(),
            id,
            cond,
            routing.as_deref(),
            refresh != RefreshPolicy::None,
        )?;
        Ok(forced_refresh(reply, refresh))
    }

    /// `POST /{index}/_update/{id}`: partial doc merge or upsert; the ES body and status. A
    /// missing index is created first, as ES does, so the answer is then "document missing".
    pub fn update_doc(&self, name: &str, id: &str, body: &[u8], params: &Map<String, Value>) -> Result<(String, u16)> {
        // ES's REST layer refuses these before anything else (an update reads the version it writes over).
        if params.contains_key("version") || params.contains_key("version_type") {
            return Err(EngineError::ActionRequestValidation(
                "Validation Failed: 1: internal versioning can not be used for optimistic concurrency control. \
                 Please use `if_seq_no` and `if_primary_term` instead;"
                    .into(),
            ));
        }
        let retry_on_conflict = match params.get("retry_on_conflict") {
            None => 0,
            Some(v) => param_text(v).parse().map_err(|_| {
                EngineError::IllegalArgument(format!(
                    "Failed to parse int parameter [retry_on_conflict] with value [{}]",
                    param_text(v)
                ))
            })?,
        };
        if params.get("require_alias").is_some_and(|v| param_text(v) != "false") && !self.aliases.is_alias(name) {
            return Err(EngineError::RequireAlias(name.to_string()));
        }
        let cond = conditions(params, WriteKind::Update)?;
        if retry_on_conflict > 0 && cond.if_seq_no.is_some() {
            return Err(EngineError::ActionRequestValidation(
                "Validation Failed: 1: compare and write operations can not be retried;".into(),
            ));
        }
        let options = writes::UpdateOptions {
            retry_on_conflict,
            cond,
            source: url_source_filter(params)?,
            routing: routing_param(params),
        };
        let refresh = refresh_param(params)?;
        let refreshed = refresh != RefreshPolicy::None;
        let reply = self.with_dynamic_mapping(name, retry_on_conflict, |handle| {
            writes::update_doc(handle, id, body, &options, refreshed)
        })?;
        Ok(forced_refresh(reply, refresh))
    }
}
