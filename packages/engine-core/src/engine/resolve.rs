//! Index expressions in paths, as ES resolves them: comma lists, `*` wildcards over index and
//! alias names, `_all`, `-name` exclusions, aliases (with their filters), and the
//! `ignore_unavailable`, `allow_no_indices` and `expand_wildcards` options.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};
use crate::store::versioning::param_text;
use crate::wildcard::glob;

use super::Engine;

/// One index an expression names, with the filter of the alias it was reached through (none
/// when it was named directly or through an unfiltered alias).
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub index: String,
    pub filter: Option<Value>,
}

/// How an expression resolves, as ES's `IndicesOptions`: which states a wildcard expands to,
/// and what a missing or closed index does.
#[derive(Debug, Clone, Copy)]
pub struct ResolveOptions {
    pub ignore_unavailable: bool,
    pub allow_no_indices: bool,
    /// Wildcards (and `_all`) expand to open indices.
    pub expand_open: bool,
    /// Wildcards expand to closed indices.
    pub expand_closed: bool,
    /// Wildcards expand to hidden indices and aliases (`index.hidden`, `is_hidden`) too.
    pub expand_hidden: bool,
    /// A closed index named (or reached through an alias) is an `index_closed_exception`, or
    /// skipped with `ignore_unavailable`: the options of APIs that read documents.
    pub forbid_closed: bool,
    /// Aliases name nothing: wildcards skip them and a named one is refused (index deletion).
    pub ignore_aliases: bool,
}

impl Default for ResolveOptions {
    /// ES's `strictExpandOpenAndForbidClosed`, the default of searches and document reads.
    fn default() -> Self {
        ResolveOptions {
            ignore_unavailable: false,
            allow_no_indices: true,
            expand_open: true,
            expand_closed: false,
            expand_hidden: false,
            forbid_closed: true,
            ignore_aliases: false,
        }
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
    /// ES's `strictExpandOpen`: open wildcards, a named closed index allowed (metadata reads).
    pub fn metadata() -> ResolveOptions {
        ResolveOptions { forbid_closed: false, ..ResolveOptions::default() }
    }

    /// Wildcards to open and closed indices alike (delete, settings updates).
    pub fn open_and_closed() -> ResolveOptions {
        ResolveOptions { expand_closed: true, ..ResolveOptions::metadata() }
    }

    /// Reads (and removes) the three options from URL parameters, over ES's search defaults.
    pub fn take(params: &mut Map<String, Value>) -> Result<ResolveOptions> {
        Self::take_over(params, ResolveOptions::default())
    }

    /// Reads (and removes) the three options from URL parameters over an API's own defaults.
    pub fn take_over(params: &mut Map<String, Value>, base: ResolveOptions) -> Result<ResolveOptions> {
        let mut options = ResolveOptions {
            ignore_unavailable: flag(params, "ignore_unavailable", base.ignore_unavailable)?,
            allow_no_indices: flag(params, "allow_no_indices", base.allow_no_indices)?,
            ..base
        };
        if let Some(v) = params.get("expand_wildcards").map(param_text) {
            let (mut open, mut closed, mut hidden) = (false, false, false);
            for part in v.split(',').map(str::trim) {
                match part {
                    "open" => open = true,
                    "closed" => closed = true,
                    "hidden" => hidden = true,
                    "all" => (open, closed, hidden) = (true, true, true),
                    "none" => {}
                    other => {
                        return Err(EngineError::IllegalArgument(format!("No valid expand wildcard value [{other}]")))
                    }
                }
            }
            (options.expand_open, options.expand_closed, options.expand_hidden) = (open, closed, hidden);
        }
        for key in OPTION_PARAMS {
            params.remove(key);
        }
        Ok(options)
    }

    /// Whether a wildcard takes an index in this state.
    fn expands_to(&self, index: &IndexInfo, pattern: &str) -> bool {
        let state = if index.closed { self.expand_closed } else { self.expand_open };
        state && (!index.hidden || self.expand_hidden || (pattern.starts_with('.') && index.name.starts_with('.')))
    }
}

/// What resolution needs to know of an index.
#[derive(Debug, Clone)]
pub(crate) struct IndexInfo {
    pub name: String,
    pub closed: bool,
    pub hidden: bool,
    pub uuid: String,
}

/// Whether `expression` may name more than one index, or an alias (not a plain index name).
pub fn is_plain(expression: &str) -> bool {
    !expression.is_empty() && !expression.contains([',', '*']) && !expression.starts_with(['_', '-'])
}

impl Engine {
    /// Every index with its state, in name order.
    pub(crate) fn index_infos(&self) -> Vec<IndexInfo> {
        let map = self.shared.indices.read().unwrap_or_else(|p| p.into_inner());
        let mut infos: Vec<IndexInfo> = map
            .iter()
            .map(|(name, h)| IndexInfo {
                name: name.clone(),
                closed: h.closed,
                hidden: h.settings.hidden,
                uuid: h.uuid.clone(),
            })
            .collect();
        infos.sort_by(|a, b| a.name.cmp(&b.name));
        infos
    }

