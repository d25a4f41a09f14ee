//! `POST [/{index}]/_cache/clear`: drops the indices' cached filter matches (`query`) and
//! field data (`fielddata`, optionally only `fields`); with none of `query`, `fielddata` and
//! `request` named, every cache. There is no shard request cache here: `request` clears
//! nothing because nothing is ever held.

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::versioning::param_text;

use super::super::resolve::ResolveOptions;
use super::super::Engine;
use super::layout::{shards_header, ShardLayout};
use super::matches_any;

fn flag(params: &Map<String, Value>, key: &str) -> Result<Option<bool>> {
    match params.get(key).map(param_text).as_deref() {
        None => Ok(None),
        Some("true") | Some("") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(other) => Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{other}] as only [true] or [false] are allowed."
        ))),
    }
}

impl Engine {
    pub fn clear_cache(&self, expression: &str, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        let expression =
            params.get("index").map(param_text).filter(|_| expression.is_empty()).unwrap_or(expression.to_string());
        let (query, fielddata, request) =
            (flag(&params, "query")?, flag(&params, "fielddata")?, flag(&params, "request")?);
        let everything = !query.unwrap_or(false) && !fielddata.unwrap_or(false) && !request.unwrap_or(false);
        let fields: Option<Vec<String>> =
            params.get("fields").map(|v| param_text(v).split(',').map(|s| s.trim().to_string()).collect());
        let mut layouts = Vec::new();
        for target in self.resolve(&expression, options)? {
            let handle = self.get(&target.index)?;
            if everything || query == Some(true) {
                crate::query::tantivy::query_cache::clear(&handle.searcher());
            }
            if everything || fielddata == Some(true) || fields.is_some() {
                match &fields {
                    Some(patterns) => handle.counters.clear_fielddata(&|f| matches_any(patterns, f)),
                    None => handle.counters.clear_fielddata(&|_| true),
                }
            }
            layouts.push(ShardLayout::of(&handle.settings));
        }
        Ok(json!({ "_shards": shards_header(&layouts) }).to_string())
    }
}
