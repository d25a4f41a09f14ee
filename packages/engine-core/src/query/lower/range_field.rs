//! Queries on a range field: `range` with a `relation` (`intersects`, the default; `contains`:
//! the document's interval holds the query's; `within`: it lies inside it) and `term` (the
//! intervals holding the value). The segment's distinct intervals are tested once each, then
//! documents are kept by the ordinals their column lists.

use serde_json::Value;
use tantivy::query::{BitSetDocSet, ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader};
use tantivy_common::BitSet;

use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::{RangeAst, RangeRelation};
use crate::query::lower::LowerContext;
use crate::range_field::{decode, end_key, interval, RangeKind};
use crate::store::mapping::FieldMapping;

/// A `range` query on range field `fm` (of `kind`).
pub fn lower_range(fm: &FieldMapping, kind: RangeKind, r: &RangeAst, ctx: &LowerContext) -> Result<Box<dyn Query>> {
    let formats = match r.format.as_deref() {
        Some(f) => crate::date::parse_format_list(f).map_err(failed)?,
        None => fm.date_formats.clone(),
    };
    let ends = [r.gt.as_ref(), r.gte.as_ref(), r.lt.as_ref(), r.lte.as_ref()];
    let (lo, hi) = interval(kind, ends, &formats, ctx.now_ms).map_err(failed)?;
    let relation = r.relation.unwrap_or(RangeRelation::Intersects);
    Ok(query(fm, ctx, lo, hi, relation))
}

/// A `term` query on range field `fm`: the intervals holding `value`.
pub fn lower_term(fm: &FieldMapping, kind: RangeKind, value: &Value, ctx: &LowerContext) -> Result<Box<dyn Query>> {
    let lo = end_key(kind, value, &fm.date_formats, ctx.now_ms, false).map_err(failed)?;
    let hi = end_key(kind, value, &fm.date_formats, ctx.now_ms, true).map_err(failed)?;
    Ok(query(fm, ctx, lo, hi, RangeRelation::Intersects))
}

fn failed(reason: String) -> EngineError {
    EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {reason}"))
}

fn query(fm: &FieldMapping, ctx: &LowerContext, lo: u128, hi: u128, relation: RangeRelation) -> Box<dyn Query> {
    let column = ctx.mapping.schema.get_field_name(fm.field).to_string();
    Box::new(RangeFieldQuery { column, lo, hi, relation, score: ctx.scale })
}

/// Documents with an interval in `relation` to `[lo, hi]`, at a constant score.
#[derive(Debug, Clone)]
pub struct RangeFieldQuery {
    column: String,
    lo: u128,
    hi: u128,
    relation: RangeRelation,
    score: Score,
}

impl RangeFieldQuery {
    fn matches(&self, (lo, hi): (u128, u128)) -> bool {
        match self.relation {
            RangeRelation::Intersects => lo <= self.hi && hi >= self.lo,
            RangeRelation::Contains => lo <= self.lo && hi >= self.hi,
            RangeRelation::Within => lo >= self.lo && hi <= self.hi,
        }
    }
}

impl Query for RangeFieldQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for RangeFieldQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let max_doc = reader.max_doc();
        let mut docs = BitSet::with_max_value(max_doc.max(1));
        if let Some(column) = reader.fast_fields().bytes(&self.column)? {
            // Each distinct interval once, in dictionary order; then documents by ordinal.
            let terms = column.num_terms() as u64;
            let mut matching = BitSet::with_max_value((terms as u32).max(1));
            let mut bytes = Vec::new();
            for ord in 0..terms {
                bytes.clear();
                if column.ord_to_bytes(ord, &mut bytes)? && decode(&bytes).is_some_and(|iv| self.matches(iv)) {
                    matching.insert(ord as u32);
                }
            }
            if matching.len() > 0 {
                for doc in 0..max_doc {
                    if column.term_ords(doc).any(|ord| matching.contains(ord as u32)) {
                        docs.insert(doc);
                    }
                }
            }
        }
        Ok(Box::new(ConstScorer::new(BitSetDocSet::from(docs), self.score * boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) == doc {
            return Ok(Explanation::new("range field query", scorer.score()));
        }
        Err(tantivy::TantivyError::InvalidArgument(format!("document #({doc}) does not match")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(lo: u128, hi: u128, relation: RangeRelation) -> RangeFieldQuery {
        RangeFieldQuery { column: String::new(), lo, hi, relation, score: 1.0 }
    }

    #[test]
    fn relations_compare_inclusive_ends() {
        // Query [3, 4] against [1, 5], [1, 3], [4, 5] and [6, 9].
        let docs = [(1, 5), (1, 3), (4, 5), (6, 9)];
        let count = |r| docs.iter().filter(|d| q(3, 4, r).matches(**d)).count();
        assert_eq!(count(RangeRelation::Intersects), 3);
        assert_eq!(count(RangeRelation::Contains), 1);
        assert_eq!(count(RangeRelation::Within), 0);
        assert!(q(0, 10, RangeRelation::Within).matches((1, 5)));
    }
}
