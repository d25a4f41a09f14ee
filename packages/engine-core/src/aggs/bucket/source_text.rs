//! `significant_text` reads no column: like ES it loads each matching document's `_source`,
//! takes the values at the source paths and re-analyzes them with the field's analyzer
//! (the standard analyzer, the only one text fields have here). A document counts once per
//! distinct term.

use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use super::text_dedup::DuplicateSpotter;
use crate::aggs::options::TextSource;
use serde_json::Value;
use tantivy::schema::Field;
use tantivy::store::StoreReader;
use tantivy::tokenizer::{TextAnalyzer, TokenStream};
use tantivy::{DocId, SegmentReader, TantivyDocument};

/// Store blocks kept decompressed; matching docs arrive in order, so one block is reused.
const STORE_CACHE_BLOCKS: usize = 4;

pub(crate) struct SourceText {
    store: StoreReader,
    source_field: Field,
    paths: Vec<String>,
    analyzer: RefCell<TextAnalyzer>,
    /// `filter_duplicate_text`: the aggregation's runs seen so far, shared by its segments.
    dedup: Option<Arc<Mutex<DuplicateSpotter>>>,
}

impl SourceText {
    pub(crate) fn open(
        spec: &TextSource,
        reader: &SegmentReader,
        dedup: Option<Arc<Mutex<DuplicateSpotter>>>,
    ) -> tantivy::Result<SourceText> {
        Ok(SourceText {
            store: reader.get_store_reader(STORE_CACHE_BLOCKS)?,
            source_field: spec.source_field,
            paths: spec.source_paths.clone(),
            analyzer: RefCell::new(crate::analysis::es_standard_analyzer()),
            dedup,
        })
    }

    /// The distinct terms of `doc`'s text, in order of first occurrence (without the runs
    /// already seen, with `filter_duplicate_text`).
    pub(crate) fn terms(&self, doc: DocId) -> Vec<String> {
        let Ok(stored) = self.store.get::<TantivyDocument>(doc) else { return Vec::new() };
        let Some(raw) = crate::store::mapping::stored_source_in(&stored, self.source_field) else { return Vec::new() };
        let Ok(source) = serde_json::from_slice::<Value>(raw) else { return Vec::new() };
        let mut texts = Vec::new();
        for path in &self.paths {
            let parts: Vec<&str> = path.split('.').collect();
            raw_values(&source, &parts, &mut texts);
        }
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        let mut analyzer = self.analyzer.borrow_mut();
        let mut spotter = self.dedup.as_ref().map(|s| s.lock().unwrap_or_else(|e| e.into_inner()));
        for text in &texts {
            let mut stream = analyzer.token_stream(text);
            if let Some(spotter) = spotter.as_mut() {
                let mut tokens = Vec::new();
                while stream.advance() {
                    tokens.push(stream.token().text.clone());
                }
                for term in spotter.keep_new(tokens) {
                    if seen.insert(term.clone()) {
                        out.push(term);
                    }
                }
                continue;
            }
            while stream.advance() {
                let term = &stream.token().text;
                if !seen.contains(term) {
                    seen.insert(term.clone());
                    out.push(term.clone());
                }
            }
        }
        out
    }
}

/// ES's `extractRawValues`: the values at a dotted path, through arrays, matching object
/// keys that themselves contain dots; scalars as text.
fn raw_values(value: &Value, parts: &[&str], out: &mut Vec<String>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| raw_values(v, parts, out)),
        Value::Object(obj) if !parts.is_empty() => {
            for k in 1..=parts.len() {
                if let Some(child) = obj.get(&parts[..k].join(".")) {
                    raw_values(child, &parts[k..], out);
                }
            }
        }
        _ if !parts.is_empty() => {}
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Bool(b) => out.push(b.to_string()),
        Value::Null | Value::Object(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn raw_values_walk_objects_arrays_and_dotted_keys() {
        let doc = json!({"a": {"b": ["x y", "z"]}, "a.c": "dotted", "n": 3, "objs": [{"t": "one"}, {"t": "two"}]});
        let get = |path: &str| {
            let mut out = Vec::new();
            raw_values(&doc, &path.split('.').collect::<Vec<_>>(), &mut out);
            out
        };
        assert_eq!(get("a.b"), vec!["x y", "z"]);
        assert_eq!(get("a.c"), vec!["dotted"]);
        assert_eq!(get("n"), vec!["3"]);
        assert_eq!(get("objs.t"), vec!["one", "two"]);
        assert!(get("a").is_empty());
        assert!(get("missing").is_empty());
    }
}
