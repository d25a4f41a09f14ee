//! `GET|POST /{index}/_termvectors[/{id}]` and `_mtermvectors`: a document's terms per field,
//! with their frequencies, positions and offsets, the field's statistics and each term's
//! statistics in the index. No term vectors are stored: they are computed from the document's
//! `_source` with the field's analyzer, as ES computes them for fields that store none (and for
//! an artificial `doc`). Statistics are the index's as its last refresh left it.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};
use tantivy::postings::Postings;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocSet, Searcher, Term, TERMINATED};

use crate::analysis::registry::Analyzer;
use crate::analysis::token::Utf16Offsets;
use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;
use crate::store::mapping::{FieldMapping, FieldType};
use crate::store::mapping_update::render;
use crate::store::versioning::param_text;

use super::Engine;

/// The `term_vector` mapping values ES accepts.
pub const TERM_VECTOR_OPTIONS: [&str; 7] = [
    "no",
    "yes",
    "with_positions",
    "with_offsets",
    "with_positions_offsets",
    "with_positions_payloads",
    "with_positions_offsets_payloads",
];

/// What a request asks for.
struct Options {
    fields: Option<Vec<String>>,
    positions: bool,
    offsets: bool,
    field_statistics: bool,
    term_statistics: bool,
    per_field_analyzer: BTreeMap<String, String>,
    filter: Option<Value>,
    get_params: Map<String, Value>,
}

fn flag(value: &Value) -> Result<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        other => match param_text(other).as_str() {
            "true" | "" => Ok(true),
            "false" => Ok(false),
            text => Err(EngineError::IllegalArgument(format!(
                "Failed to parse value [{text}] as only [true] or [false] are allowed."
            ))),
        },
    }
}

fn names(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().map(param_text).collect(),
        other => param_text(other).split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
    }
}

impl Options {
    fn parse(params: &Map<String, Value>, body: &Map<String, Value>) -> Result<Options> {
        let mut out = Options {
            fields: None,
            positions: true,
            offsets: true,
            field_statistics: true,
            term_statistics: false,
            per_field_analyzer: BTreeMap::new(),
            filter: None,
            get_params: Map::new(),
        };
        // URL parameters first, then the body's (which ES reads last).
        for (key, value) in params.iter().chain(body.iter()) {
            match key.as_str() {
                "fields" => out.fields = Some(names(value)),
                "positions" => out.positions = flag(value)?,
                "offsets" => out.offsets = flag(value)?,
                // Payloads: the analyzers here set none, so there is nothing to show either way.
                "payloads" => {
                    flag(value)?;
                }
                "field_statistics" => out.field_statistics = flag(value)?,
                "term_statistics" => out.term_statistics = flag(value)?,
                "realtime" | "routing" | "version" | "version_type" => {
                    out.get_params.insert(key.clone(), value.clone());
                }
                // One shard: preference picks nothing.
                "preference" => {}
                "per_field_analyzer" => {
                    for (field, analyzer) in value.as_object().into_iter().flatten() {
                        out.per_field_analyzer.insert(field.clone(), param_text(analyzer));
                    }
                }
                "filter" => out.filter = Some(value.clone()),
                "doc" | "_index" | "_id" | "_type" => {}
                other => {
                    return Err(EngineError::IllegalArgument(format!(
                        "request [_termvectors] contains unrecognized parameter: [{other}]"
                    )))
                }
            }
        }
        if out.filter.is_some() {
            return Err(EngineError::IllegalArgument("[filter] of term vectors is not supported".into()));
        }
        Ok(out)
    }
}

