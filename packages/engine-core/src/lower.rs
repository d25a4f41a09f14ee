//! `QueryAst` -> tantivy query, through a context holding the mapping and the analyzer.
//! Field types decide how JSON values become terms; unmapped fields match nothing (as ES).

use std::ops::Bound;

use serde_json::Value;
use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, EmptyQuery, ExistsQuery, Occur, Query,
    RangeQuery, TermQuery, TermSetQuery,
};
use tantivy::schema::IndexRecordOption;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::Term;

use crate::ast::{BoolAst, MinimumShouldMatch, Operator, QueryAst, RangeAst};
use crate::column_range::ColumnRangeQuery;
use crate::date::{parse_date_value, parse_format_list};
use crate::date_bound::parse_date_bound;
use crate::document::coerce_f64;
use crate::error::{EngineError, Result, ShardCause};
use crate::lower_multi_term::{
    lower_exists, lower_fuzzy, lower_ids, lower_phrase, lower_phrase_prefix, lower_prefix, lower_regex, lower_wildcard,
};
use crate::mapping::{FieldMapping, FieldType, Mapping};

// Declared here (not in lib.rs) so the query lowering stays one family of files.
#[path = "lower_function_score.rs"]
mod lower_function_score;
#[path = "lower_more_like_this.rs"]
mod lower_more_like_this;
#[path = "lower_query_string.rs"]
mod lower_query_string;
#[path = "lower_text_extra.rs"]
mod lower_text_extra;

/// tantivy's BM25 keeps Lucene's old `(k1 + 1)` factor that Lucene 8+ (and so ES) dropped:
/// tantivy scores are ES scores x 2.2. Constant-score queries are lowered on the same scale
/// and the search divides every score by this on output, so `_score` matches ES.
pub const ES_SCORE_SCALE: f32 = 2.2;

pub struct LowerContext<'a> {
    pub mapping: &'a Mapping,
    pub analyzer: TextAnalyzer,
    /// "now" for date math, epoch millis.
    pub now_ms: i64,
    /// Inside a `nested` query: the path whose objects are being matched (`None`: root documents).
    pub nested_scope: Option<usize>,
}

