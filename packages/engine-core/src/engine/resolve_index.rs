//! `GET /_resolve/index/{name}`: the indices and aliases an expression names, with each index's
//! aliases and attributes (`open` or `closed`, `hidden`) and each alias's indices. Data streams
//! do not exist here, so that list is always empty.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};

use super::resolve::ResolveOptions;
use super::Engine;
use crate::wildcard::glob;

impl Engine {
    /// `GET /_resolve/index/{name}` (`expand_wildcards`, open indices by default).
    pub fn resolve_index(&self, name: &str, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take_over(&mut params, ResolveOptions::metadata())?;
        if let Some(other) = params.keys().next() {
            return Err(EngineError::IllegalArgument(format!(
                "request [/_resolve/index/{name}] contains unrecognized parameter: [{other}]"
            )));
        }
        let infos = self.index_infos();
        let aliases = self.aliases.snapshot();
        let mut indices: BTreeMap<String, Value> = BTreeMap::new();
        let mut alias_out: BTreeMap<String, Value> = BTreeMap::new();
        let parts: Vec<&str> = name.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
        for part in parts {
            let (pattern, wildcard) = match part {
                "_all" => ("*", true),
                p => (p, p.contains('*')),
            };
            for info in infos.iter().filter(|i| glob(pattern, &i.name)) {
                let state_ok = if info.closed { options.expand_closed } else { options.expand_open };
                let hidden_ok = !info.hidden || options.expand_hidden || pattern.starts_with('.');
                let dot_ok = !info.name.starts_with('.') || pattern.starts_with('.');
                if wildcard && !(state_ok && hidden_ok && dot_ok) {
                    continue;
                }
                let mut names: Vec<&String> =
                    aliases.iter().filter(|(_, m)| m.contains_key(&info.name)).map(|(a, _)| a).collect();
                names.sort();
                let mut attributes = vec![if info.closed { "closed" } else { "open" }];
                if info.hidden {
                    attributes.push("hidden");
                }
                attributes.sort_unstable();
                indices.insert(
                    info.name.clone(),
                    json!({ "name": info.name, "aliases": names, "attributes": attributes }),
                );
            }
            for (alias, members) in aliases.iter().filter(|(a, _)| glob(pattern, a)) {
                let hidden = members.values().any(|d| d.is_hidden == Some(true));
                if wildcard && hidden && !options.expand_hidden {
                    continue;
                }
                let members: Vec<&String> = members.keys().collect();
                alias_out.insert(alias.clone(), json!({ "name": alias, "indices": members }));
            }
        }
        Ok(json!({
            "indices": indices.into_values().collect::<Vec<_>>(),
            "aliases": alias_out.into_values().collect::<Vec<_>>(),
            "data_streams": [],
        })
        .to_string())
    }
}
