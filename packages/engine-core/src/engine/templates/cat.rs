//! The rows of `GET /_cat/templates[/{name}]`: legacy and composable templates alike, with
//! their patterns, order (a composable template's priority), version and components, as ES's
//! table prints them (lists as `[a, b]`, a missing value as an empty cell).

use serde_json::{json, Value};

use super::legacy::java_list;
use super::patterns::matches;
use crate::engine::Engine;

impl Engine {
    /// Every template whose name matches `name` (`*` wildcards; none: all), as JSON rows.
    pub fn cat_templates(&self, name: Option<&str>) -> String {
        let set = self.templates.snapshot();
        let wanted = |n: &str| name.is_none_or(|p| p.split(',').any(|p| matches(p.trim(), n)));
        let text = |v: Option<i64>| v.map_or_else(String::new, |v| v.to_string());
        let mut rows: Vec<Value> = set
            .legacy
            .iter()
            .filter(|(n, _)| wanted(n))
            .map(|(n, t)| {
                json!({
                    "name": n,
                    "index_patterns": java_list(&t.index_patterns),
                    "order": t.order.to_string(),
                    "version": text(t.version),
                    "composed_of": "",
                })
            })
            .collect();
        rows.extend(set.composable.iter().filter(|(n, _)| wanted(n)).map(|(n, t)| {
            json!({
                "name": n,
                "index_patterns": java_list(&t.index_patterns),
                "order": text(t.priority),
                "version": text(t.version),
                "composed_of": java_list(&t.composed_of),
            })
        }));
        Value::Array(rows).to_string()
    }
}
