//! The `highlight` section of a search body: global options, then `fields` (an object, or an
//! array of one-key objects) whose own options override the global ones. Parsing follows ES's
//! `HighlightBuilder` ObjectParser: unknown keys and wrongly typed values are
//! `x_content_parse_exception`s; `pre_tags` without `post_tags` is a `parsing_exception`.

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;
use crate::query::dsl::parse_query;

/// Options as given: `None` means "inherit" (from the global section, then ES's defaults).
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub pre_tags: Option<Vec<String>>,
    pub post_tags: Option<Vec<String>>,
    pub fragment_size: Option<i64>,
    pub number_of_fragments: Option<i64>,
    pub no_match_size: Option<i64>,
    pub score_order: Option<bool>,
    pub require_field_match: Option<bool>,
    pub highlight_query: Option<QueryAst>,
    pub highlighter_type: Option<String>,
    pub boundary_scanner: Option<String>,
}

#[derive(Debug, Clone)]
pub struct FieldRequest {
    /// A field name or a `*` pattern.
    pub pattern: String,
    pub options: Options,
}

#[derive(Debug, Clone, Default)]
pub struct HighlightRequest {
    pub global: Options,
    pub html: bool,
    pub fields: Vec<FieldRequest>,
}

/// Every option merged, with ES's defaults for what nobody set.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub pre_tag: String,
    pub post_tag: String,
    pub fragment_size: i64,
    pub number_of_fragments: i64,
    pub no_match_size: i64,
    pub score_order: bool,
    pub require_field_match: bool,
    pub highlight_query: Option<QueryAst>,
    pub highlighter_type: String,
    pub boundary_scanner: String,
    pub html: bool,
}

impl HighlightRequest {
    pub fn resolve(&self, field: &Options) -> Resolved {
        let g = &self.global;
        let pick = |f: &Option<Vec<String>>, g: &Option<Vec<String>>, default: &str| {
            f.as_ref().or(g.as_ref()).and_then(|tags| tags.first().cloned()).unwrap_or_else(|| default.to_string())
        };
        Resolved {
            pre_tag: pick(&field.pre_tags, &g.pre_tags, "<em>"),
            post_tag: pick(&field.post_tags, &g.post_tags, "</em>"),
            fragment_size: field.fragment_size.or(g.fragment_size).unwrap_or(100),
            number_of_fragments: field.number_of_fragments.or(g.number_of_fragments).unwrap_or(5),
            no_match_size: field.no_match_size.or(g.no_match_size).unwrap_or(0),
            score_order: field.score_order.or(g.score_order).unwrap_or(false),
            require_field_match: field.require_field_match.or(g.require_field_match).unwrap_or(true),
            highlight_query: field.highlight_query.clone().or_else(|| g.highlight_query.clone()),
            highlighter_type: field
                .highlighter_type
                .clone()
                .or_else(|| g.highlighter_type.clone())
                .unwrap_or_else(|| "unified".into()),
            boundary_scanner: field
                .boundary_scanner
                .clone()
                .or_else(|| g.boundary_scanner.clone())
                .unwrap_or_else(|| "sentence".into()),
            html: self.html,
        }
    }
}

fn bad_field(section: &str, key: &str) -> EngineError {
    EngineError::XContentParse(format!("[{section}] failed to parse field [{key}]"))
}

fn int(section: &str, key: &str, v: &Value) -> Result<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    }
    .filter(|n| i32::try_from(*n).is_ok())
    .ok_or_else(|| bad_field(section, key))
}

fn boolean(section: &str, key: &str, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        _ => Err(bad_field(section, key)),
    }
}

fn string(section: &str, key: &str, v: &Value) -> Result<String> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        _ => Err(bad_field(section, key)),
    }
}

/// A string array, or a single string (ObjectParser accepts both).
fn strings(section: &str, key: &str, v: &Value) -> Result<Vec<String>> {
    match v {
        Value::Array(items) => items.iter().map(|i| string(section, key, i)).collect(),
        other => Ok(vec![string(section, key, other)?]),
    }
}

