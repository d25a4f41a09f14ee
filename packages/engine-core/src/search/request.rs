//! The `_search` request: its body and URL parameters parsed into a `SearchRequest` (URL
//! parameters win, as in ES), with ES's validation of each option.

use std::time::Duration;

use serde_json::{Map, Value};

use super::deadline::parse_timeout;
use super::options::SearchOptions;
use crate::aggs::{parse_aggs, AggRequest};
use crate::error::{json_syntax_error, EngineError, Result, ShardCause};
use crate::highlight::HighlightRequest;
use crate::hits::search_after::{parse_search_after, AfterValue};
use crate::hits::sort::{self, parse_sort, SortSpec, SortTarget};
use crate::query::ast::QueryAst;
use crate::query::dsl::{field_patterns, parse_query};
use crate::store::index::IndexHandle;
use crate::store::source_filter::SourceFilter;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackTotalHits {
    Off,
    UpTo(u64),
    Exact,
}

pub struct SearchRequest {
    pub query: QueryAst,
    pub size: usize,
    pub from: usize,
    pub sort: Option<Vec<SortSpec>>,
    pub track_total_hits: TrackTotalHits,
    pub track_scores: bool,
    pub source: SourceFilter,
    pub aggs: Vec<AggRequest>,
    /// `search_after`, validated against the effective sort.
    pub after: Option<Vec<AfterValue>>,
    /// `timeout`: collection stops when it runs out and the response says `timed_out`.
    pub timeout: Option<Duration>,
    /// `highlight`: fragments of each hit's text with the query's terms tagged.
    pub highlight: Option<HighlightRequest>,
    /// Everything else a search body or URL may ask (`options.rs`).
    pub opts: SearchOptions,
    /// `suggest`: named term, phrase and completion suggesters (`suggest/`).
    pub suggest: Option<crate::suggest::SuggestRequest>,
}

pub(super) fn parse_body(body: &[u8]) -> Result<Map<String, Value>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    let parsed = crate::strict_json::from_slice(body).map_err(|e| {
        // serde_json stops at 128 levels; the only deep structure a search body has is the
        // query, so report it as ES reports a query nested past its limit.
        if e.to_string().starts_with("recursion limit exceeded") {
            crate::query::limits::nested_depth_error()
        } else if let Some(token) = token_after_main_object(body, &e) {
            EngineError::Parsing(format!("Unexpected token [{token}] found after the main object."))
        } else {
            json_syntax_error(&e)
        }
    })?;
    match parsed {
        Value::Object(o) => Ok(o),
        _ => Err(EngineError::Parsing("request body is required to be an object".into())),
    }
}

/// The JSON token that follows a complete body (`{"size":0}{"size":1}`), named as ES's parser
/// names it: ES reads one object and then refuses any further token with a `parsing_exception`.
/// `None` when the error is something else (or what follows is no token at all).
fn token_after_main_object(body: &[u8], e: &serde_json::Error) -> Option<&'static str> {
    if !e.to_string().starts_with("trailing characters") {
        return None;
    }
    // serde_json stops at the first byte after the value; its line and column point there.
    let line_start = body.split(|b| *b == b'\n').take(e.line().saturating_sub(1)).map(|l| l.len() + 1).sum::<usize>();
    let next = *body.get(line_start + e.column().saturating_sub(1))?;
    Some(match next {
        b'{' => "START_OBJECT",
        b'[' => "START_ARRAY",
        b'}' => "END_OBJECT",
        b']' => "END_ARRAY",
        b'"' => "VALUE_STRING",
        b'-' | b'0'..=b'9' => "VALUE_NUMBER",
        b't' | b'f' => "VALUE_BOOLEAN",
        b'n' => "VALUE_NULL",
        _ => return None,
    })
}

fn usize_param(key: &str, v: &Value) -> Result<usize> {
    let negative = v.as_i64().or_else(|| v.as_str().and_then(|s| s.parse::<i64>().ok())).filter(|n| *n < 0);
    if let Some(n) = negative {
        return Err(EngineError::IllegalArgument(format!("[{key}] parameter cannot be negative, found [{n}]")));
    }
    v.as_u64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .map(|n| n as usize)
        .ok_or_else(|| EngineError::Parsing(format!("[{key}] must be a non-negative integer, found [{v}]")))
}

fn bool_param(key: &str, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" || s.is_empty() => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        _ => Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{v}] as only [true] or [false] are allowed for [{key}]"
        ))),
    }
}

fn track_total_hits(v: &Value) -> Result<TrackTotalHits> {
    match v {
        Value::Bool(true) => return Ok(TrackTotalHits::Exact),
        Value::Bool(false) => return Ok(TrackTotalHits::Off),
        Value::String(s) if s == "true" => return Ok(TrackTotalHits::Exact),
        Value::String(s) if s == "false" => return Ok(TrackTotalHits::Off),
        _ => {}
    }
    // -1 is ES's "disabled"; anything below it is refused.
    match v.as_i64().or_else(|| v.as_str().and_then(|s| s.trim().parse().ok())) {
        Some(-1) => return Ok(TrackTotalHits::Off),
        Some(n) if n < -1 => {
            return Err(EngineError::IllegalArgument(format!(
                "[track_total_hits] parameter must be positive or equals to -1, got {n}"
            )))
        }
        _ => {}
    }
    Ok(match usize_param("track_total_hits", v)? {
        n if n as u64 >= i32::MAX as u64 => TrackTotalHits::Exact,
        n => TrackTotalHits::UpTo(n as u64),
    })
}

