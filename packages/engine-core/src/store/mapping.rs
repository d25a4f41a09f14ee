//! Index mappings: the ES `mappings.properties` JSON parsed into typed fields, and the
//! tantivy schema built from them. Multi-fields (`fields: {keyword: {...}}`) and object
//! `properties` are flattened to dotted names, as ES reports them.

use std::collections::BTreeMap;

use serde_json::Value;
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, SchemaBuilder, TextFieldIndexing, TextOptions, FAST, STORED,
};

use crate::date::DateFormat;
use crate::error::{EngineError, Result};
use crate::store::dynamic::{DynamicRules, KnownPaths};

pub(crate) mod params;
pub(crate) mod properties;
#[cfg(test)]
mod types_tests;

use params::mapper_err;
pub use params::{FieldParams, IndexOptions};
pub(crate) use properties::{parse_properties, Parsed};

use crate::analyzers::ES_STANDARD_TOKENIZER;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    Keyword,
    Text,
    Long,
    Integer,
    Short,
    Byte,
    Double,
    Float,
    Date,
    Boolean,
    /// An IP address (`ip/`): stored as a fixed-width key in a keyword-like field.
    Ip,
    GeoPoint,
    /// A float rounded to IEEE half precision (`half_float`), kept in the double column.
    HalfFloat,
    /// A double rounded to a multiple of 1/`scaling_factor` (`scaled_float`), in the double column.
    ScaledFloat,
    /// Base64 bytes (`binary`): not searchable; presence in `_field_names`, a bytes column
    /// only with `doc_values: true`.
    Binary,
    /// An interval of numbers, dates or addresses (`integer_range` ... `ip_range`,
    /// `range_field/`): a bytes column of encoded inclusive ends.
    Range(crate::range_field::RangeKind),
}

impl FieldType {
    fn parse(name: &str) -> Option<FieldType> {
        Some(match name {
            "keyword" => FieldType::Keyword,
            "text" => FieldType::Text,
            "long" => FieldType::Long,
            "integer" => FieldType::Integer,
            "short" => FieldType::Short,
            "byte" => FieldType::Byte,
            "double" => FieldType::Double,
            "float" => FieldType::Float,
            "date" => FieldType::Date,
            "boolean" => FieldType::Boolean,
            "ip" => FieldType::Ip,
            "geo_point" => FieldType::GeoPoint,
            "half_float" => FieldType::HalfFloat,
            "scaled_float" => FieldType::ScaledFloat,
            "binary" => FieldType::Binary,
            other => FieldType::Range(crate::range_field::RangeKind::parse(other)?),
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            FieldType::Keyword => "keyword",
            FieldType::Text => "text",
            FieldType::Long => "long",
            FieldType::Integer => "integer",
            FieldType::Short => "short",
            FieldType::Byte => "byte",
            FieldType::Double => "double",
            FieldType::Float => "float",
            FieldType::Date => "date",
            FieldType::Boolean => "boolean",
            FieldType::Ip => "ip",
            FieldType::GeoPoint => "geo_point",
            FieldType::HalfFloat => "half_float",
            FieldType::ScaledFloat => "scaled_float",
            FieldType::Binary => "binary",
            FieldType::Range(kind) => kind.type_name(),
        }
    }

    /// i64-backed columns: long, integer, short, byte and date (epoch millis).
    pub fn is_i64(self) -> bool {
        matches!(self, FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte | FieldType::Date)
    }

    /// f64-backed columns: double, float, half_float and scaled_float.
    pub fn is_f64(self) -> bool {
        matches!(self, FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat)
    }

    /// Types whose presence is recorded in `_field_names` (no column or postings say it).
    pub fn presence_in_field_names(self) -> bool {
        matches!(self, FieldType::Text | FieldType::Binary)
    }
}

#[derive(Debug, Clone)]
pub struct FieldMapping {
    /// Full dotted ES name, e.g. `user.name` or `title.keyword`.
    pub name: String,
    /// Dotted path of the value in `_source` (a multi-field reads its parent's value).
    pub source_path: String,
    pub field_type: FieldType,
    pub date_formats: Vec<DateFormat>,
    pub ignore_above: Option<usize>,
    pub field: Field,
    /// The innermost `nested` object holding the field (an index into `NestedFields::paths`):
    /// its values live on that object's own hidden documents, not on the root document.
    pub nested: Option<usize>,
    /// `similarity`: how matches on the field score (`store/similarity.rs`); `None`: the index's default.
    pub similarity: Option<String>,
    /// An ip field's `ignore_malformed` and `null_value` (`ip/params.rs`).
    pub ip: crate::ip::IpParams,
    /// Analysis, fielddata, `ignore_malformed`, `null_value`, ... (`mapping/params.rs`).
    pub params: FieldParams,
}

/// One `nested` object path, e.g. `comments` or `comments.replies`.
#[derive(Debug, Clone, PartialEq)]
pub struct NestedPath {
    pub path: String,
    /// The enclosing nested path (`None`: directly under the root document).
    pub parent: Option<usize>,
}

/// How nested objects are stored: every object is a hidden document written just before its
/// parent in one indexing batch (ES's block join), tagged with its path and its root's `_id`.
#[derive(Debug, Clone)]
pub struct NestedFields {
    pub paths: Vec<NestedPath>,
    /// `_nested_path`: the path's index in `paths` (indexed and a column); root documents have none.
    pub path_field: Field,
    /// `_nested_root`: the root document's `_id`, so replacing or deleting it removes its objects.
    pub root_field: Field,
}

impl NestedFields {
    pub fn find(&self, path: &str) -> Option<usize> {
        self.paths.iter().position(|p| p.path == path)
    }

