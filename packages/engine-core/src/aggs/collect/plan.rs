//! A segment's collection plan for one aggregation request (and its sub-aggregations): the
//! column or columns it reads, its filters, date rounding, zone map, sampler and nested levels,
//! opened once per segment before any document is collected.

use tantivy::columnar::ColumnIndex;
use tantivy::{DocId, SegmentOrdinal, SegmentReader};

use super::open::{open_segment, SegColumns};
use super::{mask_keys, Accessor, AggCollector, Plan, NO_BUCKET};
use crate::aggs::bucket::auto_date_histogram::AutoCollect;
use crate::aggs::bucket::filters::SegFilters;
use crate::aggs::bucket::histogram;
use crate::aggs::bucket::sampler::{DocSample, TopSample};
use crate::aggs::request::{AggKind, AggRequest};
use crate::columns::zone_map::zone_map;
use crate::date::rounding::DateKeyer;
use crate::store::mapping::FieldType;
use crate::store::nested_levels::SegLevels;

pub(super) fn build_plan(
    req: &AggRequest,
    segment: SegmentOrdinal,
    reader: &SegmentReader,
    shared: &AggCollector,
    next: &mut usize,
    sample: Option<&TopSample>,
) -> tantivy::Result<Plan> {
    let filters = SegFilters::open(&req.kind, &shared.filter_weights, next, reader)?;
    let ff = reader.fast_fields();
    let accessor = match &req.field.resolved {
        None => Accessor::Unmapped,
        Some((name, ty)) => match ty {
            FieldType::Keyword | FieldType::Ip => ff.str(name)?.map_or(Accessor::Unmapped, Accessor::Str),
            FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
                ff.column_opt::<f64>(name)?.map_or(Accessor::Unmapped, Accessor::F64)
            }
            FieldType::Boolean => ff.column_opt::<bool>(name)?.map_or(Accessor::Unmapped, Accessor::Bool),
            FieldType::Text => Accessor::Unmapped,
            FieldType::GeoPoint => ff.column_opt::<u64>(name)?.map_or(Accessor::Unmapped, Accessor::Geo),
            _ => ff.column_opt::<i64>(name)?.map_or(Accessor::Unmapped, Accessor::I64),
        },
    };
    let subs =
        req.subs.iter().map(|s| build_plan(s, segment, reader, shared, next, None)).collect::<tantivy::Result<_>>()?;
    let (columns, top_hits) = open_segment(req, segment, reader, &shared.text_dedup)?;
    let zones = match (&req.kind, &req.field.resolved, &accessor) {
        (AggKind::DateHistogram { .. } | AggKind::AutoDateHistogram(_), Some((name, _)), Accessor::I64(column)) => {
            zone_map(reader.segment_id(), name, column)
        }
        _ => None,
    };
    Ok(Plan {
        kind: req.kind.clone(),
        columns,
        top_hits,
        accessor,
        subs,
        filters,
        date_keys: date_keyer(&req.kind),
        auto: match &req.kind {
            AggKind::AutoDateHistogram(spec) => Some(AutoCollect::new(spec, !req.subs.is_empty())),
            _ => None,
        },
        sampler: DocSample::open(&req.kind, sample, segment, reader),
        levels: match &req.kind {
            AggKind::Join(_) => Some(SegLevels::open(reader)?),
            _ => None,
        },
        zones,
        missing: req.field.missing.clone(),
    })
}

fn date_keyer(kind: &AggKind) -> Option<DateKeyer> {
    match kind {
        AggKind::DateHistogram { interval, opts, .. } => {
            Some(DateKeyer::new(opts.rounding(*interval), opts.hard_bounds))
        }
        _ => None,
    }
}

/// What a plan knows of its documents' values, and the buckets a value falls in.
impl Plan {
    pub(super) fn has_value(&self, doc: DocId) -> bool {
        match &self.accessor {
            Accessor::I64(c) => c.values_for_doc(doc).next().is_some(),
            Accessor::F64(c) => c.values_for_doc(doc).next().is_some(),
            Accessor::Bool(c) => c.values_for_doc(doc).next().is_some(),
            Accessor::Str(c) => c.term_ords(doc).next().is_some(),
            Accessor::Geo(c) => c.values_for_doc(doc).next().is_some(),
            Accessor::Unmapped => false,
        }
    }

    /// Whether the segment's column holds exactly one value for every document.
    pub(super) fn every_doc_has_value(&self) -> bool {
        let full = |index: &ColumnIndex| matches!(index, ColumnIndex::Full);
        match &self.accessor {
            Accessor::I64(c) => full(&c.index),
            Accessor::F64(c) => full(&c.index),
            Accessor::Bool(c) => full(&c.index),
            Accessor::Geo(c) => full(&c.index),
            Accessor::Str(c) => full(&c.ords().index),
            Accessor::Unmapped => false,
        }
    }

    /// The doc's values for the quantiles (or their `missing` value); its row for matrix_stats.
    pub(super) fn push_values(&self, doc: DocId, out: &mut Vec<f64>) {
        if let Some(SegColumns::Matrix(columns)) = &self.columns {
            return columns.push_row(doc, out);
        }
        let before = out.len();
        match &self.accessor {
            Accessor::I64(c) => out.extend(c.values_for_doc(doc).map(|v| v as f64)),
            Accessor::F64(c) => out.extend(c.values_for_doc(doc)),
            Accessor::Bool(c) => out.extend(c.values_for_doc(doc).map(|v| u8::from(v) as f64)),
            Accessor::Str(_) | Accessor::Geo(_) | Accessor::Unmapped => {}
        }
        if out.len() == before {
            out.extend(self.kind.missing_value());
        }
    }

    /// Histogram: the bucket start's f64 bits. Range: the index of every range holding `v`.
    pub(super) fn numeric_keys(&self, v: f64, keys: &mut Vec<u64>) {
        match (&self.kind, self.numeric_word(v)) {
            (AggKind::Histogram { .. }, Some(key)) if key != NO_BUCKET => keys.push(key),
            (AggKind::Range { .. }, Some(mask)) => keys.extend(mask_keys(mask)),
            (AggKind::Range { ranges, .. }, None) => {
                keys.extend(ranges.iter().enumerate().filter(|(_, r)| r.contains(v)).map(|(i, _)| i as u64))
            }
            _ => {}
        }
    }

    /// The buckets `v` falls in as one word, so a run of values in the same buckets is found by
    /// comparing integers (the block path's hot loop): a histogram's key, or the bit set of the
    /// ranges that hold `v`. None for other kinds and for more than 64 ranges.
    pub(super) fn numeric_word(&self, v: f64) -> Option<u64> {
        match &self.kind {
            AggKind::Histogram { interval, opts, .. } => {
                Some(histogram::bucket_key(v, *interval, opts).map_or(NO_BUCKET, f64::to_bits))
            }
            AggKind::Range { ranges, .. } if ranges.len() <= 64 => {
                Some(ranges.iter().enumerate().fold(0, |m, (i, r)| if r.contains(v) { m | 1 << i } else { m }))
            }
            _ => None,
        }
    }
}