/// `sort=field:desc,other` from the URL.
fn url_sort(s: &str) -> Value {
    Value::Array(
        s.split(',')
            .map(|item| match item.split_once(':') {
                Some((field, order)) => serde_json::json!({ field: order }),
                None => Value::String(item.to_string()),
            })
            .collect(),
    )
}

impl SearchRequest {
    /// Parses the body, then applies URL parameters (which win, as in ES).
    pub fn parse(body: &[u8], params: &Map<String, Value>, handle: &IndexHandle) -> Result<SearchRequest> {
        let obj = parse_body(body)?;
        if obj.contains_key("pit") {
            return Err(EngineError::ActionRequestValidation(
                "Validation Failed: 1: [indices] cannot be used with point in time. Do not specify any index with point in time.;"
                    .into(),
            ));
        }
        Self::from_map(&obj, params, handle)
    }

    /// Parses an already-decoded body (the point-in-time and scroll paths edit it first).
    pub fn from_map(
        obj: &Map<String, Value>,
        params: &Map<String, Value>,
        handle: &IndexHandle,
    ) -> Result<SearchRequest> {
        let mut req = SearchRequest {
            query: QueryAst::MatchAll,
            size: 10,
            from: 0,
            sort: None,
            track_total_hits: TrackTotalHits::UpTo(10_000),
            track_scores: false,
            source: SourceFilter::all(),
            aggs: Vec::new(),
            after: None,
            timeout: None,
            highlight: None,
            opts: SearchOptions::default(),
            suggest: None,
        };
        let mut aggs_seen = false;
        let mut search_after: Option<&Vec<Value>> = None;
        let mut knn: Option<&Value> = None;
        for (key, value) in obj {
            match key.as_str() {
                "query" => {
                    req.query = parse_query(value).or_else(|e| match field_patterns::is_refusal(&e) {
                        true => parse_query(&field_patterns::expand(value, &handle.mapping)),
                        false => Err(e),
                    })?
                }
                "size" => req.size = usize_param(key, value)?,
                "from" => req.from = usize_param(key, value)?,
                "sort" => req.sort = Some(parse_sort(value, &handle.mapping)?),
                "track_total_hits" => req.track_total_hits = track_total_hits(value)?,
                "track_scores" => req.track_scores = bool_param(key, value)?,
                "_source" => req.source = SourceFilter::from_body(value)?,
                "aggs" | "aggregations" => {
                    if aggs_seen {
                        return Err(EngineError::Parsing(
                            "Found two aggregation definitions: [aggs] and [aggregations]".into(),
                        ));
                    }
                    aggs_seen = true;
                    req.aggs = parse_aggs(value, &handle.mapping)?;
                    crate::aggs::dispatch::index_name_values(&mut req.aggs, &handle.name);
                }
                "search_after" => match value {
                    Value::Array(values) => search_after = Some(values),
                    _ => return Err(EngineError::Parsing("[search_after] must be an array of sort values".into())),
                },
                "timeout" => req.timeout = parse_timeout(value)?,
                "knn" => knn = Some(value),
                "highlight" => req.highlight = Some(HighlightRequest::parse(value)?),
                "suggest" => req.suggest = Some(crate::suggest::SuggestRequest::parse(value)?),
                // A scroll takes its `slice` out of the body first (`scroll.rs`).
                "slice" => {
                    super::slice::Slice::parse(value)?;
                    return Err(super::slice::outside_scroll());
                }
                other if req.opts.parse_body_key(other, value, &handle.mapping)? => {}
                other => {
                    let token = if value.is_object() {
                        "START_OBJECT"
                    } else if value.is_array() {
                        "START_ARRAY"
                    } else {
                        "VALUE"
                    };
                    return Err(EngineError::Parsing(format!("Unknown key for a {token} in [{other}].")));
                }
            }
        }
        if let Some(profile) = req.opts.profile.as_mut() {
            *profile = obj.get("aggs").or_else(|| obj.get("aggregations")).cloned().unwrap_or(Value::Null);
        }
        if let Some(knn) = knn {
            // ES 8's top-level kNN section; k defaults to the body's size (URL params come later).
            let query = obj.contains_key("query").then(|| std::mem::replace(&mut req.query, QueryAst::MatchAll));
            req.query = crate::query::dsl::knn_top_level::with_top_level_knn(knn, query, req.size)?;
        }
        for (key, value) in params {
            match key.as_str() {
                "size" => req.size = usize_param(key, value)?,
                "from" => req.from = usize_param(key, value)?,
                "track_total_hits" => req.track_total_hits = track_total_hits(value)?,
                "track_scores" => req.track_scores = bool_param(key, value)?,
                "_source" => {
                    req.source = match value.as_str() {
                        Some("true" | "false" | "") => SourceFilter { enabled: bool_param(key, value)?, ..req.source },
                        _ => SourceFilter { includes: SourceFilter::from_body(value)?.includes, ..req.source },
                    }
                }
                "_source_includes" => req.source.includes = SourceFilter::from_body(value)?.includes,
                "_source_excludes" => req.source.excludes = SourceFilter::from_body(value)?.includes,
                "sort" => req.sort = Some(parse_sort(&url_sort(value.as_str().unwrap_or_default()), &handle.mapping)?),
                "timeout" => req.timeout = parse_timeout(value)?,
                // The engine has no shard request cache, so `request_cache` has nothing to switch off.
                "pretty" | "error_trace" | "request_cache" => {}
                other if req.opts.parse_param(other, value)? => {}
                other => {
                    return Err(EngineError::IllegalArgument(format!(
                        "request [/{}/_search] contains unrecognized parameter: [{other}]",
                        handle.name
                    )))
                }
            }
        }
        if req.opts.rest_total_hits_as_int {
            match req.track_total_hits {
                TrackTotalHits::UpTo(n)
                    if params.contains_key("track_total_hits") || obj.contains_key("track_total_hits") =>
                {
                    return Err(EngineError::IllegalArgument(format!(
                        "[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got {n}"
                    )))
                }
                // A number cannot say "at least": the total is counted exactly.
                TrackTotalHits::UpTo(_) => req.track_total_hits = TrackTotalHits::Exact,
                _ => {}
            }
        }
        if let Some(values) = search_after {
            if req.from > 0 {
                return Err(EngineError::ActionRequestValidation(
                    "Validation Failed: 1: `from` parameter must be set to 0 when `search_after` is used.;".into(),
                ));
            }
            // Relevance order has no sort values to resume from (ES: the shard refuses it).
            if req.sort.is_none() {
                return Err(EngineError::shard(ShardCause::IllegalArgument, "Sort must contain at least one field."));
            }
            req.after = Some(parse_search_after(values, &req.effective_sort(), Some(&handle.mapping))?);
        }
        // Shard-level checks in ES (the request parses, each shard refuses it).
        let limits = &handle.settings.limits;
        let shard_refusal = |e: EngineError| EngineError::shard(ShardCause::IllegalArgument, e.to_string());
        limits.check_docvalue_fields(req.opts.docvalue_fields.len()).map_err(shard_refusal)?;
        if req.size != 0 {
            limits.check_script_fields(req.opts.script_fields.len()).map_err(shard_refusal)?;
        }
        for rescorer in &req.opts.rescore {
            let max_window = handle.settings.max_result_window;
            limits.check_rescore_window(rescorer.window_size, max_window).map_err(shard_refusal)?;
        }
        let window = req.from + req.size;
        if window > handle.settings.max_result_window {
            return Err(EngineError::shard(ShardCause::IllegalArgument, format!(
                    "Result window is too large, from + size must be less than or equal to: [{}] but was [{window}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.",
                    handle.settings.max_result_window
                )));
        }
        // Nested objects' hidden documents are never hits (nor counted, nor aggregated).
        req.query =
            crate::query::root_only::root_only(std::mem::replace(&mut req.query, QueryAst::MatchAll), &handle.mapping);
        Ok(req)
    }

