//! A plan's empty per-segment state: which `SegState` collects it (dense keyword counts,
//! filter-set counts, composite tuples, top hits, ...).

use std::collections::HashMap;

use tantivy::collector::Collector;

use super::key_hasher::{KeyMap, TupleMap};
use super::open::SegColumns;
use super::{Accessor, Plan, SegBucket, SegState, DENSE_TERMS_LIMIT};
use crate::aggs::bucket::filters::MASK_FILTERS;
use crate::aggs::intermediate::MetricState;
use crate::aggs::request::AggKind;

pub(super) fn new_state(plan: &Plan) -> SegState {
    if plan.kind.is_significant() {
        let terms = match plan.columns {
            Some(SegColumns::Source(_)) => SegState::SourceTerms(HashMap::new()),
            _ => column_state(plan),
        };
        return SegState::Significant { docs: 0, terms: Box::new(terms) };
    }
    column_state(plan)
}

fn column_state(plan: &Plan) -> SegState {
    match (&plan.kind, &plan.accessor) {
        (AggKind::Join(_), _) => SegState::Join {
            last: None,
            bucket: SegBucket { count: 0, subs: plan.subs.iter().map(new_state).collect() },
        },
        (AggKind::Metric { .. } | AggKind::WeightedAvg(_), _) => SegState::Metric(MetricState::default()),
        (_, _) if plan.subs.is_empty() && plan.filters.as_ref().is_some_and(|f| f.len() <= MASK_FILTERS) => {
            SegState::FilterMasks(vec![0; 1 << plan.filters.as_ref().map_or(0, |f| f.len())])
        }
        (kind, _) if kind.collects_values() => SegState::Values(Vec::new()),
        (_, _) if matches!(plan.columns, Some(SegColumns::Composite(_))) => {
            let dense = match &plan.columns {
                Some(SegColumns::Composite(sources)) if plan.subs.is_empty() => sources.dense_slots(),
                _ => None,
            };
            match dense {
                Some(slots) => {
                    SegState::CompositeDense { counts: vec![0; slots.iter().product::<u64>() as usize], slots }
                }
                None => SegState::Composite(TupleMap::default()),
            }
        }
        (AggKind::TopHits(_), _) if plan.top_hits.is_some() => {
            let opened = plan.top_hits.as_ref().and_then(|(c, seg, reader)| c.for_segment(*seg, reader).ok());
            SegState::TopHits(opened.map(Box::new))
        }
        (_, Accessor::Str(col))
            if (plan.kind.is_terms_like() || plan.kind == AggKind::Cardinality)
                && (col.num_terms() as u64) <= DENSE_TERMS_LIMIT
                && plan.missing.is_none() =>
        {
            let n = col.num_terms();
            let subs = if plan.subs.is_empty() { Vec::new() } else { (0..n).map(|_| None).collect() };
            SegState::Dense { counts: vec![0; n], subs }
        }
        _ => SegState::Buckets(KeyMap::default()),
    }
}