impl<'a> LowerContext<'a> {
    pub fn new(mapping: &'a Mapping, now_ms: i64) -> LowerContext<'a> {
        LowerContext { mapping, analyzer: crate::index::es_standard_analyzer(), now_ms, nested_scope: None }
    }

    /// Every document in scope: all of them (a top-level query is restricted to root
    /// documents by `nested::root_only`), or inside a `nested` query its path's objects.
    pub fn all_docs(&self) -> Box<dyn Query> {
        match crate::nested::query::scope_filter(self) {
            Some(objects) => objects,
            None => Box::new(AllQuery),
        }
    }
}

pub fn lower(ast: &QueryAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    Ok(match ast {
        QueryAst::MatchAll => Box::new(ConstScoreQuery::new(ctx.all_docs(), ES_SCORE_SCALE)),
        QueryAst::MatchNone => Box::new(EmptyQuery),
        QueryAst::Boost { query, boost } => Box::new(BoostQuery::new(lower(query, ctx)?, *boost)),
        QueryAst::Term { field, value } => match ctx.mapping.get(field) {
            None => Box::new(EmptyQuery),
            Some(fm) => exact_query(fm, value, ctx)?,
        },
        QueryAst::Terms { field, values } => {
            crate::limits::check_terms_count(values.len())?;
            match ctx.mapping.get(field) {
                None => Box::new(EmptyQuery),
                Some(fm) if matches!(fm.field_type, FieldType::Date | FieldType::Double | FieldType::Float) => {
                    let points = values
                        .iter()
                        .map(|v| Ok((Occur::Should, exact_query(fm, v, ctx)?)))
                        .collect::<Result<Vec<_>>>()?;
                    Box::new(ConstScoreQuery::new(Box::new(BooleanQuery::new(points)), ES_SCORE_SCALE))
                }
                Some(fm) => {
                    let terms = values.iter().map(|v| exact_term(fm, v)).collect::<Result<Vec<_>>>()?;
                    Box::new(ConstScoreQuery::new(Box::new(TermSetQuery::new(terms)), ES_SCORE_SCALE))
                }
            }
        }
        QueryAst::Range(range) => lower_range(range, ctx)?,
        QueryAst::Match { field, text, operator, minimum_should_match } => {
            lower_match(field, text, *operator, *minimum_should_match, ctx)?
        }
        QueryAst::Bool(b) if crate::query_cache::cacheable(ast) => crate::query_cache::wrap(ast, lower_bool(b, ctx)?),
        QueryAst::Bool(b) => lower_bool(b, ctx)?,
        QueryAst::MatchPhrase { field, text, slop } => lower_phrase(field, text, *slop, ctx)?,
        QueryAst::MatchPhrasePrefix { field, text, max_expansions } => {
            lower_phrase_prefix(field, text, *max_expansions, ctx)?
        }
        QueryAst::Prefix { field, value } => lower_prefix(field, value, ctx)?,
        QueryAst::Wildcard { field, pattern } => lower_wildcard(field, pattern, ctx)?,
        QueryAst::Regexp { field, pattern } => lower_regex("regexp", field, pattern, ctx)?,
        QueryAst::Fuzzy { field, value, max_edits, prefix_length, transpositions } => {
            lower_fuzzy(field, value, *max_edits, *prefix_length, *transpositions, ctx)?
        }
        QueryAst::Exists { field } => lower_exists(field, ctx)?,
        QueryAst::Ids { values } => lower_ids(values, ctx),
        QueryAst::ConstantScore { filter, boost } => {
            Box::new(ConstScoreQuery::new(lower(filter, ctx)?, boost * ES_SCORE_SCALE))
        }
        QueryAst::DisMax { queries, tie_breaker } => {
            let clauses = queries.iter().map(|q| lower(q, ctx)).collect::<Result<Vec<_>>>()?;
            Box::new(DisjunctionMaxQuery::with_tie_breaker(clauses, *tie_breaker))
        }
        QueryAst::Knn(knn) => crate::knn::lower_knn(knn, ctx)?,
        QueryAst::Boosting { positive, negative, negative_boost } => Box::new(
            crate::dsl::boosting::BoostingQuery::new(lower(positive, ctx)?, lower(negative, ctx)?, *negative_boost),
        ),
        QueryAst::FunctionScore(fs) => lower_function_score::lower_function_score(fs, ctx)?,
        QueryAst::Pinned { ids, organic } => lower_text_extra::lower_pinned(ids, organic, ctx)?,
        QueryAst::MatchBoolPrefix { field, text, operator, minimum_should_match } => {
            lower_text_extra::lower_match_bool_prefix(field, text, *operator, *minimum_should_match, ctx)?
        }
        QueryAst::CombinedFields { fields, text, operator, minimum_should_match } => {
            lower_text_extra::lower_combined_fields(fields, text, *operator, *minimum_should_match, ctx)?
        }
        QueryAst::QueryString(qs) => lower(&lower_query_string::to_ast(qs, ctx)?, ctx)?,
        QueryAst::MoreLikeThis(m) => lower_more_like_this::lower_more_like_this(m, ctx)?,
        QueryAst::Nested(n) => crate::nested::query::lower_nested(n, ctx)?,
        QueryAst::NestedObjects => match &ctx.mapping.nested {
            None => Box::new(EmptyQuery),
            Some(nested) => {
                let paths = (0..nested.paths.len() as u64).map(|p| Term::from_field_u64(nested.path_field, p));
                Box::new(TermSetQuery::new(paths))
            }
        },
    })
}

/// `query_string` resolved to the plain queries it stands for (the highlighter reads their terms).
pub(crate) fn query_string_ast(qs: &crate::dsl::qs_ast::QueryStringAst, ctx: &mut LowerContext) -> Result<QueryAst> {
    lower_query_string::to_ast(qs, ctx)
}

/// The query for one exact value: a term query, except on a date or a double, which have no
/// inverted index (`mapping.rs`) and match through their column with ES's constant score. On a
/// date, as in ES (`DateFieldMapper.termQuery` is a range from the value to the value rounded
/// up), `2024-01-01` covers the whole day and date math works.
pub(crate) fn exact_query(fm: &FieldMapping, value: &Value, ctx: &LowerContext) -> Result<Box<dyn Query>> {
    if fm.field_type == FieldType::Date {
        let lo = parse_range_date(value, fm, None, ctx.now_ms, false)?;
        let hi = parse_range_date(value, fm, None, ctx.now_ms, true)?;
        let column = ctx.mapping.schema.get_field_name(fm.field).to_string();
        let day = ColumnRangeQuery::new(fm.field, column, lo, hi);
        return Ok(Box::new(ConstScoreQuery::new(Box::new(day), ES_SCORE_SCALE)));
    }
    let term = exact_term(fm, value)?;
    if matches!(fm.field_type, FieldType::Double | FieldType::Float) {
        // Column-only as well (`mapping.rs`): the one-point range reads the fast field.
        let point = RangeQuery::new(Bound::Included(term.clone()), Bound::Included(term));
        return Ok(Box::new(ConstScoreQuery::new(Box::new(point), ES_SCORE_SCALE)));
    }
    Ok(Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)))
}

