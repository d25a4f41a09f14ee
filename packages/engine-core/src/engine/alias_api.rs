//! The alias APIs: `PUT|POST /{index}/_alias/{name}`, `DELETE /{index}/_alias/{name}`,
//! `GET|HEAD [/{index}]/_alias[/{name}]`, `GET /_aliases` and `POST /_aliases` (atomic `add`,
//! `remove` and `remove_index` actions).

use serde_json::{json, Map, Value};

use crate::error::{json_syntax_error, EngineError, Result};

use super::aliases::{aliases_missing, AliasDef};
use super::resolve::ResolveOptions;
use super::Engine;
use crate::wildcard::glob;

fn body_object(body: &[u8]) -> Result<Map<String, Value>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(body).map_err(|e| json_syntax_error(&e))? {
        Value::Object(map) => Ok(map),
        _ => Err(EngineError::Parsing("request body must be an object".into())),
    }
}

/// `index`/`indices` or `alias`/`aliases` of an action: one name or a list.
fn names(action: &Map<String, Value>, one: &str, many: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for key in [one, many] {
        match action.get(key) {
            None => {}
            Some(Value::String(s)) => out.push(s.clone()),
            Some(Value::Array(items)) => {
                for item in items {
                    out.push(
                        item.as_str().ok_or_else(|| EngineError::Parsing(format!("[{key}] must hold strings")))?.into(),
                    );
                }
            }
            Some(other) => {
                return Err(EngineError::Parsing(format!("[{key}] must be a string or a list, got [{other}]")))
            }
        }
    }
    Ok(out)
}

enum Change {
    Add { indices: Vec<String>, alias: String, def: AliasDef },
    Remove { indices: Vec<String>, aliases: Vec<String>, must_exist: bool },
    RemoveIndex(Vec<String>),
}

impl Engine {
    fn concrete_indices(&self, expressions: &[String]) -> Result<Vec<String>> {
        let mut out = Vec::new();
        for expression in expressions {
            let options = ResolveOptions { allow_no_indices: false, ..ResolveOptions::open_and_closed() };
            for target in self.resolve(expression, options)? {
                if !out.contains(&target.index) {
                    out.push(target.index);
                }
            }
        }
        Ok(out)
    }

    fn check_alias_name(&self, alias: &str) -> Result<()> {
        if self.get_meta(alias).is_ok() {
            return Err(EngineError::InvalidAliasName {
                alias: alias.to_string(),
                reason: format!("Invalid alias name [{alias}], an index exists with the same name as the alias"),
            });
        }
        if alias.is_empty() || alias.starts_with(['_', '-', '+']) || alias.contains([',', '*', '#', ' ']) {
            return Err(EngineError::InvalidAliasName {
                alias: alias.to_string(),
                reason: format!("Invalid alias name [{alias}]"),
            });
        }
        Ok(())
    }

    fn apply_changes(&self, changes: Vec<Change>) -> Result<()> {
        let mut doomed = Vec::new();
        self.aliases.update(|map| {
            for change in changes {
                match change {
                    Change::Add { indices, alias, def } => {
                        let entry = map.entry(alias).or_default();
                        for index in indices {
                            entry.insert(index, def.clone());
                        }
                    }
                    Change::Remove { indices, aliases, must_exist } => {
                        let mut removed = false;
                        for (alias, members) in
                            map.iter_mut().filter(|(a, _)| aliases.iter().any(|p| p == "_all" || glob(p, a)))
                        {
                            let _ = alias;
                            for index in &indices {
                                removed |= members.remove(index).is_some();
                            }
                        }
                        if !removed && must_exist {
                            return Err(aliases_missing(&aliases));
                        }
                    }
                    Change::RemoveIndex(indices) => doomed.extend(indices),
                }
            }
            Ok(())
        })?;
        for index in doomed {
            self.delete_index(&index)?;
        }
        Ok(())
    }

    /// `PUT|POST /{index}/_alias/{name}` (body: `filter`, `routing`, `is_write_index`, ...).
    pub fn put_alias(&self, index: &str, alias: &str, body: &[u8]) -> Result<String> {
        let def = AliasDef::parse(&body_object(body)?, &[])?;
        let indices = self.concrete_indices(&[index.to_string()])?;
        let mut changes = Vec::new();
        for alias in alias.split(',') {
            self.check_alias_name(alias)?;
            changes.push(Change::Add { indices: indices.clone(), alias: alias.to_string(), def: def.clone() });
        }
        self.apply_changes(changes)?;
        Ok(json!({ "acknowledged": true }).to_string())
    }

    /// `DELETE /{index}/_alias/{name}`: `name` may hold wildcards and commas.
    pub fn delete_alias(&self, index: &str, alias: &str) -> Result<String> {
        let indices = self.concrete_indices(&[index.to_string()])?;
        let aliases: Vec<String> = alias.split(',').map(str::to_string).collect();
        self.apply_changes(vec![Change::Remove { indices, aliases, must_exist: true }])?;
        Ok(json!({ "acknowledged": true }).to_string())
    }

