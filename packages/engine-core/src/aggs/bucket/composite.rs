//! `composite`: buckets keyed by a tuple of source values (terms, histogram, date_histogram),
//! paged in key order with `size` and `after`. Per segment a doc counts once in every
//! combination of its sources' values (the cartesian product, as ES does for multi-valued
//! fields). At harvest each tuple becomes its JSON array text (keyword ordinals resolved to
//! strings), so equal tuples from different segments merge as equal strings; rendering
//! parses them back, sorts them in the sources' orders and cuts the page.

use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::{json, Map, Value};
use tantivy::columnar::{Cardinality, Column, StrColumn};
use tantivy::{DocId, SegmentReader};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::bucket_budget;
use crate::aggs::intermediate::AggFruit;
use crate::aggs::intermediate::{BucketKey, FruitBucket};
use crate::aggs::options::{CompositeSource, CompositeSpec, SourceKind};
use crate::aggs::render::single_bucket;
use crate::aggs::request::AggKind;
use crate::aggs::request::{AggRequest, Interval};
use crate::date::math::{round_down, CalendarUnit};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldType, Mapping};

fn bad(what: String) -> EngineError {
    EngineError::XContentParse(format!("[composite] {what}"))
}

fn parse_source(name: &str, kind: &str, body: &Map<String, Value>, mapping: &Mapping) -> Result<CompositeSource> {
    let mut field = None;
    let mut desc = false;
    let mut missing_bucket = false;
    let mut interval = None;
    let mut date_interval = None;
    for (key, value) in body {
        let failed = || bad(format!("failed to parse field [{key}] of source [{name}]"));
        match (kind, key.as_str()) {
            (_, "field") => field = Some(value.as_str().ok_or_else(failed)?.to_string()),
            (_, "order") => {
                desc = match value.as_str() {
                    Some("asc") => false,
                    Some("desc") => true,
                    _ => return Err(failed()),
                }
            }
            (_, "missing_bucket") => missing_bucket = value.as_bool().ok_or_else(failed)?,
            ("histogram", "interval") => interval = Some(value.as_f64().filter(|i| *i > 0.0).ok_or_else(failed)?),
            ("date_histogram", "calendar_interval") => {
                let s = value.as_str().ok_or_else(failed)?;
                let unit = CalendarUnit::from_calendar_interval(s).ok_or_else(|| {
                    EngineError::shard(
                        ShardCause::IllegalArgument,
                        format!("The supplied interval [{s}] could not be parsed as a calendar interval."),
                    )
                })?;
                date_interval = Some(Interval::Calendar(unit));
            }
            ("date_histogram", "fixed_interval") => {
                let ms = crate::store::settings::parse_time_value_ms("fixed_interval", value)
                    .ok()
                    .flatten()
                    .filter(|ms| *ms > 0)
                    .ok_or_else(failed)?;
                date_interval = Some(Interval::FixedMs(ms as i64));
            }
            ("date_histogram", "time_zone") if matches!(value.as_str(), Some("UTC" | "Z" | "+00:00" | "Etc/UTC")) => {}
            _ => return Err(bad(format!("unknown field [{key}] in source [{name}] of type [{kind}]"))),
        }
    }
    let field_name = field.ok_or_else(|| {
        EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({name})"),
        )
    })?;
    let resolved =
        mapping.get(&field_name).map(|fm| (mapping.schema.get_field_name(fm.field).to_string(), fm.field_type));
    if let Some((_, FieldType::GeoPoint)) = resolved {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Field [{field_name}] of type [geo_point] is not supported for aggregation [composite]"),
        ));
    }
    if let Some((_, FieldType::Text)) = resolved {
        return Err(EngineError::shard(ShardCause::IllegalArgument, format!("Fielddata is disabled on [{field_name}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead.")));
    }
    // Its keys would need rendering (and `after` parsing) as addresses: not done yet.
    if let Some((_, FieldType::Ip)) = resolved {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("composite sources on the ip field [{field_name}] are not supported"),
        ));
    }
    let kind = match kind {
        "terms" => SourceKind::Terms,
        "histogram" => SourceKind::Histogram(interval.ok_or_else(|| {
            EngineError::shard(
                ShardCause::IllegalArgument,
                format!("[interval] must be >0 for histogram source [{name}]"),
            )
        })?),
        _ => SourceKind::DateHistogram(date_interval.ok_or_else(|| {
            EngineError::shard(
                ShardCause::IllegalArgument,
                "Invalid interval specified, must be non-null and non-empty",
            )
        })?),
    };
    let numeric = |t: FieldType| t.is_i64() || t.is_f64() || t == FieldType::Date;
    if let (SourceKind::Histogram(_) | SourceKind::DateHistogram(_), Some((_, ty))) = (&kind, &resolved) {
        if !numeric(*ty) {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("Field [{field_name}] of type [{}] is not supported for aggregation [{name}]", ty.name()),
            ));
        }
    }
    Ok(CompositeSource { name: name.to_string(), kind, field: resolved, desc, missing_bucket })
}

