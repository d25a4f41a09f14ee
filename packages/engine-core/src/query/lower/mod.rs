//! `QueryAst` -> tantivy query, through a context holding the mapping and the analyzer.
//! Field types decide how JSON values become terms; unmapped fields match nothing (as ES).
//! `lower` dispatches on the query type; leaf types are lowered in the files below, and
//! compound ones lower their clauses back through the context (`LowerContext::lower`).

pub mod context;
pub(crate) mod exact;
mod exists;
mod function_score;
pub mod geo;
mod intervals;
pub(crate) mod knn;
pub(crate) mod knn_es;
pub(crate) mod match_query;
mod more_like_this;
pub(crate) mod multi_term;
pub mod nested;
mod query_string;
pub mod range_field;
mod terms_set;
mod text;

use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, EmptyQuery, Occur, Query, TermSetQuery,
};
use tantivy::Term;

pub use crate::store::similarity::ES_SCORE_SCALE;
pub use context::LowerContext;
use exact::lower_range;
pub(crate) use exact::{exact_query, exact_term};
use exists::lower_exists;
use multi_term::{
    lower_fuzzy, lower_ids, lower_phrase, lower_phrase_prefix, lower_prefix, lower_regex, lower_wildcard,
};

use crate::error::Result;
use crate::query::ast::{BoolAst, QueryAst};
use crate::query::tantivy::boosting::BoostingQuery;
use crate::store::mapping::{FieldType, Mapping, ID_FIELD, IGNORED_FIELD, ROUTING_FIELD};

