//! Index settings that bound what one request or one document may ask for
//! (`index.max_docvalue_fields_search`, `index.max_terms_count`, the `index.mapping.*.limit`s,
//! ...), and the settings ES accepts that have no effect on a one-shard index. Each limit is
//! enforced where it guards, with ES's error text; `IndexSettings::parse` hands every key here
//! before calling it unknown.

use serde_json::Value;

use crate::error::{EngineError, Result};

#[derive(Debug, Clone, PartialEq)]
pub struct IndexLimits {
    /// `index.max_docvalue_fields_search`: entries of `docvalue_fields` in one search.
    pub max_docvalue_fields_search: usize,
    /// `index.max_script_fields`: entries of `script_fields` in one search.
    pub max_script_fields: usize,
    /// `index.max_terms_count`: values in one `terms` query.
    pub max_terms_count: usize,
    /// `index.max_regex_length`: characters in one `regexp` pattern.
    pub max_regex_length: usize,
    /// `index.highlight.max_analyzed_offset`: characters of a field the highlighter re-analyzes.
    pub highlight_max_analyzed_offset: usize,
    /// `index.analyze.max_token_count`: tokens one `_analyze` call may produce.
    pub analyze_max_token_count: usize,
    /// `index.mapping.nested_objects.limit`: nested objects in one document.
    pub nested_objects_limit: usize,
    /// `index.mapping.nested_fields.limit`: distinct `nested` mappings in an index.
    pub nested_fields_limit: usize,
    /// `index.mapping.depth.limit`: how deep objects may nest in a mapping.
    pub depth_limit: usize,
    /// `index.max_rescore_window`: a rescorer's `window_size` (`None`: `index.max_result_window`).
    pub max_rescore_window: Option<usize>,
    /// `index.max_slices_per_scroll`: slices one sliced scroll may ask for.
    pub max_slices_per_scroll: usize,
}

impl Default for IndexLimits {
    fn default() -> Self {
        IndexLimits {
            max_docvalue_fields_search: 100,
            max_script_fields: 32,
            max_terms_count: 65_536,
            max_regex_length: 1000,
            highlight_max_analyzed_offset: 1_000_000,
            analyze_max_token_count: 10_000,
            nested_objects_limit: 10_000,
            nested_fields_limit: 50,
            depth_limit: 20,
            max_rescore_window: None,
            max_slices_per_scroll: 1024,
        }
    }
}

/// The limits an open index may change (`PUT /{index}/_settings`), as in ES.
pub const DYNAMIC_LIMITS: [&str; 11] = [
    "max_docvalue_fields_search",
    "max_script_fields",
    "max_terms_count",
    "max_regex_length",
    "highlight.max_analyzed_offset",
    "analyze.max_token_count",
    "mapping.nested_objects.limit",
    "mapping.nested_fields.limit",
    "mapping.depth.limit",
    "max_rescore_window",
    "max_slices_per_scroll",
];

/// Whether `key` (without `index.`) is one of the settings this file takes.
pub fn is_setting(key: &str) -> bool {
    DYNAMIC_LIMITS.contains(&key) || STATIC_ACCEPTED.contains(&key) || DYNAMIC_ACCEPTED.contains(&key)
}

/// Settings an open index may change, accepted without effect here (`accepted_without_effect`).
pub const DYNAMIC_ACCEPTED: [&str; 2] = ["routing.allocation.enable", "routing.rebalance.enable"];

/// Settings accepted at creation only, without effect here (`accepted_without_effect`).
const STATIC_ACCEPTED: [&str; 2] = ["number_of_routing_shards", "soft_deletes.enabled"];

impl IndexLimits {
    /// Takes setting `key` (without `index.`) if it is one of these; false if it is not.
    pub fn apply(&mut self, key: &str, value: &Value) -> Result<bool> {
        let slot = match key {
            "max_docvalue_fields_search" => &mut self.max_docvalue_fields_search,
            "max_script_fields" => &mut self.max_script_fields,
            "max_terms_count" => &mut self.max_terms_count,
            "max_regex_length" => &mut self.max_regex_length,
            "highlight.max_analyzed_offset" => &mut self.highlight_max_analyzed_offset,
            "analyze.max_token_count" => &mut self.analyze_max_token_count,
            "mapping.nested_objects.limit" => &mut self.nested_objects_limit,
            "mapping.nested_fields.limit" => &mut self.nested_fields_limit,
            "mapping.depth.limit" => &mut self.depth_limit,
            "max_slices_per_scroll" => &mut self.max_slices_per_scroll,
            "max_rescore_window" => {
                self.max_rescore_window = Some(bounded(key, value, 1)?);
                return Ok(true);
            }
            _ => return accepted_without_effect(key, value),
        };
        // ES's minimums: the mapping limits and max_terms_count take 0 (nothing allowed) too,
        // except the depth limit, and the highlight offset which must be positive.
        let min = match key {
            "mapping.depth.limit" | "highlight.max_analyzed_offset" => 1,
            _ => 0,
        };
        *slot = bounded(key, value, min)?;
        Ok(true)
    }

