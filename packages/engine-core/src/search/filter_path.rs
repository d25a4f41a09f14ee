//! `filter_path`: the response reduced to the paths asked for, as ES's filtered JSON output
//! does: comma-separated dotted paths, `*` matching one name (or part of one, `agg*`), `**`
//! any number of levels, a leading `-` excluding instead; arrays are looked through.
//! Nothing left is `{}`.

use serde_json::{Map, Value};

struct Pattern {
    parts: Vec<String>,
}

/// Filters a JSON response body.
pub fn filter(body: &str, spec: &str) -> String {
    let Ok(mut value) = serde_json::from_str::<Value>(body) else { return body.to_string() };
    let (mut include, mut exclude) = (Vec::new(), Vec::new());
    for raw in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match raw.strip_prefix('-') {
            Some(rest) => exclude.push(Pattern::new(rest)),
            None => include.push(Pattern::new(raw)),
        }
    }
    if !include.is_empty() {
        let refs: Vec<&[String]> = include.iter().map(|p| p.parts.as_slice()).collect();
        value = keep(&value, &refs).unwrap_or_else(|| Value::Object(Map::new()));
    }
    for pattern in &exclude {
        drop_path(&mut value, &pattern.parts);
    }
    value.to_string()
}

impl Pattern {
    fn new(text: &str) -> Pattern {
        Pattern { parts: text.split('.').map(str::to_string).collect() }
    }
}

fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((before, after)) => {
            name.len() >= before.len() + after.len()
                && name.starts_with(before)
                && name_matches_rest(&name[before.len()..], after)
        }
    }
}

fn name_matches_rest(name: &str, pattern: &str) -> bool {
    if pattern.is_empty() {
        return true;
    }
    if !pattern.contains('*') {
        return name.ends_with(pattern);
    }
    (0..=name.len()).filter(|i| name.is_char_boundary(*i)).any(|i| name_matches(pattern, &name[i..]))
}

/// What of `value` the patterns (each the rest of a path) keep; `None` when nothing.
fn keep(value: &Value, patterns: &[&[String]]) -> Option<Value> {
    if patterns.iter().any(|p| p.is_empty()) {
        return Some(value.clone());
    }
    match value {
        Value::Array(items) => {
            let kept: Vec<Value> = items.iter().filter_map(|item| keep(item, patterns)).collect();
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        Value::Object(obj) => {
            let mut out = Map::new();
            for (name, child) in obj {
                let mut next: Vec<&[String]> = Vec::new();
                for p in patterns {
                    if p[0] == "**" {
                        next.push(p); // `**` may span this level too
                        if p.len() > 1 && name_matches(&p[1], name) {
                            next.push(&p[2..]);
                        }
                    } else if name_matches(&p[0], name) {
                        next.push(&p[1..]);
                    }
                }
                if next.is_empty() {
                    continue;
                }
                if let Some(kept) = keep(child, &next) {
                    out.insert(name.clone(), kept);
                }
            }
            (!out.is_empty()).then_some(Value::Object(out))
        }
        _ => None,
    }
}

fn drop_path(value: &mut Value, parts: &[String]) {
    let Some((first, rest)) = parts.split_first() else { return };
    if first == "**" {
        // The rest may start here or at any level below.
        drop_path(value, rest);
        match value {
            Value::Array(items) => items.iter_mut().for_each(|item| drop_path(item, parts)),
            Value::Object(obj) => obj.values_mut().for_each(|child| drop_path(child, parts)),
            _ => {}
        }
        return;
    }
    match value {
        Value::Array(items) => items.iter_mut().for_each(|item| drop_path(item, parts)),
        Value::Object(obj) => {
            let names: Vec<String> = obj.keys().filter(|k| name_matches(first, k)).cloned().collect();
            for name in names {
                if rest.is_empty() {
                    obj.remove(&name);
                } else if let Some(child) = obj.get_mut(&name) {
                    drop_path(child, rest);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn excludes_at_any_depth() {
        let body = json!({"hits": {"hits": [{"_source": {"name": "a", "properties": {"size": 1}}}]}});
        let got = run(body, "-**._source.properties,**._source");
        assert_eq!(got, json!({"hits": {"hits": [{"_source": {"name": "a"}}]}}));
    }

    fn run(body: Value, spec: &str) -> Value {
        serde_json::from_str(&filter(&body.to_string(), spec)).unwrap()
    }

    #[test]
    fn keeps_and_drops_paths() {
        let body = json!({"took": 3, "hits": {"total": {"value": 2}, "hits": [{"_id": "a", "_source": {"x": 1}}, {"_id": "b"}]}});
        assert_eq!(run(body.clone(), "hits.hits._id"), json!({"hits": {"hits": [{"_id": "a"}, {"_id": "b"}]}}));
        assert_eq!(run(body.clone(), "took,hits.total.value"), json!({"took": 3, "hits": {"total": {"value": 2}}}));
        assert_eq!(run(body.clone(), "**._id"), json!({"hits": {"hits": [{"_id": "a"}, {"_id": "b"}]}}));
        assert_eq!(run(body.clone(), "hits.*.value"), json!({"hits": {"total": {"value": 2}}}));
        assert_eq!(run(body.clone(), "-hits"), json!({"took": 3}));
        assert_eq!(run(body, "nothing"), json!({}));
        assert!(name_matches("agg*", "aggregations") && !name_matches("agg*", "hits"));
    }
}
