//! Real-time document reads: `GET /{index}/_doc/{id}` and `_mget`. Like ES, a document is
//! readable as soon as its write was acknowledged, without the read making it visible to
//! search (`IndexHandle::realtime_searcher`).

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

use serde_json::{json, Value};
use tantivy::columnar::Column;
use tantivy::schema::{IndexRecordOption, Value as _};
use tantivy::{DocAddress, DocSet, TantivyDocument, Term, TERMINATED};

use crate::error::{EngineError, Result};
use crate::store::index::{push_json_str, IndexHandle};
use crate::store::mapping::{SEQ_NO_FIELD, VERSION_FIELD};
use crate::store::source_filter::SourceFilter;

/// What a read asks for besides the id: `_source` filtering, `stored_fields`, real-time or
/// not, a refresh first, and a version the document must have.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// `None`: the whole `_source`.
    pub source: Option<SourceFilter>,
    /// `stored_fields` given: no field is stored apart from `_source`, which it leaves out
    /// unless `_source` is asked for too.
    pub stored_fields: bool,
    /// The names `stored_fields` lists (`_source` among them shows the source too).
    pub stored_names: Vec<String>,
    /// `realtime=false`: read what the last refresh made visible, without refreshing.
    pub not_realtime: bool,
    /// `refresh=true`: refresh the index before reading.
    pub refresh: bool,
    /// `version`: the document must have this (internal) version, else ES's 409.
    pub version: Option<u64>,
    /// `routing`: checked against `_routing.required`; on an index of several shards, the
    /// shard read (the id's when none).
    pub routing: Option<String>,
}

/// A live document found by id: where it is, its version and sequence number.
struct Located {
    address: DocAddress,
    version: u64,
    seq_no: u64,
}

/// Id lookups against one searcher, opening each segment's version and seq_no columns once
/// (opening a blockwise-linear column decodes its block table: `perf` showed an `_mget` of 50
/// ids spending a third of its time re-opening them per document).
struct Lookup<'a> {
    handle: &'a IndexHandle,
    searcher: tantivy::Searcher,
    columns: HashMap<u32, (Column<u64>, Column<u64>)>,
}