    /// `docvalue_fields` of a search against `index.max_docvalue_fields_search`.
    pub fn check_docvalue_fields(&self, count: usize) -> Result<()> {
        if count > self.max_docvalue_fields_search {
            return Err(EngineError::IllegalArgument(format!(
                "Trying to retrieve too many docvalue_fields. Must be less than or equal to: [{}] but was [{count}]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.",
                self.max_docvalue_fields_search
            )));
        }
        Ok(())
    }

    /// `script_fields` of a search against `index.max_script_fields`.
    pub fn check_script_fields(&self, count: usize) -> Result<()> {
        if count > self.max_script_fields {
            return Err(EngineError::IllegalArgument(format!(
                "Trying to retrieve too many script_fields. Must be less than or equal to: [{}] but was [{count}]. This limit can be set by changing the [index.max_script_fields] index level setting.",
                self.max_script_fields
            )));
        }
        Ok(())
    }

    /// A rescorer's `window_size` against `index.max_rescore_window` (by default the index's
    /// `max_result_window`, as in ES).
    pub fn check_rescore_window(&self, window: usize, max_result_window: usize) -> Result<()> {
        let limit = self.max_rescore_window.unwrap_or(max_result_window);
        if window > limit {
            return Err(EngineError::IllegalArgument(format!(
                "Rescore window [{window}] is too large. It must be less than [{limit}]. This prevents allocating massive heaps for storing the results to be rescored. This limit can be set by changing the [index.max_rescore_window] index level setting."
            )));
        }
        Ok(())
    }

    /// Tokens produced by `_analyze` against `index.analyze.max_token_count`.
    pub fn check_analyze_tokens(&self, count: usize) -> Result<()> {
        if count > self.analyze_max_token_count {
            return Err(EngineError::IllegalArgument(format!(
                "The number of tokens produced by calling _analyze has exceeded the allowed maximum of [{}]. This limit can be set by changing the [index.analyze.max_token_count] index level setting.",
                self.analyze_max_token_count
            )));
        }
        Ok(())
    }
}

impl IndexLimits {
    /// A mapping against `index.mapping.depth.limit` and `index.mapping.nested_fields.limit`,
    /// checked when an index is created and whenever its mapping grows, as ES checks them.
    pub fn check_mapping(&self, mapping: &crate::store::mapping::Mapping) -> Result<()> {
        let mut objects = std::collections::BTreeSet::new();
        for fm in mapping.fields.values().filter(|f| f.name == f.source_path || f.nested.is_some()) {
            let mut path = fm.name.as_str();
            while let Some((parent, _)) = path.rsplit_once('.') {
                objects.insert(parent);
                path = parent;
            }
        }
        if let Some(deep) = objects.iter().find(|o| o.matches('.').count() + 1 > self.depth_limit) {
            return Err(EngineError::IllegalArgument(format!(
                "Limit of mapping depth [{}] has been exceeded due to object field [{deep}]",
                self.depth_limit
            )));
        }
        let nested = mapping.nested.as_ref().map_or(0, |n| n.paths.len());
        if nested > self.nested_fields_limit {
            return Err(EngineError::IllegalArgument(format!(
                "Limit of nested fields [{}] has been exceeded",
                self.nested_fields_limit
            )));
        }
        Ok(())
    }
}

/// Settings ES accepts whose effect a one-node, one-shard index does not have (or always has).
/// Each is validated as ES validates it, echoed by `GET _settings`, and changes no answer.
fn accepted_without_effect(key: &str, value: &Value) -> Result<bool> {
    match key {
        // Routing a document to one of several shards: every index here is one shard, so the
        // number of routing shards changes nothing a one-shard index answers.
        "number_of_routing_shards" => {
            bounded(key, value, 1)?;
        }
        // Soft deletes are how this engine's deletes behave already (tombstones keep versions);
        // OpenSearch 2 refuses to turn them off.
        "soft_deletes.enabled" => {
            if !boolean(key, value)? {
                return Err(EngineError::IllegalArgument(
                    "Creating indices with soft-deletes disabled is no longer supported. Please do not specify a value for setting [index.soft_deletes.enabled].".into(),
                ));
            }
        }
        // Which shards may be allocated or rebalanced: one node holds every shard it can, and
        // nothing ever moves, whatever the value.
        "routing.allocation.enable" => choice(key, value, &["all", "primaries", "new_primaries", "none"])?,
        "routing.rebalance.enable" => choice(key, value, &["all", "primaries", "replicas", "none"])?,
        _ => return Ok(false),
    }
    Ok(true)
}

