//! `GET [/{index}]/_mapping` and `GET [/{index}]/_mapping/field/{fields}` over index
//! expressions (lists, wildcards, `_all`, the resolution options), and the defaults
//! `include_defaults` adds to a field's definition.

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::mapping_update::render;
use crate::store::versioning::param_text;

use super::mappings::{definition, leaf_names};
use super::resolve::ResolveOptions;
use super::Engine;
use crate::wildcard::glob;

/// Options these reads accept and need not act on: one node answers locally by definition.
const WITHOUT_EFFECT: [&str; 2] = ["local", "master_timeout"];

fn take_options(path: &str, params: &Map<String, Value>) -> Result<(ResolveOptions, bool)> {
    let mut params = params.clone();
    // ES's `strictExpandOpen`: a closed index's mappings are metadata, readable as an open one's.
    let options = ResolveOptions::take_over(&mut params, ResolveOptions::metadata())?;
    let include_defaults = params.remove("include_defaults").map(|v| matches!(param_text(&v).as_str(), "true" | ""));
    for key in WITHOUT_EFFECT {
        params.remove(key);
    }
    if let Some(other) = params.keys().next() {
        return Err(EngineError::IllegalArgument(format!(
            "request [{path}] contains unrecognized parameter: [{other}]"
        )));
    }
    Ok((options, include_defaults.unwrap_or(false)))
}

impl Engine {
    /// `GET [/{index}]/_mapping`: each index's `mappings`, keyed by index name.
    pub fn get_mapping(&self, name: &str, params: &Map<String, Value>) -> Result<String> {
        let name = if name.is_empty() { "_all" } else { name };
        let (options, _) = take_options(&format!("/{name}/_mapping"), params)?;
        let mut out = Map::new();
        for target in self.resolve(name, options)? {
            let h = self.get_meta(&target.index)?;
            let mut mappings = render(&h.mappings_json);
            crate::knn::render_mappings(&mut mappings, &h.mapping.vectors);
            out.insert(target.index, json!({ "mappings": mappings }));
        }
        Ok(Value::Object(out).to_string())
    }

    /// `GET [/{index}]/_mapping/field/{fields}`: each matching field's full name and definition,
    /// per index (an index without such a field shows empty `mappings`).
    pub fn get_field_mapping(&self, name: &str, fields: &str, params: &Map<String, Value>) -> Result<String> {
        let name = if name.is_empty() { "_all" } else { name };
        let (options, include_defaults) = take_options(&format!("/{name}/_mapping/field/{fields}"), params)?;
        let mut out = Map::new();
        for target in self.resolve(name, options)? {
            let handle = self.get_meta(&target.index)?;
            let mappings = render(&handle.mappings_json);
            let mut names = Vec::new();
            leaf_names(&mappings, "", &mut names);
            let mut found = Map::new();
            for pattern in fields.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                for full in names.iter().filter(|n| glob(pattern, n)) {
                    let Some(def) = definition(&mappings, full) else { continue };
                    let mut def = def.clone();
                    if include_defaults {
                        with_defaults(&mut def);
                    }
                    let leaf = full.rsplit('.').next().unwrap_or(full);
                    found.insert(full.clone(), json!({ "full_name": full, "mapping": { leaf: def } }));
                }
            }
            out.insert(target.index, json!({ "mappings": found }));
        }
        Ok(Value::Object(out).to_string())
    }
}

/// ES's defaults for the parameters `def` (a field's definition) leaves out.
fn with_defaults(def: &mut Value) {
    let Some(obj) = def.as_object_mut() else { return };
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or("object").to_string();
    let mut defaults = json!({"index": true, "store": false, "meta": {}, "copy_to": [], "boost": 1.0});
    let extra = match ty.as_str() {
        "text" => json!({
            "analyzer": "default", "search_analyzer": "default", "search_quote_analyzer": "default",
            "norms": true, "index_options": "positions", "term_vector": "no", "fielddata": false,
            "eager_global_ordinals": false, "position_increment_gap": 100, "similarity": "BM25",
            "index_phrases": false, "fields": {}
        }),
        "keyword" => json!({
            "doc_values": true, "norms": false, "index_options": "docs", "ignore_above": 2_147_483_647,
            "null_value": null, "normalizer": null, "eager_global_ordinals": false,
            "split_queries_on_whitespace": false, "similarity": "BM25", "fields": {}
        }),
        "date" | "date_nanos" => json!({
            "doc_values": true, "ignore_malformed": false, "null_value": null, "locale": "",
            "format": "strict_date_optional_time||epoch_millis"
        }),
        "boolean" => json!({"doc_values": true, "null_value": null}),
        "long" | "integer" | "short" | "byte" | "double" | "float" | "half_float" | "scaled_float" => {
            json!({"doc_values": true, "coerce": true, "ignore_malformed": false, "null_value": null})
        }
        _ => json!({}),
    };
    if let (Some(d), Some(e)) = (defaults.as_object_mut(), extra.as_object()) {
        d.extend(e.clone());
    }
    for (key, value) in defaults.as_object().into_iter().flatten() {
        obj.entry(key.clone()).or_insert_with(|| value.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_what_the_mapping_leaves_out() {
        let mut def = json!({"type": "text", "analyzer": "whitespace"});
        with_defaults(&mut def);
        assert_eq!(def["analyzer"], "whitespace");
        assert_eq!(def["search_analyzer"], "default");
        assert_eq!(def["index_options"], "positions");
        let mut def = json!({"type": "long"});
        with_defaults(&mut def);
        assert_eq!((def["coerce"].clone(), def["index"].clone()), (json!(true), json!(true)));
    }

    #[test]
    fn options_are_read_and_unknown_ones_refused() {
        let params = Map::from_iter([("bogus".to_string(), json!("1"))]);
        assert!(take_options("/a/_mapping", &params).unwrap_err().to_string().contains("[bogus]"));
        let skip = Map::from_iter([("ignore_unavailable".to_string(), json!("true"))]);
        let (options, defaults) = take_options("/a/_mapping", &skip).unwrap();
        assert!(options.ignore_unavailable && options.allow_no_indices && !defaults);
        let with = Map::from_iter([("include_defaults".to_string(), json!("true"))]);
        assert!(take_options("/a/_mapping", &with).unwrap().1);
    }
}