    /// `POST /_aliases`: every action applies, or none does.
    pub fn update_aliases(&self, body: &[u8]) -> Result<String> {
        let obj = body_object(body)?;
        let mut changes = Vec::new();
        for (key, value) in &obj {
            if key != "actions" {
                return Err(EngineError::XContentParse(format!("[aliases] unknown field [{key}]")));
            }
            for action in value.as_array().ok_or_else(|| EngineError::Parsing("[actions] must be a list".into()))? {
                let (kind, options) = action
                    .as_object()
                    .filter(|o| o.len() == 1)
                    .and_then(|o| o.iter().next())
                    .ok_or_else(|| EngineError::Parsing(format!("[alias_action] malformed action [{action}]")))?;
                let options = options.as_object().cloned().unwrap_or_default();
                let indices = self.concrete_indices(&names(&options, "index", "indices")?)?;
                match kind.as_str() {
                    "add" => {
                        let def = AliasDef::parse(&options, &["index", "indices", "alias", "aliases"])?;
                        for alias in names(&options, "alias", "aliases")? {
                            changes.push(Change::Add { indices: indices.clone(), alias, def: def.clone() });
                        }
                    }
                    "remove" => {
                        let must_exist = options.get("must_exist").and_then(Value::as_bool).unwrap_or(true);
                        let aliases = names(&options, "alias", "aliases")?;
                        changes.push(Change::Remove { indices, aliases, must_exist });
                    }
                    "remove_index" => changes.push(Change::RemoveIndex(indices)),
                    other => return Err(EngineError::XContentParse(format!("[alias_action] unknown field [{other}]"))),
                }
            }
        }
        if changes.is_empty() {
            return Err(EngineError::ActionRequestValidation("Validation Failed: 1: No action specified;".into()));
        }
        // Indices removed by the request go first (ES removes them before the other actions),
        // so an alias may take the name of an index the same request deletes.
        let removed: Vec<&String> = changes
            .iter()
            .filter_map(|c| if let Change::RemoveIndex(i) = c { Some(i) } else { None })
            .flatten()
            .collect();
        for change in &changes {
            if let Change::Add { alias, .. } = change {
                if !removed.contains(&alias) {
                    self.check_alias_name(alias)?;
                }
            }
        }
        self.apply_changes(changes)?;
        Ok(json!({ "acknowledged": true }).to_string())
    }

    /// `GET [/{index}]/_alias[/{name}]` and `GET /_aliases`: `{index: {aliases: {name: def}}}`.
    pub fn get_aliases(&self, index: Option<&str>, alias: Option<&str>) -> Result<(String, u16)> {
        self.get_aliases_with(index, alias, &Map::new())
    }

    /// `get_aliases` with the resolution options (wildcards reach open, closed and hidden
    /// indices by default). Names are matched as ES matches them: `_all` and `*` patterns,
    /// and `-name` exclusions once a wildcard came; a name neither found nor excluded makes
    /// the answer ES's 404, which still lists what was found.
    pub fn get_aliases_with(
        &self,
        index: Option<&str>,
        alias: Option<&str>,
        params: &Map<String, Value>,
    ) -> Result<(String, u16)> {
        let mut params = params.clone();
        let base = ResolveOptions { expand_closed: true, expand_hidden: true, ..ResolveOptions::metadata() };
        let options = ResolveOptions::take_over(&mut params, base)?;
        params.remove("local");
        if let Some(other) = params.keys().next() {
            return Err(EngineError::IllegalArgument(format!(
                "request [/_alias] contains unrecognized parameter: [{other}]"
            )));
        }
        let indices: Vec<String> =
            self.resolve(index.unwrap_or("_all"), options)?.into_iter().map(|t| t.index).collect();
        let requested: Vec<&str> = alias.map(|a| a.split(',').map(str::trim).collect()).unwrap_or_default();
        let first_wildcard = requested.iter().position(|p| p.contains('*')).unwrap_or(requested.len());
        let is_exclusion = |i: usize, p: &str| i >= first_wildcard && p.starts_with('-');
        let match_all = requested.is_empty() || requested.contains(&"_all");
        let wanted = |name: &str| {
            let mut matched = match_all;
            for (i, p) in requested.iter().enumerate() {
                if is_exclusion(i, p) {
                    matched = matched && !glob(&p[1..], name);
                } else if !matched {
                    matched = *p == "_all" || glob(p, name);
                }
            }
            matched
        };
        let mut out = Map::new();
        let mut returned: Vec<String> = Vec::new();
        for index in indices {
            let mut aliases = Map::new();
            for (name, def) in self.aliases.of_index(&index) {
                if wanted(&name) {
                    returned.push(name.clone());
                    aliases.insert(name, def.to_json());
                }
            }
            if alias.is_none() || !aliases.is_empty() {
                out.insert(index, json!({ "aliases": aliases }));
            }
        }
        let mut missing: Vec<&str> = Vec::new();
        for (i, name) in requested.iter().enumerate() {
            if *name == "_all" || name.contains('*') || (i > first_wildcard && name.starts_with('-')) {
                continue;
            }
            let excluded = requested
                .iter()
                .skip((i + 1).max(first_wildcard))
                .any(|p| p.starts_with('-') && (glob(&p[1..], name) || &p[1..] == "_all"));
            if !excluded && !returned.iter().any(|r| r == name) {
                missing.push(name);
            }
        }
        if missing.is_empty() {
            return Ok((Value::Object(out).to_string(), 200));
        }
        missing.sort_unstable();
        missing.dedup();
        let message = match missing.as_slice() {
            [one] => format!("alias [{one}] missing"),
            many => format!("aliases [{}] missing", many.join(",")),
        };
        let mut body = Map::new();
        body.insert("error".into(), json!(message));
        body.insert("status".into(), json!(404));
        body.extend(out);
        Ok((Value::Object(body).to_string(), 404))
    }
}