impl Engine {
    /// One document's term vectors (`id`), or an artificial document's (`doc` in the body).
    pub fn termvectors(
        &self,
        name: &str,
        id: Option<&str>,
        body: &[u8],
        params: &Map<String, Value>,
    ) -> Result<String> {
        let body = if body.iter().all(u8::is_ascii_whitespace) {
            Map::new()
        } else {
            match crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))? {
                Value::Object(m) => m,
                _ => return Err(EngineError::Parsing("request body must be an object".into())),
            }
        };
        Ok(self.termvectors_one(name, id, &body, params)?.to_string())
    }

    fn termvectors_one(
        &self,
        name: &str,
        id: Option<&str>,
        body: &Map<String, Value>,
        params: &Map<String, Value>,
    ) -> Result<Value> {
        let options = Options::parse(params, body)?;
        let handle = self.get(name)?;
        let mut out = Map::new();
        out.insert("_index".into(), json!(handle.name));
        let source = match (body.get("doc"), id) {
            (Some(doc), _) => {
                out.insert("_version".into(), json!(0));
                out.insert("found".into(), json!(true));
                doc.clone()
            }
            (None, Some(id)) => {
                out.insert("_id".into(), json!(id));
                let (text, _) = self.get_doc(name, id, &options.get_params)?;
                let got: Value = serde_json::from_str(&text).map_err(|e| EngineError::Internal(e.to_string()))?;
                if got["found"] != true {
                    out.insert("found".into(), json!(false));
                    out.insert("took".into(), json!(0));
                    return Ok(Value::Object(out));
                }
                out.insert("_version".into(), got["_version"].clone());
                out.insert("found".into(), json!(true));
                got["_source"].clone()
            }
            (None, None) => {
                return Err(EngineError::ActionRequestValidation("Validation Failed: 1: id is missing;".into()))
            }
        };
        out.insert("took".into(), json!(0));
        let searcher = handle.searcher();
        let mappings = render(&handle.mappings_json);
        let mut vectors = Map::new();
        for fm in fields(&handle, &mappings, &options) {
            let analyzer = analyzer_for(&handle, fm, &options)?;
            let mut values = Vec::new();
            crate::json_source::lookup_all(&source, &fm.source_path, &mut values);
            let texts: Vec<String> = values
                .iter()
                .flat_map(|v| match v {
                    Value::Array(items) => items.clone(),
                    other => vec![(*other).clone()],
                })
                .filter(|v| !v.is_null())
                .map(|v| param_text(&v))
                .collect();
            if texts.is_empty() {
                continue;
            }
            vectors.insert(fm.name.clone(), field_vector(&searcher, fm, &analyzer, &texts, &options)?);
        }
        out.insert("term_vectors".into(), Value::Object(vectors));
        Ok(Value::Object(out))
    }

    /// `_mtermvectors`: `docs` (each with its own `_index`, `_id` or `doc` and options) or `ids`.
    pub fn mtermvectors(&self, index: Option<&str>, body: &[u8], params: &Map<String, Value>) -> Result<String> {
        let body: Value = if body.iter().all(u8::is_ascii_whitespace) {
            json!({})
        } else {
            crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))?
        };
        let mut shared = params.clone();
        let ids: Vec<String> = match shared.remove("ids") {
            Some(v) => names(&v),
            None => body.get("ids").map(names).unwrap_or_default(),
        };
        let mut docs: Vec<Map<String, Value>> =
            ids.into_iter().map(|id| Map::from_iter([("_id".to_string(), json!(id))])).collect();
        for doc in body.get("docs").and_then(Value::as_array).into_iter().flatten() {
            docs.push(
                doc.as_object()
                    .cloned()
                    .ok_or_else(|| EngineError::Parsing("[docs] entries must be objects".into()))?,
            );
        }
        // A document whose options do not parse fails the whole request, as in ES.
        for doc in &docs {
            Options::parse(&shared, doc)?;
        }
        let mut out = Vec::new();
        for doc in docs {
            let name = doc.get("_index").and_then(Value::as_str).or(index).map(str::to_string);
            let id = doc.get("_id").map(param_text);
            let result = match name {
                None => Err(EngineError::ActionRequestValidation("Validation Failed: 1: index is missing;".into())),
                Some(name) => self.termvectors_one(&name, id.as_deref(), &doc, &shared),
            };
            out.push(match result {
                Ok(v) => v,
                Err(e) => json!({
                    "_index": doc.get("_index").cloned().unwrap_or_else(|| json!(index)),
                    "_id": id,
                    "error": e.cause_json(),
                }),
            });
        }
        Ok(json!({ "docs": out }).to_string())
    }
}

/// The fields a request covers: those named (patterns allowed), or those whose mapping asks
/// for term vectors.
fn fields<'a>(handle: &'a IndexHandle, mappings: &Value, options: &Options) -> Vec<&'a FieldMapping> {
    let analyzable = |fm: &&FieldMapping| matches!(fm.field_type, FieldType::Text | FieldType::Keyword);
    match &options.fields {
        Some(patterns) => handle
            .mapping
            .fields
            .values()
            .filter(analyzable)
            .filter(|fm| patterns.iter().any(|p| crate::wildcard::glob(p, &fm.name)))
            .collect(),
        None => handle
            .mapping
            .fields
            .values()
            .filter(analyzable)
            .filter(|fm| {
                let def = definition(mappings, &fm.name);
                def.and_then(|d| d.get("term_vector")).and_then(Value::as_str).is_some_and(|t| t != "no")
            })
            .collect(),
    }
}

fn definition<'a>(mappings: &'a Value, path: &str) -> Option<&'a Value> {
    let mut at = mappings;
    for part in path.split('.') {
        at = at.get("properties").and_then(|p| p.get(part)).or_else(|| at.get("fields").and_then(|f| f.get(part)))?;
    }
    Some(at)
}

fn analyzer_for(handle: &IndexHandle, fm: &FieldMapping, options: &Options) -> Result<Analyzer> {
    let settings = &handle.settings.analysis.parsed;
    let name = match options.per_field_analyzer.get(&fm.name) {
        Some(name) => name.as_str(),
        None if fm.field_type == FieldType::Text => "standard",
        None => "keyword",
    };
    settings.analyzer(name).ok_or_else(|| EngineError::IllegalArgument(format!("failed to find analyzer [{name}]")))
}