fn choice(key: &str, value: &Value, allowed: &[&str]) -> Result<()> {
    let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
    if allowed.contains(&text.to_lowercase().as_str()) {
        return Ok(());
    }
    Err(EngineError::IllegalArgument(format!("illegal value can't update [index.{key}] from [all] to [{text}]")))
}

fn boolean(key: &str, value: &Value) -> Result<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" || s == "false" => Ok(s == "true"),
        other => Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{}] as only [true] or [false] are allowed. (setting [index.{key}])",
            other.as_str().map_or_else(|| other.to_string(), str::to_string)
        ))),
    }
}

/// A whole number of at least `min`, given as a number or a string, as ES's int settings take it.
fn bounded(key: &str, value: &Value, min: u64) -> Result<usize> {
    let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
    let n: i64 = text.parse().map_err(|_| {
        EngineError::IllegalArgument(format!("Failed to parse value [{text}] for setting [index.{key}]"))
    })?;
    if n < min as i64 {
        return Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{n}] for setting [index.{key}] must be >= {min}"
        )));
    }
    Ok(n as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn limits_take_numbers_and_strings_and_refuse_the_rest() {
        let mut l = IndexLimits::default();
        assert!(l.apply("max_docvalue_fields_search", &json!(2)).unwrap());
        assert!(l.apply("mapping.nested_objects.limit", &json!("3")).unwrap());
        assert_eq!((l.max_docvalue_fields_search, l.nested_objects_limit), (2, 3));
        assert!(l.apply("max_terms_count", &json!(-1)).unwrap_err().to_string().contains("must be >= 0"));
        assert!(l.apply("mapping.depth.limit", &json!(0)).is_err());
        assert!(l.apply("max_script_fields", &json!("many")).is_err());
        assert!(!l.apply("colour", &json!(1)).unwrap());
    }

    #[test]
    fn settings_without_effect_are_validated() {
        let mut l = IndexLimits::default();
        assert!(l.apply("number_of_routing_shards", &json!(5)).unwrap());
        assert!(l.apply("number_of_routing_shards", &json!(0)).is_err());
        assert!(l.apply("soft_deletes.enabled", &json!(true)).unwrap());
        assert!(l.apply("routing.rebalance.enable", &json!("none")).unwrap());
        assert!(l.apply("routing.allocation.enable", &json!("bogus")).is_err());
        let err = l.apply("soft_deletes.enabled", &json!("false")).unwrap_err();
        assert!(err.to_string().contains("soft-deletes disabled is no longer supported"));
        assert_eq!(l, IndexLimits::default());
    }

    #[test]
    fn mappings_are_held_to_the_depth_and_nested_limits() {
        let mapping = crate::store::mapping::Mapping::from_mappings_json(&json!({"properties": {
            "a": {"properties": {"b": {"properties": {"c": {"type": "keyword"}}}}},
            "n": {"type": "nested", "properties": {"m": {"type": "nested"}}}
        }}))
        .unwrap();
        assert!(IndexLimits::default().check_mapping(&mapping).is_ok());
        let shallow = IndexLimits { depth_limit: 1, ..Default::default() };
        let err = shallow.check_mapping(&mapping).unwrap_err().to_string();
        assert!(err.contains("Limit of mapping depth [1] has been exceeded due to object field [a.b]"), "{err}");
        let one_nested = IndexLimits { nested_fields_limit: 1, ..Default::default() };
        assert!(one_nested.check_mapping(&mapping).unwrap_err().to_string().contains("nested fields [1]"));
    }

    #[test]
    fn checks_name_the_setting_and_the_counts() {
        let l = IndexLimits { max_docvalue_fields_search: 2, max_script_fields: 2, ..Default::default() };
        assert!(l.check_docvalue_fields(2).is_ok());
        let err = l.check_docvalue_fields(3).unwrap_err().to_string();
        assert!(err.contains("Must be less than or equal to: [2] but was [3]"), "{err}");
        assert!(l.check_script_fields(3).unwrap_err().to_string().contains("[index.max_script_fields]"));
        assert!(l.check_analyze_tokens(10_001).is_err());
        assert!(l.check_rescore_window(10_000, 10_000).is_ok());
        let err = l.check_rescore_window(10_001, 10_000).unwrap_err().to_string();
        assert!(err.starts_with("Rescore window [10001] is too large. It must be less than [10000]."), "{err}");
    }
}
