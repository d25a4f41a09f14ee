//! `matrix_stats`: count, mean, variance, skewness, kurtosis, covariance and correlation of
//! several numeric fields over the docs that have a value in every one of them (a
//! multi-valued field contributes its average, ES's default `mode`). Rows are collected and
//! the statistics computed in two passes at render; ES accumulates the same sums online.

use serde_json::{json, Map, Value};
use tantivy::columnar::Column;
use tantivy::{DocId, SegmentReader};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::options::MatrixField;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldType, Mapping};

pub struct MatrixStats;

impl Aggregation for MatrixStats {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        if def.has_subs() {
            return Err(EngineError::Parsing(format!(
                "Aggregator [{}] of type [matrix_stats] cannot accept sub-aggregations",
                def.name
            )));
        }
        let fields = parse(def.name, def.body, def.mapping)?;
        Ok((AggKind::MatrixStats { fields }, FieldRef::Field(def.field_name())))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        !matches!(ty, FieldType::Keyword | FieldType::Ip)
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let AggKind::MatrixStats { fields } = &req.kind else { unreachable!("dispatched by kind") };
        let values: &[f64] = match fruit {
            AggFruit::Values(v) => v,
            _ => &[],
        };
        render(fields, values)
    }
}

fn parse(name: &str, body: &Map<String, Value>, mapping: &Mapping) -> Result<Vec<MatrixField>> {
    let mut fields = Vec::new();
    for (key, value) in body {
        let bad = || EngineError::XContentParse(format!("[matrix_stats] failed to parse field [{key}]"));
        match key.as_str() {
            "fields" => {
                for f in value.as_array().ok_or_else(bad)? {
                    let field = f.as_str().ok_or_else(bad)?;
                    // Unmapped fields have no values: ES leaves them out of the matrix.
                    let Some(fm) = mapping.get(field) else { continue };
                    if !(fm.field_type.is_i64() || fm.field_type.is_f64() || fm.field_type == FieldType::Date) {
                        return Err(EngineError::shard(
                            ShardCause::IllegalArgument,
                            format!(
                                "Field [{field}] of type [{}] is not supported for aggregation [matrix_stats]",
                                fm.field_type.name()
                            ),
                        ));
                    }
                    let column = mapping.schema.get_field_name(fm.field).to_string();
                    fields.push(MatrixField { name: field.to_string(), column, is_f64: fm.field_type.is_f64() });
                }
            }
            _ => return Err(EngineError::XContentParse(format!("[matrix_stats] unknown field [{key}]"))),
        }
    }
    if !body.contains_key("fields") {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required [fields] for [matrix_stats] aggregation [{name}]"),
        ));
    }
    Ok(fields)
}

enum NumColumn {
    I64(Column<i64>),
    F64(Column<f64>),
}

/// One segment's columns of the matrix fields (`None`: a field absent from the segment).
pub(crate) struct MatrixColumns(Vec<Option<NumColumn>>);

impl MatrixColumns {
    pub(crate) fn open(fields: &[MatrixField], reader: &SegmentReader) -> tantivy::Result<MatrixColumns> {
        let ff = reader.fast_fields();
        let mut columns = Vec::with_capacity(fields.len());
        for f in fields {
            columns.push(if f.is_f64 {
                ff.column_opt::<f64>(&f.column)?.map(NumColumn::F64)
            } else {
                ff.column_opt::<i64>(&f.column)?.map(NumColumn::I64)
            });
        }
        Ok(MatrixColumns(columns))
    }

    /// Appends the doc's row (one average per field) if every field has a value.
    pub(crate) fn push_row(&self, doc: DocId, out: &mut Vec<f64>) {
        let start = out.len();
        for column in &self.0 {
            let (sum, n) = match column {
                Some(NumColumn::I64(c)) => c.values_for_doc(doc).fold((0.0, 0u32), |(s, n), v| (s + v as f64, n + 1)),
                Some(NumColumn::F64(c)) => c.values_for_doc(doc).fold((0.0, 0u32), |(s, n), v| (s + v, n + 1)),
                None => (0.0, 0),
            };
            if n == 0 {
                out.truncate(start);
                return;
            }
            out.push(sum / n as f64);
        }
    }
}

