//! What an aggregation opens per segment beyond its field's column: the columns of the
//! aggregations that read several fields (`composite`, `matrix_stats`), `significant_text`'s
//! `_source` reader, and `top_hits`' per-search hits collector.

use tantivy::collector::Collector;
use tantivy::{SegmentOrdinal, SegmentReader};

use crate::aggs::bucket::composite_segment::SegSources;
use crate::aggs::bucket::source_text::SourceText;
use crate::aggs::bucket::text_dedup::TextDedup;
use crate::aggs::metric::matrix_stats::{MatrixColumns, WeightedColumns};
use crate::aggs::request::{AggKind, AggRequest};
use crate::hits::top_hits::TopHitsCollector;

/// `top_hits`: the per-search hits collector and one segment, to open one per bucket.
pub(super) type SegTopHits = (TopHitsCollector, SegmentOrdinal, SegmentReader);

/// Columns of aggregations reading several fields (or `_source`).
pub(super) enum SegColumns {
    Composite(SegSources),
    Matrix(MatrixColumns),
    Source(SourceText),
    /// `weighted_avg`: its value and weight columns.
    Weighted(WeightedColumns),
}

/// Per-segment state of `composite` and `matrix_stats` (columns), `significant_text`
/// (`_source`) and `top_hits` (collector).
pub(super) fn open_segment(
    req: &AggRequest,
    segment: SegmentOrdinal,
    reader: &SegmentReader,
    dedup: &TextDedup,
) -> tantivy::Result<(Option<SegColumns>, Option<SegTopHits>)> {
    match &req.kind {
        AggKind::Composite(spec) => Ok((Some(SegColumns::Composite(SegSources::open(spec, reader)?)), None)),
        AggKind::MatrixStats { fields } => Ok((Some(SegColumns::Matrix(MatrixColumns::open(fields, reader)?)), None)),
        AggKind::WeightedAvg(spec) => {
            let fields = [&spec.value, &spec.weight].map(|f| f.clone());
            Ok((Some(SegColumns::Weighted(WeightedColumns::open(fields, reader)?)), None))
        }
        AggKind::Significant(spec) => match &spec.text {
            Some(text) => {
                let spotter = text.filter_duplicate_text.then(|| dedup.spotter(req));
                Ok((Some(SegColumns::Source(SourceText::open(text, reader, spotter)?)), None))
            }
            None => Ok((None, None)),
        },
        AggKind::TopHits(spec) => {
            let collector = spec.collector();
            // Opened here once so a failure surfaces as an error, not an empty bucket later.
            collector.for_segment(segment, reader)?;
            Ok((None, Some((collector, segment, reader.clone()))))
        }
        _ => Ok((None, None)),
    }
}