fn field_vector(
    searcher: &Searcher,
    fm: &FieldMapping,
    analyzer: &Analyzer,
    texts: &[String],
    options: &Options,
) -> Result<Value> {
    // term -> [(position, start, end)], positions and offsets continued across values.
    let mut terms: BTreeMap<String, Vec<(usize, usize, usize)>> = BTreeMap::new();
    let (mut next_position, mut offset_base) = (0usize, 0usize);
    for text in texts {
        let units = Utf16Offsets::new(text);
        let tokens = analyzer.chain.analyze(text);
        let mut last = None;
        for t in tokens {
            let position = next_position + t.position;
            last = Some(last.map_or(position, |p: usize| p.max(position)));
            terms.entry(t.term).or_default().push((
                position,
                offset_base + units.at(t.start),
                offset_base + units.at(t.end),
            ));
        }
        next_position = last.map_or(next_position, |p| p + 1) + if fm.field_type == FieldType::Text { 100 } else { 0 };
        offset_base += units.len() + 1;
    }
    let mut out = Map::new();
    if options.field_statistics {
        let (doc_count, sum_doc_freq, sum_ttf) = field_stats(searcher, fm)?;
        out.insert(
            "field_statistics".into(),
            json!({"sum_doc_freq": sum_doc_freq, "doc_count": doc_count, "sum_ttf": sum_ttf}),
        );
    }
    let mut rendered = Map::new();
    for (term, occurrences) in terms {
        let mut entry = Map::new();
        if options.term_statistics {
            let (doc_freq, ttf) = term_stats(searcher, fm, &term)?;
            entry.insert("doc_freq".into(), json!(doc_freq));
            entry.insert("ttf".into(), json!(ttf));
        }
        entry.insert("term_freq".into(), json!(occurrences.len()));
        if options.positions || options.offsets {
            let tokens: Vec<Value> = occurrences
                .iter()
                .map(|(p, s, e)| {
                    let mut t = Map::new();
                    if options.positions {
                        t.insert("position".into(), json!(p));
                    }
                    if options.offsets {
                        t.insert("start_offset".into(), json!(s));
                        t.insert("end_offset".into(), json!(e));
                    }
                    Value::Object(t)
                })
                .collect();
            entry.insert("tokens".into(), Value::Array(tokens));
        }
        rendered.insert(term, Value::Object(entry));
    }
    out.insert("terms".into(), Value::Object(rendered));
    Ok(Value::Object(out))
}

/// Lucene's field statistics: documents with the field, the sum of its terms' document
/// frequencies, and its tokens.
fn field_stats(searcher: &Searcher, fm: &FieldMapping) -> Result<(u64, u64, u64)> {
    let internal = |e: tantivy::TantivyError| EngineError::Internal(e.to_string());
    let (mut doc_count, mut sum_doc_freq, mut sum_ttf) = (0, 0, 0);
    for reader in searcher.segment_readers() {
        let index = reader.inverted_index(fm.field).map_err(internal)?;
        let mut stream = index.terms().stream().map_err(|e| EngineError::Internal(e.to_string()))?;
        let mut freqs = 0u64;
        while stream.advance() {
            freqs += u64::from(stream.value().doc_freq);
        }
        sum_doc_freq += freqs;
        // Keywords keep no frequencies: each value is one token, as Lucene counts them.
        sum_ttf += if fm.field_type == FieldType::Text { index.total_num_tokens() } else { freqs };
        doc_count +=
            crate::query::tantivy::field_statistics::docs_with_field(reader, fm.field).map_err(internal)?.unwrap_or(0);
    }
    Ok((doc_count, sum_doc_freq, sum_ttf))
}

/// A term's document frequency and total frequency in the index.
fn term_stats(searcher: &Searcher, fm: &FieldMapping, term: &str) -> Result<(u64, u64)> {
    let internal = |e: tantivy::TantivyError| EngineError::Internal(e.to_string());
    let term = Term::from_field_text(fm.field, term);
    let (mut doc_freq, mut ttf) = (0u64, 0u64);
    for reader in searcher.segment_readers() {
        let index = reader.inverted_index(fm.field).map_err(internal)?;
        let option =
            if fm.field_type == FieldType::Text { IndexRecordOption::WithFreqs } else { IndexRecordOption::Basic };
        let Some(mut postings) =
            index.read_postings(&term, option).map_err(|e| EngineError::Internal(e.to_string()))?
        else {
            continue;
        };
        doc_freq += u64::from(postings.doc_freq());
        while postings.doc() != TERMINATED {
            ttf += u64::from(postings.term_freq().max(1));
            postings.advance();
        }
    }
    Ok((doc_freq, ttf))
}
