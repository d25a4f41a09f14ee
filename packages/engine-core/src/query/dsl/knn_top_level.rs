//! Elasticsearch 8's top-level `knn` search section: one object or an array of them, each
//! `{field, query_vector, k, num_candidates, filter, similarity, boost}`.
//!
//! As in ES, each kNN search picks its k nearest (after its own `filter`, which never touches
//! the `query`), and the request's hits are the union of those and the `query`'s matches, a
//! document's `_score` being the sum of the scores it earns: ES adds the kNN hits to the
//! query as `bool.should` clauses, and so do we.
//!
//! `num_candidates` is validated as ES does but changes nothing: the scan is exact, so the k
//! nearest are found whatever the candidate budget.
//!
//! OpenSearch has neither `dense_vector` nor this section, so the differential conformance
//! suite cannot cover it: the tests are Rust (`tests/dense_vector_knn_test.rs`) and the
//! service-level `engine-napi/test/es-knn.test.ts`.

use serde_json::Value;

use crate::error::{EngineError, Result};
use crate::query::ast::{BoolAst, QueryAst};
use crate::query::ast::{KnnAst, KnnDialect};
use crate::query::dsl::parse_query;

/// ES's `KnnSearchBuilder.NUM_CANDS_LIMIT`.
const NUM_CANDIDATES_LIMIT: i64 = 10_000;

/// The request's query once its `knn` section is folded in. `query` is the body's `query`
/// (`None` when absent: then only kNN hits match); `size` is the body's (k defaults to it).
pub fn with_top_level_knn(knn: &Value, query: Option<QueryAst>, size: usize) -> Result<QueryAst> {
    let searches = match knn {
        Value::Object(_) => vec![parse_one(knn, size)?],
        Value::Array(items) => items.iter().map(|item| parse_one(item, size)).collect::<Result<_>>()?,
        _ => return Err(EngineError::Parsing("[knn] must be an object or an array of objects".into())),
    };
    let mut clauses: Vec<QueryAst> = query.into_iter().chain(searches).collect();
    if clauses.len() == 1 {
        return Ok(clauses.remove(0));
    }
    Ok(QueryAst::Bool(BoolAst { should: clauses, ..BoolAst::default() }))
}

fn bad_field(key: &str) -> EngineError {
    EngineError::XContentParse(format!("[knn] failed to parse field [{key}]"))
}

fn parse_one(body: &Value, size: usize) -> Result<QueryAst> {
    let obj = body
        .as_object()
        .ok_or_else(|| EngineError::Parsing("[knn] must be an object or an array of objects".into()))?;
    let mut field = None;
    let mut vector = None;
    let mut k = None;
    let mut num_candidates = None;
    let mut filters = Vec::new();
    let mut similarity = None;
    let mut boost = None;
    for (key, value) in obj {
        match key.as_str() {
            "field" => field = Some(value.as_str().ok_or_else(|| bad_field(key))?.to_string()),
            "query_vector" => vector = Some(parse_vector(value).ok_or_else(|| bad_field(key))?),
            "k" => k = Some(value.as_i64().ok_or_else(|| bad_field(key))?),
            "num_candidates" => num_candidates = Some(value.as_i64().ok_or_else(|| bad_field(key))?),
            "filter" => match value {
                Value::Array(items) => {
                    for item in items {
                        filters.push(parse_query(item)?);
                    }
                }
                _ => filters.push(parse_query(value)?),
            },
            "similarity" => similarity = Some(value.as_f64().ok_or_else(|| bad_field(key))? as f32),
            "boost" => boost = Some(value.as_f64().ok_or_else(|| bad_field(key))? as f32),
            // A name for `matched_queries`, which this engine does not report.
            "_name" => {}
            // Rescoring undoes quantization loss; an exact scan over full floats has none.
            "rescore_vector" => {}
            "query_vector_builder" | "inner_hits" => {
                return Err(EngineError::IllegalArgument(format!("[knn] [{key}] is not supported")))
            }
            other => return Err(EngineError::XContentParse(format!("[knn] unknown field [{other}]"))),
        }
    }
    let field = field.ok_or_else(|| EngineError::XContentParse("Required [field]".into()))?;
    // ES's `KnnSearchBuilder.Builder.build(size)`: k defaults to the size, candidates to 1.5 k.
    let k = k.unwrap_or(size as i64);
    let num_candidates =
        num_candidates.unwrap_or_else(|| (1.5 * k as f64).min(NUM_CANDIDATES_LIMIT as f64).round() as i64);
    let illegal = |reason: &str| Err(EngineError::IllegalArgument(reason.to_string()));
    if k < 1 {
        return illegal("[k] must be greater than 0");
    }
    if num_candidates < k {
        return illegal("[num_candidates] cannot be less than [k]");
    }
    if num_candidates > NUM_CANDIDATES_LIMIT {
        return illegal("[num_candidates] cannot exceed [10000]");
    }
    let Some(vector) = vector else {
        return illegal("either [query_vector_builder] or [query_vector] must be provided");
    };
    let filter = match filters.len() {
        0 => None,
        1 => filters.pop().map(Box::new),
        _ => Some(Box::new(QueryAst::Bool(BoolAst { filter: filters, ..BoolAst::default() }))),
    };
    let ast = KnnAst { field, vector, k: k as usize, filter, similarity, dialect: KnnDialect::Elasticsearch };
    Ok(QueryAst::Knn(ast).boosted(boost))
}

