//! `POST /_index_template/_simulate_index/{index}` (the template a new index of that name would
//! take) and `POST /_index_template/_simulate[/{name}]` (a template resolved with its
//! components): a template given in the body is added for the simulation only. Both answer the
//! resolved settings, mappings and aliases, and the other templates whose patterns overlap.

use serde_json::{json, Value};

use super::apply::{find_composable, resolve_composable};
use super::composable::{check_composable, parse_composable};
use super::patterns::overlap;
use super::{render_template, ComposableTemplate, TemplateSet};
use crate::engine::Engine;
use crate::error::{EngineError, Result};

/// The templates overlapping `name`'s patterns, legacy and composable, by name.
fn overlapping(set: &TemplateSet, name: &str, t: &ComposableTemplate) -> Vec<Value> {
    let mut found: Vec<(&String, &Vec<String>)> = set
        .legacy
        .iter()
        .filter(|(_, l)| overlap(&l.index_patterns, &t.index_patterns))
        .map(|(n, l)| (n, &l.index_patterns))
        .chain(
            set.composable
                .iter()
                .filter(|(n, c)| *n != name && overlap(&c.index_patterns, &t.index_patterns))
                .map(|(n, c)| (n, &c.index_patterns)),
        )
        .collect();
    found.sort_by(|a, b| a.0.cmp(b.0));
    found.into_iter().map(|(n, p)| json!({ "name": n, "index_patterns": p })).collect()
}

fn answer(set: &TemplateSet, name: &str, t: &ComposableTemplate, index: &str) -> String {
    let resolved = resolve_composable(set, t, index);
    json!({ "template": render_template(&resolved, false), "overlapping": overlapping(set, name, t) }).to_string()
}

impl Engine {
    /// The template set with the body's template added as `name` (checked as a put would be),
    /// and the warnings that put would give.
    fn with_simulated(&self, name: &str, body: &[u8]) -> Result<(TemplateSet, Vec<String>)> {
        let mut set = self.templates.snapshot();
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok((set, Vec::new()));
        }
        let template = parse_composable(name, body)?;
        let warning = check_composable(&set, name, &template)?;
        set.composable.insert(name.to_string(), template);
        Ok((set, warning.into_iter().collect()))
    }

    /// `POST /_index_template/_simulate_index/{index}`: `{}` when no template matches.
    pub fn simulate_index_template(&self, index: &str, body: &[u8]) -> Result<(String, Vec<String>)> {
        let added = format!("simulate_index_template_{}", crate::store::ids::auto_id().to_lowercase());
        let (set, warnings) = self.with_simulated(&added, body)?;
        let Some((name, t)) = find_composable(&set, index, false) else {
            return Ok((json!({}).to_string(), warnings));
        };
        Ok((answer(&set, name, t, index), warnings))
    }

    /// `POST /_index_template/_simulate[/{name}]`: the template `name` (or the one in the body).
    pub fn simulate_template(&self, name: Option<&str>, body: &[u8]) -> Result<(String, Vec<String>)> {
        let added = match name {
            Some(n) => n.to_string(),
            None => format!("simulate_template_{}", crate::store::ids::auto_id().to_lowercase()),
        };
        let has_body = !body.iter().all(u8::is_ascii_whitespace);
        if name.is_none() && !has_body {
            return Err(EngineError::IllegalArgument(
                "a template name to match or a new template body must be specified".into(),
            ));
        }
        let (set, warnings) = self.with_simulated(&added, body)?;
        let Some(t) = set.composable.get(&added) else {
            return Err(EngineError::IllegalArgument(format!(
                "unable to simulate template [{added}] that does not exist"
            )));
        };
        let index = format!("simulate_template_index_{}", crate::store::ids::auto_id().to_lowercase());
        Ok((answer(&set, &added, t, &index), warnings))
    }
}
