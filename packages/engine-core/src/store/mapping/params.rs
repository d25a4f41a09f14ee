//! Mapping parameters beyond a field's type: how a `text` field is analyzed (`analyzer`,
//! `search_analyzer`), whether it has fielddata, what its postings record (`index_options`),
//! `ignore_malformed`, `null_value`, `scaling_factor` and `doc_values` where they change what is
//! stored, and the parameters ES accepts that change no answer here (`term_vector`, `meta`,
//! `index_prefixes`, `eager_global_ordinals`), each validated as ES validates it.

use serde_json::Value;

use super::FieldType;
use crate::error::{EngineError, Result};

/// What a text field's postings record (`index_options`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexOptions {
    Docs,
    Freqs,
    Positions,
    /// Positions and offsets: our postings keep positions; the offsets only tell the
    /// highlighter it need not re-analyze (`index.highlight.max_analyzed_offset`).
    Offsets,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldParams {
    /// A text field's index-time analyzer (`None`: `standard`).
    pub analyzer: Option<String>,
    /// A text field's query-time analyzer (`None`: its `analyzer`).
    pub search_analyzer: Option<String>,
    /// A text field's `fielddata`: its analyzed terms kept as a column for sorting and aggregations.
    pub fielddata: bool,
    pub index_options: IndexOptions,
    /// Numbers and dates: a value that does not parse is skipped (and listed in `_ignored`).
    pub ignore_malformed: bool,
    /// The value indexed in place of an explicit `null`.
    pub null_value: Option<Value>,
    /// `scaled_float`: values are stored as `round(value * factor) / factor`.
    pub scaling_factor: f64,
    /// `doc_values` (ES's default: true); only `binary` keeps a column when it is set.
    pub doc_values: bool,
    /// `term_vector` with offsets: as `index_options: offsets`, for the highlighter's limit.
    pub term_vector_offsets: bool,
    /// `store`: the value is kept apart from `_source` for `stored_fields` to show; read here
    /// from the stored `_source`, which holds the same value.
    pub store: bool,
}

impl Default for FieldParams {
    fn default() -> Self {
        FieldParams {
            analyzer: None,
            search_analyzer: None,
            fielddata: false,
            index_options: IndexOptions::Positions,
            ignore_malformed: false,
            null_value: None,
            scaling_factor: 0.0,
            doc_values: true,
            term_vector_offsets: false,
            store: false,
        }
    }
}

fn boolean(param: &str, name: &str, value: &Value) -> Result<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" || s == "false" => Ok(s == "true"),
        other => Err(mapper_err(&format!(
            "Failed to parse mapping: Failed to parse value [{}] as only [true] or [false] are allowed. for field [{name}] parameter [{param}]",
            other.as_str().map_or_else(|| other.to_string(), str::to_string)
        ))),
    }
}

