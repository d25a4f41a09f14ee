//! `pinned` (ES 8): the documents named in `ids` (or `docs[]._id`) first, in the given order,
//! then `organic`'s hits. ES gives pinned documents scores above any organic score; so do we.

use serde::Deserialize;
use serde_json::Value;

use super::{from_value, parse_query};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PinnedDoc {
    #[serde(rename = "_id")]
    id: String,
    #[serde(rename = "_index")]
    _index: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PinnedOptions {
    ids: Option<Vec<String>>,
    docs: Option<Vec<PinnedDoc>>,
    organic: Option<Value>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: PinnedOptions = from_value("pinned", body)?;
    let organic = opts.organic.as_ref().ok_or_else(|| EngineError::Parsing("[pinned] Required [organic]".into()))?;
    let ids = match (opts.ids, opts.docs) {
        (Some(ids), None) => ids,
        (None, Some(docs)) => docs.into_iter().map(|d| d.id).collect(),
        _ => return Err(EngineError::Parsing("[pinned] Exactly one of [ids, docs] must be set".into())),
    };
    if ids.len() > 100 {
        return Err(EngineError::Parsing("[pinned] Max of 100 ids exceeded in pinned query".into()));
    }
    Ok(QueryAst::Pinned { ids, organic: Box::new(parse_query(organic)?) }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_ids_or_docs() {
        let ast = parse(&json!({"ids": ["2", "1"], "organic": {"match_all": {}}})).unwrap();
        assert!(matches!(ast, QueryAst::Pinned { ref ids, .. } if ids == &["2", "1"]));
        let ast = parse(&json!({"docs": [{"_id": "3", "_index": "x"}], "organic": {"match_all": {}}})).unwrap();
        assert!(matches!(ast, QueryAst::Pinned { ref ids, .. } if ids == &["3"]));
        assert!(parse(&json!({"ids": ["1"]})).is_err());
        assert!(parse(&json!({"organic": {"match_all": {}}})).is_err());
    }
}
