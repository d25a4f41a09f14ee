//! `rescore`: the top `window_size` hits by relevance scored again, their query score
//! combined with a second query's (`query_weight`, `rescore_query_weight`, `score_mode`), hits
//! below the window weighted as hits the second query does not match, and all re-sorted, as
//! ES's `QueryRescorer`. Several rescorers apply in turn; `explain` shows each step.

use serde::Deserialize;
use serde_json::{json, Value};
use tantivy::query::EnableScoring;
use tantivy::{DocAddress, DocSet, Searcher};

use crate::error::{EngineError, Result};
use crate::hits::top_hits::Hit;
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

/// Applies the rescorers to `hits` (best first, internal scale `scale`); answers each
/// rescorer's window, the documents it rescored (ES explains only those as rescored).
pub fn apply(
    rescorers: &[Rescore],
    handle: &IndexHandle,
    searcher: &Searcher,
    hits: &mut [Hit],
    scale: f32,
) -> Result<Vec<Vec<DocAddress>>> {
    let mut windows = Vec::with_capacity(rescorers.len());
    for rescorer in rescorers {
        let window = rescorer.window_size.min(hits.len());
        windows.push(hits[..window].iter().map(|h| h.address).collect());
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
        // Past the window a hit counts as one the second query does not match (ES's
        // `QueryRescorer.combine`), and all are sorted again. Stable: ties keep their order.
        for hit in hits[window..].iter_mut() {
            hit.score *= rescorer.query_weight;
        }
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
    Ok(windows)
}

/// ES's `QueryRescoreMode` name, as explanations show it.
fn mode_name(mode: ScoreMode) -> &'static str {
    match mode {
        ScoreMode::Total => "total",
        ScoreMode::Multiply => "multiply",
        ScoreMode::Avg => "avg",
        ScoreMode::Max => "max",
        ScoreMode::Min => "min",
    }
}

/// A hit's explanation (`first`, on the shown scale) with each rescorer's step over it, as
/// ES's `QueryRescorer.explain`: the first-pass score times `primaryWeight`, combined with the
/// second query's explanation times `secondaryWeight` where the hit was in the window and
/// matches it. `second` explains the rescore query on the hit (`None`: it does not match),
/// already on the shown scale.
pub fn explain(
    rescorers: &[Rescore],
    windows: &[Vec<DocAddress>],
    address: DocAddress,
    first: Value,
    second: &mut dyn FnMut(usize) -> Option<Value>,
) -> Value {
    let mut tree = first;
    for (i, (rescorer, window)) in rescorers.iter().zip(windows).enumerate() {
        let value = tree["value"].as_f64().unwrap_or(0.0) as f32;
        let weight = json!({ "value": rescorer.query_weight, "description": "primaryWeight", "details": [] });
        let primary =
            json!({ "value": value * rescorer.query_weight, "description": "product of:", "details": [tree, weight] });
        let rescored = if window.contains(&address) { second(i) } else { None };
        tree = match rescored {
            None => primary,
            Some(explained) => {
                let r = explained["value"].as_f64().unwrap_or(0.0) as f32;
                let w = rescorer.rescore_query_weight;
                let weight = json!({ "value": w, "description": "secondaryWeight", "details": [] });
                let secondary = json!({ "value": w * r, "description": "product of:", "details": [explained, weight] });
                json!({
                    "value": rescorer.combine(value, Some(r)),
                    "description": format!("{} of:", mode_name(rescorer.score_mode)),
                    "details": [primary, secondary],
                })
            }
        };
    }
    tree
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