/// The term an exact-value query (term, terms, match on non-text) looks up.
pub(crate) fn exact_term(fm: &FieldMapping, value: &Value) -> Result<Term> {
    let bad = |what: &str| {
        EngineError::shard(
            ShardCause::QueryShard,
            format!(
                "failed to create query: {what} for field [{}] of type [{}]: [{value}]",
                fm.name,
                fm.field_type.name()
            ),
        )
    };
    Ok(match fm.field_type {
        FieldType::Keyword | FieldType::Text => Term::from_field_text(fm.field, &value_as_text(value)),
        FieldType::Long | FieldType::Integer => {
            let f = coerce_f64(value).ok_or_else(|| bad("not a number"))?;
            if f.fract() != 0.0 {
                return Err(bad("Value has a decimal part"));
            }
            let n = match value {
                Value::Number(n) if n.is_i64() => n.as_i64().unwrap(),
                Value::String(s) => s.trim().parse::<i64>().unwrap_or(f as i64),
                _ => f as i64,
            };
            Term::from_field_i64(fm.field, n)
        }
        FieldType::Double => Term::from_field_f64(fm.field, coerce_f64(value).ok_or_else(|| bad("not a number"))?),
        FieldType::Float => {
            Term::from_field_f64(fm.field, coerce_f64(value).ok_or_else(|| bad("not a number"))? as f32 as f64)
        }
        FieldType::Date => Term::from_field_i64(
            fm.field,
            parse_date_value(value, &fm.date_formats)
                .map_err(|e| EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {e}")))?,
        ),
        FieldType::Boolean => {
            let b = match value {
                Value::Bool(b) => *b,
                Value::String(s) if s == "true" => true,
                Value::String(s) if s == "false" => false,
                _ => return Err(bad("Can't parse boolean value, expected [true] or [false]")),
            };
            Term::from_field_bool(fm.field, b)
        }
    })
}

fn value_as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn lower_match(
    field: &str,
    text: &str,
    operator: Operator,
    msm: Option<MinimumShouldMatch>,
    ctx: &mut LowerContext,
) -> Result<Box<dyn Query>> {
    let Some(fm) = ctx.mapping.get(field) else { return Ok(Box::new(EmptyQuery)) };
    if fm.field_type != FieldType::Text {
        return exact_query(fm, &Value::String(text.to_string()), ctx);
    }
    let mut terms = lower_text_extra::analyzed_terms(fm.field, text, ctx);
    if terms.is_empty() {
        return Ok(Box::new(EmptyQuery));
    }
    if terms.len() == 1 {
        return Ok(Box::new(TermQuery::new(terms.pop().unwrap(), IndexRecordOption::WithFreqs)));
    }
    let clauses: Vec<Box<dyn Query>> = terms
        .into_iter()
        .map(|t| Box::new(TermQuery::new(t, IndexRecordOption::WithFreqs)) as Box<dyn Query>)
        .collect();
    Ok(lower_text_extra::combine(clauses, operator, msm))
}

fn lower_bool(b: &BoolAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for q in &b.must {
        clauses.push((Occur::Must, lower(q, ctx)?));
    }
    for q in &b.filter {
        // Filters restrict without scoring, as in ES.
        clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(lower(q, ctx)?, 0.0))));
    }
    for q in &b.should {
        clauses.push((Occur::Should, lower(q, ctx)?));
    }
    for q in &b.must_not {
        clauses.push((Occur::MustNot, lower(q, ctx)?));
    }
    let required = b.must.len() + b.filter.len();
    if clauses.is_empty() {
        return Ok(Box::new(ConstScoreQuery::new(ctx.all_docs(), ES_SCORE_SCALE)));
    }
    if required == 0 && b.should.is_empty() {
        // Only must_not: ES matches everything else with score 0.
        clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(ctx.all_docs(), 0.0))));
    }
    // ES default: should clauses are optional once there is a must/filter, else one must match.
    let min_should = match b.minimum_should_match {
        Some(m) => m.resolve(b.should.len()),
        None if required == 0 && !b.should.is_empty() => 1,
        None => 0,
    };
    if min_should > 0 && !b.should.is_empty() {
        if min_should > b.should.len() {
            return Ok(Box::new(EmptyQuery));
        }
        return Ok(Box::new(BooleanQuery::with_minimum_required_clauses(clauses, min_should)));
    }
    if required > 0 || !b.must_not.is_empty() {
        return Ok(Box::new(BooleanQuery::new(clauses)));
    }
    Ok(Box::new(BooleanQuery::new(clauses)))
}

