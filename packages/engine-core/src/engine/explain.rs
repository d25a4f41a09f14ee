//! `GET|POST /{index}/_explain/{id}`: whether one document matches a query and how it scores.
//! The query (the body's, or the URL's `q` with its companions, as `_search` reads them) runs
//! on the index restricted to that document, with `explain`; the hit's `_explanation` is the
//! answer. A document that does not exist is ES's 404 with `matched: false`.

use serde_json::{json, Map, Value};

use super::{uri_query, Engine};
use crate::error::{json_syntax_error, EngineError, Result};

/// Parameters that only choose a copy or a shard (one copy, one shard here) or name what ES
/// returns beside the explanation (not served: refused by the route's parameter list).
const SEARCH_PARAMS: [&str; 1] = ["routing"];

impl Engine {
    pub fn explain(&self, name: &str, id: &str, body: &[u8], params: &Map<String, Value>) -> Result<(String, u16)> {
        let index = self.single_index(name)?;
        let uri = uri_query::for_search(body, params)?;
        let query = explain_query(&uri.body)?;
        let mut search_params: Map<String, Value> = uri
            .params
            .iter()
            .filter(|(k, _)| SEARCH_PARAMS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        search_params.insert("rest_total_hits_as_int".into(), json!("true"));
        let exists = self.get_doc(&index, id, &Map::new())?.1 == 200;
        if !exists {
            return Ok((json!({ "_index": index, "_id": id, "matched": false }).to_string(), 404));
        }
        let search = json!({
            "query": { "bool": { "must": [query], "filter": [{ "ids": { "values": [id] } }] } },
            "explain": true,
            "size": 1,
            "_source": false,
        });
        let reply: Value = serde_json::from_str(&self.search(&index, search.to_string().as_bytes(), &search_params)?)
            .map_err(|e| EngineError::Internal(e.to_string()))?;
        let answer = match reply["hits"]["hits"].get(0) {
            Some(hit) => json!({ "_index": index, "_id": id, "matched": true, "explanation": hit["_explanation"] }),
            None => json!({
                "_index": index,
                "_id": id,
                "matched": false,
                "explanation": { "value": 0.0, "description": "no matching term", "details": [] },
            }),
        };
        Ok((answer.to_string(), 200))
    }
}

/// The query an explain body holds: `{"query": {...}}`, the only key ES accepts.
fn explain_query(body: &[u8]) -> Result<Value> {
    let missing = || EngineError::ActionRequestValidation("Validation Failed: 1: query is missing;".into());
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(missing());
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| json_syntax_error(&e))?;
    let Value::Object(obj) = value else {
        return Err(EngineError::Parsing("request body must be an object".into()));
    };
    if let Some(other) = obj.keys().find(|k| *k != "query") {
        return Err(EngineError::Parsing(format!("request does not support [{other}]")));
    }
    obj.get("query").cloned().ok_or_else(missing)
}
