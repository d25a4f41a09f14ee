//! `indices_boost` over several indices: each entry names an index, an alias or a pattern,
//! resolved as the search's own index expression is (a name that resolves to nothing fails
//! with "no such index" unless `ignore_unavailable`). The body then carries the concrete
//! indices with their boosts, first entry first (ES keeps the first boost an index gets), for
//! each index's search to pick its own.

use serde_json::{json, Map, Value};

use super::resolve::ResolveOptions;
use super::Engine;
use crate::error::{EngineError, Result};

impl Engine {
    /// `body` with its `indices_boost` resolved to concrete index names (unchanged without one).
    pub(crate) fn resolve_indices_boost(&self, body: &[u8], options: ResolveOptions) -> Result<Option<Vec<u8>>> {
        if !body.windows(b"indices_boost".len()).any(|w| w == b"indices_boost") {
            return Ok(None);
        }
        let Ok(Value::Object(mut obj)) = serde_json::from_slice::<Value>(body) else { return Ok(None) };
        let Some(spec) = obj.get("indices_boost") else { return Ok(None) };
        let entries: Vec<(String, Value)> = match spec {
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_object)
                .flat_map(|o| o.iter())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            Value::Object(o) => o.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            _ => return Ok(None),
        };
        let mut concrete: Vec<Value> = Vec::new();
        let mut seen: Map<String, Value> = Map::new();
        for (expression, boost) in entries {
            let targets = match self.resolve(&expression, ResolveOptions { allow_no_indices: true, ..options }) {
                Ok(targets) => targets,
                Err(EngineError::IndexNotFound(_)) if options.ignore_unavailable => continue,
                Err(e) => return Err(e),
            };
            for target in targets {
                if !seen.contains_key(&target.index) {
                    seen.insert(target.index.clone(), Value::Null);
                    concrete.push(json!({ target.index: boost }));
                }
            }
        }
        obj.insert("indices_boost".into(), Value::Array(concrete));
        serde_json::to_vec(&Value::Object(obj)).map(Some).map_err(|e| EngineError::Internal(e.to_string()))
    }
}
