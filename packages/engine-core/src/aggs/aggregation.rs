//! The one trait every aggregation type implements (a file under `bucket/` or `metric/`):
//! how its DSL options parse into its request (`request::AggKind`), which field types it
//! reads, and how its merged result (`intermediate::AggFruit`) renders as ES renders it.
//! Collection per segment is `collect/`'s: it picks one of a few shared strategies (keyed
//! buckets, dense keyword ordinals, filter masks, values, ...) from the request.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::intermediate::AggFruit;
use super::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldType, Mapping};

/// One aggregation's definition as the request gives it: `{name: {<kind_name>: body, aggs}}`,
/// with its sub-aggregations already parsed.
pub struct AggDef<'a> {
    pub name: &'a str,
    pub kind_name: &'a str,
    pub body: &'a Map<String, Value>,
    pub mapping: &'a Mapping,
    pub subs: &'a [AggRequest],
}

impl AggDef<'_> {
    pub fn has_subs(&self) -> bool {
        !self.subs.is_empty()
    }

    /// `[kind] failed to parse field [key]`, ES's error for an option of the wrong type.
    pub fn bad_field(&self, key: &str) -> EngineError {
        EngineError::XContentParse(format!("[{}] failed to parse field [{key}]", self.kind_name))
    }

    /// The `field` option if given (a string, or ES's error).
    pub fn field_option(&self) -> Result<Option<String>> {
        match self.body.get("field") {
            None => Ok(None),
            Some(v) => Ok(Some(v.as_str().ok_or_else(|| self.bad_field("field"))?.to_string())),
        }
    }

    /// The `field` option as given, or "" (aggregations that read no field, or read it their own way).
    pub fn field_name(&self) -> String {
        self.body.get("field").and_then(Value::as_str).unwrap_or_default().to_string()
    }

    /// The `field` every field-reading aggregation requires (checked after its options).
    pub fn required_field(&self, field: Option<String>) -> Result<String> {
        field.ok_or_else(|| {
            EngineError::shard(
                ShardCause::IllegalArgument,
                format!("Required one of fields [field, script], but none were specified. ({})", self.name),
            )
        })
    }

    /// Checks the body's keys against the type's options, a serde struct with
    /// `deny_unknown_fields` (its fields `Option<IgnoredAny>`): an unknown key fails as ES
    /// reports it, `[kind] unknown field [key]`. Values are then read from `body`, each with
    /// ES's error naming its key (serde's errors name no field), in the body's key order.
    pub fn check_keys<T: DeserializeOwned>(&self) -> Result<()> {
        serde_json::from_value::<T>(Value::Object(self.body.clone())).map(drop).map_err(|e| {
            let text = e.to_string();
            match text.strip_prefix("unknown field `").and_then(|rest| rest.split_once('`')) {
                Some((key, _)) => EngineError::XContentParse(format!("[{}] unknown field [{key}]", self.kind_name)),
                None => EngineError::XContentParse(format!("[{}] {text}", self.kind_name)),
            }
        })
    }
}

/// The field an aggregation reads, as its parser found it.
pub enum FieldRef {
    /// Resolved against the mapping and checked against `Aggregation::accepts`.
    Field(String),
    /// Kept as named, never looked up: a nested path, or "" for aggregations without a field.
    Unresolved(String),
}

pub trait Aggregation: Sync {
    /// Parses the DSL options into the request's kind and the field it reads.
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)>
    where
        Self: Sized;

    /// Whether the aggregation reads a field of this type (text fields are refused before
    /// this is asked, unless the aggregation reads `_source`).
    fn accepts(&self, kind: &AggKind, ty: FieldType) -> bool {
        let _ = (kind, ty);
        true
    }

    /// Refuses sub-aggregations once the field's type has been checked (metrics).
    fn refuses_subs(&self) -> bool {
        false
    }

    /// The merged result as ES renders it.
    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value;

    /// `render`'s JSON appended to `out`, when nothing reads the rendered tree afterwards
    /// (`render::write_aggs`). A type whose result can run to thousands of buckets writes them
    /// itself: building a `Value` per bucket (a map, its keys, then freeing it all) is most of
    /// what such a response costs.
    fn write_json(&self, req: &AggRequest, fruit: &AggFruit, out: &mut String) {
        out.push_str(&self.render(req, fruit).to_string());
    }
}
