//! `POST /{index}/_close`, `POST /{index}/_open` and `PUT /{index}/_block/{block}`: an index's
//! state and its API blocks, each over every index an expression names (ES's defaults: close
//! and block expand wildcards to open indices, open to closed ones).

use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::blocks::{Blocks, Level};

use super::resolve::ResolveOptions;
use super::Engine;

/// Parameters these APIs accept that change nothing on one node, one shard.
const WAITS: [&str; 3] = ["wait_for_active_shards", "timeout", "master_timeout"];

fn no_other_params(path: &str, params: &Map<String, Value>) -> Result<()> {
    match params.keys().find(|k| !WAITS.contains(&k.as_str())) {
        Some(other) => {
            Err(EngineError::IllegalArgument(format!("request [{path}] contains unrecognized parameter: [{other}]")))
        }
        None => Ok(()),
    }
}

impl Engine {
    /// `POST /{index}/_close`: pending writes are committed, then reads and writes are refused
    /// until the index is opened again.
    pub fn close_index(&self, name: &str, params: &Map<String, Value>) -> Result<String> {
        self.check_destructive(name)?;
        let mut params = params.clone();
        let options = ResolveOptions::take_over(&mut params, ResolveOptions::metadata())?;
        no_other_params(&format!("/{name}/_close"), &params)?;
        let names: Vec<String> = self.resolve(name, options)?.into_iter().map(|t| t.index).collect();
        for n in &names {
            self.get_meta(n)?.settings.blocks.check(n, Level::MetadataWrite)?;
        }
        let mut closed = Map::new();
        for n in names {
            self.set_state(&n, true)?;
            closed.insert(n, json!({ "closed": true }));
        }
        Ok(json!({ "acknowledged": true, "shards_acknowledged": true, "indices": closed }).to_string())
    }

    /// `POST /{index}/_open`.
    pub fn open_index(&self, name: &str, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let base = ResolveOptions { expand_open: false, expand_closed: true, ..ResolveOptions::metadata() };
        let options = ResolveOptions::take_over(&mut params, base)?;
        no_other_params(&format!("/{name}/_open"), &params)?;
        for target in self.resolve(name, options)? {
            self.set_state(&target.index, false)?;
        }
        Ok(json!({ "acknowledged": true, "shards_acknowledged": true }).to_string())
    }

    /// `PUT /{index}/_block/{block}`: sets `index.blocks.<block>` on every index named.
    pub fn add_block(&self, name: &str, block: &str, params: &Map<String, Value>) -> Result<String> {
        let block = Blocks::api_block(block)?;
        self.check_destructive(name)?;
        let mut params = params.clone();
        let options = ResolveOptions::take_over(&mut params, ResolveOptions::metadata())?;
        no_other_params(&format!("/{name}/_block/{block}"), &params)?;
        let names: Vec<String> = self.resolve(name, options)?.into_iter().map(|t| t.index).collect();
        let mut indices = Vec::new();
        for n in &names {
            let change = json!({ format!("index.blocks.{block}"): "true" });
            self.put_settings(n, change.to_string().as_bytes())?;
            indices.push(json!({ "name": n, "blocked": true }));
        }
        Ok(json!({ "acknowledged": true, "shards_acknowledged": true, "indices": indices }).to_string())
    }

    /// Closes or opens one index (a no-op when it already is so).
    fn set_state(&self, name: &str, closed: bool) -> Result<()> {
        let _one_at_a_time = self.mapping_updates.lock().unwrap_or_else(|p| p.into_inner());
        let handle = self.get_meta(name)?;
        if handle.closed == closed {
            return Ok(());
        }
        let next = Arc::new(handle.with_state(closed)?);
        self.shared.indices.write().unwrap_or_else(|p| p.into_inner()).insert(name.to_string(), next);
        Ok(())
    }
}