    /// Whether path `inner` lies strictly inside `outer` (`None`: the root, which holds every path).
    pub fn is_inside(&self, inner: usize, outer: Option<usize>) -> bool {
        let mut at = self.paths[inner].parent;
        loop {
            if at == outer {
                return true;
            }
            match at {
                Some(p) => at = self.paths[p].parent,
                None => return false,
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct Mapping {
    pub fields: BTreeMap<String, FieldMapping>,
    pub schema: Schema,
    pub id_field: Field,
    pub source_field: Field,
    /// Whether `_source` is stored as text (every index created since it was) rather than bytes:
    /// tantivy reads stored bytes back one byte at a time and text in one copy, which made
    /// reading `_source` the largest cost of a page of hits.
    pub source_as_text: bool,
    pub version_field: Field,
    pub seq_no_field: Field,
    /// ES's `_field_names`: the text fields a document has a value for, so `exists` on a text
    /// field (which has no fast column) is one term lookup instead of a scan of its vocabulary.
    pub field_names_field: Field,
    /// `knn_vector` and `dense_vector` fields by ES name; they live outside `fields` because no term, range or
    /// aggregation applies to them.
    pub vectors: BTreeMap<String, crate::knn::VectorField>,
    /// `completion` fields by ES name (`completion/field.rs`): their inputs are terms
    /// of a field of their own, read only by the completion suggester.
    pub completions: BTreeMap<String, crate::completion::field::CompletionField>,
    /// Present only when the mapping has `nested` objects (other schemas stay as they were).
    pub nested: Option<NestedFields>,
    /// How fields the mapping lacks are mapped when a document brings them (`store/dynamic.rs`).
    pub dynamic: DynamicRules,
    /// Every mapped path, for the per-document dynamic mapping check.
    pub known: KnownPaths,
    /// ES's `_routing`: the value a write was routed with, stored and indexed so reads and
    /// hits show it and `term` finds it. `None` for an index written by a build before it
    /// existed (its schema has no such field: routed writes are refused there).
    pub routing_field: Option<Field>,
    /// `_routing.required` of the mapping: every write and read must name a routing value.
    pub routing_required: bool,
    /// Field aliases: name -> the field it stands for (`get` resolves them).
    pub aliases: BTreeMap<String, String>,
    /// Whether a field names an analyzer other than `standard` (`LowerContext::analyze` looks
    /// it up only then).
    pub custom_analyzers: bool,
    /// ES's `_ignored`: the fields whose malformed values a document's indexing skipped
    /// (`ignore_malformed`), indexed and stored. `None` for an index from before it existed.
    pub ignored_field: Option<Field>,
    /// `_source.enabled`: when false, documents are indexed but their `_source` is not kept,
    /// so reads and hits show none.
    pub source_enabled: bool,
}

pub const ID_FIELD: &str = "_id";
pub const SOURCE_FIELD: &str = "_source";
pub const VERSION_FIELD: &str = "_version";
pub const SEQ_NO_FIELD: &str = "_seq_no";
pub const FIELD_NAMES_FIELD: &str = "_field_names";
pub const ROUTING_FIELD: &str = "_routing";
pub const IGNORED_FIELD: &str = "_ignored";
pub const NESTED_PATH_FIELD: &str = "_nested_path";
pub const NESTED_ROOT_FIELD: &str = "_nested_root";

impl Mapping {
    /// Parses `mappings` (the object holding `properties`) and builds the schema.
    pub fn from_mappings_json(mappings: &Value) -> Result<Mapping> {
        Self::from_stored_schema(mappings, MetaFields { routing: true, ignored: true, source_as_text: true })
    }

    /// As `from_mappings_json`, for an index on disk: `routing_field` says whether its schema
    /// was built with the `_routing` field (indexes created before it existed were not, nor
    /// with `_ignored`, which came after it).
    #[cfg(test)]
    pub(crate) fn from_stored_mappings(mappings: &Value, routing_field: bool) -> Result<Mapping> {
        let meta = MetaFields { routing: routing_field, ignored: routing_field, source_as_text: routing_field };
        Self::from_stored_schema(mappings, meta)
    }

    /// As `from_mappings_json`, for an index on disk whose schema has the metadata fields `meta`.
    pub(crate) fn from_stored_schema(mappings: &Value, meta: MetaFields) -> Result<Mapping> {
        let mut parsed = Parsed::default();
        let mut routing_required = false;
        let mut source_enabled = true;
        let mut rules = DynamicRules::default();
        if !mappings.is_null() {
            let obj = mappings
                .as_object()
                .ok_or_else(|| mapper_err("Failed to parse mapping: mappings must be an object"))?;
            if obj.len() == 1 && obj.get("_doc").is_some_and(Value::is_object) {
                return Err(EngineError::IllegalArgument(
                    "The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true."
                        .into(),
                ));
            }
            for (key, value) in obj {
                match key.as_str() {
                    "properties" => parse_properties(value, "", None, &mut parsed)?,
                    "_source" => source_enabled = parse_source_option(value)?,
                    "_meta" => {}
                    "_routing" => routing_required = parse_routing_option(value)?,
                    other if rules.apply_root_option(other, value)? => {}
                    other => {
                        return Err(mapper_err(&format!(
                            "Failed to parse mapping: Root mapping definition has unsupported parameters:  [{other} : {value}]"
                        )))
                    }
                }
            }
        }
        let vectors = crate::knn::parse_vector_specs(mappings)?;
        rules.objects = std::mem::take(&mut parsed.object_dynamic);
        let mapping = Mapping { routing_required, source_enabled, ..Self::build(parsed, vectors, rules, meta) };
        // Stored fields are read from the stored `_source`: without it there is nothing to read.
        if let Some(stored) = mapping.fields.values().find(|f| f.params.store && !source_enabled) {
            return Err(mapper_err(&format!(
                "Failed to parse mapping: [store] on field [{}] is not supported when [_source] is disabled",
                stored.name
            )));
        }
        mapping.check_aliases()?;
        Ok(mapping)
    }

    /// The stored `_source` of a document, when the mapping keeps it.
    pub fn stored_source<'d>(&self, doc: &'d tantivy::TantivyDocument) -> Option<&'d [u8]> {
        stored_source_in(doc, self.source_field)
    }

    /// Every alias must name a concrete field (not an object, not another alias), as ES checks.
    pub(crate) fn check_aliases(&self) -> Result<()> {
        for (name, path) in &self.aliases {
            if !self.fields.contains_key(path) {
                return Err(mapper_err(&format!(
                    "Failed to parse mapping: Invalid [path] value [{path}] for field alias [{name}]: an alias must refer to an existing field in the mappings."
                )));
            }
        }
        Ok(())
    }

    fn build(
        parsed: Parsed,
        vector_specs: Vec<crate::knn::VectorSpec>,
        dynamic: DynamicRules,
        meta: MetaFields,
    ) -> Mapping {
        let Parsed { specs, nested: nested_paths, completions, aliases, .. } = parsed;
        let mut builder = SchemaBuilder::new();
        let id_field = builder.add_text_field(ID_FIELD, exact_text() | STORED | FAST);
        let source_field = if meta.source_as_text {
            builder.add_text_field(SOURCE_FIELD, STORED)
        } else {
            builder.add_bytes_field(SOURCE_FIELD, STORED)
        };
        let version_field = builder.add_u64_field(VERSION_FIELD, FAST);
        let seq_no_field = builder.add_u64_field(SEQ_NO_FIELD, FAST);
        let field_names_field = builder.add_text_field(FIELD_NAMES_FIELD, exact_text());
        let mut fields = BTreeMap::new();
        for (ordinal, spec) in specs.into_iter().enumerate() {
            // Tantivy names are positional so dots in ES names never meet tantivy's JSON paths.
            let field = add_tantivy_field(&mut builder, &format!("f{ordinal}"), spec.field_type, &spec.params);
            fields.insert(spec.name.clone(), spec.into_field(field));
        }
        let vectors = crate::knn::add_vector_fields(&mut builder, vector_specs);
        // After the vectors, so a mapping without completion fields keeps every field number.
        let completions = crate::completion::field::add_fields(&mut builder, completions);
        // Added last, so the field numbers of every other field are those of a mapping without them.
        let nested = (!nested_paths.is_empty()).then(|| NestedFields {
            paths: nested_paths,
            path_field: builder.add_u64_field(NESTED_PATH_FIELD, NumericOptions::default().set_indexed().set_fast()),
            root_field: builder.add_text_field(NESTED_ROOT_FIELD, exact_text()),
        });
        // Last of all at creation, so an index from before it keeps every other field's number.
        let routing_field = meta.routing.then(|| builder.add_text_field(ROUTING_FIELD, exact_text() | STORED));
        // After `_routing`, for the same reason.
        let ignored_field = meta.ignored.then(|| builder.add_text_field(IGNORED_FIELD, exact_text() | STORED | FAST));
        let known = known_paths(&fields, &vectors, nested.as_ref(), &completions, &aliases);
        Mapping {
            completions,
            aliases,
            custom_analyzers: has_custom_analyzers(&fields),
            routing_field,
            ignored_field,
            routing_required: false,
            source_enabled: true,
            nested,
            dynamic,
            known,
            fields,
            vectors,
            schema: builder.build(),
            id_field,
            source_field,
            source_as_text: meta.source_as_text,
            version_field,
            seq_no_field,
            field_names_field,
        }
    }

    /// A field by name, or the field an alias of that name stands for.
    pub fn get(&self, name: &str) -> Option<&FieldMapping> {
        match self.fields.get(name) {
            Some(fm) => Some(fm),
            None if !self.aliases.is_empty() => self.aliases.get(name).and_then(|path| self.fields.get(path)),
            None => None,
        }
    }

    /// Whether `path` is an object holding mapped fields (what a `nested` request names
    /// when the object is mapped but not as `nested`).
    pub fn is_object(&self, path: &str) -> bool {
        let prefix = format!("{path}.");
        self.fields.keys().any(|f| f.starts_with(&prefix))
    }
}

/// Whether any field analyzes queries with an analyzer other than the standard one.
pub(crate) fn has_custom_analyzers(fields: &BTreeMap<String, FieldMapping>) -> bool {
    fields.values().any(|fm| fm.params.query_analyzer().is_some_and(|a| a != "standard" && a != "default"))
}

/// The metadata fields an index's schema holds beyond those every index has: each was added
/// after indices had been written without it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MetaFields {
    pub(crate) routing: bool,
    pub(crate) ignored: bool,
    /// `_source` as text; older indices keep it as bytes (its field number is the same).
    pub(crate) source_as_text: bool,
}

/// A document's stored `_source` in `field`, whichever way its index stores it (text, or bytes
/// in an index from before text).
pub fn stored_source_in(doc: &tantivy::TantivyDocument, field: Field) -> Option<&[u8]> {
    use tantivy::schema::Value as _;
    let value = doc.get_first(field)?;
    value.as_str().map(str::as_bytes).or_else(|| value.as_bytes())
}

/// `_routing` of a mapping: `{"required": true|false}`; whether routing is required.
pub(crate) fn parse_routing_option(value: &Value) -> Result<bool> {
    let obj = value.as_object().ok_or_else(|| mapper_err(&format!("[_routing] config must be an object: {value}")))?;
    let mut required = false;
    for (key, v) in obj {
        match (key.as_str(), v) {
            ("required", Value::Bool(b)) => required = *b,
            ("required", Value::String(s)) if s == "true" || s == "false" => required = s == "true",
            _ => {
                return Err(mapper_err(&format!(
                "Failed to parse mapping: Mapping definition for [_routing] has unsupported parameters:  [{key} : {v}]"
            )))
            }
        }
    }
    Ok(required)
}

/// The paths a document may hold that the mapping already covers.
pub(crate) fn known_paths(
    fields: &BTreeMap<String, FieldMapping>,
    vectors: &BTreeMap<String, crate::knn::VectorField>,
    nested: Option<&NestedFields>,
    completions: &BTreeMap<String, crate::completion::field::CompletionField>,
    aliases: &BTreeMap<String, String>,
) -> KnownPaths {
    let nested_paths = nested.into_iter().flat_map(|n| n.paths.iter().map(|p| p.path.as_str()));
    KnownPaths::new(
        fields
            .keys()
            .map(String::as_str)
            .chain(vectors.keys().map(String::as_str))
            .chain(nested_paths)
            .chain(completions.keys().map(String::as_str))
            .chain(aliases.keys().map(String::as_str)),
    )
}

/// The tantivy field an ES field type is stored in.
pub(crate) fn add_tantivy_field(
    builder: &mut SchemaBuilder,
    tantivy_name: &str,
    field_type: FieldType,
    params: &FieldParams,
) -> Field {
    let numeric = NumericOptions::default().set_indexed().set_fast();
    match field_type {
        FieldType::Keyword => builder.add_text_field(tantivy_name, exact_text() | FAST),
        FieldType::Text => {
            let tokenizer = params
                .analyzer
                .as_deref()
                .map_or_else(|| ES_STANDARD_TOKENIZER.to_string(), crate::analyzers::tokenizer_name);
            let record = match params.index_options {
                IndexOptions::Docs => IndexRecordOption::Basic,
                IndexOptions::Freqs => IndexRecordOption::WithFreqs,
                IndexOptions::Positions | IndexOptions::Offsets => IndexRecordOption::WithFreqsAndPositions,
            };
            let indexing = TextFieldIndexing::default().set_tokenizer(&tokenizer).set_index_option(record);
            let options = TextOptions::default().set_indexing_options(indexing);
            // Fielddata: the analyzed terms as a multi-valued string column, which sorts and
            // aggregations read as they read a keyword's.
            let options = if params.fielddata { options.set_fast(&tokenizer) } else { options };
            builder.add_text_field(tantivy_name, options)
        }
        FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte => {
            builder.add_i64_field(tantivy_name, numeric)
        }
        // Dates are column-only: ranges, sorts and aggregations read the column (with its
        // zone map, `columns/zone_map.rs`), and an exact date is a one-point range (`query/lower/exact.rs`).
        // An inverted index of millisecond timestamps (nearly one term per document)
        // cost 12 MiB of a 1M-doc index and the indexing time of a million terms.
        FieldType::Date => builder.add_i64_field(tantivy_name, NumericOptions::default().set_fast()),
        // Column-only too: an exact double is a one-point range over the column, which
        // scores like ES's point query (a constant), and the index cost 4 MiB per 1M docs.
        FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
            builder.add_f64_field(tantivy_name, NumericOptions::default().set_fast())
        }
        // Never searched: a column only when `doc_values` asks for one (`docvalue_fields`).
        FieldType::Binary if params.doc_values => builder.add_bytes_field(tantivy_name, FAST),
        FieldType::Binary => builder.add_bytes_field(tantivy_name, tantivy::schema::BytesOptions::default()),
        // Scanned by `range_field::query`: no inverted index holds an interval.
        FieldType::Range(_) => builder.add_bytes_field(tantivy_name, FAST),
        FieldType::Boolean => builder.add_bool_field(tantivy_name, numeric),
        // Keys in byte order (`ip/key.rs`): the term dictionary and string column do the rest.
        FieldType::Ip => builder.add_text_field(tantivy_name, exact_text() | FAST),
        FieldType::GeoPoint => crate::geo::add_geo_field(builder, tantivy_name),
    }
}

/// `_source: {"enabled": bool}` (other `_source` options, `includes`/`excludes`, are accepted
/// and keep the whole document).
fn parse_source_option(value: &Value) -> Result<bool> {
    match value.get("enabled") {
        None => Ok(true),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
        Some(other) => Err(mapper_err(&format!(
            "Failed to parse mapping: Failed to parse value [{other}] as only [true] or [false] are allowed."
        ))),
    }
}

/// An untokenized, indexed string without field norms: ES's `keyword` (and `_id`) have
/// `norms: false`, so scoring treats every value as length 1, and the norms would cost a byte
/// per document per field for nothing (8 MiB of a 1M-doc index).
fn exact_text() -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("raw")
            .set_fieldnorms(false)
            .set_index_option(IndexRecordOption::Basic),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn source_can_be_disabled_but_then_holds_no_stored_fields() {
        let off = json!({"_source": {"enabled": false}, "properties": {"k": {"type": "keyword"}}});
        assert!(!Mapping::from_mappings_json(&off).unwrap().source_enabled);
        assert!(Mapping::from_mappings_json(&json!({})).unwrap().source_enabled);
        let stored = json!({"_source": {"enabled": false}, "properties": {"k": {"type": "keyword", "store": true}}});
        assert!(Mapping::from_mappings_json(&stored).unwrap_err().to_string().contains("[store]"));
    }

