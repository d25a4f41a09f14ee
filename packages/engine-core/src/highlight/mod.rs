//! `highlight`: fragments of each hit's text with the query's terms tagged, as ES 8 /
//! OpenSearch 2.19's default (unified) highlighter renders them. The pipeline, one file per
//! step: `options` (the request) -> `query_terms` (what to look for in a field) ->
//! `field_matches` (the field's text re-analyzed and matched) -> `passages` (cut at
//! `breaks`: JDK sentence and word boundaries, bounded by `fragment_size`) -> `formatter`.
//! `plain` is served by the same code: for the short texts we compare, its output is the same.
//!
//! Layer: highlighting, below `aggs/`. Uses `query/`, `store/` and below (ARCHITECTURE.md).

mod breaks;
mod field_matches;
mod formatter;
mod options;
mod passages;
mod query_terms;
mod sentence_breaks;
mod word_breaks;

use serde_json::{Map, Value};

pub use options::HighlightRequest;

use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::QueryAst;
use crate::query::lower::context::LowerContext;
use crate::store::mapping::{FieldType, Mapping};
use breaks::{Breaker, SliceBreaks};
use field_matches::{find_matches, tokenize, VALUE_SEPARATOR};
use formatter::{format, has_text, Tags};
use options::Resolved;
use query_terms::{Extractor, FieldQuery};

/// One concrete field to highlight, with its options merged and its query terms extracted.
struct PreparedField {
    name: String,
    source_path: String,
    tokenized: bool,
    /// Whether ES would re-analyze the text (the plain highlighter, or a field without
    /// offsets), which `index.highlight.max_analyzed_offset` bounds (`analyzed_offset.rs`).
    reanalyzes: bool,
    /// A keyword's `ignore_above`.
    ignore_above: Option<usize>,
    options: Resolved,
    query: FieldQuery,
}

/// A highlight request bound to an index's mapping and the search query.
pub struct Highlighter {
    fields: Vec<PreparedField>,
}

