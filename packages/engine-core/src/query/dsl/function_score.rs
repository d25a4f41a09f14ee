//! `function_score`: `query` (default match_all) rescored by score functions, each optionally
//! behind a `filter` and scaled by a `weight`. The function syntax (`field_value_factor`,
//! `gauss`/`exp`/`linear`) is read by `score_function`; this file reads the envelope: the
//! `functions` array or a single function inline, `score_mode`, `boost_mode`, `max_boost`,
//! `min_score` and `boost`. Unknown keys fail like ES (`parsing_exception`).

use serde_json::{Map, Value};

use super::parse_query;
use super::score_function::parse_function;
use crate::error::{EngineError, Result};
use crate::query::ast::{BoostMode, FunctionScoreAst, QueryAst, ScoreFunctionAst, ScoreFunctionKind, ScoreMode};

fn perr(msg: String) -> EngineError {
    EngineError::Parsing(msg)
}

fn number(key: &str, v: &Value) -> Result<f64> {
    v.as_f64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(|| perr(format!("[function_score] [{key}] must be a number, found [{v}]")))
}

fn parse_score_mode(v: &Value) -> Result<ScoreMode> {
    Ok(match v.as_str().unwrap_or_default() {
        "multiply" => ScoreMode::Multiply,
        "sum" => ScoreMode::Sum,
        "avg" => ScoreMode::Avg,
        "first" => ScoreMode::First,
        "max" => ScoreMode::Max,
        "min" => ScoreMode::Min,
        _ => return Err(perr(format!("[function_score] illegal score_mode [{v}]"))),
    })
}

fn parse_boost_mode(v: &Value) -> Result<BoostMode> {
    Ok(match v.as_str().unwrap_or_default() {
        "multiply" => BoostMode::Multiply,
        "replace" => BoostMode::Replace,
        "sum" => BoostMode::Sum,
        "avg" => BoostMode::Avg,
        "max" => BoostMode::Max,
        "min" => BoostMode::Min,
        _ => return Err(perr(format!("[function_score] illegal boost_mode [{v}]"))),
    })
}

/// One entry of `functions`: `{filter?, weight?, <function>?}` with at least a weight or a function.
fn parse_entry(entry: &Value) -> Result<ScoreFunctionAst> {
    let obj = entry
        .as_object()
        .ok_or_else(|| perr("[function_score] malformed query, expected a [START_OBJECT] in [functions]".into()))?;
    let mut filter = None;
    let mut weight = None;
    let mut kind = None;
    for (key, value) in obj {
        match key.as_str() {
            "filter" => filter = Some(parse_query(value)?),
            "weight" => weight = Some(number("weight", value)?),
            name => {
                if kind.is_some() {
                    return Err(perr(format!(
                        "failed to parse function_score functions. already found a function, now encountering [{name}]. use [functions] array if you want to define several functions."
                    )));
                }
                kind = Some(parse_function(name, value)?);
            }
        }
    }
    if kind.is_none() && weight.is_none() {
        return Err(perr("failed to parse [function_score] query. function has no body and no weight".into()));
    }
    Ok(ScoreFunctionAst { filter, weight, kind: kind.unwrap_or(ScoreFunctionKind::One) })
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let obj: &Map<String, Value> = body
        .as_object()
        .ok_or_else(|| perr("[function_score] query malformed, no start_object after query name".into()))?;
    let mut query = None;
    let mut functions: Option<Vec<ScoreFunctionAst>> = None;
    let mut inline: Option<ScoreFunctionKind> = None;
    let mut inline_weight = None;
    let mut score_mode = ScoreMode::Multiply;
    let mut boost_mode = BoostMode::Multiply;
    let mut max_boost = f32::MAX as f64;
    let mut min_score = None;
    let mut boost = None;
    for (key, value) in obj {
        match key.as_str() {
            "query" => query = Some(parse_query(value)?),
            "functions" => {
                if inline.is_some() {
                    return Err(perr(format!("failed to parse [function_score] query. already found function, now encountering [{key}]. use [functions] array if you want to define several functions.")));
                }
                let list =
                    value.as_array().ok_or_else(|| perr("[function_score] [functions] must be an array".into()))?;
                functions = Some(list.iter().map(parse_entry).collect::<Result<_>>()?);
            }
            "score_mode" => score_mode = parse_score_mode(value)?,
            "boost_mode" => boost_mode = parse_boost_mode(value)?,
            "max_boost" => max_boost = number(key, value)?,
            "min_score" => min_score = Some(number(key, value)?),
            "boost" => boost = Some(number(key, value)? as f32),
            "weight" => inline_weight = Some(number(key, value)?),
            "_name" => {}
            name => {
                if functions.is_some() || inline.is_some() {
                    return Err(perr(format!("failed to parse [function_score] query. already found [functions] array, now encountering [{name}]. use [functions] array if you want to define several functions.")));
                }
                inline = Some(parse_function(name, value)?);
            }
        }
    }
    let functions = match (functions, inline, inline_weight) {
        (Some(list), None, None) => list,
        (Some(_), _, Some(_)) => {
            return Err(perr("[function_score] [weight] cannot be set next to a [functions] array".into()))
        }
        (None, Some(kind), weight) => vec![ScoreFunctionAst { filter: None, weight, kind }],
        (None, None, Some(weight)) => {
            vec![ScoreFunctionAst { filter: None, weight: Some(weight), kind: ScoreFunctionKind::One }]
        }
        (None, None, None) => Vec::new(),
        (Some(_), Some(_), _) => unreachable!("rejected while reading the keys"),
    };
    let ast = FunctionScoreAst {
        query: Box::new(query.unwrap_or(QueryAst::MatchAll)),
        functions,
        score_mode,
        boost_mode,
        max_boost,
        min_score,
    };
    Ok(QueryAst::FunctionScore(ast).boosted(boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_functions_array_and_modes() {
        let ast = parse(&json!({
            "query": {"match_all": {}},
            "functions": [{"filter": {"term": {"k": "x"}}, "weight": 2}, {"weight": 3}],
            "score_mode": "sum", "boost_mode": "replace", "min_score": 1.5
        }))
        .unwrap();
        let QueryAst::FunctionScore(fs) = ast else { panic!("{ast:?}") };
        assert_eq!(fs.functions.len(), 2);
        assert_eq!((fs.score_mode, fs.boost_mode, fs.min_score), (ScoreMode::Sum, BoostMode::Replace, Some(1.5)));
        assert!(fs.functions[0].filter.is_some());
    }

    #[test]
    fn inline_function_and_errors() {
        let ast = parse(&json!({"field_value_factor": {"field": "n"}, "boost": 2})).unwrap();
        assert!(matches!(ast, QueryAst::Boost { .. }));
        assert!(parse(&json!({"functions": [], "field_value_factor": {"field": "n"}})).is_err());
        assert!(parse(&json!({"bogus": 1})).is_err());
        assert!(parse(&json!({"score_mode": "median"})).is_err());
        assert!(parse(&json!({"functions": [{"filter": {"match_all": {}}}]})).is_err());
    }
}
