//! `_source` filtering: `false`, a field pattern or list of them, or
//! `{"includes": [...], "excludes": [...]}` (also `include`/`exclude`), plus the URL's
//! `_source`, `_source_includes` and `_source_excludes`. Patterns match dotted paths and may
//! use `*`; an included object keeps its whole subtree (minus excludes), as in ES.
//! Filtered sources are re-serialised, so their keys come out sorted (unfiltered sources
//! stay byte-for-byte as sent).

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::wildcard::glob;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct SourceFilter {
    pub enabled: bool,
    pub includes: Vec<String>,
    pub excludes: Vec<String>,
}

impl SourceFilter {
    pub fn all() -> SourceFilter {
        SourceFilter { enabled: true, ..Default::default() }
    }

    pub fn is_identity(&self) -> bool {
        self.enabled && self.includes.is_empty() && self.excludes.is_empty()
    }

    /// The body's `_source` value.
    pub fn from_body(value: &Value) -> Result<SourceFilter> {
        let bad =
            || EngineError::Parsing(format!("[_source] expected a boolean, string, array or object, found [{value}]"));
        Ok(match value {
            Value::Bool(b) => SourceFilter { enabled: *b, ..Default::default() },
            Value::String(_) | Value::Array(_) => {
                SourceFilter { includes: patterns(value).ok_or_else(bad)?, ..Self::all() }
            }
            Value::Object(obj) => {
                let mut filter = SourceFilter::all();
                for (key, v) in obj {
                    match key.as_str() {
                        "includes" | "include" => filter.includes = patterns(v).ok_or_else(bad)?,
                        "excludes" | "exclude" => filter.excludes = patterns(v).ok_or_else(bad)?,
                        other => {
                            return Err(EngineError::Parsing(format!("Unknown key for a START_OBJECT in [{other}].")))
                        }
                    }
                }
                filter
            }
            _ => return Err(bad()),
        })
    }

    /// The filter in the shape a request body gives it (`from_body` reads it back).
    pub fn to_body(&self) -> Value {
        if !self.enabled {
            return Value::Bool(false);
        }
        serde_json::json!({ "includes": self.includes, "excludes": self.excludes })
    }

    /// Applies to stored source bytes; `None` when `_source` is off.
    pub fn apply(&self, raw: &[u8]) -> Option<String> {
        if !self.enabled {
            return None;
        }
        let text = std::str::from_utf8(raw).unwrap_or("{}");
        if self.is_identity() {
            return Some(text.to_string());
        }
        let doc: Value = serde_json::from_str(text).unwrap_or(Value::Object(Map::new()));
        let filtered = match doc {
            Value::Object(map) => Value::Object(self.filter_map(&map, "", false)),
            other => other,
        };
        Some(filtered.to_string())
    }

    fn filter_map(&self, map: &Map<String, Value>, prefix: &str, parent_included: bool) -> Map<String, Value> {
        let mut out = Map::new();
        for (key, value) in map {
            let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
            if self.excludes.iter().any(|p| glob(p, &path)) {
                continue;
            }
            let included = parent_included || self.includes.is_empty() || self.includes.iter().any(|p| glob(p, &path));
            let kept = match value {
                Value::Object(child) => {
                    let inner = self.filter_map(child, &path, included);
                    (included || !inner.is_empty()).then_some(Value::Object(inner))
                }
                Value::Array(items) if items.iter().any(Value::is_object) => {
                    let inner: Vec<Value> = items
                        .iter()
                        .filter_map(|item| match item {
                            Value::Object(child) => {
                                let m = self.filter_map(child, &path, included);
                                (!m.is_empty()).then_some(Value::Object(m))
                            }
                            scalar => included.then(|| scalar.clone()),
                        })
                        .collect();
                    (included || !inner.is_empty()).then_some(Value::Array(inner))
                }
                scalar => included.then(|| scalar.clone()),
            };
            if let Some(v) = kept {
                out.insert(key.clone(), v);
            }
        }
        out
    }
}

fn patterns(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::String(s) => Some(s.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()),
        Value::Array(items) => items.iter().map(|v| v.as_str().map(str::to_string)).collect(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(filter: Value, doc: Value) -> Value {
        let f = SourceFilter::from_body(&filter).unwrap();
        serde_json::from_str(&f.apply(doc.to_string().as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn includes_excludes_and_wildcards() {
        let doc = json!({"a": 1, "b": {"c": 2, "d": 3}, "tags": ["x"], "e": [{"f": 1, "g": 2}]});
        assert_eq!(run(json!("a"), doc.clone()), json!({"a": 1}));
        assert_eq!(run(json!(["b.c", "tags"]), doc.clone()), json!({"b": {"c": 2}, "tags": ["x"]}));
        assert_eq!(
            run(json!({"excludes": ["b.*", "e.g"]}), doc.clone()),
            json!({"a": 1, "b": {}, "tags": ["x"], "e": [{"f": 1}]})
        );
        assert_eq!(run(json!({"includes": ["b"], "excludes": ["b.d"]}), doc.clone()), json!({"b": {"c": 2}}));
        assert_eq!(run(json!("t*"), doc), json!({"tags": ["x"]}));
    }

    #[test]
    fn off_and_bad_values() {
        assert_eq!(SourceFilter::from_body(&json!(false)).unwrap().apply(b"{}"), None);
        assert!(SourceFilter::from_body(&json!(3)).is_err());
        assert!(SourceFilter::from_body(&json!({"fields": ["a"]})).is_err());
    }
}
