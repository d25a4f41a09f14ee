//! The `completion` section: the bytes of each completion field's data in the open segments.
//! A completion field's inputs are the terms of a tantivy field of its own
//! (`completion/field.rs`); the suggester reads its term dictionary and postings, so
//! their sizes, summed over the segments, are the field's completion data (ES reports its
//! suggesters' FSTs the same way: per field, summed over segments).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};
use tantivy::Searcher;

use crate::error::Result;
use crate::store::mapping::Mapping;

use crate::wildcard::matches_any;

/// Bytes by completion field (ES name); empty when the mapping has none.
pub fn sizes(mapping: &Mapping, searcher: &Searcher) -> Result<BTreeMap<String, u64>> {
    let mut out: BTreeMap<String, u64> = BTreeMap::new();
    if mapping.completions.is_empty() {
        return Ok(out);
    }
    let by_column: BTreeMap<&str, &str> = mapping
        .completions
        .iter()
        .map(|(name, field)| (mapping.schema.get_field_name(field.field), name.as_str()))
        .collect();
    for name in mapping.completions.keys() {
        out.insert(name.clone(), 0);
    }
    for reader in searcher.segment_readers() {
        let usage = reader.space_usage()?;
        for per_field in [usage.termdict(), usage.postings()] {
            for field in per_field.fields() {
                if let Some(name) = by_column.get(field.field_name()) {
                    *out.entry(name.to_string()).or_insert(0) += field.total().get_bytes();
                }
            }
        }
    }
    Ok(out)
}

/// The section: the total, and with `completion_fields` the fields it names.
pub fn section(sizes: &BTreeMap<String, u64>, patterns: Option<&[String]>) -> Value {
    let mut out = json!({ "size_in_bytes": sizes.values().sum::<u64>() });
    if let Some(patterns) = patterns {
        let fields: Map<String, Value> = sizes
            .iter()
            .filter(|(name, _)| matches_any(patterns, name))
            .map(|(name, bytes)| (name.clone(), json!({ "size_in_bytes": bytes })))
            .collect();
        if !fields.is_empty() {
            out["fields"] = Value::Object(fields);
        }
    }
    out
}