/// The options both the global section and a field accept; `false` if `key` is not one.
fn common_option(section: &str, key: &str, v: &Value, o: &mut Options) -> Result<bool> {
    match key {
        "pre_tags" => o.pre_tags = Some(strings(section, key, v)?),
        "post_tags" => o.post_tags = Some(strings(section, key, v)?),
        "fragment_size" => o.fragment_size = Some(int(section, key, v)?),
        "number_of_fragments" => o.number_of_fragments = Some(int(section, key, v)?),
        "no_match_size" => o.no_match_size = Some(int(section, key, v)?),
        // ES: anything but "score" means text order.
        "order" => o.score_order = Some(string(section, key, v)?.eq_ignore_ascii_case("score")),
        "require_field_match" => o.require_field_match = Some(boolean(section, key, v)?),
        "type" => o.highlighter_type = Some(string(section, key, v)?),
        "boundary_scanner" => {
            let s = string(section, key, v)?.to_ascii_lowercase();
            if !matches!(s.as_str(), "chars" | "word" | "sentence") {
                return Err(bad_field(section, key));
            }
            o.boundary_scanner = Some(s);
        }
        "highlight_query" => {
            if !v.is_object() {
                return Err(bad_field(section, key));
            }
            o.highlight_query = Some(parse_query(v)?);
        }
        // Options of the plain and fvh highlighters that do not change the unified
        // highlighter's output (ES ignores them there too), type-checked as ES does.
        "boundary_max_scan" | "phrase_limit" | "fragment_offset" => {
            int(section, key, v)?;
        }
        "highlight_filter" | "force_source" => {
            boolean(section, key, v)?;
        }
        "fragmenter" | "boundary_chars" | "boundary_scanner_locale" => {
            string(section, key, v)?;
        }
        "options" if v.is_object() => {}
        "matched_fields" | "max_analyzer_offset" => {
            return Err(EngineError::IllegalArgument(format!("highlight option [{key}] is not supported")))
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn check_tags(o: &Options) -> Result<()> {
    if o.pre_tags.is_some() && o.post_tags.is_none() {
        return Err(EngineError::Parsing("pre_tags are set but post_tags are not set".into()));
    }
    Ok(())
}

fn unknown(section: &str, key: &str) -> EngineError {
    EngineError::XContentParse(format!("[{section}] unknown field [{key}]"))
}

fn parse_field(name: &str, body: &Value) -> Result<FieldRequest> {
    let obj = body.as_object().ok_or_else(|| bad_field("highlight", "fields"))?;
    let mut options = Options::default();
    for (key, v) in obj {
        if !common_option("highlight_field", key, v, &mut options)? {
            return Err(unknown("highlight_field", key));
        }
    }
    check_tags(&options)?;
    Ok(FieldRequest { pattern: name.to_string(), options })
}

fn parse_fields(v: &Value, out: &mut Vec<FieldRequest>) -> Result<()> {
    match v {
        Value::Object(fields) => {
            for (name, body) in fields {
                out.push(parse_field(name, body)?);
            }
        }
        // The array form fixes the order; each element names exactly one field.
        Value::Array(items) => {
            for item in items {
                match item.as_object() {
                    Some(one) if one.len() == 1 => {
                        let (name, body) = one.iter().next().unwrap();
                        out.push(parse_field(name, body)?);
                    }
                    _ => return Err(bad_field("highlight", "fields")),
                }
            }
        }
        _ => return Err(bad_field("highlight", "fields")),
    }
    Ok(())
}

impl HighlightRequest {
    pub fn parse(v: &Value) -> Result<HighlightRequest> {
        let obj: &Map<String, Value> =
            v.as_object().ok_or_else(|| EngineError::Parsing("[highlight] must be an object".into()))?;
        let mut req = HighlightRequest::default();
        for (key, value) in obj {
            match key.as_str() {
                "fields" => parse_fields(value, &mut req.fields)?,
                "encoder" => req.html = string("highlight", key, value)? == "html",
                "tags_schema" => match string("highlight", key, value)?.as_str() {
                    "styled" => {
                        req.global.pre_tags = Some(vec!["<em class=\"hlt\">".into()]);
                        req.global.post_tags = Some(vec!["</em>".into()]);
                    }
                    other => return Err(EngineError::IllegalArgument(format!("Unknown tag schema [{other}]"))),
                },
                _ => {
                    if !common_option("highlight", key, value, &mut req.global)? {
                        return Err(unknown("highlight", key));
                    }
                }
            }
        }
        check_tags(&req.global)?;
        Ok(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn field_options_override_global_ones_and_defaults_fill_the_rest() {
        let req = HighlightRequest::parse(&json!({
            "pre_tags": ["<b>"], "post_tags": "</b>", "fragment_size": 50,
            "fields": [{"title": {"fragment_size": 20, "order": "score"}}, {"body": {}}]
        }))
        .unwrap();
        let title = req.resolve(&req.fields[0].options);
        assert_eq!((title.pre_tag.as_str(), title.post_tag.as_str()), ("<b>", "</b>"));
        assert_eq!((title.fragment_size, title.number_of_fragments, title.score_order), (20, 5, true));
        let body = req.resolve(&req.fields[1].options);
        assert_eq!((body.fragment_size, body.require_field_match, body.no_match_size), (50, true, 0));
        assert_eq!(req.fields[1].pattern, "body");
    }

    #[test]
    fn bad_options_fail_with_es_error_types() {
        let kind = |v: Value| HighlightRequest::parse(&v).unwrap_err().es_type_and_status();
        assert_eq!(kind(json!({"fields": {"a": {}}, "bogus": 1})), ("x_content_parse_exception", 400));
        assert_eq!(kind(json!({"fields": {"a": {"bogus": 1}}})), ("x_content_parse_exception", 400));
        assert_eq!(kind(json!({"fields": {"a": {"number_of_fragments": "many"}}})), ("x_content_parse_exception", 400));
        assert_eq!(kind(json!({"pre_tags": ["<b>"], "fields": {"a": {}}})), ("parsing_exception", 400));
        assert_eq!(kind(json!({"fields": [{"a": {}, "b": {}}]})), ("x_content_parse_exception", 400));
        assert_eq!(kind(json!({"tags_schema": "loud", "fields": {"a": {}}})), ("illegal_argument_exception", 400));
        let err = HighlightRequest::parse(&json!({"fields": {"a": {}}, "bogus": 1})).unwrap_err();
        assert_eq!(err.to_string(), "[highlight] unknown field [bogus]");
    }
}
