//! `GET _script_context`: the script contexts this engine runs its Painless subset in, each
//! with the method a script implements there, named and typed as ES names them (sorted by
//! context name, as ES lists them).

use serde_json::{json, Value};

/// A context's name, the return type of its `execute`, and its parameters (type, name).
type Context = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

/// Each context's `execute`.
const CONTEXTS: [Context; 7] = [
    ("bucket_aggregation", "java.lang.Double", &[]),
    ("aggregation_selector", "boolean", &[]),
    ("field", "java.lang.Object", &[]),
    ("filter", "boolean", &[]),
    ("moving-function", "double", &[("java.util.Map", "params"), ("double[]", "values")]),
    ("terms_set", "java.lang.Number", &[]),
    ("update", "void", &[]),
];

/// The `_script_context` answer.
pub fn describe() -> String {
    let mut contexts: Vec<Value> = CONTEXTS
        .iter()
        .map(|(name, returns, params)| {
            let params: Vec<Value> = params.iter().map(|(ty, name)| json!({ "type": ty, "name": name })).collect();
            json!({ "name": name, "methods": [{ "name": "execute", "return_type": returns, "params": params }] })
        })
        .collect();
    contexts.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    json!({ "contexts": contexts }).to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn lists_contexts_by_name_with_their_execute_method() {
        let v: serde_json::Value = serde_json::from_str(&super::describe()).unwrap();
        assert_eq!(v["contexts"][0]["name"], "aggregation_selector");
        assert_eq!(v["contexts"][0]["methods"][0]["name"], "execute");
        assert_eq!(v["contexts"].as_array().unwrap().len(), 7);
    }
}