fn lower_range(r: &RangeAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let Some(fm) = ctx.mapping.get(&r.field) else { return Ok(Box::new(EmptyQuery)) };
    let field = fm.field;
    let (lower, upper): (Bound<Term>, Bound<Term>) = match fm.field_type {
        FieldType::Long | FieldType::Integer | FieldType::Date => {
            // Date bounds that round up (`gt`, `lte`) cover the whole unit the text names.
            let read = |v: &Value, round_up: bool| -> Result<f64> {
                if fm.field_type == FieldType::Date {
                    parse_range_date(v, fm, r.format.as_deref(), ctx.now_ms, round_up).map(|ms| ms as f64)
                } else {
                    coerce_f64(v).ok_or_else(|| {
                        EngineError::shard(
                            ShardCause::QueryShard,
                            format!("failed to create query: For input string: \"{}\"", value_as_text(v)),
                        )
                    })
                }
            };
            // Integer fields: fractional bounds round inwards, as ES does for long ranges.
            let lo = match (&r.gt, &r.gte) {
                (Some(v), _) => Some(read(v, true)?.floor() as i64 + 1),
                (None, Some(v)) => Some(read(v, false)?.ceil() as i64),
                _ => None,
            };
            let hi = match (&r.lt, &r.lte) {
                (Some(v), _) => Some(read(v, false)?.ceil() as i64 - 1),
                (None, Some(v)) => Some(read(v, true)?.floor() as i64),
                _ => None,
            };
            let column = ctx.mapping.schema.get_field_name(field).to_string();
            let query = ColumnRangeQuery::new(field, column, lo.unwrap_or(i64::MIN), hi.unwrap_or(i64::MAX));
            return Ok(Box::new(ConstScoreQuery::new(Box::new(query), ES_SCORE_SCALE)));
        }
        FieldType::Double | FieldType::Float => {
            let read = |v: &Value| {
                coerce_f64(v).map(|f| if fm.field_type == FieldType::Float { f as f32 as f64 } else { f }).ok_or_else(
                    || {
                        EngineError::shard(
                            ShardCause::QueryShard,
                            format!("failed to create query: For input string: \"{}\"", value_as_text(v)),
                        )
                    },
                )
            };
            let term = |f: f64| Term::from_field_f64(field, f);
            let lower = match (&r.gt, &r.gte) {
                (Some(v), _) => Bound::Excluded(term(read(v)?)),
                (None, Some(v)) => Bound::Included(term(read(v)?)),
                _ => Bound::Included(term(f64::NEG_INFINITY)),
            };
            let upper = match (&r.lt, &r.lte) {
                (Some(v), _) => Bound::Excluded(term(read(v)?)),
                (None, Some(v)) => Bound::Included(term(read(v)?)),
                _ => Bound::Included(term(f64::INFINITY)),
            };
            (lower, upper)
        }
        FieldType::Keyword => {
            let term = |v: &Value| Term::from_field_text(field, &value_as_text(v));
            let lower = match (&r.gt, &r.gte) {
                (Some(v), _) => Bound::Excluded(term(v)),
                (None, Some(v)) => Bound::Included(term(v)),
                _ => Bound::Unbounded,
            };
            let upper = match (&r.lt, &r.lte) {
                (Some(v), _) => Bound::Excluded(term(v)),
                (None, Some(v)) => Bound::Included(term(v)),
                _ => Bound::Unbounded,
            };
            if matches!((&lower, &upper), (Bound::Unbounded, Bound::Unbounded)) {
                let name = ctx.mapping.schema.get_field_name(field).to_string();
                return Ok(Box::new(ConstScoreQuery::new(Box::new(ExistsQuery::new(name, false)), ES_SCORE_SCALE)));
            }
            (lower, upper)
        }
        FieldType::Text | FieldType::Boolean => {
            return Err(EngineError::shard(
                ShardCause::QueryShard,
                format!("failed to create query: range queries on [{}] fields are not supported", fm.field_type.name()),
            ))
        }
    };
    Ok(Box::new(ConstScoreQuery::new(Box::new(RangeQuery::new(lower, upper)), ES_SCORE_SCALE)))
}

