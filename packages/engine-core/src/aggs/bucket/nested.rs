//! `nested` and `reverse_nested`: single-bucket aggregations that move the documents their
//! sub-aggregations see, from parents to their objects at a nested path, or from objects back
//! up to an enclosing level. Both walk the block join's layout (`store::nested_levels`).

use serde_json::{Map, Value};
use tantivy::DocId;

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::options::Join;
use crate::aggs::render::single_bucket;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::Mapping;
use crate::store::nested_levels::SegLevels;

pub struct Nested;

impl Aggregation for Nested {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let (kind, path) = parse(def.name, def.kind_name, def.body)?;
        Ok((kind, FieldRef::Unresolved(path.unwrap_or_default())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let AggFruit::Buckets(buckets) = fruit else { unreachable!("fruit shape follows the request") };
        single_bucket(req, buckets.values().next())
    }
}

/// Parses the body; the levels are filled in by `resolve` once the enclosing scope is known.
fn parse(name: &str, kind_name: &str, body: &Map<String, Value>) -> Result<(AggKind, Option<String>)> {
    let mut path = None;
    for (key, value) in body {
        match (key.as_str(), value) {
            ("path", Value::String(p)) => path = Some(p.clone()),
            _ => return Err(EngineError::Parsing(format!("Unexpected token {key} in [{name}]."))),
        }
    }
    if kind_name == "nested" {
        if path.is_none() {
            return Err(EngineError::Parsing(format!("Missing [path] field for nested aggregation [{name}]")));
        }
        return Ok((AggKind::Join(Join::Objects { path: None, inside: Vec::new() }), path));
    }
    Ok((AggKind::Join(Join::Parents { target: None, unmapped: false }), path))
}

/// Resolves every `nested`/`reverse_nested` against the mapping and its enclosing scope (the
/// nested path whose objects an aggregation sees, `None` for root documents).
pub fn resolve(reqs: &mut [AggRequest], mapping: &Mapping, scope: Option<usize>, in_nested: bool) -> Result<()> {
    for req in reqs.iter_mut() {
        let mut inner = scope;
        let mut inner_nested = in_nested;
        if let AggKind::Join(join) = &mut req.kind {
            let path = req.field.name.as_str();
            let nested = mapping.nested.as_ref();
            let found = nested.and_then(|n| n.find(path));
            let kind = if matches!(join, Join::Objects { .. }) { "nested" } else { "reverse_nested" };
            let not_nested = || {
                EngineError::shard(
                    ShardCause::AggregationExecution,
                    format!("[{kind}] nested path [{path}] is not nested"),
                )
            };
            let is_object = mapping.is_object(path);
            match join {
                Join::Objects { path: at, inside } => {
                    if found.is_none() && is_object {
                        return Err(not_nested());
                    }
                    *at = found;
                    if let Some(n) = nested {
                        *inside = (0..n.paths.len()).map(|p| n.is_inside(p, scope)).collect();
                    }
                    inner = found;
                    inner_nested = true;
                }
                Join::Parents { target, unmapped } => {
                    if !in_nested {
                        return Err(EngineError::shard(
                            ShardCause::IllegalArgument,
                            format!(
                                "Reverse nested aggregation [{}] can only be used inside a [nested] aggregation",
                                req.name
                            ),
                        ));
                    }
                    if path.is_empty() {
                        *target = None;
                    } else if found.is_none() && is_object {
                        return Err(not_nested());
                    } else {
                        *target = found;
                        *unmapped = found.is_none();
                    }
                    inner = *target;
                }
            }
        } else if in_nested && (req.kind.reads_source() || is_top_hits(&req.kind)) {
            // Objects have no `_source` of their own here (ES reads it from the root's).
            return Err(EngineError::IllegalArgument(format!(
                "[{}] inside a [nested] aggregation is not supported",
                req.name
            )));
        }
        resolve(&mut req.subs, mapping, inner, inner_nested)?;
    }
    Ok(())
}

fn is_top_hits(kind: &AggKind) -> bool {
    matches!(kind, AggKind::TopHits(_))
}

/// Calls `visit` with each document the join maps `doc` to, in doc order.
/// `last` is the previous parent a `reverse_nested` bucket counted: a parent counts once.
pub fn for_each_joined(
    join: &Join,
    levels: &SegLevels,
    doc: DocId,
    last: &mut Option<DocId>,
    visit: &mut dyn FnMut(DocId),
) {
    match join {
        Join::Objects { path: None, .. } | Join::Parents { unmapped: true, .. } => {}
        Join::Objects { path: Some(path), inside } => {
            for object in levels.block_start(doc, inside)..doc {
                if levels.level(object) == Some(*path) {
                    visit(object);
                }
            }
        }
        Join::Parents { target, .. } => {
            if let Some(parent) = levels.ancestor(doc, *target) {
                if *last != Some(parent) {
                    *last = Some(parent);
                    visit(parent);
                }
            }
        }
    }
}