pub struct Composite;

impl Aggregation for Composite {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let spec = CompositeSpec::parse(def.name, def.body, def.mapping)?;
        Ok((AggKind::Composite(Box::new(spec)), FieldRef::Field(def.field_name())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match (&req.kind, fruit) {
            (AggKind::Composite(spec), AggFruit::Buckets(b)) => render_composite(req, spec, b),
            _ => Value::Null,
        }
    }
}

impl CompositeSpec {
    fn parse(name: &str, body: &Map<String, Value>, mapping: &Mapping) -> Result<Self> {
        let mut spec = CompositeSpec { size: 10, sources: Vec::new(), after: None };
        let mut after = None;
        for (key, value) in body {
            match key.as_str() {
                "size" => {
                    spec.size = value.as_u64().ok_or_else(|| bad("failed to parse field [size]".into()))? as usize
                }
                "after" => after = Some(value.as_object().ok_or_else(|| bad("[after] must be an object".into()))?),
                "sources" => {
                    let list = value.as_array().ok_or_else(|| bad("[sources] must be an array".into()))?;
                    for item in list {
                        let obj = item
                            .as_object()
                            .filter(|o| o.len() == 1)
                            .ok_or_else(|| bad("a source must be an object with one name".into()))?;
                        let (source_name, def) = obj.iter().next().expect("one entry");
                        let def = def
                            .as_object()
                            .filter(|o| o.len() == 1)
                            .ok_or_else(|| bad(format!("source [{source_name}] must have one type")))?;
                        let (kind, body) = def.iter().next().expect("one entry");
                        if !matches!(kind.as_str(), "terms" | "histogram" | "date_histogram") {
                            return Err(bad(format!("unsupported source type [{kind}]")));
                        }
                        let body =
                            body.as_object().ok_or_else(|| bad(format!("source [{source_name}] must be an object")))?;
                        if spec.sources.iter().any(|s| &s.name == source_name) {
                            return Err(EngineError::shard(
                                ShardCause::IllegalArgument,
                                format!("Composite source names must be unique, found duplicates: [{source_name}]"),
                            ));
                        }
                        spec.sources.push(parse_source(source_name, kind, body, mapping)?);
                    }
                }
                _ => return Err(bad(format!("unknown field [{key}]"))),
            }
        }
        if spec.sources.is_empty() {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("Composite [sources] cannot be null or empty: [{name}]"),
            ));
        }
        if let Some(after) = after {
            if after.len() != spec.sources.len() {
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!("[after] has {} value and [sources] has {}", after.len(), spec.sources.len()),
                ));
            }
            let values = spec
                .sources
                .iter()
                .map(|s| {
                    after.get(&s.name).cloned().ok_or_else(|| {
                        EngineError::shard(
                            ShardCause::IllegalArgument,
                            format!(
                                "Cannot set after key in the composite aggregation [{name}] - missing [{}] value",
                                s.name
                            ),
                        )
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            spec.after = Some(values);
        }
        Ok(spec)
    }
}

/// Most tuples a segment counts in a dense array (8 bytes each: 2 MiB).
const DENSE_TUPLES_LIMIT: u64 = 1 << 18;

enum SourceColumn {
    I64(Column<i64>),
    F64(Column<f64>),
    Bool(Column<bool>),
    Str(StrColumn),
    None,
}

/// One segment's columns for the sources, in source order.
pub(crate) struct SegSources {
    columns: Vec<SourceColumn>,
    spec: CompositeSpec,
    scratch: RefCell<Scratch>,
}

/// Per-doc working buffers of [`SegSources::for_each_key`] (one segment, one thread).
struct Scratch {
    per_source: Vec<Vec<Option<u64>>>,
    idx: Vec<usize>,
    key: Vec<Option<u64>>,
    /// [`SegSources::count_block_dense`]: a block's ordinals of one source, and tuple indexes.
    block_ords: Vec<Option<u64>>,
    block_at: Vec<u64>,
}

impl SegSources {
    pub(crate) fn open(spec: &CompositeSpec, reader: &SegmentReader) -> tantivy::Result<SegSources> {
        let ff = reader.fast_fields();
        let mut columns = Vec::with_capacity(spec.sources.len());
        for source in &spec.sources {
            columns.push(match &source.field {
                None => SourceColumn::None,
                Some((name, FieldType::Keyword)) => ff.str(name)?.map_or(SourceColumn::None, SourceColumn::Str),
                Some((name, FieldType::Double | FieldType::Float)) => {
                    ff.column_opt::<f64>(name)?.map_or(SourceColumn::None, SourceColumn::F64)
                }
                Some((name, FieldType::Boolean)) => {
                    ff.column_opt::<bool>(name)?.map_or(SourceColumn::None, SourceColumn::Bool)
                }
                Some((name, _)) => ff.column_opt::<i64>(name)?.map_or(SourceColumn::None, SourceColumn::I64),
            });
        }
        let n = columns.len();
        let scratch = Scratch {
            per_source: vec![Vec::new(); n],
            idx: vec![0; n],
            key: vec![None; n],
            block_ords: Vec::new(),
            block_at: Vec::new(),
        };
        Ok(SegSources { columns, spec: spec.clone(), scratch: RefCell::new(scratch) })
    }

    /// Raw values of one source for `doc`: ordinals, integers, or f64 bits of histogram keys.
    fn values(&self, i: usize, doc: DocId, out: &mut Vec<Option<u64>>) {
        out.clear();
        let source = &self.spec.sources[i];
        let f64_key = |v: f64| match source.kind {
            SourceKind::Histogram(step) => ((v / step).floor() * step).to_bits(),
            SourceKind::DateHistogram(interval) => date_key(v as i64, interval) as u64,
            SourceKind::Terms => v.to_bits(),
        };
        let i64_key = |v: i64| match source.kind {
            SourceKind::Histogram(step) => ((v as f64 / step).floor() * step).to_bits(),
            SourceKind::DateHistogram(interval) => date_key(v, interval) as u64,
            SourceKind::Terms => v as u64,
        };
        match &self.columns[i] {
            SourceColumn::I64(c) => out.extend(c.values_for_doc(doc).map(|v| Some(i64_key(v)))),
            SourceColumn::F64(c) => out.extend(c.values_for_doc(doc).map(|v| Some(f64_key(v)))),
            SourceColumn::Bool(c) => out.extend(c.values_for_doc(doc).map(|v| Some(u64::from(v)))),
            SourceColumn::Str(c) => out.extend(c.term_ords(doc).map(Some)),
            SourceColumn::None => {}
        }
        out.sort_unstable();
        out.dedup();
        if out.is_empty() && source.missing_bucket {
            out.push(None);
        }
    }

    /// Calls `f` with every key tuple of `doc` (none if a source has no value and no missing bucket).
    /// Runs once per matching doc: the value lists, odometer and key live in reused scratch
    /// buffers, so the common single-valued doc allocates nothing.
    pub(crate) fn for_each_key(&self, doc: DocId, f: &mut dyn FnMut(&[Option<u64>])) {
        let mut scratch = self.scratch.borrow_mut();
        let Scratch { per_source, idx, key, .. } = &mut *scratch;
        for (i, values) in per_source.iter_mut().enumerate() {
            self.values(i, doc, values);
            if values.is_empty() {
                return;
            }
        }
        idx.iter_mut().for_each(|at| *at = 0);
        loop {
            for (slot, (values, at)) in key.iter_mut().zip(per_source.iter().zip(idx.iter())) {
                *slot = values[*at];
            }
            f(key);
            // Odometer over the sources' value lists.
            let mut pos = idx.len();
            loop {
                if pos == 0 {
                    return;
                }
                pos -= 1;
                idx[pos] += 1;
                if idx[pos] < per_source[pos].len() {
                    break;
                }
                idx[pos] = 0;
            }
        }
    }

    /// Slots per source when every source is a keyword `terms` source and all tuples fit a
    /// dense count array (ordinals, plus one slot for the missing value): counting then indexes
    /// an array instead of hashing a tuple per document.
    pub(crate) fn dense_slots(&self) -> Option<Vec<u64>> {
        let mut slots = Vec::with_capacity(self.columns.len());
        let mut total = 1u64;
        for (column, source) in self.columns.iter().zip(&self.spec.sources) {
            let (SourceColumn::Str(c), SourceKind::Terms) = (column, &source.kind) else { return None };
            let n = c.num_terms() as u64 + 1;
            total = total.checked_mul(n).filter(|t| *t <= DENSE_TUPLES_LIMIT)?;
            slots.push(n);
        }
        Some(slots)
    }

    /// Counts a block of documents into the dense array when every source column holds at
    /// most one value per document: each column decodes the block's ordinals in one call.
    /// False (nothing counted) when a column is multi-valued: count per document then.
    pub(crate) fn count_block_dense(&self, slots: &[u64], docs: &[DocId], counts: &mut [u64]) -> bool {
        let single = self.columns.iter().all(|c| match c {
            SourceColumn::Str(c) => c.ords().get_cardinality() != Cardinality::Multivalued,
            _ => false,
        });
        if !single {
            return false;
        }
        let mut scratch = self.scratch.borrow_mut();
        let Scratch { block_ords, block_at, .. } = &mut *scratch;
        block_at.clear();
        block_at.resize(docs.len(), 0);
        block_ords.resize(docs.len(), None);
        // A doc without a value in a source that has no missing bucket forms no tuple.
        let mut skip: Vec<bool> = Vec::new();
        for ((column, source), n) in self.columns.iter().zip(&self.spec.sources).zip(slots) {
            let SourceColumn::Str(c) = column else { return false };
            c.ords().first_vals(docs, block_ords);
            for (i, (at, ord)) in block_at.iter_mut().zip(block_ords.iter()).enumerate() {
                if ord.is_none() && !source.missing_bucket {
                    if skip.is_empty() {
                        skip.resize(docs.len(), false);
                    }
                    skip[i] = true;
                }
                *at = *at * n + ord.unwrap_or(n - 1);
            }
        }
        for (i, at) in block_at.iter().enumerate() {
            if skip.get(i) != Some(&true) {
                counts[*at as usize] += 1;
            }
        }
        true
    }

    /// The tuple's index in the dense array (`slots` from [`Self::dense_slots`]).
    pub(crate) fn dense_index(slots: &[u64], key: &[Option<u64>]) -> usize {
        key.iter().zip(slots).fold(0u64, |at, (v, n)| at * n + v.unwrap_or(n - 1)) as usize
    }

    /// The tuple at a dense index (the inverse of [`Self::dense_index`]).
    pub(crate) fn dense_key(slots: &[u64], mut at: u64) -> Vec<Option<u64>> {
        let mut key = vec![None; slots.len()];
        for (slot, n) in key.iter_mut().zip(slots).rev() {
            let v = at % n;
            *slot = (v != n - 1).then_some(v);
            at /= n;
        }
        key
    }

    /// The tuple as JSON array text, keyword ordinals resolved (the cross-segment key).
    pub(crate) fn key_text(&self, raw: &[Option<u64>]) -> BucketKey {
        let mut buf = String::new();
        let values: Vec<Value> = raw
            .iter()
            .zip(&self.columns)
            .zip(&self.spec.sources)
            .map(|((v, col), source)| match (v, col, &source.kind) {
                (None, _, _) => Value::Null,
                (Some(ord), SourceColumn::Str(c), _) => {
                    buf.clear();
                    let _ = c.ord_to_str(*ord, &mut buf);
                    json!(buf)
                }
                (Some(bits), _, SourceKind::Histogram(_)) => json!(f64::from_bits(*bits)),
                (Some(bits), SourceColumn::F64(_), SourceKind::Terms) => json!(f64::from_bits(*bits)),
                (Some(b), SourceColumn::Bool(_), _) => json!(*b == 1),
                (Some(v), _, _) => json!(*v as i64),
            })
            .collect();
        BucketKey::Str(Value::Array(values).to_string())
    }
}

fn date_key(ms: i64, interval: Interval) -> i64 {
    match interval {
        Interval::FixedMs(step) => ms.div_euclid(step) * step,
        Interval::Calendar(unit) => round_down(ms, unit),
    }
}

/// One source's values in its order; a missing value sorts first ascending, last descending.
fn cmp_values(a: &Value, b: &Value, desc: bool) -> Ordering {
    let natural = match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        _ => a.as_f64().unwrap_or(0.0).total_cmp(&b.as_f64().unwrap_or(0.0)),
    };
    if desc {
        natural.reverse()
    } else {
        natural
    }
}

