//! The `terms` query's lookup form, `{"terms": {"field": {"index", "id", "path", "routing"}}}`:
//! the values are those at `path` in the `_source` of document `id` of `index`, read in real
//! time before the search runs, as ES's coordinating node rewrites the query. A missing
//! document gives no values (the query matches nothing); a missing index is an error.

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};

use super::Engine;

impl Engine {
    /// `body` with every terms lookup replaced by the values it reads, or `None` when it has
    /// none (told from the raw bytes first: a body without `"path"` has no lookup).
    pub(crate) fn resolve_terms_lookups(&self, body: &[u8]) -> Result<Option<Vec<u8>>> {
        if !names_a_path(body) {
            return Ok(None);
        }
        let Ok(mut parsed) = serde_json::from_slice::<Value>(body) else { return Ok(None) };
        if !self.rewrite(&mut parsed)? {
            return Ok(None);
        }
        serde_json::to_vec(&parsed).map(Some).map_err(|e| EngineError::Internal(e.to_string()))
    }

    /// Rewrites the lookups under `value`; true when there was one.
    fn rewrite(&self, value: &mut Value) -> Result<bool> {
        let mut changed = false;
        match value {
            Value::Object(obj) => {
                for (key, child) in obj.iter_mut() {
                    if key == "terms" {
                        if let Some(values) = self.lookup(child)? {
                            *child = values;
                            changed = true;
                            continue;
                        }
                    }
                    changed |= self.rewrite(child)?;
                }
            }
            Value::Array(items) => {
                for item in items {
                    changed |= self.rewrite(item)?;
                }
            }
            _ => {}
        }
        Ok(changed)
    }

    /// The `terms` query body with its lookup replaced by the values, when `body` is one.
    fn lookup(&self, body: &Value) -> Result<Option<Value>> {
        let Some(obj) = body.as_object() else { return Ok(None) };
        let Some((field, spec)) = obj.iter().find_map(|(k, v)| lookup_spec(v).map(|s| (k, s))) else {
            return Ok(None);
        };
        let handle = self.get(spec.index)?;
        let doc = crate::store::get::get_doc(&handle, &spec.id, spec.routing.as_deref())?;
        let mut values = Vec::new();
        if let Some(source) = doc.get("_source") {
            collect_path(source, &spec.path.split('.').collect::<Vec<_>>(), &mut values);
        }
        let mut out: Map<String, Value> = obj.clone();
        out.insert(field.clone(), Value::Array(values));
        Ok(Some(Value::Object(out)))
    }
}

struct LookupSpec<'a> {
    index: &'a str,
    id: String,
    path: &'a str,
    routing: Option<String>,
}

/// A field's value in the lookup form: an object naming `index`, `id` and `path`.
fn lookup_spec(value: &Value) -> Option<LookupSpec<'_>> {
    let obj = value.as_object()?;
    let text = |v: &Value| v.as_str().map(str::to_string).or_else(|| v.is_number().then(|| v.to_string()));
    Some(LookupSpec {
        index: obj.get("index")?.as_str()?,
        id: text(obj.get("id")?)?,
        path: obj.get("path")?.as_str()?,
        routing: obj.get("routing").and_then(text),
    })
}

/// The scalar values at `path` (dotted), through objects and arrays of them.
fn collect_path(value: &Value, path: &[&str], out: &mut Vec<Value>) {
    match (value, path.split_first()) {
        (Value::Array(items), _) => items.iter().for_each(|item| collect_path(item, path, out)),
        (Value::Object(obj), Some((head, rest))) => {
            if let Some(child) = obj.get(*head) {
                collect_path(child, rest, out);
            }
        }
        (Value::Null | Value::Object(_), None) => {}
        (scalar, None) => out.push(scalar.clone()),
        (_, Some(_)) => {}
    }
}

/// Whether `body` contains `"path"`. Every search passes through here, so the searcher is built
/// once: a byte-window scan cost about 480 instructions per request (3% of a `match_none`
/// search), and building memchr's searcher on each call more.
fn names_a_path(body: &[u8]) -> bool {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> = std::sync::OnceLock::new();
    FINDER.get_or_init(|| memchr::memmem::Finder::new(b"\"path\"")).find(body).is_some()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_are_read_through_objects_and_arrays() {
        let source = json!({"a": [{"b": [1, 2]}, {"b": 3}, {"c": 4}], "d": null});
        let mut out = Vec::new();
        collect_path(&source, &["a", "b"], &mut out);
        assert_eq!(out, vec![json!(1), json!(2), json!(3)]);
        let mut none = Vec::new();
        collect_path(&source, &["d"], &mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn only_objects_naming_index_id_and_path_are_lookups() {
        assert!(lookup_spec(&json!({"index": "i", "id": 1, "path": "p"})).is_some_and(|s| s.id == "1"));
        assert!(lookup_spec(&json!({"_count": "desc"})).is_none());
        assert!(lookup_spec(&json!(["a"])).is_none());
    }
}