/// ES's simple `*` patterns.
fn glob_matches(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

impl HighlightRequest {
    /// Resolves field patterns against the mapping and extracts each field's query terms.
    /// Fails as ES's fetch phase does for a highlighter type it does not know.
    pub fn prepare(&self, query: &QueryAst, mapping: &Mapping, now_ms: i64) -> Result<Highlighter> {
        let mut fields = Vec::new();
        for request in &self.fields {
            let wildcard = request.pattern.contains('*');
            let options = self.resolve(&request.options);
            for fm in mapping.fields.values() {
                if !glob_matches(&request.pattern, &fm.name)
                    || !matches!(fm.field_type, FieldType::Text | FieldType::Keyword)
                {
                    continue;
                }
                match options.highlighter_type.as_str() {
                    "unified" | "plain" => {}
                    "fvh" if wildcard => continue,
                    "fvh" => {
                        return Err(EngineError::shard(ShardCause::IllegalArgument, format!(
                            "the field [{}] should be indexed with term vector with position offsets to be used with fast vector highlighter",
                            fm.name
                        )))
                    }
                    other => {
                        return Err(EngineError::shard(ShardCause::IllegalArgument, format!("unknown highlighter type [{other}] for the field [{}]", fm.name)))
                    }
                }
                // The highlighter analyzes with the standard analyzer: a field analyzed with
                // another would show different fragments than ES, so it is refused (or skipped
                // by a pattern) until the highlighter analyzes per field.
                if let Some(other) = fm.params.query_analyzer().filter(|a| *a != "standard" && *a != "default") {
                    if wildcard {
                        continue;
                    }
                    return Err(EngineError::shard(
                        ShardCause::IllegalArgument,
                        format!("highlighting field [{}] analyzed with [{other}] is not supported", fm.name),
                    ));
                }
                if options.boundary_scanner == "chars" {
                    return Err(EngineError::shard(
                        ShardCause::IllegalArgument,
                        "Invalid boundary scanner type: chars",
                    ));
                }
                if options.number_of_fragments < 0 {
                    return Err(EngineError::shard(
                        ShardCause::IllegalArgument,
                        format!(
                            "[number_of_fragments] must be greater than or equal to 0, got [{}]",
                            options.number_of_fragments
                        ),
                    ));
                }
                let mut extractor = Extractor {
                    target: &fm.name,
                    require_field_match: options.require_field_match,
                    mapping,
                    ctx: LowerContext::new(mapping, now_ms),
                };
                let mut field_query = FieldQuery::default();
                extractor.collect(options.highlight_query.as_ref().unwrap_or(query), &mut field_query)?;
                fields.push(PreparedField {
                    name: fm.name.clone(),
                    source_path: fm.source_path.clone(),
                    tokenized: fm.field_type == FieldType::Text,
                    reanalyzes: options.highlighter_type == "plain" || !fm.params.has_offsets(),
                    ignore_above: fm.ignore_above,
                    options: options.clone(),
                    query: field_query,
                });
            }
        }
        Ok(Highlighter { fields })
    }
}

/// The values at a dotted `_source` path, flattened, as strings.
fn source_values(source: &Value, path: &str, out: &mut Vec<String>) {
    fn walk(v: &Value, parts: &[&str], out: &mut Vec<String>) {
        match v {
            Value::Array(items) => items.iter().for_each(|i| walk(i, parts, out)),
            Value::Object(o) if !parts.is_empty() => {
                if let Some(child) = o.get(parts[0]) {
                    walk(child, &parts[1..], out);
                }
            }
            Value::String(s) if parts.is_empty() => out.push(s.clone()),
            Value::Number(_) | Value::Bool(_) if parts.is_empty() => out.push(v.to_string()),
            _ => {}
        }
    }
    let parts: Vec<&str> = path.split('.').collect();
    walk(source, &parts, out);
}

impl PreparedField {
    /// How each value is cut, and how many passages to keep.
    fn breaks(&self) -> (SliceBreaks, usize) {
        let o = &self.options;
        if o.number_of_fragments == 0 {
            return (SliceBreaks::Whole, usize::MAX);
        }
        let max = o.number_of_fragments as usize;
        if !self.tokenized {
            return (SliceBreaks::Whole, max);
        }
        let kind = match (o.boundary_scanner.as_str(), o.fragment_size) {
            ("word", _) => SliceBreaks::Words,
            (_, size) if size > 0 => SliceBreaks::Bounded(size as usize),
            _ => SliceBreaks::Sentences,
        };
        (kind, max)
    }

    fn fragments(&self, source: &Value) -> Vec<String> {
        let o = &self.options;
        if self.query.is_empty() && o.no_match_size <= 0 {
            return Vec::new();
        }
        let mut values = Vec::new();
        source_values(source, &self.source_path, &mut values);
        // A keyword value past `ignore_above` was never indexed: ES does not highlight it.
        if let Some(limit) = self.ignore_above {
            values.retain(|v| v.chars().count() <= limit);
        }
        let (content, tokens) = tokenize(&values, self.tokenized);
        if content.is_empty() {
            return Vec::new();
        }
        let matches = find_matches(&self.query, &tokens);
        let (kind, max_passages) = self.breaks();
        let mut breaker = Breaker::new(&content, kind, VALUE_SEPARATOR);
        let mut found = passages::passages(&matches, &mut breaker, content.len(), max_passages);
        if found.is_empty() {
            found.extend(passages::no_match_passage(&content, o.no_match_size.max(0) as usize, VALUE_SEPARATOR));
        }
        let tags = Tags { pre: &o.pre_tag, post: &o.post_tag, html: o.html };
        let mut snippets: Vec<(f32, String)> =
            found.iter().map(|p| (p.score, format(p, &content, &tags))).filter(|(_, s)| has_text(s)).collect();
        if o.score_order {
            snippets.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        }
        snippets.into_iter().map(|(_, s)| s).collect()
    }
}

impl Highlighter {
    /// The hit's `highlight` object, or `None` when no field has a fragment (ES then leaves
    /// the key out).
    pub fn render(&self, source: &[u8]) -> Option<String> {
        if self.fields.is_empty() {
            return None;
        }
        let source: Value = serde_json::from_slice(source).ok()?;
        let mut out = Map::new();
        for field in &self.fields {
            let fragments = field.fragments(&source);
            if !fragments.is_empty() {
                out.insert(field.name.clone(), Value::from(fragments));
            }
        }
        (!out.is_empty()).then(|| Value::Object(out).to_string())
    }
}

mod analyzed_offset;

#[cfg(test)]
mod tests;