fn cmp_keys(spec: &CompositeSpec, a: &[Value], b: &[Value]) -> Ordering {
    spec.sources
        .iter()
        .enumerate()
        .map(|(i, s)| cmp_values(&a[i], &b[i], s.desc))
        .find(|o| o.is_ne())
        .unwrap_or(Ordering::Equal)
}

fn render_composite(req: &AggRequest, spec: &CompositeSpec, buckets: &HashMap<BucketKey, FruitBucket>) -> Value {
    let mut keyed: Vec<(Vec<Value>, &FruitBucket)> = buckets
        .iter()
        .filter_map(|(k, b)| match k {
            BucketKey::Str(text) => serde_json::from_str::<Vec<Value>>(text).ok().map(|v| (v, b)),
            BucketKey::Num(_) => None,
        })
        .filter(|(k, _)| spec.after.as_ref().is_none_or(|after| cmp_keys(spec, k, after) == Ordering::Greater))
        .collect();
    keyed.sort_by(|a, b| cmp_keys(spec, &a.0, &b.0));
    keyed.truncate(spec.size);
    let key_object = |values: &[Value]| -> Value {
        Value::Object(spec.sources.iter().zip(values).map(|(s, v)| (s.name.clone(), v.clone())).collect())
    };
    let mut out = Map::new();
    if let Some((last, _)) = keyed.last() {
        out.insert("after_key".into(), key_object(last));
    }
    let rendered: Vec<Value> = keyed
        .iter()
        .map(|(k, b)| {
            bucket_budget::consume();
            let mut obj = Map::new();
            obj.insert("key".into(), key_object(k));
            if let Value::Object(rest) = single_bucket(req, Some(b)) {
                obj.extend(rest);
            }
            Value::Object(obj)
        })
        .collect();
    out.insert("buckets".into(), Value::Array(rendered));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn dense_tuple_indexes_round_trip_with_missing_slots() {
        let slots = [4u64, 3, 5];
        let mut seen = std::collections::HashSet::new();
        for a in [Some(0), Some(2), None] {
            for b in [Some(1), None] {
                for c in [Some(0), Some(3), None] {
                    let key = vec![a, b, c];
                    let at = super::SegSources::dense_index(&slots, &key);
                    assert!(at < 60 && seen.insert(at), "{key:?} -> {at}");
                    assert_eq!(super::SegSources::dense_key(&slots, at as u64), key);
                }
            }
        }
    }
}
