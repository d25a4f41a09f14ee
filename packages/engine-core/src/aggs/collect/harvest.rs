//! A segment's collected state turned into its fruit: keyword ordinals resolved to strings
//! and tuple keys to their cross-segment text, ready to merge with other segments'.

use std::collections::HashMap;

use tantivy::collector::SegmentCollector;

use super::key_hasher::KeyMap;
use super::open::SegColumns;
use super::{Accessor, Plan, SegBucket, SegState, MISSING_ORD};
use crate::aggs::bucket::composite_segment::SegSources;
use crate::aggs::bucket::filters::mask_keys;
use crate::aggs::bucket::significant::SUBSET_SIZE_KEY;
use crate::aggs::intermediate::{ords_to_strings, AggFruit, BucketKey, FruitBucket};
use crate::aggs::request::AggKind;
use crate::store::value_format::AggMissing;

pub(super) fn harvest_state(plan: &Plan, state: SegState) -> AggFruit {
    match state {
        SegState::Metric(m) => AggFruit::Metric(m),
        SegState::FilterMasks(counts) => {
            let (filters, other) = plan.filters.as_ref().map_or((0, false), |f| (f.len(), f.other));
            let mut out: HashMap<BucketKey, FruitBucket> = HashMap::new();
            let mut keys = Vec::new();
            for (mask, &count) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
                mask_keys(&plan.kind, filters, other, mask, &mut keys);
                for key in &keys {
                    out.entry(BucketKey::Num(*key)).or_insert(FruitBucket { count: 0, subs: Vec::new() }).count +=
                        count;
                }
            }
            AggFruit::Buckets(out)
        }
        SegState::Values(v) => AggFruit::Values(v),
        SegState::Composite(buckets) => {
            let Some(SegColumns::Composite(sources)) = &plan.columns else { return AggFruit::Buckets(HashMap::new()) };
            let out = buckets
                .into_iter()
                .map(|(raw, bucket)| {
                    let subs = plan.subs.iter().zip(bucket.subs).map(|(p, s)| harvest_state(p, s)).collect();
                    (sources.key_text(&raw), FruitBucket { count: bucket.count, subs })
                })
                .collect();
            AggFruit::Buckets(out)
        }
        SegState::CompositeDense { slots, counts } => {
            let Some(SegColumns::Composite(sources)) = &plan.columns else { return AggFruit::Buckets(HashMap::new()) };
            let out = counts
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(at, n)| {
                    let key = sources.key_text(&SegSources::dense_key(&slots, at as u64));
                    (key, FruitBucket { count: *n, subs: Vec::new() })
                })
                .collect();
            AggFruit::Buckets(out)
        }
        SegState::Join { bucket, .. } => {
            let subs = plan.subs.iter().zip(bucket.subs).map(|(p, s)| harvest_state(p, s)).collect();
            AggFruit::Buckets(HashMap::from([(BucketKey::Num(0), FruitBucket { count: bucket.count, subs })]))
        }
        SegState::TopHits(seg) => AggFruit::TopHits(seg.map(|s| s.harvest()).unwrap_or_default()),
        SegState::Significant { docs, terms } => {
            let mut fruit = harvest_state(plan, *terms);
            if let AggFruit::Buckets(buckets) = &mut fruit {
                if docs > 0 {
                    buckets.insert(SUBSET_SIZE_KEY, FruitBucket { count: docs, subs: Vec::new() });
                }
            }
            fruit
        }
        SegState::SourceTerms(buckets) => {
            let out = buckets
                .into_iter()
                .map(|(term, bucket)| {
                    let subs = plan.subs.iter().zip(bucket.subs).map(|(p, s)| harvest_state(p, s)).collect();
                    (BucketKey::Str(term), FruitBucket { count: bucket.count, subs })
                })
                .collect();
            AggFruit::Buckets(out)
        }
        SegState::Dense { counts, mut subs } => {
            let Accessor::Str(col) = &plan.accessor else { return AggFruit::Buckets(HashMap::new()) };
            // `min_doc_count: 0` shows every term of the field, matched or not.
            let all = zero_buckets_wanted(plan);
            let ords: Vec<u64> = (0..counts.len() as u64).filter(|ord| all || counts[*ord as usize] > 0).collect();
            let terms = ords_to_strings(col, &ords);
            if plan.kind == AggKind::Cardinality {
                return AggFruit::Distinct(terms);
            }
            let mut out = HashMap::with_capacity(terms.len());
            for (ord, text) in ords.into_iter().zip(terms) {
                let states = subs.get_mut(ord as usize).and_then(Option::take).unwrap_or_default();
                let subs = plan.subs.iter().zip(states).map(|(p, s)| harvest_state(p, s)).collect();
                out.insert(BucketKey::Str(text), FruitBucket { count: counts[ord as usize], subs });
            }
            AggFruit::Buckets(out)
        }
        SegState::Buckets(buckets)
            if plan.kind == AggKind::Cardinality && matches!(plan.accessor, Accessor::Str(_)) =>
        {
            let Accessor::Str(col) = &plan.accessor else { unreachable!("checked by the guard") };
            let mut ords: Vec<u64> = buckets.into_keys().collect();
            ords.sort_unstable();
            // `missing`'s bucket is no term of the column: its text joins the sorted terms.
            let missing = ords.last() == Some(&MISSING_ORD);
            if missing {
                ords.pop();
            }
            let mut terms = ords_to_strings(col, &ords);
            if let (true, Some(AggMissing::Str(text))) = (missing, &plan.missing) {
                if let Err(at) = terms.binary_search(text) {
                    terms.insert(at, text.clone());
                }
            }
            AggFruit::Distinct(terms)
        }
        SegState::Buckets(mut buckets) => {
            if zero_buckets_wanted(plan) {
                add_zero_buckets(plan, &mut buckets);
            }
            let mut text = String::new();
            let missing_text = match &plan.missing {
                Some(AggMissing::Str(s)) => Some(s.as_str()),
                _ => None,
            };
            let out = buckets
                .into_iter()
                .map(|(raw, bucket)| {
                    let key = match (&plan.accessor, missing_text) {
                        (Accessor::Str(_) | Accessor::Unmapped, Some(missing)) if raw == MISSING_ORD => {
                            BucketKey::Str(missing.to_string())
                        }
                        (Accessor::Str(col), _) if plan.kind.is_terms_like() || plan.kind == AggKind::Cardinality => {
                            text.clear();
                            let _ = col.ord_to_str(raw, &mut text);
                            BucketKey::Str(text.clone())
                        }
                        _ => BucketKey::Num(raw),
                    };
                    let subs = plan.subs.iter().zip(bucket.subs).map(|(p, s)| harvest_state(p, s)).collect();
                    (key, FruitBucket { count: bucket.count, subs })
                })
                .collect();
            AggFruit::Buckets(out)
        }
    }
}

/// `terms` with `min_doc_count: 0`: every value of the field in the segment gets a bucket,
/// as ES's terms aggregator walks the segment's values (not only the matches) for it.
fn zero_buckets_wanted(plan: &Plan) -> bool {
    matches!(plan.kind, AggKind::Terms { min_doc_count: 0, .. })
}

fn add_zero_buckets(plan: &Plan, buckets: &mut KeyMap<SegBucket>) {
    let mut add = |key: u64| {
        buckets.entry(key).or_insert_with(|| SegBucket { count: 0, subs: Vec::new() });
    };
    match &plan.accessor {
        Accessor::Str(col) => (0..col.num_terms() as u64).for_each(add),
        Accessor::I64(c) => (0..c.values.num_vals()).for_each(|i| add(c.values.get_val(i) as u64)),
        Accessor::F64(c) => (0..c.values.num_vals()).for_each(|i| add(c.values.get_val(i).to_bits())),
        Accessor::Bool(c) => (0..c.values.num_vals()).for_each(|i| add(u64::from(c.values.get_val(i)))),
        Accessor::Geo(_) | Accessor::Unmapped => {}
    }
}
