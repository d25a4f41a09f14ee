//! `rescore`: the top `window_size` hits by relevance scored again, their query score
//! combined with a second query's (`query_weight`, `rescore_query_weight`, `score_mode`), and
//! the window re-sorted, as ES's `QueryRescorer`; hits below the window keep their order
//! after it. Several rescorers apply in turn.

use serde::Deserialize;
use serde_json::Value;
use tantivy::query::EnableScoring;
use tantivy::{DocSet, Searcher};

use super::top_hits::Hit;
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;
use crate::query::dsl::parse_query;
use crate::store::index::IndexHandle;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMode {
    Total,
    Multiply,
    Avg,
    Max,
    Min,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Rescore {
    pub window_size: usize,
    pub query: QueryAst,
    pub query_weight: f32,
    pub rescore_query_weight: f32,
    pub score_mode: ScoreMode,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RescoreBody {
    window_size: Option<usize>,
    query: QueryBody,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryBody {
    rescore_query: Value,
    query_weight: Option<f32>,
    rescore_query_weight: Option<f32>,
    score_mode: Option<String>,
}

impl Rescore {
    /// One rescorer or a list of them.
    pub fn parse_list(value: &Value) -> Result<Vec<Rescore>> {
        match value {
            Value::Array(items) => items.iter().map(Rescore::parse).collect(),
            one => Ok(vec![Rescore::parse(one)?]),
        }
    }

    fn parse(value: &Value) -> Result<Rescore> {
        let body: RescoreBody =
            serde_json::from_value(value.clone()).map_err(|e| EngineError::Parsing(format!("[rescore] {e}")))?;
        let score_mode = match body.query.score_mode.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("total") => ScoreMode::Total,
            Some("multiply") => ScoreMode::Multiply,
            Some("avg") => ScoreMode::Avg,
            Some("max") => ScoreMode::Max,
            Some("min") => ScoreMode::Min,
            Some(other) => return Err(EngineError::IllegalArgument(format!("illegal score_mode [{other}]"))),
        };
        Ok(Rescore {
            window_size: body.window_size.unwrap_or(10),
            query: parse_query(&body.query.rescore_query)?,
            query_weight: body.query.query_weight.unwrap_or(1.0),
            rescore_query_weight: body.query.rescore_query_weight.unwrap_or(1.0),
            score_mode,
        })
    }

    /// Combines a hit's shown scores (`None`: the rescore query does not match it).
    fn combine(&self, original: f32, rescored: Option<f32>) -> f32 {
        let primary = self.query_weight * original;
        let Some(r) = rescored else { return primary };
        let secondary = self.rescore_query_weight * r;
        match self.score_mode {
            ScoreMode::Total => primary + secondary,
            ScoreMode::Multiply => primary * secondary,
            ScoreMode::Avg => (primary + secondary) / 2.0,
            ScoreMode::Max => primary.max(secondary),
            ScoreMode::Min => primary.min(secondary),
        }
    }
}

/// Applies the rescorers to `hits` (best first, internal scale `scale`).
pub fn apply(
    rescorers: &[Rescore],
    handle: &IndexHandle,
    searcher: &Searcher,
    hits: &mut [Hit],
    scale: f32,
) -> Result<()> {
    for rescorer in rescorers {
        let window = rescorer.window_size.min(hits.len());
        if window == 0 {
            continue;
        }
        let query = super::lower_query(handle, &rescorer.query)?;
        let weight = query.weight(EnableScoring::enabled_from_searcher(searcher))?;
        for hit in hits[..window].iter_mut() {
            let reader = searcher.segment_reader(hit.address.segment_ord);
            let mut scorer = weight.scorer(reader, 1.0)?;
            let doc = hit.address.doc_id;
            let rescored = (scorer.doc() <= doc && scorer.seek(doc) == doc).then(|| scorer.score() / scale);
            hit.score = rescorer.combine(hit.score / scale, rescored) * scale;
        }
        // Stable: equal scores keep the order they had.
        hits[..window].sort_by(|a, b| b.score.total_cmp(&a.score));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_and_combines_like_es() {
        let list = Rescore::parse_list(&json!({"window_size": 5, "query": {"rescore_query": {"match_all": {}},
            "query_weight": 0.5, "rescore_query_weight": 2, "score_mode": "max"}}))
        .unwrap();
        let r = &list[0];
        assert_eq!((r.window_size, r.score_mode), (5, ScoreMode::Max));
        assert_eq!(r.combine(4.0, Some(1.5)), 3.0);
        assert_eq!(r.combine(4.0, None), 2.0);
        assert!(Rescore::parse_list(&json!({"query": {"rescore_query": {"match_all": {}}, "bogus": 1}})).is_err());
    }
}
