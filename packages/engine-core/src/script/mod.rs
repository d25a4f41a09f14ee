//! A small, safe evaluator for the Painless subset pipeline aggregations use: `params.x`
//! arithmetic, comparisons, boolean logic, the ternary, `Math.*` and, in `moving_fn`,
//! `MovingFunctions.*(values, ...)`. Scripts are single expressions: no loops, no
//! assignment, bounded length and nesting. Anything else is a 400 `script_exception`
//! naming the construct, never a guess.
//!
//! Layer: value types, below `store/`. Uses only the leaves (ARCHITECTURE.md).

pub mod contexts;
mod eval;
mod lexer;
mod moving_functions;
mod parser;
pub mod scripted_metric;
pub mod update;

pub use eval::{DocLookup, Val};

use serde_json::{Map, Value};

use crate::error::{EngineError, Result, ShardCause};

/// The subset, named in every "unsupported" error so the fix is obvious.
const SUBSET: &str = "params.x arithmetic (+ - * / %), comparisons, && || !, ?:, number literals, Math.max/min/abs/sqrt/log/pow/round, MovingFunctions.max/min/sum/unweightedAvg/linearWeightedAvg/ewma/holt/stdDev";

pub(crate) fn unsupported(what: String) -> EngineError {
    EngineError::shard(
        ShardCause::Script,
        format!("unsupported script construct: {what}; the supported Painless subset is {SUBSET}"),
    )
}

pub(crate) fn script_error(reason: String) -> EngineError {
    EngineError::shard(ShardCause::Script, format!("runtime error: {reason}"))
}

/// A script's source and `params`: `"source"` or `{"source"|"inline", "lang", "params"}`.
pub(crate) fn source_and_params(value: &Value) -> Result<(String, Map<String, Value>)> {
    Ok(match value {
        Value::String(s) => (s.clone(), Map::new()),
        Value::Object(o) => {
            for key in o.keys() {
                if !matches!(key.as_str(), "source" | "inline" | "lang" | "params") {
                    return Err(EngineError::Parsing(format!("[script] unknown field [{key}]")));
                }
            }
            if let Some(lang) = o.get("lang").and_then(Value::as_str) {
                if lang != "painless" && lang != "expression" {
                    return Err(unsupported(format!("script language [{lang}]")));
                }
            }
            let source = o
                .get("source")
                .or_else(|| o.get("inline"))
                .and_then(Value::as_str)
                .ok_or_else(|| EngineError::Parsing("must specify [source] for an inline script".into()))?;
            let params = match o.get("params") {
                None => Map::new(),
                Some(Value::Object(p)) => p.clone(),
                Some(_) => return Err(EngineError::Parsing("[params] must be an object".into())),
            };
            (source.to_string(), params)
        }
        _ => return Err(EngineError::Parsing("[script] must be a string or an object".into())),
    })
}

/// A compiled script and its `params`.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    pub source: String,
    expr: parser::Expr,
    params: Map<String, Value>,
}

impl Script {
    /// Accepts `"source"` or `{"source": .., "lang": "painless", "params": {..}}`.
    pub fn from_json(value: &Value) -> Result<Script> {
        let (source, params) = source_and_params(value)?;
        Script::compile(&source, params)
    }

    pub fn compile(source: &str, params: Map<String, Value>) -> Result<Script> {
        let expr = parser::parse(lexer::tokenize(source)?)?;
        Ok(Script { source: source.to_string(), expr, params })
    }

    /// Runs with `vars` (from `buckets_path`) shadowing the script's own `params`.
    pub fn run(&self, vars: &[(String, f64)], values: Option<&[f64]>) -> Result<Val> {
        let lookup = |name: &str| -> Option<Val> {
            if let Some((_, v)) = vars.iter().find(|(k, _)| k == name) {
                return Some(Val::Num(*v));
            }
            self.params.get(name).map(|p| match p {
                Value::Bool(b) => Val::Bool(*b),
                Value::Number(n) if n.is_i64() => Val::Int(n.as_i64().unwrap_or_default()),
                Value::Number(n) => Val::Num(n.as_f64().unwrap_or(f64::NAN)),
                _ => Val::Null,
            })
        };
        eval::eval(&self.expr, &eval::Context { params: &lookup, values, doc: None })
    }

