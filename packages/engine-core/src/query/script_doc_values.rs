//! What `doc['field']` reads in a script query or script field: a document's values from
//! the field's column. The subset reads numbers (as Painless: `long` fields as integers,
//! `double` fields as doubles) and booleans; keywords (strings), dates (a `ZonedDateTime` in
//! Painless) and text (no doc values) are refused by name, when the script is prepared.

use tantivy::columnar::Column;
use tantivy::{DocId, SegmentReader};

use crate::error::{EngineError, Result, ShardCause};
use crate::script::{unsupported, Script, Val};
use crate::store::mapping::{FieldType, Mapping};

/// The columns a script reads, resolved against the mapping.
#[derive(Debug, Clone, PartialEq)]
pub struct DocFields(Vec<(String, String, FieldType)>);

impl DocFields {
    pub fn resolve(script: &Script, mapping: &Mapping) -> Result<DocFields> {
        let mut out = Vec::new();
        for name in script.doc_fields() {
            let fm = mapping.get(&name).ok_or_else(|| {
                EngineError::shard(ShardCause::Script, format!("No field found for [{name}] in mapping"))
            })?;
            match fm.field_type {
                FieldType::Long
                | FieldType::Integer
                | FieldType::Short
                | FieldType::Byte
                | FieldType::Double
                | FieldType::Float
                | FieldType::Boolean => {}
                other => return Err(unsupported(format!("doc['{name}'] of a [{}] field", other.name()))),
            }
            out.push((name, mapping.schema.get_field_name(fm.field).to_string(), fm.field_type));
        }
        Ok(DocFields(out))
    }
}

enum DocColumn {
    I64(Column<i64>),
    F64(Column<f64>),
    Bool(Column<bool>),
    Absent,
}

/// One segment's columns of a script's fields.
pub struct SegmentDocValues {
    columns: Vec<(String, DocColumn)>,
}

impl SegmentDocValues {
    pub fn open(fields: &DocFields, reader: &SegmentReader) -> tantivy::Result<SegmentDocValues> {
        let ff = reader.fast_fields();
        let mut columns = Vec::with_capacity(fields.0.len());
        for (name, column, ty) in &fields.0 {
            let opened = match ty {
                FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
                    ff.column_opt::<f64>(column)?.map(DocColumn::F64)
                }
                FieldType::Boolean => ff.column_opt::<bool>(column)?.map(DocColumn::Bool),
                _ => ff.column_opt::<i64>(column)?.map(DocColumn::I64),
            };
            columns.push((name.clone(), opened.unwrap_or(DocColumn::Absent)));
        }
        Ok(SegmentDocValues { columns })
    }

    /// `doc[name]` of one document, sorted as doc values are.
    pub fn values(&self, doc: DocId, name: &str) -> Result<Vec<Val>> {
        let Some((_, column)) = self.columns.iter().find(|(n, _)| n == name) else {
            return Err(EngineError::shard(ShardCause::Script, format!("No field found for [{name}] in mapping")));
        };
        Ok(match column {
            DocColumn::I64(c) => {
                let mut v: Vec<i64> = c.values_for_doc(doc).collect();
                v.sort_unstable();
                v.into_iter().map(Val::Int).collect()
            }
            DocColumn::F64(c) => {
                let mut v: Vec<f64> = c.values_for_doc(doc).collect();
                v.sort_by(f64::total_cmp);
                v.into_iter().map(Val::Num).collect()
            }
            DocColumn::Bool(c) => c.values_for_doc(doc).map(Val::Bool).collect(),
            DocColumn::Absent => Vec::new(),
        })
    }

    /// Runs `script` on one document.
    pub fn run(&self, script: &Script, doc: DocId) -> Result<Val> {
        script.run_on(&|name| self.values(doc, name))
    }
}