    #[test]
    fn parses_all_supported_types_objects_and_multi_fields() {
        let mapping = Mapping::from_mappings_json(&json!({
            "properties": {
                "title": {"type": "text", "fields": {"raw": {"type": "keyword", "ignore_above": 256}}},
                "status": {"type": "keyword"},
                "bytes": {"type": "long"},
                "port": {"type": "integer"},
                "price": {"type": "double"},
                "ratio": {"type": "float"},
                "ok": {"type": "boolean"},
                "ts": {"type": "date", "format": "strict_date_optional_time||epoch_millis"},
                "user": {"properties": {"name": {"type": "keyword"}}}
            }
        }))
        .unwrap();
        let raw = mapping.get("title.raw").unwrap();
        assert_eq!(raw.field_type, FieldType::Keyword);
        assert_eq!(raw.source_path, "title");
        assert_eq!(raw.ignore_above, Some(256));
        assert_eq!(mapping.get("user.name").unwrap().source_path, "user.name");
        assert_eq!(mapping.get("ts").unwrap().field_type, FieldType::Date);
        assert_eq!(mapping.fields.len(), 10);
    }

    #[test]
    fn rejects_unknown_types_and_parameters() {
        let err = Mapping::from_mappings_json(&json!({"properties": {"a": {"type": "geo_shape"}}})).unwrap_err();
        assert_eq!(err.es_type_and_status().0, "mapper_parsing_exception");
        assert!(err.to_string().contains("No handler for type [geo_shape]"));
        let err = Mapping::from_mappings_json(&json!({"properties": {"a": {"type": "long", "bogus": 1}}})).unwrap_err();
        assert!(err.to_string().contains("unknown parameter [bogus]"));
    }
}