impl<'a> Lookup<'a> {
    /// A real-time read sees every acknowledged write without publishing it to search; one that
    /// is not real-time reads what search sees (refreshed first for `refresh=true`).
    fn new(handle: &'a IndexHandle, options: &ReadOptions) -> Result<Lookup<'a>> {
        let searcher = if options.not_realtime {
            // ES refreshes for `refresh=true` only on a read that is not real-time.
            if options.refresh {
                handle.refresh()?;
            }
            handle.searcher()
        } else {
            handle.realtime_searcher()?
        };
        Ok(Lookup { handle, searcher, columns: HashMap::new() })
    }

    fn locate(&mut self, id: &str) -> Result<Option<Located>> {
        let term = Term::from_field_text(self.handle.mapping.id_field, id);
        for (ord, seg) in self.searcher.segment_readers().iter().enumerate() {
            let inverted = seg.inverted_index(self.handle.mapping.id_field)?;
            let Some(mut postings) = inverted.read_postings(&term, IndexRecordOption::Basic)? else { continue };
            let mut doc = postings.doc();
            while doc != TERMINATED {
                if seg.alive_bitset().is_none_or(|alive| alive.is_alive(doc)) {
                    let (versions, seq_nos) = match self.columns.entry(ord as u32) {
                        Entry::Occupied(e) => e.into_mut(),
                        Entry::Vacant(e) => {
                            let ff = seg.fast_fields();
                            e.insert((ff.u64(VERSION_FIELD)?, ff.u64(SEQ_NO_FIELD)?))
                        }
                    };
                    return Ok(Some(Located {
                        address: DocAddress::new(ord as u32, doc),
                        version: versions.first(doc).unwrap_or(1),
                        seq_no: seq_nos.first(doc).unwrap_or(0),
                    }));
                }
                doc = postings.advance();
            }
        }
        Ok(None)
    }

    /// The stored document: `_source` (the document exactly as sent, validated JSON at index
    /// time) and `_routing`.
    fn stored(&self, at: &Located) -> Result<TantivyDocument> {
        Ok(self.searcher.doc(at.address)?)
    }

    /// The ES get body, written into `out`; true when the document was found.
    fn write_doc(&mut self, id: &str, options: &ReadOptions, out: &mut String) -> Result<bool> {
        let started = std::time::Instant::now();
        let counters = &self.handle.counters;
        let _getting = counters.get_current.enter();
        let found = self.write_doc_uncounted(id, options, out)?;
        counters.record_get(found, started);
        Ok(found)
    }

    fn write_doc_uncounted(&mut self, id: &str, options: &ReadOptions, out: &mut String) -> Result<bool> {
        let mut located = self.locate(id)?;
        let mut stored = None;
        if let Some(at) = &located {
            let doc = self.stored(at)?;
            let routing = self.handle.mapping.routing_field.and_then(|f| doc.get_first(f)).and_then(|v| v.as_str());
            if crate::store::routing::reaches(&self.handle.settings, id, options.routing.as_deref(), routing) {
                stored = Some(doc);
            } else {
                // Stored on another shard than the one this read asks.
                located = None;
            }
        }
        if let (Some(at), Some(wanted)) = (&located, options.version) {
            if at.version != wanted {
                return Err(EngineError::UpdateConflict { id: id.to_string(), expected: wanted, current: at.version });
            }
        }
        out.push_str(r#"{"_index":"#);
        push_json_str(out, &self.handle.name);
        out.push_str(r#","_id":"#);
        push_json_str(out, id);
        let found = located.is_some();
        match located.zip(stored) {
            Some((at, stored)) => {
                let mapping = &self.handle.mapping;
                let _ = write!(out, r#","_version":{},"_seq_no":{},"_primary_term":1"#, at.version, at.seq_no);
                if let Some(routing) = mapping.routing_field.and_then(|f| stored.get_first(f)).and_then(|v| v.as_str())
                {
                    out.push_str(r#","_routing":"#);
                    push_json_str(out, routing);
                }
                crate::store::ignored::push_ignored(mapping, &stored, out);
                out.push_str(r#","found":true"#);
                let filter = match &options.source {
                    Some(filter) => Some(filter),
                    None if options.stored_fields && !options.stored_names.iter().any(|n| n == "_source") => None,
                    None => Some(&ALL),
                };
                // Nothing to show when the mapping keeps no `_source`.
                if let (Some(filter), Some(raw)) = (filter, mapping.stored_source(&stored)) {
                    if let Some(source) = filter.apply(raw) {
                        out.push_str(r#","_source":"#);
                        out.push_str(&source);
                    }
                }
                let stored_source = mapping.stored_source(&stored).filter(|_| !options.stored_names.is_empty());
                if let Some(fields) = stored_source
                    .and_then(|raw| crate::store::hit_fields::stored_fields(mapping, &options.stored_names, raw))
                {
                    out.push_str(r#","fields":"#);
                    out.push_str(&fields.to_string());
                }
            }
            None => out.push_str(r#","found":false"#),
        }
        out.push('}');
        Ok(found)
    }
}

static ALL: SourceFilter = SourceFilter { enabled: true, includes: Vec::new(), excludes: Vec::new() };

/// The ES get body (`found` true or false) as JSON text, and whether it was found.
pub fn get_doc_body(handle: &IndexHandle, id: &str, options: &ReadOptions) -> Result<(String, bool)> {
    crate::store::routing::check(handle, id, options.routing.as_deref(), false)?;
    read_doc(handle, id, options)
}

fn read_doc(handle: &IndexHandle, id: &str, options: &ReadOptions) -> Result<(String, bool)> {
    let mut out = String::new();
    let found = Lookup::new(handle, options)?.write_doc(id, options, &mut out)?;
    Ok((out, found))
}

/// The ES get body as a JSON value (for `_update`, which merges into `_source`; the update
/// itself checked its routing), read on the shard `routing` (else the id) addresses.
pub fn get_doc(handle: &IndexHandle, id: &str, routing: Option<&str>) -> Result<Value> {
    let options = ReadOptions { routing: routing.map(str::to_string), ..ReadOptions::default() };
    let (body, _) = read_doc(handle, id, &options)?;
    serde_json::from_str(&body).map_err(|e| EngineError::Internal(format!("get: {e}")))
}

/// The names of a `stored_fields` option: a list, or one comma-separated string.
pub fn stored_names(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        other => crate::store::versioning::param_text(other)
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
    }
}

/// Whether a live document `id` is on a shard other than the one `routing` (else the id)
/// addresses: real-time, on any index.
pub fn on_another_shard(handle: &IndexHandle, id: &str, routing: Option<&str>) -> Result<bool> {
    if handle.settings.number_of_shards <= 1 {
        return Ok(false);
    }
    let mut lookup = Lookup::new(handle, &ReadOptions::default())?;
    let Some(at) = lookup.locate(id)? else { return Ok(false) };
    let doc = lookup.stored(&at)?;
    let stored = handle.mapping.routing_field.and_then(|f| doc.get_first(f)).and_then(|v| v.as_str());
    Ok(!crate::store::routing::reaches(&handle.settings, id, routing, stored))
}

/// `_mget`: `{"docs": [{"_index", "_id"}]}` or `{"ids": [...]}` with the URL's index. A
/// missing index is an error item, as in ES; a malformed body fails the whole request.
/// `lookup` opens an index by name (the engine's registry).
pub fn mget(
    lookup: &dyn Fn(&str) -> Result<Arc<IndexHandle>>,
    default_index: Option<&str>,
    body: &[u8],
    defaults: &ReadOptions,
) -> Result<String> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(EngineError::RequestBodyRequired);
    }
    let parsed: Value = serde_json::from_slice(body).map_err(|e| crate::error::json_syntax_error(&e))?;
    let obj = parsed.as_object().ok_or_else(|| EngineError::Parsing("[mget] expected an object".into()))?;
    let mut wanted: Vec<(Option<String>, String, ReadOptions)> = Vec::new();
    for (key, value) in obj {
        match (key.as_str(), value) {
            ("ids", Value::Array(ids)) => {
                for id in ids {
                    wanted.push((default_index.map(str::to_string), scalar_id(id)?, defaults.clone()));
                }
            }
            ("docs", Value::Array(docs)) => {
                for doc in docs {
                    let d =
                        doc.as_object().ok_or_else(|| EngineError::Parsing("[docs] items must be objects".into()))?;
                    let mut options = defaults.clone();
                    for (k, v) in d {
                        match k.as_str() {
                            "_index" | "_id" => {}
                            "_source" => options.source = Some(SourceFilter::from_body(v)?),
                            "stored_fields" => {
                                options.stored_fields = true;
                                options.stored_names = stored_names(v);
                            }
                            // `_routing` and `_version` went in 7.0: refused, as ES refuses them.
                            "routing" => options.routing = Some(crate::store::versioning::param_text(v)),
                            other => {
                                return Err(EngineError::Parsing(format!("[docs] option [{other}] is not supported")))
                            }
                        }
                    }
                    let index = d.get("_index").and_then(Value::as_str).map(str::to_string);
                    let id = scalar_id(d.get("_id").unwrap_or(&Value::Null))?;
                    wanted.push((index.or_else(|| default_index.map(str::to_string)), id, options));
                }
            }
            _ => return Err(EngineError::Parsing(format!("unknown parameter [{key}] in mget request"))),
        }
    }
    if wanted.is_empty() {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: no documents to get;".into()));
    }
    // One lookup per index, so its columns are opened once for all of its ids.
    let mut handles: HashMap<String, Option<std::sync::Arc<IndexHandle>>> = HashMap::new();
    for index in wanted.iter().filter_map(|(index, _, _)| index.as_ref()) {
        handles.entry(index.clone()).or_insert_with(|| lookup(index).ok());
    }
    let mut lookups: HashMap<&str, Lookup<'_>> = HashMap::new();
    let mut out = String::with_capacity(64 + wanted.len() * 512);
    out.push_str(r#"{"docs":["#);
    let mut item = String::new();
    for (i, (index, id, options)) in wanted.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let index = index.as_deref().ok_or_else(|| {
            EngineError::ActionRequestValidation("Validation Failed: 1: index is missing for doc 0;".into())
        })?;
        item.clear();
        let written = match &handles[index] {
            Some(handle) => match crate::store::routing::check(handle, id, options.routing.as_deref(), false) {
                Err(e) => Err(e),
                Ok(()) => match lookups.entry(index) {
                    Entry::Occupied(e) => e.into_mut().write_doc(id, options, &mut item).map(|_| ()),
                    Entry::Vacant(e) => Lookup::new(handle, defaults)
                        .and_then(|l| e.insert(l).write_doc(id, options, &mut item))
                        .map(|_| ()),
                },
            },
            // Asked again for the error itself (index_not_found, with its metadata).
            None => Err(lookup(index).err().unwrap_or_else(|| EngineError::IndexNotFound(index.to_string()))),
        };
        match written {
            Ok(()) => out.push_str(&item),
            Err(e) => {
                out.push_str(&json!({ "_index": index, "_id": id, "error": e.to_es_body()["error"] }).to_string())
            }
        }
    }
    out.push_str("]}");
    Ok(out)
}

fn scalar_id(v: &Value) -> Result<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        _ => Err(EngineError::ActionRequestValidation("Validation Failed: 1: id is missing;".into())),
    }
}