/// A date range bound: a date in the query's or the field's format, epoch millis, or date
/// math anchored at `now` or `<date>||` (UTC); see `date_bound`.
fn parse_range_date(v: &Value, fm: &FieldMapping, format: Option<&str>, now_ms: i64, round_up: bool) -> Result<i64> {
    let formats = match format {
        Some(f) => parse_format_list(f)
            .map_err(|e| EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {e}")))?,
        None => fm.date_formats.clone(),
    };
    parse_date_bound(v, &formats, now_ms, round_up)
        .map_err(|e| EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx(mapping: &Mapping) -> LowerContext<'_> {
        LowerContext::new(mapping, 0)
    }

    fn mapping() -> Mapping {
        Mapping::from_mappings_json(
            &json!({"properties": {"n": {"type": "long"}, "t": {"type": "text"}, "d": {"type": "date"}}}),
        )
        .unwrap()
    }

    #[test]
    fn unmapped_fields_match_nothing() {
        let m = mapping();
        let q = lower(&QueryAst::Term { field: "nope".into(), value: json!(1) }, &mut ctx(&m)).unwrap();
        assert!(format!("{q:?}").contains("EmptyQuery"), "{q:?}");
    }

    #[test]
    fn bad_values_fail_like_a_shard_failure() {
        let m = mapping();
        let err = lower(&QueryAst::Term { field: "n".into(), value: json!("abc") }, &mut ctx(&m)).unwrap_err();
        assert_eq!(err.es_type_and_status(), ("search_phase_execution_exception", 400));
        let err = lower(&QueryAst::Term { field: "n".into(), value: json!(1.5) }, &mut ctx(&m)).unwrap_err();
        assert!(err.to_string().contains("decimal part"), "{err}");
        let range = RangeAst { field: "t".into(), gte: Some(json!("a")), ..Default::default() };
        assert!(lower(&QueryAst::Range(range), &mut ctx(&m)).is_err());
    }

    #[test]
    fn match_analyzes_text_and_date_math_resolves() {
        let m = mapping();
        let q = QueryAst::Match {
            field: "t".into(),
            text: "Hello, WORLD".into(),
            operator: Operator::And,
            minimum_should_match: None,
        };
        let debug = format!("{:?}", lower(&q, &mut ctx(&m)).unwrap());
        assert!(debug.contains("hello") && debug.contains("world"), "{debug}");
        let range = RangeAst { field: "d".into(), gte: Some(json!("now-1d")), ..Default::default() };
        let debug = format!("{:?}", lower(&QueryAst::Range(range), &mut ctx(&m)).unwrap());
        assert!(debug.contains("-86400000"), "{debug}");
    }
}
