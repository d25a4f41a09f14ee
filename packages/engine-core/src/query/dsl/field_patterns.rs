//! `multi_match` field patterns (`text*`, `*`, `title*^2`) expanded against an index's mapping,
//! as ES resolves them per shard: a pattern names every mapped field it matches whose type a
//! text query can search (text and keyword), a field named twice multiplies its boosts, and a
//! query whose fields all resolve to nothing matches nothing. The query parser has no mapping,
//! so it refuses a pattern; the search then expands the query here and parses it again.

use serde_json::{json, Map, Value};

use super::combined_fields::field_and_boost;
use crate::error::EngineError;
use crate::store::mapping::{FieldType, Mapping};

const KIND: &str = "multi_match";

/// The parser's refusal of a field pattern, which `expand` resolves.
pub fn refusal(pattern: &str) -> EngineError {
    EngineError::Parsing(format!("[{KIND}] field patterns such as [{pattern}] are not supported"))
}

/// Whether `error` is `refusal`.
pub fn is_refusal(error: &EngineError) -> bool {
    matches!(error, EngineError::Parsing(reason)
        if reason.starts_with("[multi_match] field patterns such as [") && reason.ends_with("] are not supported"))
}

/// `query` (a query body) with every `multi_match`'s field patterns resolved on `mapping`.
pub fn expand(query: &Value, mapping: &Mapping) -> Value {
    let mut out = query.clone();
    rewrite(&mut out, mapping);
    out
}

fn rewrite(value: &mut Value, mapping: &Mapping) {
    match value {
        Value::Object(obj) => {
            let mut matches_nothing = false;
            for (key, child) in obj.iter_mut() {
                if key == KIND {
                    if let Some(Value::Array(fields)) = child.get_mut("fields") {
                        if fields.iter().any(|f| f.as_str().is_some_and(|f| f.contains('*'))) {
                            *fields = resolve(fields, mapping);
                            matches_nothing = fields.is_empty();
                        }
                    }
                    continue;
                }
                rewrite(child, mapping);
            }
            if matches_nothing {
                obj.remove(KIND);
                obj.insert("match_none".into(), Value::Object(Map::new()));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rewrite(item, mapping)),
        _ => {}
    }
}

/// The fields (`name^boost` strings) that `fields` names on `mapping`, first seen first.
fn resolve(fields: &[Value], mapping: &Mapping) -> Vec<Value> {
    let mut resolved: Vec<(String, f32)> = Vec::new();
    let mut add = |name: &str, boost: f32| match resolved.iter_mut().find(|(n, _)| n == name) {
        Some((_, b)) => *b *= boost,
        None => resolved.push((name.to_string(), boost)),
    };
    for spec in fields {
        let Some(spec) = spec.as_str() else { continue };
        let Ok((name, boost)) = field_and_boost(KIND, spec) else {
            // Left as given: the parser reports the bad boost.
            add(spec, 1.0);
            continue;
        };
        if !name.contains('*') {
            add(&name, boost);
            continue;
        }
        for (field, fm) in &mapping.fields {
            if matches!(fm.field_type, FieldType::Text | FieldType::Keyword) && crate::wildcard::glob(&name, field) {
                add(field, boost);
            }
        }
    }
    resolved
        .into_iter()
        .map(|(name, boost)| if boost == 1.0 { json!(name) } else { json!(format!("{name}^{boost}")) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapping() -> Mapping {
        Mapping::from_mappings_json(&json!({"properties": {
            "text": {"type": "text", "fields": {"raw": {"type": "keyword"}}},
            "title": {"type": "text"},
            "count": {"type": "long"}
        }}))
        .unwrap()
    }

    #[test]
    fn patterns_expand_to_text_and_keyword_fields_with_their_boosts() {
        let q = json!({"bool": {"must": [{"multi_match": {"query": "x", "fields": ["text*", "title^2", "t*^3"]}}]}});
        let out = expand(&q, &mapping());
        assert_eq!(out["bool"]["must"][0]["multi_match"]["fields"], json!(["text^3", "text.raw^3", "title^6"]));
        let all = expand(&json!({"multi_match": {"query": "x", "fields": ["*"]}}), &mapping());
        assert_eq!(all["multi_match"]["fields"], json!(["text", "text.raw", "title"]));
    }

    #[test]
    fn a_pattern_matching_nothing_matches_nothing() {
        let out = expand(&json!({"multi_match": {"query": "x", "fields": ["nope*"]}}), &mapping());
        assert_eq!(out, json!({"match_none": {}}));
        assert!(is_refusal(&refusal("a*")));
    }
}
