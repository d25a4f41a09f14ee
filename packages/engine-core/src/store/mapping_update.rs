//! Mapping updates (`PUT /{index}/_mapping` and dynamic mapping): new fields are appended to the
//! tantivy schema after every existing one, so the fields already written keep their numbers and
//! old segments stay readable (a segment without a field reads as having no values for it).
//! An update may add fields and change the root's dynamic options; changing an existing field's
//! type is ES's 400. Updates are recorded in order, so reopening replays them to the same schema.

use serde_json::{Map, Value};
use tantivy::schema::SchemaBuilder;

use crate::error::{EngineError, Result};
use crate::store::mapping::{add_tantivy_field, known_paths, parse_properties, Mapping, Parsed};

fn illegal(reason: String) -> EngineError {
    EngineError::IllegalArgument(reason)
}

impl Mapping {
    /// This mapping with `update` (a `mappings` body: `properties` and root options) applied.
    pub fn extend(&self, update: &Value) -> Result<Mapping> {
        let obj = update
            .as_object()
            .ok_or_else(|| EngineError::MapperParsing("Failed to parse mapping: mappings must be an object".into()))?;
        let mut rules = self.dynamic.clone();
        let mut parsed = Parsed::default();
        for (key, value) in obj {
            match key.as_str() {
                "properties" => {
                    if !crate::knn::parse_vector_specs(update)?.is_empty() {
                        return Err(illegal("vector fields can only be mapped when the index is created".into()));
                    }
                    parse_properties(value, "", None, &mut parsed)?
                }
                "_source" | "_meta" => {}
                "_routing" => {
                    let required = crate::store::mapping::parse_routing_option(value)?;
                    if required != self.routing_required {
                        return Err(illegal(format!(
                            "Mapper for [_routing] conflicts with existing mapper:\n\tCannot update parameter [required] from [{}] to [{required}]",
                            self.routing_required
                        )));
                    }
                }
                other if rules.apply_root_option(other, value)? => {}
                other => {
                    return Err(EngineError::MapperParsing(format!(
                    "Failed to parse mapping: Root mapping definition has unsupported parameters:  [{other} : {value}]"
                )))
                }
            }
        }
        // A completion field's tantivy field is made with the schema; one the mapping already
        // has may be repeated, a new one is refused.
        if let Some(new) = parsed.completions.iter().find(|c| !self.completions.contains_key(&c.name)) {
            return Err(illegal(format!(
                "[completion] field [{}] can only be mapped when the index is created",
                new.name
            )));
        }
        if !parsed.nested.is_empty() {
            return Err(illegal("[nested] objects can only be mapped when the index is created".into()));
        }
        rules.objects.extend(std::mem::take(&mut parsed.object_dynamic));
        let mut builder = SchemaBuilder::new();
        for (_, entry) in self.schema.fields() {
            builder.add_field(entry.clone());
        }
        let mut fields = self.fields.clone();
        let mut next = self.schema.num_fields();
        for spec in parsed.specs {
            if let Some(existing) = fields.get(&spec.name) {
                if existing.field_type != spec.field_type {
                    return Err(illegal(format!(
                        "mapper [{}] cannot be changed from type [{}] to [{}]",
                        spec.name,
                        existing.field_type.name(),
                        spec.field_type.name()
                    )));
                }
                if let Some((param, from, to)) = existing.params.conflict(spec.params()) {
                    return Err(illegal(format!(
                        "Mapper for [{}] conflicts with existing mapper:\n\tCannot update parameter [{param}] from [{from}] to [{to}]",
                        spec.name
                    )));
                }
                let params = spec.params().clone();
                if let Some(existing) = fields.get_mut(&spec.name) {
                    existing.params = params;
                }
                continue;
            }
            // Positional names, as at creation; skip any name a field already has.
            let mut name = format!("f{next}");
            while self.schema.get_field(&name).is_ok() {
                next += 1;
                name = format!("f{next}");
            }
            next += 1;
            let field = add_tantivy_field(&mut builder, &name, spec.field_type, &spec.params);
            fields.insert(spec.name.clone(), spec.into_field(field));
        }
        let mut aliases = self.aliases.clone();
        aliases.extend(std::mem::take(&mut parsed.aliases));
        let known = known_paths(&fields, &self.vectors, self.nested.as_ref(), &self.completions, &aliases);
        let custom_analyzers = crate::store::mapping::has_custom_analyzers(&fields);
        let next = Mapping {
            fields,
            known,
            aliases,
            custom_analyzers,
            schema: builder.build(),
            dynamic: rules,
            ..self.clone()
        };
        next.check_aliases()?;
        Ok(next)
    }