impl<'a> LowerContext<'a> {
    pub fn new(mapping: &'a Mapping, now_ms: i64) -> LowerContext<'a> {
        LowerContext {
            mapping,
            analyzer: crate::analysis::es_standard_analyzer(),
            now_ms,
            nested_scope: None,
            lower_fn: lower,
            similarities: None,
            scale: ES_SCORE_SCALE,
            index_name: None,
            max_terms_count: crate::query::limits::MAX_TERMS_COUNT,
            max_regex_length: crate::query::limits::MAX_REGEX_LENGTH,
        }
    }

    /// Every document in scope: all of them (a top-level query is restricted to root
    /// documents by `query::root_only`), or inside a `nested` query its path's objects.
    pub fn all_docs(&self) -> Box<dyn Query> {
        match crate::query::lower::nested::scope_filter(self) {
            Some(objects) => objects,
            None => Box::new(AllQuery),
        }
    }
}

/// An id as a `term` names it: a string, or a number's text.
fn id_text(value: &serde_json::Value) -> String {
    value.as_str().map_or_else(|| value.to_string(), str::to_string)
}

/// ES's `_index` metadata field: every document of one index has the same value.
const INDEX_FIELD: &str = "_index";

/// `term`/`terms` on `_index`: every document when one of `values` names the index searched
/// (constant score, as ES scores it), else none.
fn on_index(values: &[serde_json::Value], ctx: &LowerContext) -> Box<dyn Query> {
    let names = |v: &serde_json::Value| ctx.index_name.is_some_and(|name| v.as_str() == Some(name));
    if values.iter().any(names) {
        Box::new(ConstScoreQuery::new(ctx.all_docs(), ctx.scale))
    } else {
        Box::new(EmptyQuery)
    }
}

pub fn lower(ast: &QueryAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    Ok(match ast {
        QueryAst::MatchAll => Box::new(ConstScoreQuery::new(ctx.all_docs(), ctx.scale)),
        QueryAst::MatchNone => Box::new(EmptyQuery),
        QueryAst::Boost { query, boost } => Box::new(BoostQuery::new(lower(query, ctx)?, *boost)),
        // `_id` is no mapped field: a term on it is an `ids` query (ES's constant score 1).
        QueryAst::Term { field, value } if field == ID_FIELD => lower_ids(&[id_text(value)], ctx),
        QueryAst::Terms { field, values } if field == ID_FIELD => {
            lower_ids(&values.iter().map(id_text).collect::<Vec<_>>(), ctx)
        }
        QueryAst::Match { field, text, .. } if field == ID_FIELD => lower_ids(std::slice::from_ref(text), ctx),
        QueryAst::Term { field, value } if field == INDEX_FIELD => on_index(std::slice::from_ref(value), ctx),
        QueryAst::Terms { field, values } if field == INDEX_FIELD => on_index(values, ctx),
        QueryAst::Term { field, value } if field == ROUTING_FIELD => {
            multi_term::lower_routing(std::slice::from_ref(value), ctx)
        }
        QueryAst::Terms { field, values } if field == ROUTING_FIELD => multi_term::lower_routing(values, ctx),
        QueryAst::Term { field, value } if field == IGNORED_FIELD => {
            multi_term::lower_ignored(std::slice::from_ref(value), ctx)
        }
        QueryAst::Terms { field, values } if field == IGNORED_FIELD => multi_term::lower_ignored(values, ctx),
        QueryAst::Term { field, value } => match ctx.mapping.get(field) {
            None => Box::new(EmptyQuery),
            Some(fm) => exact_query(fm, value, ctx)?,
        },
        QueryAst::Terms { field, values } => {
            crate::query::limits::check_terms_count(values.len(), ctx.max_terms_count)?;
            match ctx.mapping.get(field) {
                None => Box::new(EmptyQuery),
                Some(fm)
                    if matches!(
                        fm.field_type,
                        FieldType::Date
                            | FieldType::Double
                            | FieldType::Float
                            | FieldType::HalfFloat
                            | FieldType::ScaledFloat
                            | FieldType::Ip
                    ) =>
                {
                    let points = values
                        .iter()
                        .map(|v| Ok((Occur::Should, exact_query(fm, v, ctx)?)))
                        .collect::<Result<Vec<_>>>()?;
                    Box::new(ConstScoreQuery::new(Box::new(BooleanQuery::new(points)), ctx.scale))
                }
                Some(fm) => {
                    let terms = values.iter().map(|v| exact_term(fm, v)).collect::<Result<Vec<_>>>()?;
                    Box::new(ConstScoreQuery::new(Box::new(TermSetQuery::new(terms)), ctx.scale))
                }
            }
        }
        QueryAst::Range(range) => lower_range(range, ctx)?,
        QueryAst::Match { field, text, operator, minimum_should_match, fuzzy, zero_terms_all } => {
            let how = match_query::MatchHow {
                operator: *operator,
                msm: minimum_should_match.as_ref(),
                fuzzy: fuzzy.as_ref(),
            };
            match_query::lower_match(field, text, &how, *zero_terms_all, ctx)?
        }
        QueryAst::Bool(b) if crate::query::tantivy::query_cache::cacheable(ast) => {
            crate::query::tantivy::query_cache::wrap(ast, lower_bool(b, ctx)?)
        }
        QueryAst::Bool(b) => lower_bool(b, ctx)?,
        QueryAst::MatchPhrase { field, text, slop } => lower_phrase(field, text, *slop, ctx)?,
        QueryAst::Intervals { field, rule } => intervals::lower_intervals(field, rule, ctx)?,
        QueryAst::MatchPhrasePrefix { field, text, max_expansions } => {
            lower_phrase_prefix(field, text, *max_expansions, ctx)?
        }
        QueryAst::Prefix { field, value } => lower_prefix(field, value, ctx)?,
        QueryAst::Wildcard { field, pattern } => lower_wildcard(field, pattern, ctx)?,
        QueryAst::Regexp { field, pattern } => lower_regex("regexp", field, pattern, ctx)?,
        QueryAst::Fuzzy { field, value, max_edits, prefix_length, transpositions, max_expansions } => {
            lower_fuzzy(field, value, *max_edits, *prefix_length, *transpositions, *max_expansions, ctx)?
        }
        QueryAst::Exists { field } => lower_exists(field, ctx)?,
        QueryAst::Ids { values } => lower_ids(values, ctx),
        QueryAst::ConstantScore { filter, boost } => {
            Box::new(ConstScoreQuery::new(lower(filter, ctx)?, boost * ctx.scale))
        }
        QueryAst::DisMax { queries, tie_breaker } => {
            let clauses = queries.iter().map(|q| lower(q, ctx)).collect::<Result<Vec<_>>>()?;
            Box::new(DisjunctionMaxQuery::with_tie_breaker(clauses, *tie_breaker))
        }
        QueryAst::Knn(knn) => crate::query::lower::knn::lower_knn(knn, ctx)?,
        QueryAst::Boosting { positive, negative, negative_boost } => {
            Box::new(BoostingQuery::new(lower(positive, ctx)?, lower(negative, ctx)?, *negative_boost))
        }
        QueryAst::FunctionScore(fs) => function_score::lower_function_score(fs, ctx)?,
        QueryAst::Pinned { ids, organic } => text::lower_pinned(ids, organic, ctx)?,
        QueryAst::MatchBoolPrefix { field, text, operator, minimum_should_match, fuzzy, fuzzy_constant, analyzer } => {
            let fuzzy = fuzzy.as_ref().map(|f| (f, *fuzzy_constant));
            let how = text::BoolPrefixText { text, analyzer: analyzer.as_deref() };
            text::lower_match_bool_prefix(field, how, *operator, minimum_should_match.as_ref(), fuzzy, ctx)?
        }
        QueryAst::CombinedFields { fields, text, operator, minimum_should_match } => {
            text::lower_combined_fields(fields, text, *operator, minimum_should_match.as_ref(), ctx)?
        }
        QueryAst::QueryString(qs) => {
            // Its clauses are only known now: Lucene's limit applies to what it expanded to.
            let expanded = query_string::to_ast(qs, ctx)?;
            crate::query::limits::check_clause_count(&expanded)?;
            lower(&expanded, ctx)?
        }
        QueryAst::MoreLikeThis(m) => more_like_this::lower_more_like_this(m, ctx)?,
        QueryAst::Nested(n) => crate::query::lower::nested::lower_nested(n, ctx)?,
        QueryAst::Named { query, .. } => lower(query, ctx)?,
        QueryAst::TermsSet(ts) => terms_set::lower_terms_set(ts, ctx)?,
        QueryAst::CrossFields(cf) => text::lower_cross_fields(cf, ctx)?,
        QueryAst::Script(script) => {
            let fields = crate::query::script_doc_values::DocFields::resolve(script, ctx.mapping)?;
            let script = std::sync::Arc::new((**script).clone());
            let query = crate::query::tantivy::script_filter::ScriptQuery { script, fields, score: ctx.scale };
            // Inside a nested query only the scope's objects are candidates; at the top, root documents.
            let scope = Box::new(ConstScoreQuery::new(ctx.all_docs(), 0.0));
            Box::new(BooleanQuery::new(vec![(Occur::Must, Box::new(query) as Box<dyn Query>), (Occur::Must, scope)]))
        }
        QueryAst::Geo(q) => crate::query::lower::geo::lower_geo(q, ctx)?,
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
pub(crate) fn query_string_ast(qs: &crate::query::ast::QueryStringAst, ctx: &mut LowerContext) -> Result<QueryAst> {
    query_string::to_ast(qs, ctx)
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
        return Ok(Box::new(ConstScoreQuery::new(ctx.all_docs(), ctx.scale)));
    }
    if required == 0 && b.should.is_empty() {
        // Only must_not: ES matches everything else with score 0.
        clauses.push((Occur::Must, Box::new(ConstScoreQuery::new(ctx.all_docs(), 0.0))));
    }
    // ES default: should clauses are optional once there is a must/filter, else one must match.
    let min_should = match &b.minimum_should_match {
        Some(m) => m.resolve(b.should.len())?,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::ast::RangeAst;
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
    fn values_beyond_a_long_are_refused_not_clamped() {
        let m = mapping();
        let term = |value| lower(&QueryAst::Term { field: "n".into(), value }, &mut ctx(&m));
        assert!(term(json!(i64::MAX)).is_ok());
        assert!(term(json!("-9223372036854775808")).is_ok());
        for too_big in [json!(9_223_372_036_854_775_808u64), json!(1e19), json!("9223372036854775808")] {
            let err = term(too_big).unwrap_err();
            assert!(err.to_string().contains("is out of range for a long"), "{err}");
        }
        let range = RangeAst { field: "n".into(), lte: Some(json!(9.2e19)), ..Default::default() };
        assert!(lower(&QueryAst::Range(range), &mut ctx(&m)).unwrap_err().to_string().contains("out of range"));
    }

    #[test]
    fn match_analyzes_text_and_date_math_resolves() {
        let m = mapping();
        let q = QueryAst::Match {
            field: "t".into(),
            text: "Hello, WORLD".into(),
            operator: crate::query::ast::Operator::And,
            minimum_should_match: None,
            fuzzy: None,
            zero_terms_all: false,
        };
        let debug = format!("{:?}", lower(&q, &mut ctx(&m)).unwrap());
        assert!(debug.contains("hello") && debug.contains("world"), "{debug}");
        let range = RangeAst { field: "d".into(), gte: Some(json!("now-1d")), ..Default::default() };
        let debug = format!("{:?}", lower(&QueryAst::Range(range), &mut ctx(&m)).unwrap());
        assert!(debug.contains("-86400000"), "{debug}");
    }
}
