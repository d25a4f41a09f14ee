//! `POST /{alias}/_rollover[/{new_index}]`: when the alias's write index meets one of the
//! `conditions` (`max_docs`, `max_age`, `max_size`; none given: always), a new index is
//! created (templates apply, and the body's settings, mappings and aliases) and the alias moves
//! to it. `dry_run` checks everything and changes nothing. Without a name, the new index is
//! the old one's with its numeric suffix incremented and padded to six digits.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::names::validate_index_name;
use crate::store::versioning::param_text;

use super::aliases::AliasDef;
use super::Engine;

/// One rollover condition as given, and whether the index meets it.
struct Condition {
    name: &'static str,
    shown: String,
    met: bool,
}

/// `logs-1` -> `logs-000002`; ES's pattern `^.*-\d+$` or its refusal.
fn next_name(old: &str) -> Result<String> {
    let refused = || EngineError::IllegalArgument(format!("index name [{old}] does not match pattern '^.*-\\d+$'"));
    let (head, digits) = old.rsplit_once('-').ok_or_else(refused)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refused());
    }
    let n: u64 = digits.parse().map_err(|_| refused())?;
    Ok(format!("{head}-{:06}", n + 1))
}

/// ES byte sizes (`10gb`, `5kb`, `100b`) in bytes.
fn byte_size(text: &str) -> Option<u64> {
    let lower = text.trim().to_lowercase();
    let split = lower.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(lower.len());
    let (num, unit) = lower.split_at(split);
    let n: f64 = num.parse().ok()?;
    let factor: f64 = match unit {
        "" | "b" => 1.0,
        "kb" | "k" => 1024.0,
        "mb" | "m" => 1024f64.powi(2),
        "gb" | "g" => 1024f64.powi(3),
        "tb" | "t" => 1024f64.powi(4),
        "pb" | "p" => 1024f64.powi(5),
        _ => return None,
    };
    Some((n * factor) as u64)
}

fn parse_conditions(value: &Value, docs: u64, age_ms: u64, size: u64) -> Result<Vec<Condition>> {
    let obj = value.as_object().ok_or_else(|| EngineError::Parsing("[conditions] must be an object".into()))?;
    let mut out = Vec::new();
    for (key, v) in obj {
        let text = param_text(v);
        let bad = || EngineError::IllegalArgument(format!("failed to parse [{key}] with value [{text}]"));
        let condition = match key.as_str() {
            "max_docs" => {
                let n: u64 = text.parse().map_err(|_| bad())?;
                Condition { name: "max_docs", shown: n.to_string(), met: docs >= n }
            }
            "max_age" => {
                let ms = super::cluster_settings::time_ms(&text).ok_or_else(bad)?;
                Condition { name: "max_age", shown: text.clone(), met: age_ms >= ms }
            }
            "max_size" => {
                let bytes = byte_size(&text).ok_or_else(bad)?;
                Condition { name: "max_size", shown: text.clone(), met: size >= bytes }
            }
            other => return Err(EngineError::XContentParse(format!("[conditions] unknown field [{other}]"))),
        };
        out.push(condition);
    }
    Ok(out)
}

impl Engine {
    /// `POST /{alias}/_rollover[/{new_index}]` (`dry_run`).
    pub fn rollover(
        &self,
        alias: &str,
        new_index: Option<&str>,
        body: &[u8],
        params: &Map<String, Value>,
    ) -> Result<String> {
        let dry_run = params.get("dry_run").is_some_and(|v| matches!(param_text(v).as_str(), "true" | ""));
        let request: Value = if body.iter().all(u8::is_ascii_whitespace) {
            json!({})
        } else {
            crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))?
        };
        let obj = request.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?;
        let mut create = Map::new();
        let mut conditions_json = json!({});
        for (key, value) in obj {
            match key.as_str() {
                "conditions" => conditions_json = value.clone(),
                "settings" | "mappings" | "aliases" => {
                    create.insert(key.clone(), value.clone());
                }
                other => return Err(EngineError::XContentParse(format!("[rollover] unknown field [{other}]"))),
            }
        }
        let members = self
            .aliases
            .get(alias)
            .ok_or_else(|| EngineError::IllegalArgument(format!("rollover target [{alias}] does not exist")))?;
        let old = self.write_index(alias).map_err(|_| {
            EngineError::IllegalArgument(format!("rollover target [{alias}] does not point to a write index"))
        })?;
        let old = old.unwrap_or_default();
        let new = match new_index {
            Some(n) => n.to_string(),
            None => next_name(&old)?,
        };
        validate_index_name(&new)?;
        if self.get_meta(&new).is_ok() {
            return Err(EngineError::IndexAlreadyExists(new));
        }
        let handle = self.get(&old)?;
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0);
        let age_ms = (now - handle.creation_date).max(0) as u64;
        let conditions = parse_conditions(&conditions_json, handle.num_docs(), age_ms, handle.store_size_in_bytes())?;
        let shown: Map<String, Value> =
            conditions.iter().map(|c| (format!("[{}: {}]", c.name, c.shown), json!(c.met))).collect();
        let roll = conditions.is_empty() || conditions.iter().any(|c| c.met);
        let rolled_over = roll && !dry_run;
        if rolled_over {
            self.create_index(&new, Value::Object(create).to_string().as_bytes())?;
            let explicit_write = members.get(&old).and_then(|d| d.is_write_index) == Some(true);
            self.aliases.update(|map| {
                let entry = map.entry(alias.to_string()).or_default();
                let def = entry.get(&old).cloned().unwrap_or_default();
                if explicit_write {
                    entry.insert(old.clone(), AliasDef { is_write_index: Some(false), ..def.clone() });
                    entry.insert(new.clone(), AliasDef { is_write_index: Some(true), ..def });
                } else {
                    entry.remove(&old);
                    entry.insert(new.clone(), def);
                }
                Ok(())
            })?;
        }
        Ok(json!({
            "acknowledged": rolled_over,
            "shards_acknowledged": rolled_over,
            "old_index": old,
            "new_index": new,
            "rolled_over": rolled_over,
            "dry_run": dry_run,
            "conditions": shown,
        })
        .to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_sizes() {
        assert_eq!(next_name("logs-1").unwrap(), "logs-000002");
        assert_eq!(next_name("a-b-000009").unwrap(), "a-b-000010");
        assert!(next_name("logs").is_err() && next_name("logs-x").is_err());
        assert_eq!(byte_size("1kb"), Some(1024));
        assert_eq!(byte_size("10"), Some(10));
        assert_eq!(byte_size("1x"), None);
    }
}