impl FieldParams {
    /// Takes parameter `param` of field `name` (of `field_type`, spelled `type_name`) if it is one
    /// of these; false when it is not (the caller then refuses it as unknown).
    pub(crate) fn take(&mut self, name: &str, field_type: FieldType, param: &str, value: &Value) -> Result<bool> {
        let text = field_type == FieldType::Text;
        let numeric = field_type.is_i64() || field_type.is_f64();
        match param {
            "analyzer" | "search_analyzer" | "search_quote_analyzer" if text => {
                let analyzer = value.as_str().ok_or_else(|| {
                    mapper_err(&format!("Failed to parse mapping: [{param}] on field [{name}] must be a string"))
                })?;
                if !crate::analyzers::BUILTIN.contains(&analyzer) {
                    return Err(mapper_err(&format!(
                        "Failed to parse mapping: analyzer [{analyzer}] has not been configured in mappings"
                    )));
                }
                let slot = match param {
                    "analyzer" => &mut self.analyzer,
                    "search_analyzer" => &mut self.search_analyzer,
                    // Phrase queries analyze with the search analyzer here; a different quote
                    // analyzer would change their terms, so only the same one is taken.
                    _ if Some(analyzer) == self.search_analyzer.as_deref().or(self.analyzer.as_deref()) => {
                        return Ok(true)
                    }
                    _ => return Ok(false),
                };
                *slot = Some(analyzer.to_string());
            }
            "fielddata" if text => self.fielddata = boolean(param, name, value)?,
            "index_options" if text => {
                self.index_options = match value.as_str() {
                    Some("docs") => IndexOptions::Docs,
                    Some("freqs") => IndexOptions::Freqs,
                    Some("positions") => IndexOptions::Positions,
                    Some("offsets") => IndexOptions::Offsets,
                    _ => {
                        return Err(mapper_err(&format!(
                            "Failed to parse mapping: Unknown value [{}] for field [index_options] - accepted values are [positions, docs, offsets, freqs]",
                            value.as_str().map_or_else(|| value.to_string(), str::to_string)
                        )))
                    }
                }
            }
            // Keywords index documents only, which is all `docs` asks for.
            "index_options" if field_type == FieldType::Keyword && value == "docs" => {}
            // Term vectors are read by the term vectors API, not by search: kept in the mapping.
            "term_vector" if text || field_type == FieldType::Keyword => {
                const KINDS: [&str; 7] = [
                    "no",
                    "yes",
                    "with_positions",
                    "with_offsets",
                    "with_positions_offsets",
                    "with_positions_payloads",
                    "with_positions_offsets_payloads",
                ];
                self.term_vector_offsets = value.as_str().is_some_and(|v| v.contains("offsets"));
                if !value.as_str().is_some_and(|v| KINDS.contains(&v)) {
                    return Err(mapper_err(&format!(
                        "Failed to parse mapping: Unknown value [{value}] for field [term_vector] - accepted values are [no, yes, with_positions, with_offsets, with_positions_offsets, with_positions_payloads, with_positions_offsets_payloads]"
                    )));
                }
            }
            // A prefix query on the field scores a constant either way; the hidden prefix field
            // only makes it faster in ES, so the bounds are checked and the query runs as usual.
            "index_prefixes" if text => check_index_prefixes(name, value)?,
            "eager_global_ordinals" if text || field_type == FieldType::Keyword => {
                boolean(param, name, value)?;
            }
            "meta" => check_meta(name, value)?,
            "ignore_malformed" if numeric || field_type == FieldType::Date => {
                self.ignore_malformed = boolean(param, name, value)?
            }
            "null_value" if numeric || matches!(field_type, FieldType::Keyword | FieldType::Date | FieldType::Boolean) => {
                self.null_value = (!value.is_null()).then(|| value.clone())
            }
            "scaling_factor" if field_type == FieldType::ScaledFloat => {
                let factor = value.as_f64().or_else(|| value.as_str().and_then(|s| s.parse().ok()));
                match factor {
                    Some(f) if f.is_finite() && f > 0.0 => self.scaling_factor = f,
                    _ => {
                        return Err(mapper_err(&format!(
                            "Failed to parse mapping: [scaling_factor] must be a positive number, got [{value}]"
                        )))
                    }
                }
            }
            "doc_values" => self.doc_values = boolean(param, name, value)?,
            "store" => self.store = boolean(param, name, value)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Checks made once every parameter of the field is read.
    pub(crate) fn finish(&self, name: &str, field_type: FieldType) -> Result<()> {
        if field_type == FieldType::ScaledFloat && self.scaling_factor == 0.0 {
            return Err(mapper_err(&format!(
                "Failed to parse mapping: Field [scaling_factor] is required for field [{name}]"
            )));
        }
        Ok(())
    }

    /// The first parameter a mapping update may not change from `self` to `new`, as ES
    /// names it, with both values; the others (`search_analyzer`, `ignore_malformed`,
    /// `null_value`) take the new value. `fielddata` is among the fixed ones here: its column
    /// is written with each document, so old documents could not gain it.
    pub(crate) fn conflict(&self, new: &FieldParams) -> Option<(&'static str, String, String)> {
        let analyzer = |p: &FieldParams| p.analyzer.clone().unwrap_or_else(|| "default".into());
        let options = |p: &FieldParams| format!("{:?}", p.index_options).to_lowercase();
        type Check = (&'static str, fn(&FieldParams) -> String);
        let checks: [Check; 4] = [
            ("analyzer", analyzer),
            ("index_options", options),
            ("fielddata", |p| p.fielddata.to_string()),
            ("doc_values", |p| p.doc_values.to_string()),
        ];
        for (param, shown) in checks {
            let (old, next) = (shown(self), shown(new));
            if old != next && !(param == "analyzer" && is_standard(&old) && is_standard(&next)) {
                return Some((param, old, next));
            }
        }
        (self.scaling_factor != new.scaling_factor)
            .then(|| ("scaling_factor", self.scaling_factor.to_string(), new.scaling_factor.to_string()))
    }

    /// Whether the field's offsets are indexed (postings or term vectors), so ES's unified
    /// highlighter reads them instead of re-analyzing the text.
    pub fn has_offsets(&self) -> bool {
        self.index_options == IndexOptions::Offsets || self.term_vector_offsets
    }

    /// The analyzer queries on the field analyze with (`search_analyzer`, else `analyzer`).
    pub fn query_analyzer(&self) -> Option<&str> {
        self.search_analyzer.as_deref().or(self.analyzer.as_deref())
    }
}

fn is_standard(analyzer: &str) -> bool {
    analyzer == "default" || analyzer == "standard"
}

/// `index_prefixes: {min_chars, max_chars}`: ES's bounds, 0 <= min < max <= 20 (defaults 2 and 5).
fn check_index_prefixes(name: &str, value: &Value) -> Result<()> {
    let obj = value.as_object().ok_or_else(|| {
        mapper_err(&format!("Failed to parse mapping: [index_prefixes] must be an object on field [{name}]"))
    })?;
    let (mut min, mut max) = (2, 5);
    for (key, v) in obj {
        let n = v.as_i64().or_else(|| v.as_str().and_then(|s| s.parse().ok())).ok_or_else(|| {
            mapper_err(&format!("Failed to parse mapping: [index_prefixes.{key}] must be a number on field [{name}]"))
        })?;
        match key.as_str() {
            "min_chars" => min = n,
            "max_chars" => max = n,
            other => {
                return Err(mapper_err(&format!(
                    "Failed to parse mapping: unknown parameter [{other}] on [index_prefixes] of field [{name}]"
                )))
            }
        }
    }
    if min < 0 {
        return Err(mapper_err(&format!("Failed to parse mapping: min_chars [{min}] must be greater than zero")));
    }
    if max >= 20 {
        return Err(mapper_err(&format!("Failed to parse mapping: max_chars [{max}] must be less than 20")));
    }
    if min > max {
        return Err(mapper_err(&format!(
            "Failed to parse mapping: min_chars [{min}] must be less than max_chars [{max}]"
        )));
    }
    Ok(())
}

/// `meta`: at most 5 string entries, keys up to 20 characters and values up to 50, as ES checks.
fn check_meta(name: &str, value: &Value) -> Result<()> {
    let obj = value.as_object().ok_or_else(|| {
        mapper_err(&format!("Failed to parse mapping: [meta] must be an object, got {value} for field [{name}]"))
    })?;
    if obj.len() > 5 {
        return Err(mapper_err(&format!(
            "Failed to parse mapping: [meta] can't have more than 5 entries, but got {} on field [{name}]",
            obj.len()
        )));
    }
    for (key, v) in obj {
        if key.chars().count() > 20 {
            return Err(mapper_err(&format!(
                "Failed to parse mapping: [meta] keys can't be longer than 20 chars, but got [{key}] for field [{name}]"
            )));
        }
        let Some(text) = v.as_str() else {
            return Err(mapper_err(&format!(
                "Failed to parse mapping: [meta] values can only be strings, but got {v} for field [{name}]"
            )));
        };
        if text.chars().count() > 50 {
            return Err(mapper_err(&format!(
                "Failed to parse mapping: [meta] values can't be longer than 50 chars, but got [{text}] for field [{name}]"
            )));
        }
    }
    Ok(())
}

pub(super) fn mapper_err(reason: &str) -> EngineError {
    EngineError::MapperParsing(reason.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn take(ty: FieldType, param: &str, value: Value) -> Result<(bool, FieldParams)> {
        let mut p = FieldParams::default();
        let taken = p.take("f", ty, param, &value)?;
        Ok((taken, p))
    }

    #[test]
    fn text_parameters_are_read() {
        let (_, p) = take(FieldType::Text, "analyzer", json!("whitespace")).unwrap();
        assert_eq!(p.query_analyzer(), Some("whitespace"));
        assert!(take(FieldType::Text, "analyzer", json!("my_custom")).is_err());
        assert!(take(FieldType::Text, "fielddata", json!(true)).unwrap().1.fielddata);
        assert_eq!(take(FieldType::Text, "index_options", json!("docs")).unwrap().1.index_options, IndexOptions::Docs);
        assert!(take(FieldType::Text, "index_options", json!("all")).is_err());
        assert!(take(FieldType::Text, "term_vector", json!("with_positions_offsets")).unwrap().0);
        assert!(take(FieldType::Text, "term_vector", json!("sometimes")).is_err());
        // Not a parameter of this type: left to the caller to refuse.
        assert!(!take(FieldType::Long, "fielddata", json!(true)).unwrap().0);
    }

    #[test]
    fn meta_and_prefix_bounds_are_checked() {
        assert!(take(FieldType::Long, "meta", json!({"unit": "ms"})).unwrap().0);
        let six = json!({"a": "1", "b": "1", "c": "1", "d": "1", "e": "1", "f": "1"});
        assert!(take(FieldType::Long, "meta", six).unwrap_err().to_string().contains("more than 5 entries"));
        assert!(take(FieldType::Long, "meta", json!({"a": 3})).is_err());
        assert!(take(FieldType::Text, "index_prefixes", json!({"min_chars": 2, "max_chars": 5})).unwrap().0);
        assert!(take(FieldType::Text, "index_prefixes", json!({"min_chars": 6, "max_chars": 5})).is_err());
        assert!(take(FieldType::Text, "index_prefixes", json!({"max_chars": 25})).is_err());
    }

    #[test]
    fn scaled_float_needs_its_factor() {
        let (_, p) = take(FieldType::ScaledFloat, "scaling_factor", json!(100)).unwrap();
        assert_eq!(p.scaling_factor, 100.0);
        assert!(take(FieldType::ScaledFloat, "scaling_factor", json!(-1)).is_err());
        assert!(FieldParams::default().finish("f", FieldType::ScaledFloat).is_err());
    }
}
