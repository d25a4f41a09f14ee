//! Runs the pipelines over the rendered aggregation tree, deepest levels first, so a
//! pipeline can read values that deeper pipelines produced.

use serde_json::{Map, Value};

use super::validate::{run_order, spec};
use super::{parent, sibling};
use crate::aggs::AggRequest;
use crate::error::Result;

/// Where keyed (`filters` with `keyed: true`) buckets keep their key while treated as a list.
const KEY_SLOT: &str = "\u{1}key";

pub fn apply(reqs: &[AggRequest], level: &mut Map<String, Value>) -> Result<()> {
    for req in reqs {
        if spec(req).is_some() || req.subs.is_empty() {
            continue;
        }
        let Some(Value::Object(agg)) = level.get_mut(&req.name) else { continue };
        match agg.get_mut("buckets") {
            Some(Value::Array(buckets)) => {
                for b in buckets.iter_mut() {
                    if let Value::Object(o) = b {
                        apply(&req.subs, o)?;
                    }
                }
                run_parents(&req.subs, buckets)?;
            }
            Some(Value::Object(keyed)) => {
                for b in keyed.values_mut() {
                    if let Value::Object(o) = b {
                        apply(&req.subs, o)?;
                    }
                }
                let mut list: Vec<Value> = std::mem::take(keyed)
                    .into_iter()
                    .map(|(k, mut b)| {
                        if let Value::Object(o) = &mut b {
                            o.insert(KEY_SLOT.into(), Value::String(k));
                        }
                        b
                    })
                    .collect();
                run_parents(&req.subs, &mut list)?;
                for mut b in list {
                    let key = b.as_object_mut().and_then(|o| o.remove(KEY_SLOT));
                    if let Some(Value::String(k)) = key {
                        keyed.insert(k, b);
                    }
                }
            }
            // A single-bucket aggregation: its sub-aggregations form the next level.
            _ => apply(&req.subs, agg)?,
        }
    }
    for p in run_order(reqs)? {
        let spec = spec(p).expect("run_order yields pipelines");
        if spec.kind.is_sibling() {
            let value = sibling::run(spec, level)?;
            level.insert(p.name.clone(), value);
        }
    }
    Ok(())
}

fn run_parents(subs: &[AggRequest], buckets: &mut Vec<Value>) -> Result<()> {
    for p in run_order(subs)? {
        let spec = spec(p).expect("run_order yields pipelines");
        if !spec.kind.is_sibling() {
            parent::run(&p.name, spec, buckets)?;
        }
    }
    Ok(())
}