/// An array of numbers, or (for byte vectors) ES's hex string, two digits per element.
fn parse_vector(value: &Value) -> Option<Vec<f32>> {
    match value {
        Value::Array(items) => items.iter().map(|x| x.as_f64().map(|f| f as f32)).collect(),
        Value::String(hex) if hex.len() % 2 == 0 => (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok().map(|b| b as i8 as f32))
            .collect(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn knn_of(ast: &QueryAst) -> &KnnAst {
        match ast {
            QueryAst::Knn(knn) => knn,
            QueryAst::Boost { query, .. } => knn_of(query),
            other => panic!("not knn: {other:?}"),
        }
    }

    #[test]
    fn k_defaults_to_size_and_filters_combine() {
        let q = with_top_level_knn(
            &json!({"field": "v", "query_vector": [1, 2], "filter": [{"term": {"a": 1}}, {"term": {"b": 2}}]}),
            None,
            7,
        )
        .unwrap();
        let knn = knn_of(&q);
        assert_eq!((knn.k, knn.vector.as_slice()), (7, &[1.0f32, 2.0][..]));
        assert!(matches!(knn.filter.as_deref(), Some(QueryAst::Bool(b)) if b.filter.len() == 2));
    }

    #[test]
    fn query_and_searches_become_should_clauses() {
        let knn = json!([{"field": "v", "query_vector": [1], "k": 2, "boost": 2.0}, {"field": "w", "query_vector": [1], "k": 1}]);
        let Ok(QueryAst::Bool(b)) = with_top_level_knn(&knn, Some(QueryAst::MatchAll), 10) else { panic!() };
        assert_eq!(b.should.len(), 3);
        assert!(matches!(b.should[1], QueryAst::Boost { boost, .. } if boost == 2.0));
    }

    #[test]
    fn errors_are_es_texts() {
        let err = |body: Value| with_top_level_knn(&body, None, 10).unwrap_err().to_string();
        assert_eq!(err(json!({"field": "v", "query_vector": [1], "k": 0})), "[k] must be greater than 0");
        assert_eq!(
            err(json!({"field": "v", "query_vector": [1], "k": 5, "num_candidates": 3})),
            "[num_candidates] cannot be less than [k]"
        );
        assert_eq!(
            err(json!({"field": "v", "query_vector": [1], "k": 5, "num_candidates": 10001})),
            "[num_candidates] cannot exceed [10000]"
        );
        assert!(err(json!({"field": "v", "k": 5})).contains("[query_vector] must be provided"));
        assert_eq!(err(json!({"query_vector": [1]})), "Required [field]");
        assert_eq!(err(json!({"field": "v", "query_vector": [1], "nope": 1})), "[knn] unknown field [nope]");
    }

    #[test]
    fn hex_vectors_decode_to_signed_bytes() {
        assert_eq!(parse_vector(&json!("017f80ff")), Some(vec![1.0, 127.0, -128.0, -1.0]));
    }
}
