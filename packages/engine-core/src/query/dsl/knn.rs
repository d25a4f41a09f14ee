//! The `knn` query (OpenSearch): `{"knn": {"<field>": {"vector": [...], "k": 10, "filter": {...}}}}`,
//! and the AST both dialects share (ES 8's top-level `knn` is parsed in `top_level`).

use serde::Deserialize;
use serde_json::Value;

use crate::error::{EngineError, Result};
use crate::query::ast::{KnnAst, KnnDialect, QueryAst};
use crate::query::dsl::{from_value, parse_query, single_field};

/// OpenSearch's `index.max_result_window`-independent cap on `k`.
const MAX_K: usize = 10_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KnnOptions {
    vector: Vec<f32>,
    k: i64,
    filter: Option<Value>,
    boost: Option<f32>,
    /// `ef_search` and friends tune an approximate search; an exact scan has nothing to tune.
    #[serde(rename = "method_parameters")]
    _method_parameters: Option<Value>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse_knn(body: &Value) -> Result<QueryAst> {
    let (field, options) = single_field("knn", body)?;
    let opts: KnnOptions = from_value("knn", options)?;
    if opts.k <= 0 || opts.k as usize > MAX_K {
        return Err(EngineError::IllegalArgument(format!(
            "[knn] requires k between 1 and {MAX_K}, found [{}]",
            opts.k
        )));
    }
    if opts.vector.is_empty() {
        return Err(EngineError::IllegalArgument("[knn] requires a non-empty [vector]".to_string()));
    }
    let filter = opts.filter.as_ref().map(parse_query).transpose()?.map(Box::new);
    let ast = KnnAst {
        field: field.clone(),
        vector: opts.vector,
        k: opts.k as usize,
        filter,
        similarity: None,
        dialect: KnnDialect::OpenSearch,
    };
    Ok(QueryAst::Knn(ast).boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_vector_k_and_filter() {
        let ast = parse_knn(&json!({"vec": {"vector": [1, 2.5], "k": 3, "filter": {"term": {"tag": "a"}}}})).unwrap();
        let QueryAst::Knn(knn) = ast else { panic!("not knn: {ast:?}") };
        assert_eq!((knn.field.as_str(), knn.vector.as_slice(), knn.k), ("vec", &[1.0f32, 2.5][..], 3));
        assert!(matches!(knn.filter.as_deref(), Some(QueryAst::Term { .. })));
    }

    #[test]
    fn rejects_bad_k_and_unknown_options() {
        assert!(parse_knn(&json!({"vec": {"vector": [1], "k": 0}})).is_err());
        assert!(parse_knn(&json!({"vec": {"vector": [1], "k": 10001}})).is_err());
        assert!(parse_knn(&json!({"vec": {"vector": [], "k": 1}})).is_err());
        assert!(parse_knn(&json!({"vec": {"vector": [1], "k": 1, "nope": 1}})).is_err());
        assert!(parse_knn(&json!({"vec": {"k": 1}})).is_err());
    }
}
