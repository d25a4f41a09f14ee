//! Index expressions in paths, as ES resolves them: comma lists, `*` wildcards over index and
//! alias names, `_all`, `-name` exclusions, aliases (with their filters), and the
//! `ignore_unavailable`, `allow_no_indices` and `expand_wildcards` options.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::store::versioning::param_text;

use super::Engine;

/// One index an expression names, with the filter of the alias it was reached through (none
/// when it was named directly or through an unfiltered alias).
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub index: String,
    pub filter: Option<Value>,
}

#[derive(Debug, Clone, Copy)]
pub struct ResolveOptions {
    pub ignore_unavailable: bool,
    pub allow_no_indices: bool,
    /// `expand_wildcards=none`: wildcards match nothing (every index here is open).
    pub expand_wildcards: bool,
}

impl Default for ResolveOptions {
    fn default() -> Self {
        ResolveOptions { ignore_unavailable: false, allow_no_indices: true, expand_wildcards: true }
    }
}

pub const OPTION_PARAMS: [&str; 3] = ["ignore_unavailable", "allow_no_indices", "expand_wildcards"];

fn flag(params: &Map<String, Value>, key: &str, default: bool) -> Result<bool> {
    match params.get(key).map(param_text).as_deref() {
        None => Ok(default),
        Some("true") | Some("") => Ok(true),
        Some("false") => Ok(false),
        Some(other) => Err(EngineError::IllegalArgument(format!(
            "Failed to parse value [{other}] as only [true] or [false] are allowed."
        ))),
    }
}

impl ResolveOptions {
    /// Reads (and removes) the three options from URL parameters.
    pub fn take(params: &mut Map<String, Value>) -> Result<ResolveOptions> {
        let mut options = ResolveOptions {
            ignore_unavailable: flag(params, "ignore_unavailable", false)?,
            allow_no_indices: flag(params, "allow_no_indices", true)?,
            expand_wildcards: true,
        };
        if let Some(v) = params.get("expand_wildcards").map(param_text) {
            let mut any = false;
            for part in v.split(',').map(str::trim) {
                match part {
                    "open" | "all" | "closed" | "hidden" => any = true,
                    "none" => {}
                    other => {
                        return Err(EngineError::IllegalArgument(format!(
                            "No enum constant org.elasticsearch.action.support.IndicesOptions.WildcardStates.{}",
                            other.to_uppercase()
                        )))
                    }
                }
            }
            options.expand_wildcards = any;
        }
        for key in OPTION_PARAMS {
            params.remove(key);
        }
        Ok(options)
    }
}

pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            text.starts_with(head) && (0..=text.len() - head.len()).any(|i| glob(rest, &text[head.len() + i..]))
        }
    }
}

/// Whether `expression` may name more than one index, or an alias (not a plain index name).
pub fn is_plain(expression: &str) -> bool {
    !expression.is_empty() && !expression.contains([',', '*']) && !expression.starts_with(['_', '-'])
}

impl Engine {
    fn index_names(&self) -> Vec<String> {
        let mut names: Vec<String> =
            self.shared.indices.read().unwrap_or_else(|p| p.into_inner()).keys().cloned().collect();
        names.sort();
        names
    }