    /// A collapse group's inner hits: `body` (size, from, sort, _source) within `query`.
    pub(super) fn inner(query: QueryAst, body: &Map<String, Value>, handle: &IndexHandle) -> Result<SearchRequest> {
        let mut req = Self::from_map(body, &Map::new(), handle)?;
        req.query = crate::query::root_only::root_only(query, &handle.mapping);
        Ok(req)
    }

    /// The sort as given, or ES's default: relevance, best first.
    pub fn effective_sort(&self) -> Vec<SortSpec> {
        self.sort.clone().unwrap_or_else(|| vec![SortSpec::new(SortTarget::Score, sort::Order::Desc)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(body: &str) -> (String, &'static str) {
        let e = parse_body(body.as_bytes()).unwrap_err();
        (e.to_string(), e.es_type_and_status().0)
    }

    #[test]
    fn a_token_after_the_body_is_a_parsing_exception_naming_it() {
        let after = |token: &str| format!("Unexpected token [{token}] found after the main object.");
        assert_eq!(refusal(r#"{"size":1}{"size":2}"#), (after("START_OBJECT"), "parsing_exception"));
        assert_eq!(refusal(r#"{"size":0} 1"#), (after("VALUE_NUMBER"), "parsing_exception"));
        assert_eq!(refusal("{\"size\":0}\n\n  true"), (after("VALUE_BOOLEAN"), "parsing_exception"));
        assert_eq!(refusal(r#"{"size":0}]"#), (after("END_ARRAY"), "parsing_exception"));
        // Not a token: the JSON parser's own error, as Jackson's.
        assert_eq!(refusal(r#"{"size":0} x"#).1, "json_parse_exception");
        assert!(parse_body(b"{\"size\":0}\n  \n").is_ok());
    }
}
