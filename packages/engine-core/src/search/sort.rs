//! Sort specs: the `sort` section (and the URL's `sort`) parsed against the mapping. The
//! collector that sorts is `top_hits.rs`; the keys it sorts by are `sort_key.rs`.

use serde_json::Value;

use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldType, Mapping};

/// At most this many sort keys (hits carry their keys in a fixed-size array).
pub const MAX_SORT_KEYS: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Asc,
    Desc,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SortTarget {
    Score,
    Doc,
    Field { name: String, tantivy_name: String, field_type: FieldType },
}

#[derive(Debug, Clone, PartialEq)]
pub struct SortSpec {
    pub target: SortTarget,
    pub order: Order,
}

/// Parses ES `sort`: a string, an object or an array of either.
pub fn parse_sort(value: &Value, mapping: &Mapping) -> Result<Vec<SortSpec>> {
    let items: Vec<&Value> = match value {
        Value::Array(a) => a.iter().collect(),
        other => vec![other],
    };
    if items.len() > MAX_SORT_KEYS {
        return Err(EngineError::Parsing(format!("[sort] at most {MAX_SORT_KEYS} sort keys are supported")));
    }
    let mut specs = Vec::with_capacity(items.len());
    for item in items {
        let (name, order) = match item {
            Value::String(s) => (s.as_str(), None),
            Value::Object(o) if o.len() == 1 => {
                let (name, opts) = o.iter().next().unwrap();
                let order = match opts {
                    Value::String(s) => Some(s.as_str()),
                    Value::Object(opts) => {
                        let mut order = None;
                        for (k, v) in opts {
                            match (k.as_str(), v) {
                                ("order", Value::String(s)) => order = Some(s.as_str()),
                                ("missing", Value::String(s)) if s == "_last" => {}
                                ("unmapped_type", Value::String(_)) => {}
                                _ => return Err(EngineError::Parsing(format!("[sort] option [{k}] is not supported"))),
                            }
                        }
                        order
                    }
                    _ => return Err(EngineError::Parsing(format!("[sort] malformed sort for [{name}]"))),
                };
                (name.as_str(), order)
            }
            _ => return Err(EngineError::Parsing("[sort] malformed sort: expected a field name or an object".into())),
        };
        let order = match order {
            None => None,
            Some("asc") => Some(Order::Asc),
            Some("desc") => Some(Order::Desc),
            Some(other) => {
                return Err(EngineError::Parsing(format!("[sort] unknown order [{other}], expected [asc] or [desc]")))
            }
        };
        let target = match name {
            "_score" => SortTarget::Score,
            "_doc" | "_shard_doc" => SortTarget::Doc,
            field => {
                let fm = mapping.get(field).ok_or_else(|| {
                    EngineError::shard(
                        ShardCause::QueryShard,
                        format!("No mapping found for [{field}] in order to sort on"),
                    )
                })?;
                if fm.field_type == FieldType::Text {
                    return Err(EngineError::shard(ShardCause::IllegalArgument, format!("Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [{field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.")));
                }
                SortTarget::Field {
                    name: field.to_string(),
                    tantivy_name: mapping.schema.get_field_name(fm.field).to_string(),
                    field_type: fm.field_type,
                }
            }
        };
        let default = if target == SortTarget::Score { Order::Desc } else { Order::Asc };
        specs.push(SortSpec { target, order: order.unwrap_or(default) });
    }
    Ok(specs)
}