    /// Runs on one document, whose values `doc` reads (script queries and script fields).
    pub fn run_on(&self, doc: eval::DocLookup) -> Result<Val> {
        let lookup = |name: &str| -> Option<Val> {
            self.params.get(name).map(|p| match p {
                Value::Bool(b) => Val::Bool(*b),
                Value::Number(n) if n.is_i64() => Val::Int(n.as_i64().unwrap_or_default()),
                Value::Number(n) => Val::Num(n.as_f64().unwrap_or(f64::NAN)),
                _ => Val::Null,
            })
        };
        eval::eval(&self.expr, &eval::Context { params: &lookup, values: None, doc: Some(doc) })
    }

    /// The fields the script reads with `doc[...]`.
    pub fn doc_fields(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.expr.doc_fields(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(src: &str, vars: &[(&str, f64)]) -> Result<Val> {
        let vars: Vec<(String, f64)> = vars.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        Script::compile(src, Map::new())?.run(&vars, None)
    }

    #[test]
    fn arithmetic_follows_java_numeric_rules() {
        assert_eq!(run("params.a / params.b * 100", &[("a", 1.0), ("b", 4.0)]).unwrap(), Val::Num(25.0));
        assert_eq!(run("7 / 2", &[]).unwrap(), Val::Int(3));
        assert_eq!(run("7 % 3 + 1.5", &[]).unwrap(), Val::Num(2.5));
        assert_eq!(run("-params.a + 2 * 3", &[("a", 1.0)]).unwrap(), Val::Num(5.0));
        assert_eq!(run("return params.a > 10 && !(params.a >= 20);", &[("a", 15.0)]).unwrap(), Val::Bool(true));
        assert_eq!(run("params.a > 1 ? params.a : 0", &[("a", 0.5)]).unwrap(), Val::Int(0));
        assert_eq!(run("Math.max(params.a, 3)", &[("a", 2.0)]).unwrap(), Val::Num(3.0));
        assert_eq!(run("Math.sqrt(16) + Math.abs(-2)", &[]).unwrap(), Val::Num(6.0));
        assert_eq!(run("params.a / 0", &[("a", 1.0)]).unwrap(), Val::Num(f64::INFINITY));
        assert!(run("1 / 0", &[]).unwrap_err().to_string().contains("/ by zero"));
    }

    #[test]
    fn script_params_and_moving_functions() {
        let s = Script::from_json(&json!({"source": "params.x * params.k", "params": {"k": 2}})).unwrap();
        assert_eq!(s.run(&[("x".into(), 1.5)], None).unwrap(), Val::Num(3.0));
        let m = Script::from_json(&json!("MovingFunctions.unweightedAvg(values)")).unwrap();
        assert_eq!(m.run(&[], Some(&[1.0, 2.0, 6.0])).unwrap(), Val::Num(3.0));
        let e = Script::from_json(&json!("MovingFunctions.ewma(values, 0.5)")).unwrap();
        assert_eq!(e.run(&[], Some(&[2.0, 4.0])).unwrap(), Val::Num(3.0));
    }

    #[test]
    fn rejects_what_is_outside_the_subset() {
        for src in [
            "for (int i = 0; i < 10; i++) {}",
            "params.a = 1",
            "doc['x'].value.millis",
            "(double) params.a",
            "Math.random()",
            "MovingFunctions.holtWinters(values, 0.3, 0.1, 0.1, 2, false)",
            "params.a; params.b",
            &"(".repeat(100),
        ] {
            let err = Script::compile(src, Map::new()).and_then(|s| s.run(&[], Some(&[1.0])));
            let err = err.expect_err(src);
            assert_eq!(err.to_es_body()["error"]["root_cause"][0]["type"], "script_exception", "{src}");
            assert!(err.to_string().contains("unsupported script construct"), "{src}: {err}");
        }
    }
}
