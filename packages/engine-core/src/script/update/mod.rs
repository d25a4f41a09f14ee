//! Update scripts: `{"script": ...}` of `_update` and bulk `update` actions. The script runs
//! against `ctx` (`_source`, `op`, `_id`, `_index`, `_version`, `_routing`, `_now`) and may
//! change the document, set `ctx.op` to `noop` or `delete`, or fail; a failure is ES's 400
//! `illegal_argument_exception` "failed to execute script" with the `script_exception` as its
//! cause ("compile error" before it runs, "runtime error" while it runs).

mod eval;
mod parse;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};

/// A compiled update script with its `params`.
#[derive(Debug, Clone)]
pub struct UpdateScript {
    stmts: Vec<parse::Stmt>,
    params: Map<String, Value>,
}

/// What the script decided (`ctx.op`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateOp {
    /// Write the (changed) document: `index`, or `create` in a scripted upsert.
    Write,
    Noop,
    Delete,
}

/// What a script's run leaves: the document and the operation.
#[derive(Debug)]
pub struct Outcome {
    pub source: Map<String, Value>,
    pub op: UpdateOp,
}

/// The subset, named in every compile error so the fix is obvious.
const UPDATE_SUBSET: &str = "statements (; blocks, if/else, def), assignment (= += -= *= /= ++ --), \
    ctx._source/ctx.op/params paths, list/map/string methods, literals, arithmetic, comparisons, && || !, ?:; no loops";

fn failed(cause: String) -> EngineError {
    EngineError::IllegalArgumentCaused {
        reason: "failed to execute script".into(),
        cause_type: "script_exception",
        cause_reason: cause,
    }
}

impl UpdateScript {
    /// `"source"` or `{"source", "lang": "painless", "params"}`.
    pub fn from_json(value: &Value) -> Result<UpdateScript> {
        let (source, params) = super::source_and_params(value)?;
        let stmts = super::lexer::tokenize(&source).and_then(parse::parse).map_err(|e| {
            // The shared lexer and parser name the expression subset; name this one instead.
            let text = e.to_string();
            let what = text.split("; the supported Painless subset is").next().unwrap_or(&text);
            failed(format!("compile error: {what}; update scripts support {UPDATE_SUBSET}"))
        })?;
        Ok(UpdateScript { stmts, params })
    }

    /// Runs on `source` with `ctx.op` starting as `op` (`index`, or `create` for an upsert).
    pub fn run(&self, source: Map<String, Value>, op: &str, meta: &Map<String, Value>) -> Result<Outcome> {
        let mut ctx = meta.clone();
        ctx.insert("_source".into(), Value::Object(source));
        ctx.insert("op".into(), json!(op));
        let mut env = eval::Env { vars: Map::new(), budget: eval::BUDGET };
        env.vars.insert("ctx".into(), Value::Object(ctx));
        env.vars.insert("params".into(), Value::Object(self.params.clone()));
        env.run(&self.stmts).map_err(|e| failed(format!("runtime error: {e}")))?;
        let Some(Value::Object(mut ctx)) = env.vars.remove("ctx") else {
            return Err(failed("runtime error: ctx was replaced".into()));
        };
        let op = match ctx.get("op").and_then(Value::as_str) {
            Some("index" | "create") => UpdateOp::Write,
            Some("delete") => UpdateOp::Delete,
            // ES treats any other operation as doing nothing.
            _ => UpdateOp::Noop,
        };
        match ctx.remove("_source") {
            Some(Value::Object(source)) => Ok(Outcome { source, op }),
            _ => Err(failed("runtime error: ctx._source must stay an object".into())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(script: Value, source: Value) -> Result<Outcome> {
        let source = source.as_object().cloned().unwrap();
        UpdateScript::from_json(&script)?.run(source, "index", &Map::new())
    }

    #[test]
    fn changes_fields_lists_and_maps() {
        let out = run(
            json!({"source": "ctx._source.n += params.k; ctx._source.tags.add(params.t); ctx._source.o.put('y', 2); \
                   ctx._source.c++; ctx._source['s'] = 'v' + ctx._source.n; ctx._source.remove('gone'); \
                   def l = new ArrayList(); l.add(1); ctx._source.l = l",
                   "params": {"k": 5, "t": "b"}}),
            json!({"n": 1, "tags": ["a"], "o": {"x": 1}, "c": 1.5, "gone": true}),
        )
        .unwrap();
        assert_eq!(out.op, UpdateOp::Write);
        assert_eq!(
            Value::Object(out.source),
            json!({"n": 6, "tags": ["a", "b"], "o": {"x": 1, "y": 2}, "c": 2.5, "s": "v6", "l": [1]})
        );
    }

    #[test]
    fn branches_and_sets_the_operation() {
        let script = json!("if (ctx._source.n > 2) { ctx.op = 'delete' } else if (ctx._source.n == 2) { ctx.op = 'noop' } else { ctx._source.n = 10 / 4 }");
        assert_eq!(run(script.clone(), json!({"n": 3})).unwrap().op, UpdateOp::Delete);
        assert_eq!(run(script.clone(), json!({"n": 2})).unwrap().op, UpdateOp::Noop);
        let out = run(script, json!({"n": 1})).unwrap();
        assert_eq!((out.op, out.source["n"].clone()), (UpdateOp::Write, json!(2)));
        let list =
            run(json!("if (!ctx._source.tags.contains('x')) { ctx._source.tags.add('x') }"), json!({"tags": []}));
        assert_eq!(list.unwrap().source["tags"], json!(["x"]));
    }

    #[test]
    fn a_script_that_keeps_doubling_stops_at_its_budget() {
        let doubling = "def l = [1]; ".to_string() + &"l.addAll(l); ".repeat(60);
        let err = run(json!(doubling), json!({})).unwrap_err();
        assert!(err.to_es_body()["error"]["caused_by"]["reason"].as_str().unwrap().contains("budget"), "{err}");
        let text = "def s = 'ab'; ".to_string() + &"s = s + s; ".repeat(60);
        assert!(run(json!(text), json!({})).is_err());
        // Reading fields of a large document many times is not copying it each time.
        let big: Map<String, Value> = (0..20_000).map(|i| (format!("f{i}"), json!(i))).collect();
        let reads = "ctx._source.n = 0; ".to_string() + &"ctx._source.n += ctx._source.f7; ".repeat(100);
        let out = UpdateScript::from_json(&json!(reads)).unwrap().run(big, "index", &Map::new()).unwrap();
        assert_eq!(out.source["n"], json!(700));
    }

    #[test]
    fn refuses_what_it_cannot_run() {
        for bad in ["ctx._source.n +=", "for (int i = 0; i < 3; i++) {}", "ctx._source.n = 1 +* 2"] {
            let err = UpdateScript::from_json(&json!(bad)).unwrap_err();
            assert_eq!(err.es_type_and_status(), ("illegal_argument_exception", 400), "{bad}");
            assert!(err.to_es_body()["error"]["caused_by"]["reason"].as_str().unwrap().starts_with("compile error"));
        }
        for bad in
            ["ctx._source.nope.x = 1", "ctx._source.n = ctx._source.s * 2", "params.k = 1", "ctx._source.n = 1 / 0"]
        {
            let err = run(json!({"source": bad, "params": {"k": 1}}), json!({"n": 1, "s": "a"})).unwrap_err();
            let body = err.to_es_body();
            assert_eq!(body["error"]["reason"], "failed to execute script", "{bad}");
            assert!(body["error"]["caused_by"]["reason"].as_str().unwrap().starts_with("runtime error"), "{bad}");
        }
    }
}
