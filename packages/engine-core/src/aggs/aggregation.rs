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
                Some((key, expected)) => EngineError::XContentParse(format!(
                    "[{}] unknown field [{key}]{}",
                    self.kind_name,
                    did_you_mean(key, expected.split('`').skip(1).step_by(2))
                )),
                None => EngineError::XContentParse(format!("[{}] {text}", self.kind_name)),
            }
        })
    }
}

/// ES's suggestion for an unknown option: the known ones whose Levenshtein similarity
/// (`1 - edits / longer length`, as Lucene's `LevenshteinDistance`) is above 0.5, most similar
/// first.
pub(crate) fn did_you_mean<'a>(unknown: &str, candidates: impl Iterator<Item = &'a str>) -> String {
    let mut scored: Vec<(f32, &str)> =
        candidates.map(|c| (similarity(unknown, c), c)).filter(|(score, _)| *score > 0.5).collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    match scored.as_slice() {
        [] => String::new(),
        [(_, one)] => format!(" did you mean [{one}]?"),
        many => format!(" did you mean any of [{}]?", many.iter().map(|(_, c)| *c).collect::<Vec<_>>().join(", ")),
    }
}

fn similarity(a: &str, b: &str) -> f32 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j] + 1).min(row[j + 1] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    1.0 - row[b.len()] as f32 / a.len().max(b.len()).max(1) as f32
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

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggests_close_option_names_as_es_does() {
        assert_eq!(did_you_mean("jlp", ["jlh", "gnd", "field"].into_iter()), " did you mean [jlh]?");
        assert_eq!(did_you_mean("zzz", ["jlh", "field"].into_iter()), "");
        assert_eq!(did_you_mean("fiel", ["field", "fields"].into_iter()), " did you mean any of [field, fields]?");
    }
}
