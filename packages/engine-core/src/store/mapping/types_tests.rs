//! The field types beyond the original set, from mapping to stored values: `half_float`,
//! `scaled_float`, `binary`, the range types, and text parameters that change the schema.

use serde_json::json;
use tantivy::schema::Value as _;

use super::{FieldType, IndexOptions, Mapping};
use crate::range_field::{decode, i64_key, RangeKind};
use crate::store::document::build_document;

fn mapping() -> Mapping {
    Mapping::from_mappings_json(&json!({"properties": {
        "half": {"type": "half_float"},
        "price": {"type": "scaled_float", "scaling_factor": 10},
        "blob": {"type": "binary", "doc_values": true},
        "blob_stored": {"type": "binary", "store": true},
        "ages": {"type": "integer_range"},
        "body": {"type": "text", "analyzer": "whitespace", "fielddata": true, "index_options": "freqs"},
        "n": {"type": "long", "null_value": 7, "meta": {"unit": "s"}}
    }}))
    .unwrap()
}

#[test]
fn new_types_parse_with_their_parameters() {
    let m = mapping();
    assert_eq!(m.get("half").unwrap().field_type, FieldType::HalfFloat);
    assert_eq!(m.get("price").unwrap().params.scaling_factor, 10.0);
    assert_eq!(m.get("ages").unwrap().field_type, FieldType::Range(RangeKind::Integer));
    assert_eq!(m.get("ages").unwrap().field_type.name(), "integer_range");
    let body = m.get("body").unwrap();
    assert_eq!((body.params.fielddata, body.params.index_options), (true, IndexOptions::Freqs));
    assert!(m.custom_analyzers);
    assert!(m.schema.get_field_entry(body.field).is_fast());
    assert!(!m.schema.get_field_entry(m.get("blob_stored").unwrap().field).is_fast());
    assert!(Mapping::from_mappings_json(&json!({"properties": {"a": {"type": "long", "fielddata": true}}})).is_err());
}

#[test]
fn documents_store_what_es_reads_back() {
    let m = mapping();
    let source = json!({"half": 0.1, "price": 1.26, "blob": "YWJj", "ages": [{"gte": 1, "lt": 5}], "n": null});
    let doc = build_document(&m, "1", &source, b"{}").unwrap();
    let first = |name: &str| doc.get_first(m.get(name).unwrap().field).unwrap();
    assert_eq!(first("half").as_f64(), Some(0.0999755859375));
    assert_eq!(first("price").as_f64(), Some(1.3));
    assert_eq!(first("blob").as_bytes(), Some(&b"abc"[..]));
    assert_eq!(decode(first("ages").as_bytes().unwrap()), Some((i64_key(1), i64_key(4))));
    // `null_value` stands in for the explicit null.
    assert_eq!(first("n").as_i64(), Some(7));
    // Binary presence is recorded in `_field_names`, as text's is.
    let names: Vec<&str> = doc.get_all(m.field_names_field).filter_map(|v| v.as_str()).collect();
    assert!(names.contains(&"blob") && !names.contains(&"half"));
    assert!(build_document(&m, "2", &json!({"blob": "%%%"}), b"{}").is_err());
    assert!(build_document(&m, "2", &json!({"ages": {"gte": 5, "lte": 1}}), b"{}").is_err());
}

#[test]
fn updates_keep_fixed_parameters_and_take_the_others() {
    let m = mapping();
    let err = m.extend(&json!({"properties": {"body": {"type": "text"}}})).unwrap_err().to_string();
    assert!(err.contains("Cannot update parameter [analyzer] from [whitespace] to [default]"), "{err}");
    let same = json!({"properties": {"body": {"type": "text", "analyzer": "whitespace", "fielddata": true,
        "index_options": "freqs", "search_analyzer": "simple"}}});
    let next = m.extend(&same).unwrap();
    assert_eq!(next.get("body").unwrap().params.query_analyzer(), Some("simple"));
    assert!(m.differs_from(&next));
}

#[test]
fn aliases_resolve_to_their_field_and_are_never_written() {
    let m = Mapping::from_mappings_json(&json!({"properties": {
        "group": {"type": "alias", "path": "other.group"},
        "other": {"properties": {"group": {"type": "integer"}}}
    }}))
    .unwrap();
    assert_eq!(m.get("group").unwrap().name, "other.group");
    assert!(build_document(&m, "1", &json!({"other": {"group": 1}}), b"{}").is_ok());
    let err = build_document(&m, "1", &json!({"group": 1}), b"{}").unwrap_err().to_string();
    assert_eq!(err, "Cannot write to a field alias [group].");
    let dangling = Mapping::from_mappings_json(&json!({"properties": {"a": {"type": "alias", "path": "b"}}}));
    assert!(dangling.unwrap_err().to_string().contains("an alias must refer to an existing field"));
    let added = m.extend(&json!({"properties": {"g2": {"type": "alias", "path": "other.group"}}})).unwrap();
    assert!(added.get("g2").is_some() && m.differs_from(&added));
}