    /// Fields as ES counts them for `index.mapping.total_fields.limit`: every field and
    /// multi-field, and every object holding them.
    pub fn total_fields(&self) -> usize {
        let mut objects = std::collections::BTreeSet::new();
        for fm in self.fields.values().filter(|f| f.name == f.source_path || f.nested.is_some()) {
            let mut path = fm.name.as_str();
            while let Some((parent, _)) = path.rsplit_once('.') {
                objects.insert(parent.to_string());
                path = parent;
            }
        }
        self.fields.len() + self.vectors.len() + self.completions.len() + objects.len() + self.aliases.len()
    }

    /// Whether `other` (an extension of this mapping) adds fields or changes dynamic options.
    pub fn differs_from(&self, other: &Mapping) -> bool {
        self.fields.len() != other.fields.len()
            || format!("{:?}", self.dynamic) != format!("{:?}", other.dynamic)
            || self.aliases != other.aliases
            || self.fields.iter().zip(&other.fields).any(|((_, a), (_, b))| a.params != b.params)
    }
}

/// `update` merged into the `mappings` JSON `base`: objects merge key by key, the rest replaces.
pub fn merge_json(base: &mut Value, update: &Value) {
    match (base, update) {
        (Value::Object(b), Value::Object(u)) => {
            for (key, value) in u {
                match b.get_mut(key) {
                    // A field's `meta` is replaced whole, as ES replaces it.
                    Some(existing) if existing.is_object() && value.is_object() && key != "meta" => {
                        merge_json(existing, value)
                    }
                    _ => {
                        b.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (base, update) => *base = update.clone(),
    }
}

/// The mappings as ES renders them: `dynamic` as a string (`"false"`, `"strict"`).
pub fn render(mappings: &Value) -> Value {
    let mut out = mappings.clone();
    normalize(&mut out);
    if out.is_null() {
        out = Value::Object(Map::new());
    }
    out
}

fn normalize(v: &mut Value) {
    if let Value::Object(map) = v {
        if let Some(d) = map.get_mut("dynamic") {
            if let Value::Bool(b) = d {
                *d = Value::String(b.to_string());
            }
        }
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            expand_dotted(properties);
        }
        for child in map.values_mut() {
            normalize(child);
        }
    }
}

/// ES shows a dotted field name of a mapping (`"user.name"`) as the objects it stands for
/// (`user` holding `name`), merged with any object of that name; deeper dots are expanded
/// when `normalize` reaches the inner `properties`.
fn expand_dotted(properties: &mut Map<String, Value>) {
    let dotted: Vec<String> = properties.keys().filter(|k| k.contains('.')).cloned().collect();
    for key in dotted {
        let Some((head, rest)) = key.split_once('.') else { continue };
        let Some(definition) = properties.remove(&key) else { continue };
        let object = properties.entry(head.to_string()).or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(object) = object {
            if let Value::Object(inner) =
                object.entry("properties".to_string()).or_insert_with(|| Value::Object(Map::new()))
            {
                inner.insert(rest.to_string(), definition);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renders_dotted_names_as_objects() {
        let given = json!({"properties": {"user.name": {"type": "keyword"}, "user": {"properties": {"age": {"type": "long"}}},
            "a.b.c": {"type": "long", "fields": {"x.y": {"type": "keyword"}}}}});
        let shown = render(&given);
        assert_eq!(shown["properties"]["user"]["properties"]["name"]["type"], "keyword");
        assert_eq!(shown["properties"]["user"]["properties"]["age"]["type"], "long");
        assert_eq!(shown["properties"]["a"]["properties"]["b"]["properties"]["c"]["fields"]["x.y"]["type"], "keyword");
        assert!(shown["properties"].get("user.name").is_none());
    }

    #[test]
    fn appends_fields_keeping_existing_numbers() {
        let base = Mapping::from_mappings_json(&json!({"properties": {"a": {"type": "keyword"}}})).unwrap();
        let a = base.get("a").unwrap().field;
        let next = base.extend(&json!({"properties": {"b": {"type": "long"}, "a": {"type": "keyword"}}})).unwrap();
        assert_eq!(next.get("a").unwrap().field, a);
        assert_eq!(next.schema.num_fields(), base.schema.num_fields() + 1);
        assert!(base.differs_from(&next));
        let err = next.extend(&json!({"properties": {"b": {"type": "text"}}})).unwrap_err();
        assert!(err.to_string().contains("cannot be changed from type [long] to [text]"));
    }

    #[test]
    fn merges_and_renders_json() {
        let mut base = json!({"properties": {"a": {"type": "keyword"}}});
        merge_json(&mut base, &json!({"dynamic": false, "properties": {"u": {"properties": {"n": {"type": "long"}}}}}));
        assert_eq!(render(&base)["dynamic"], "false");
        assert_eq!(base["properties"]["u"]["properties"]["n"]["type"], "long");
    }
}
