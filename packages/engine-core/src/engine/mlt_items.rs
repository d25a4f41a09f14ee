//! `more_like_this` with document items in `like` (`{"_index", "_id"}`, or `{"doc": {...}}` for
//! an artificial document): the items' field texts are read before the search runs, as ES's
//! coordinating node fetches their term vectors, and stand in for the items as like-texts. The
//! fields read are the query's `fields`, else every text and keyword field of the item's index.
//! Unless `include` is true, the documents named by id are themselves left out of the matches.
//!
//! The query parser refuses document items (it cannot read documents); a search refused for
//! that reason alone is rewritten here and run again, so searches without items pay nothing.

use serde_json::{json, Map, Value};

use super::Engine;
use crate::error::{EngineError, Result};
use crate::query::dsl::more_like_this::DOCUMENT_ITEMS;
use crate::store::mapping::FieldType;

impl Engine {
    /// Whether `error` is the query parser's refusal of document items (`resolve_mlt_items`
    /// can rewrite the request).
    pub(crate) fn needs_mlt_items(error: &EngineError) -> bool {
        matches!(error, EngineError::Parsing(reason) if reason == DOCUMENT_ITEMS)
    }

    /// `body` with each `more_like_this` query's document items replaced by their texts;
    /// `index` is the searched index, the items' default `_index`.
    pub(crate) fn resolve_mlt_items(&self, index: &str, body: &[u8]) -> Result<Vec<u8>> {
        let mut parsed: Value = serde_json::from_slice(body).map_err(|e| EngineError::Internal(e.to_string()))?;
        self.rewrite_mlt(index, &mut parsed)?;
        serde_json::to_vec(&parsed).map_err(|e| EngineError::Internal(e.to_string()))
    }

    fn rewrite_mlt(&self, index: &str, value: &mut Value) -> Result<()> {
        match value {
            Value::Object(obj) => {
                for (key, child) in obj.iter_mut() {
                    if key == "more_like_this" && child.is_object() {
                        if let Some(rewritten) = self.mlt_with_texts(index, child)? {
                            *child = rewritten;
                            continue;
                        }
                    }
                    self.rewrite_mlt(index, child)?;
                }
                // A rewritten query is a `bool` under the `more_like_this` key: lift it.
                if let Some(Value::Object(inner)) = obj.get("more_like_this") {
                    if inner.contains_key("bool") && inner.len() == 1 {
                        let lifted = inner.clone();
                        obj.remove("more_like_this");
                        obj.extend(lifted);
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    self.rewrite_mlt(index, item)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The query (as a `{"bool": …}` body) that replaces `mlt` when its `like` holds document
    /// items; `None` when it holds only texts.
    fn mlt_with_texts(&self, index: &str, mlt: &Value) -> Result<Option<Value>> {
        let Some(obj) = mlt.as_object() else { return Ok(None) };
        let items: Vec<&Value> = match obj.get("like") {
            Some(Value::Array(items)) => items.iter().collect(),
            Some(one) => vec![one],
            None => return Ok(None),
        };
        if !items.iter().any(|item| item.is_object()) {
            return Ok(None);
        }
        let fields: Option<Vec<String>> = obj
            .get("fields")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).map(str::to_string).collect());
        let mut texts: Vec<Value> = Vec::new();
        let mut excluded: Vec<Value> = Vec::new();
        for item in items {
            let Value::Object(item) = item else {
                texts.push(item.clone());
                continue;
            };
            let item_index = item.get("_index").and_then(Value::as_str).unwrap_or(index);
            let handle = self.get(item_index)?;
            let names = fields.clone().unwrap_or_else(|| text_fields(&handle.mapping));
            let source = if let Some(doc) = item.get("doc") {
                doc.clone()
            } else {
                let id = item.get("_id").and_then(id_text).ok_or_else(|| {
                    EngineError::Parsing("[more_like_this] a document item requires either [_id] or [doc]".into())
                })?;
                excluded.push(Value::String(id.clone()));
                let routing = item.get("routing").or_else(|| item.get("_routing")).and_then(id_text);
                let got = crate::store::get::get_doc(&handle, &id, routing.as_deref())?;
                got.get("_source").cloned().unwrap_or(Value::Null)
            };
            for name in &names {
                let mut values = Vec::new();
                collect_strings(&source, &name.split('.').collect::<Vec<_>>(), &mut values);
                texts.extend(values.into_iter().map(Value::String));
            }
        }
        let include = obj.get("include").and_then(Value::as_bool).unwrap_or(false);
        let mut query: Map<String, Value> = obj.clone();
        query.remove("include");
        let main = if texts.is_empty() {
            // No like text at all: nothing is like it.
            json!({ "match_none": {} })
        } else {
            query.insert("like".into(), Value::Array(texts));
            json!({ "more_like_this": query })
        };
        let mut bool_query = json!({ "must": [main] });
        if !include && !excluded.is_empty() {
            bool_query["must_not"] = json!([{ "ids": { "values": excluded } }]);
        }
        Ok(Some(json!({ "bool": bool_query })))
    }
}

fn id_text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string).or_else(|| v.is_number().then(|| v.to_string()))
}

/// The index's text and keyword fields (what ES's default `*` field list gives MLT).
fn text_fields(mapping: &crate::store::mapping::Mapping) -> Vec<String> {
    let mut names: Vec<String> = mapping
        .fields
        .iter()
        .filter(|(_, fm)| matches!(fm.field_type, FieldType::Text | FieldType::Keyword))
        .map(|(name, _)| name.clone())
        .collect();
    names.sort();
    names
}

/// The strings at `path` (dotted) of a source, through objects and arrays.
fn collect_strings(value: &Value, path: &[&str], out: &mut Vec<String>) {
    match (value, path.split_first()) {
        (Value::Array(items), _) => items.iter().for_each(|item| collect_strings(item, path, out)),
        (Value::Object(obj), Some((head, rest))) => {
            if let Some(child) = obj.get(*head) {
                collect_strings(child, rest, out);
            } else {
                // A dotted key in the source (`{"a.b": …}`) names the same field.
                let joined = path.join(".");
                if let Some(child) = obj.get(&joined) {
                    collect_strings(child, &[], out);
                }
            }
        }
        (Value::String(s), None) => out.push(s.clone()),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_read_through_objects_arrays_and_dotted_keys() {
        let source = json!({"a": [{"b": "x"}, {"b": ["y", 3]}], "c.d": "z"});
        let mut out = Vec::new();
        collect_strings(&source, &["a", "b"], &mut out);
        collect_strings(&source, &["c", "d"], &mut out);
        assert_eq!(out, vec!["x", "y", "z"]);
    }
}