/// `weighted_avg`'s value and weight columns (`None`: unmapped, or absent from the segment).
pub(crate) struct WeightedColumns([Option<NumColumn>; 2]);

impl WeightedColumns {
    pub(crate) fn open(fields: [Option<MatrixField>; 2], reader: &SegmentReader) -> tantivy::Result<WeightedColumns> {
        let ff = reader.fast_fields();
        let open = |f: &Option<MatrixField>| -> tantivy::Result<Option<NumColumn>> {
            Ok(match f {
                None => None,
                Some(f) if f.is_f64 => ff.column_opt::<f64>(&f.column)?.map(NumColumn::F64),
                Some(f) => ff.column_opt::<i64>(&f.column)?.map(NumColumn::I64),
            })
        };
        Ok(WeightedColumns([open(&fields[0])?, open(&fields[1])?]))
    }

    /// The document's values (into `values`) and its weight (the first, if several).
    pub(crate) fn read(&self, doc: DocId, values: &mut Vec<f64>) -> Option<f64> {
        values.clear();
        match &self.0[0] {
            Some(NumColumn::I64(c)) => values.extend(c.values_for_doc(doc).map(|v| v as f64)),
            Some(NumColumn::F64(c)) => values.extend(c.values_for_doc(doc)),
            None => {}
        }
        match &self.0[1] {
            Some(NumColumn::I64(c)) => c.values_for_doc(doc).next().map(|v| v as f64),
            Some(NumColumn::F64(c)) => c.values_for_doc(doc).next(),
            None => None,
        }
    }
}

/// Java `String.hashCode`, spread as `HashMap` does: ES keeps the per-field results in a
/// `HashMap` and lists the fields in its iteration order (bucket, then insertion).
fn java_bucket(name: &str, capacity: u32) -> u32 {
    let h = name.encode_utf16().fold(0u32, |h, c| h.wrapping_mul(31).wrapping_add(u32::from(c)));
    (h ^ (h >> 16)) & (capacity - 1)
}

fn render(fields: &[MatrixField], values: &[f64]) -> Value {
    let k = fields.len();
    let n = values.len().checked_div(k).unwrap_or(0);
    if n == 0 {
        return json!({ "doc_count": 0 });
    }
    let rows: Vec<&[f64]> = values.chunks(k).collect();
    let nf = n as f64;
    let mean: Vec<f64> = (0..k).map(|f| rows.iter().map(|r| r[f]).sum::<f64>() / nf).collect();
    let moment = |f: usize, p: i32| rows.iter().map(|r| (r[f] - mean[f]).powi(p)).sum::<f64>();
    let co = |f: usize, g: usize| rows.iter().map(|r| (r[f] - mean[f]) * (r[g] - mean[g])).sum::<f64>() / (nf - 1.0);
    let covariance: Vec<Vec<f64>> = (0..k).map(|f| (0..k).map(|g| co(f, g)).collect()).collect();
    let mut capacity = 16u32;
    while k as f64 > 0.75 * capacity as f64 {
        capacity *= 2;
    }
    let mut order: Vec<usize> = (0..k).collect();
    order.sort_by_key(|f| (java_bucket(&fields[*f].name, capacity), *f));
    let list: Vec<Value> = order
        .into_iter()
        .map(|f| {
            let m2 = moment(f, 2);
            let matrix = |value: &dyn Fn(usize) -> f64| -> Value {
                Value::Object((0..k).map(|g| (fields[g].name.clone(), json!(value(g)))).collect())
            };
            json!({
                "name": fields[f].name,
                "count": n,
                "mean": mean[f],
                "variance": m2 / (nf - 1.0),
                "skewness": nf.sqrt() * moment(f, 3) / m2.powf(1.5),
                "kurtosis": nf * moment(f, 4) / (m2 * m2),
                "covariance": matrix(&|g| covariance[f][g]),
                "correlation": matrix(&|g| if g == f { 1.0 } else { covariance[f][g] / (covariance[f][f].sqrt() * covariance[g][g].sqrt()) }),
            })
        })
        .collect();
    json!({ "doc_count": n, "fields": list })
}