    /// The indices `expression` names, in name order, each once.
    pub fn resolve(&self, expression: &str, options: ResolveOptions) -> Result<Vec<Target>> {
        let indices = self.index_infos();
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
        let info = |name: &str| indices.iter().find(|i| i.name == name);
        // A named (not expanded) index that is closed: an error, skipped, or taken.
        let closed_named = |index: &IndexInfo| -> Result<bool> {
            if !index.closed || !options.forbid_closed {
                return Ok(true);
            }
            if options.ignore_unavailable {
                return Ok(false);
            }
            Err(EngineError::IndexClosed { index: index.name.clone(), uuid: index.uuid.clone() })
        };
        let expression = if expression.is_empty() || expression == "_all" { "*" } else { expression };
        let mut wildcard_seen = false;
        for part in expression.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let named;
            let part = if part.starts_with('<') {
                named = super::date_math_names::resolve_date_math(part, crate::date::now_ms())?;
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
                let pattern = if part == "_all" { "*" } else { part };
                let mut matched = false;
                for index in indices
                    .iter()
                    .filter(|i| glob(pattern, &i.name) && (!i.name.starts_with('.') || pattern.starts_with('.')))
                {
                    if options.expands_to(index, pattern) {
                        add(&mut found, &index.name, None);
                        matched = true;
                    }
                }
                for (_, members) in aliases.iter().filter(|(a, _)| !options.ignore_aliases && glob(pattern, a)) {
                    for (index, def) in members {
                        if def.is_hidden == Some(true) && !options.expand_hidden {
                            continue;
                        }
                        let state_ok =
                            info(index)
                                .is_some_and(|i| if i.closed { options.expand_closed } else { options.expand_open });
                        if state_ok {
                            add(&mut found, index, def.filter.as_ref());
                            matched = true;
                        }
                    }
                }
                // ES checks each wildcard on its own: one that matches nothing is an error.
                if !matched && !options.allow_no_indices {
                    return Err(EngineError::IndexNotFound(part.to_string()));
                }
                continue;
            }
            if part.starts_with('_') {
                return Err(EngineError::InvalidIndexName {
                    index: part.to_string(),
                    reason: format!("Invalid index name [{part}], must not start with '_'."),
                });
            }
            if let Some(index) = info(part) {
                if closed_named(index)? {
                    add(&mut found, part, None);
                }
            } else if options.ignore_aliases && aliases.contains_key(part) {
                if !options.ignore_unavailable {
                    return Err(EngineError::IllegalArgument(format!(
                        "The provided expression [{part}] matches an alias, specify the corresponding concrete indices instead."
                    )));
                }
            } else if let Some(members) = aliases.get(part) {
                for (index, def) in members {
                    if info(index).map(closed_named).transpose()?.unwrap_or(false) {
                        add(&mut found, index, def.filter.as_ref());
                    }
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
        if self.get_meta(name).is_ok() {
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
        assert!(glob("test-*", "test-weird-index-中文") && glob("*文", "中文") && !glob("*x", "中文"));
    }

    #[test]
    fn options_come_out_of_the_parameters() {
        let mut p: Map<String, Value> = serde_json::from_str(r#"{"ignore_unavailable":"true","size":"1"}"#).unwrap();
        let o = ResolveOptions::take(&mut p).unwrap();
        assert!(o.ignore_unavailable && o.allow_no_indices);
        assert_eq!(p.len(), 1);
    }
}
