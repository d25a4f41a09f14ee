//! One `_bulk` action line: `{"<action>": {_index, _id, routing, if_seq_no, version, ...}}`,
//! read the way ES's `BulkRequestParser` reads it (unknown keys and actions are 400s that fail
//! the whole request; the write conditions are validated per line).

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::store::versioning::{param_text, Conditions, WriteKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Index,
    Create,
    Delete,
    Update,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Index => "index",
            Action::Create => "create",
            Action::Delete => "delete",
            Action::Update => "update",
        }
    }
}

/// What an action line says besides the action: the target and the write's options.
#[derive(Debug, Clone, Default)]
pub struct ActionMeta {
    pub index: Option<String>,
    pub id: Option<String>,
    pub routing: Option<String>,
    /// The line's own `require_alias` (`None`: the URL's default applies).
    pub require_alias: Option<bool>,
    pub cond: Conditions,
    /// `update` only.
    pub retry_on_conflict: u32,
    /// `update` only: `_source` of the updated document to return (`get` in the item).
    pub source: Option<Value>,
    /// The engine chose the id (no version lookup needed: it cannot exist yet).
    pub auto_id: bool,
    /// The line named an alias; `BulkItem::index` now holds the index it writes to.
    pub via_alias: bool,
    /// An ingest pipeline the line asks for (none exists here, so the item fails).
    pub pipeline: Option<String>,
}

fn unknown(line_no: usize, key: &str) -> EngineError {
    EngineError::IllegalArgument(format!("Action/metadata line [{line_no}] contains an unknown parameter [{key}]"))
}

/// Parses the action line's object; `line_no` is 1-based, as ES reports it.
pub fn parse_action(line_no: usize, meta: &Value) -> Result<(Action, ActionMeta)> {
    if meta.as_object().is_some_and(Map::is_empty) {
        return Err(EngineError::IllegalArgument(format!(
            "Malformed action/metadata line [{line_no}], expected FIELD_NAME but found [END_OBJECT]"
        )));
    }
    let obj = meta.as_object().filter(|o| o.len() == 1).ok_or_else(|| {
        EngineError::IllegalArgument(format!(
            "Malformed action/metadata line [{line_no}], expected START_OBJECT or END_OBJECT but found [{meta}]"
        ))
    })?;
    let (name, params) = obj.iter().next().expect("one key");
    let action = match name.as_str() {
        "index" => Action::Index,
        "create" => Action::Create,
        "delete" => Action::Delete,
        "update" => Action::Update,
        other => {
            return Err(EngineError::IllegalArgument(format!(
                "Malformed action/metadata line [{line_no}], expected one of [create, delete, index, update] but found [{other}]"
            )))
        }
    };
    let empty = Map::new();
    let params = match params {
        Value::Object(map) => map,
        Value::Null => &empty,
        _ => {
            return Err(EngineError::IllegalArgument(format!(
                "Malformed action/metadata line [{line_no}], expected START_OBJECT but found [{params}]"
            )))
        }
    };
    let mut meta = ActionMeta::default();
    let mut cond_params: Map<String, Value> = Map::new();
    for (key, value) in params {
        match (key.as_str(), value) {
            ("_index", Value::String(s)) => meta.index = Some(s.clone()),
            ("_id", Value::String(s)) => meta.id = Some(s.clone()),
            ("_id", Value::Number(n)) => meta.id = Some(n.to_string()),
            ("_id" | "routing", Value::Null) => {}
            ("routing", v) => meta.routing = Some(param_text(v)),
            ("require_alias", v) => meta.require_alias = Some(v == &Value::Bool(true) || v == "true"),
            ("if_seq_no" | "if_primary_term" | "version" | "version_type", v) => {
                cond_params.insert(key.clone(), v.clone());
            }
            ("op_type", v) if action == Action::Index => {
                cond_params.insert(key.clone(), v.clone());
            }
            ("retry_on_conflict", v) if action == Action::Update => {
                meta.retry_on_conflict = param_text(v).parse().map_err(|_| {
                    EngineError::IllegalArgument(format!(
                        "Failed to parse int parameter [retry_on_conflict] with value [{v}]"
                    ))
                })?;
            }
            ("_source", v) if action == Action::Update => meta.source = Some(v.clone()),
            // No ingest pipeline exists on this engine: the item fails as ES fails an unknown one.
            ("pipeline", Value::String(p)) if p == "_none" => {}
            ("pipeline", v) => meta.pipeline = Some(param_text(v)),
            _ => return Err(unknown(line_no, key)),
        }
    }
    let kind = match action {
        Action::Index => WriteKind::Index,
        Action::Create => WriteKind::Create,
        Action::Delete => WriteKind::Delete,
        Action::Update => WriteKind::Update,
    };
    // Most lines carry no condition: nothing to parse then.
    if !cond_params.is_empty() || kind == WriteKind::Create {
        meta.cond = Conditions::parse(&|k| cond_params.get(k).map(param_text), kind)?;
    }
    // An `index` line with `op_type: create` is a `create` (and answers as one).
    let action = if action == Action::Index && meta.cond.create { Action::Create } else { action };
    if action == Action::Update && meta.retry_on_conflict > 0 && meta.cond.if_seq_no.is_some() {
        return Err(EngineError::ActionRequestValidation(
            "Validation Failed: 1: compare and write operations can not be retried;".into(),
        ));
    }
    Ok((action, meta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_targets_and_conditions() {
        let (action, meta) =
            parse_action(1, &json!({"index": {"_index": "a", "_id": 3, "if_seq_no": 4, "if_primary_term": 1}}))
                .unwrap();
        assert_eq!(action, Action::Index);
        assert_eq!((meta.index.as_deref(), meta.id.as_deref()), (Some("a"), Some("3")));
        assert_eq!(meta.cond.if_seq_no, Some((4, 1)));
        let (_, meta) = parse_action(1, &json!({"index": {"op_type": "create"}})).unwrap();
        assert!(meta.cond.create);
        let (action, meta) = parse_action(1, &json!({"update": {"_id": "1", "retry_on_conflict": 3}})).unwrap();
        assert_eq!((action, meta.retry_on_conflict), (Action::Update, 3));
    }

    #[test]
    fn refuses_unknown_keys_and_actions() {
        assert!(parse_action(1, &json!({"index": {"colour": "red"}})).unwrap_err().to_string().contains("[colour]"));
        assert!(parse_action(1, &json!({"upsert": {}})).unwrap_err().to_string().contains("found [upsert]"));
        assert!(parse_action(1, &json!({"index": {"version": 2}})).is_err());
    }
}