    /// The indices `expression` names, in name order, each once.
    pub fn resolve(&self, expression: &str, options: ResolveOptions) -> Result<Vec<Target>> {
        let indices = self.index_names();
        let aliases = self.aliases.snapshot();
        // index -> filters it was reached through (`None` = unfiltered: wins over any filter).
        let mut found: BTreeMap<String, Option<Vec<Value>>> = BTreeMap::new();
        let add = |found: &mut BTreeMap<String, Option<Vec<Value>>>, index: &str, filter: Option<&Value>| {
            let entry = found.entry(index.to_string()).or_insert_with(|| Some(Vec::new()));
            match (entry.as_mut(), filter) {
                (Some(filters), Some(f)) => filters.push(f.clone()),
                (Some(_), None) => *entry = None,
                (None, _) => {}
            }
        };
        let expression = if expression.is_empty() || expression == "_all" { "*" } else { expression };
        let mut wildcard_seen = false;
        for part in expression.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let named;
            let part = if part.starts_with('<') {
                named = super::date_math_names::resolve_date_math(part, crate::search::now_ms())?;
                named.as_str()
            } else {
                part
            };
            if let Some(excluded) = part.strip_prefix('-').filter(|_| wildcard_seen) {
                found.retain(|name, _| !glob(excluded, name));
                continue;
            }
            if part.contains('*') || part == "_all" {
                wildcard_seen = true;
                if !options.expand_wildcards {
                    continue;
                }
                let pattern = if part == "_all" { "*" } else { part };
                for index in indices.iter().filter(|i| glob(pattern, i) && !i.starts_with('.')) {
                    add(&mut found, index, None);
                }
                for (alias, members) in aliases.iter().filter(|(a, _)| glob(pattern, a)) {
                    let _ = alias;
                    for (index, def) in members {
                        add(&mut found, index, def.filter.as_ref());
                    }
                }
                continue;
            }
            if part.starts_with('_') {
                return Err(EngineError::InvalidIndexName {
                    index: part.to_string(),
                    reason: format!("Invalid index name [{part}], must not start with '_'."),
                });
            }
            if indices.iter().any(|i| i == part) {
                add(&mut found, part, None);
            } else if let Some(members) = aliases.get(part) {
                for (index, def) in members {
                    add(&mut found, index, def.filter.as_ref());
                }
            } else if !options.ignore_unavailable {
                return Err(EngineError::IndexNotFound(part.to_string()));
            }
        }
        if found.is_empty() && !options.allow_no_indices {
            return Err(EngineError::IndexNotFound(expression.to_string()));
        }
        Ok(found
            .into_iter()
            .map(|(index, filters)| {
                let filter = filters.filter(|f| !f.is_empty()).map(|mut f| {
                    if f.len() == 1 {
                        f.remove(0)
                    } else {
                        serde_json::json!({ "bool": { "should": f, "minimum_should_match": 1 } })
                    }
                });
                Target { index, filter }
            })
            .collect())
    }

    /// The one index a single-document read names: an index, or an alias of exactly one.
    pub fn single_index(&self, name: &str) -> Result<String> {
        if self.get(name).is_ok() {
            return Ok(name.to_string());
        }
        match self.aliases.get(name) {
            Some(members) if members.len() == 1 => Ok(members.keys().next().cloned().unwrap_or_default()),
            Some(members) => Err(EngineError::IllegalArgument(format!(
                "alias [{name}] has more than one index associated with it [{}], can't execute a single index op",
                members.keys().cloned().collect::<Vec<_>>().join(", ")
            ))),
            None => Err(EngineError::IndexNotFound(name.to_string())),
        }
    }

    /// The index a write through `name` goes to: the index itself, the only index of an alias,
    /// or the alias's write index.
    pub fn write_index(&self, name: &str) -> Result<Option<String>> {
        let Some(members) = self.aliases.get(name) else { return Ok(None) };
        let writable: Vec<&String> = if members.len() == 1 {
            members.iter().filter(|(_, d)| d.is_write_index != Some(false)).map(|(i, _)| i).collect()
        } else {
            members.iter().filter(|(_, d)| d.is_write_index == Some(true)).map(|(i, _)| i).collect()
        };
        match writable.as_slice() {
            [one] => Ok(Some((*one).clone())),
            _ => Err(EngineError::IllegalArgument(format!(
                "no write index is defined for alias [{name}]. The write index may be explicitly disabled using \
                 is_write_index=false or the alias points to multiple indices without one being designated as a \
                 write index"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_and_globs() {
        assert!(is_plain("logs") && !is_plain("a,b") && !is_plain("a*") && !is_plain("_all"));
        assert!(glob("a*", "a1") && glob("*", "x") && !glob("a*", "b1") && glob("a*b", "axxb"));
    }

    #[test]
    fn options_come_out_of_the_parameters() {
        let mut p: Map<String, Value> = serde_json::from_str(r#"{"ignore_unavailable":"true","size":"1"}"#).unwrap();
        let o = ResolveOptions::take(&mut p).unwrap();
        assert!(o.ignore_unavailable && o.allow_no_indices);
        assert_eq!(p.len(), 1);
    }
}
