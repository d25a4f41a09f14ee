//! Aggregations over several indices (lists, wildcards, aliases). As ES's shards do, each index
//! parses the request against its own mapping and collects its own intermediate result (a field
//! may be a `long` in one index, a `double` in another and unmapped in a third); here those
//! results are brought to one request tree, merged with the merge that joins segments
//! (`AggFruit::merge`, tantivy's `merge_fruits`) and rendered once, so ordering, `size` and the
//! pipelines apply to the merged buckets. A single index never comes through here.
//!
//! Counts stay exact: every index hands over all its buckets (ES cuts each shard to
//! `shard_size` first, which changes nothing while an index has fewer distinct terms than that;
//! past it ES's counts become estimates and ours stay exact).

use std::collections::HashMap;

use super::intermediate::{AggFruit, BucketKey};
use super::metric::top_hits::HitsContext;
use super::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldType;

/// What one index collected for the request, with what `top_hits` needs to read its documents.
pub struct IndexAggs {
    pub reqs: Vec<AggRequest>,
    pub fruits: Vec<AggFruit>,
    pub hits: HitsContext,
    /// How many segments the index's searcher has (hits of the next index are numbered after).
    pub segments: u32,
}

/// The merged result: one request tree, its fruits, and every index's hits context.
pub struct MergedAggs {
    pub reqs: Vec<AggRequest>,
    pub fruits: Vec<AggFruit>,
    pub hits: Vec<HitsContext>,
}

/// How ES's reduce sees a field's values: terms of one family merge; `long` terms meeting
/// `double` terms become doubles (ES's `LongTerms` reduced with `DoubleTerms`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Bytes,
    Long,
    Double,
    Other,
}

fn family(ty: FieldType) -> Family {
    match ty {
        FieldType::Keyword | FieldType::Ip => Family::Bytes,
        FieldType::Double | FieldType::Float => Family::Double,
        t if t.is_i64() || t == FieldType::Boolean => Family::Long,
        _ => Family::Other,
    }
}

fn resolved_family(req: &AggRequest) -> Option<Family> {
    req.field.resolved.as_ref().map(|(_, ty)| family(*ty))
}

/// Merges the per-index results of one request.
pub fn merge(parts: Vec<IndexAggs>) -> Result<MergedAggs> {
    let levels: Vec<&[AggRequest]> = parts.iter().map(|p| p.reqs.as_slice()).collect();
    let reqs = unify_level(&levels)?;
    let mut fruits: Vec<AggFruit> = reqs.iter().map(AggFruit::empty).collect();
    let mut hits = Vec::with_capacity(parts.len());
    let mut offset = 0u32;
    for part in parts {
        for ((own, unified), (mut fruit, merged)) in
            part.reqs.iter().zip(&reqs).zip(part.fruits.into_iter().zip(fruits.iter_mut()))
        {
            normalize(own, unified, &mut fruit, offset);
            if !compatible(merged, &fruit) {
                return Err(mixed_types(&unified.name));
            }
            merged.merge(fruit);
        }
        let mut ctx = part.hits;
        ctx.segment_offset = offset;
        hits.push(ctx);
        offset += part.segments;
    }
    Ok(MergedAggs { reqs, fruits, hits })
}

fn mixed_types(name: &str) -> EngineError {
    EngineError::shard(
        ShardCause::AggregationExecution,
        format!(
            "Merging/Reducing the aggregations failed when computing the aggregation [{name}] because the field you gave in the aggregation query existed as two different types in two different indices"
        ),
    )
}

/// One request tree for all indices: at each node, the first index that maps the field speaks
/// for the rest (an unmapped field renders as the mapped ones do), and `long` terms give way to
/// `double` terms.
fn unify_level(levels: &[&[AggRequest]]) -> Result<Vec<AggRequest>> {
    let Some(first) = levels.first() else { return Ok(Vec::new()) };
    if levels.iter().any(|l| l.len() != first.len()) {
        return Err(EngineError::Internal("indices parsed the aggregations into different trees".into()));
    }
    (0..first.len())
        .map(|i| {
            let nodes: Vec<&AggRequest> = levels.iter().map(|l| &l[i]).collect();
            unify_node(&nodes)
        })
        .collect()
}

fn unify_node(nodes: &[&AggRequest]) -> Result<AggRequest> {
    let first = nodes[0];
    if matches!(&first.kind, AggKind::Significant(spec) if spec.background.is_some()) {
        // The filter is lowered against one index's mapping; the background counts of the
        // others would need it lowered against theirs.
        return Err(EngineError::IllegalArgument(format!(
            "[{}] significant_terms and significant_text with a background_filter over more than one index are not supported",
            first.name
        )));
    }
    let mapped: Vec<&AggRequest> = nodes.iter().copied().filter(|n| n.field.resolved.is_some()).collect();
    let mut rep = mapped.first().copied().unwrap_or(first);
    if first.kind.is_terms_like() {
        let families: Vec<Family> = mapped.iter().filter_map(|n| resolved_family(n)).collect();
        let all = |f: &dyn Fn(Family) -> bool| families.iter().all(|x| f(*x));
        if all(&|f| f == Family::Long || f == Family::Double) {
            if let Some(double) = mapped.iter().find(|n| resolved_family(n) == Some(Family::Double)) {
                rep = double;
            }
        } else if !all(&|f| f == families[0]) {
            return Err(mixed_types(&first.name));
        }
    }
    let sub_levels: Vec<&[AggRequest]> = nodes.iter().map(|n| n.subs.as_slice()).collect();
    let subs = unify_level(&sub_levels)?;
    let mut unified = AggRequest { subs, ..rep.clone() };
    // A composite's sources each take their field from an index that maps it (their keys
    // render by its type).
    if let AggKind::Composite(spec) = &mut unified.kind {
        for (i, source) in spec.sources.iter_mut().enumerate() {
            let mapped = nodes.iter().find_map(|n| match &n.kind {
                AggKind::Composite(s) => s.sources.get(i).and_then(|s| s.field.clone()),
                _ => None,
            });
            if source.field.is_none() {
                source.field = mapped;
            }
        }
    }
    Ok(unified)
}

/// Brings one index's fruit to the unified request: `long` term keys become `double` keys
/// where the merged terms are doubles, and `top_hits` addresses move past earlier indices'
/// segments.
fn normalize(own: &AggRequest, unified: &AggRequest, fruit: &mut AggFruit, offset: u32) {
    match fruit {
        AggFruit::TopHits(top) => {
            for hit in &mut top.hits {
                hit.address.segment_ord += offset;
            }
        }
        AggFruit::Buckets(buckets) => {
            let widen = unified.kind.is_terms_like()
                && resolved_family(own) == Some(Family::Long)
                && resolved_family(unified) == Some(Family::Double);
            if widen {
                let taken = std::mem::take(buckets);
                *buckets = taken
                    .into_iter()
                    .map(|(key, bucket)| match key {
                        BucketKey::Num(raw) => (BucketKey::Num((raw as i64 as f64).to_bits()), bucket),
                        other => (other, bucket),
                    })
                    .collect::<HashMap<_, _>>();
            }
            for bucket in buckets.values_mut() {
                for ((own_sub, unified_sub), sub) in own.subs.iter().zip(&unified.subs).zip(bucket.subs.iter_mut()) {
                    normalize(own_sub, unified_sub, sub, offset);
                }
            }
        }
        AggFruit::Metric(_) | AggFruit::Distinct(_) | AggFruit::Values(_) => {}
    }
}

/// Whether `AggFruit::merge` can join the two (it assumes one shape per request): an empty
/// fruit joins anything; otherwise the kinds match, down through the buckets both hold.
fn compatible(a: &AggFruit, b: &AggFruit) -> bool {
    if a.is_empty() || b.is_empty() {
        return true;
    }
    match (a, b) {
        (AggFruit::Buckets(x), AggFruit::Buckets(y)) => y.iter().all(|(key, theirs)| {
            x.get(key).is_none_or(|mine| mine.subs.iter().zip(&theirs.subs).all(|(m, t)| compatible(m, t)))
        }),
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggs::intermediate::FruitBucket;
    use crate::aggs::options::TermsOrder;
    use crate::aggs::request::AggField;

    fn terms(ty: Option<FieldType>) -> AggRequest {
        let mut field = AggField::named("n");
        field.resolved = ty.map(|t| ("n".to_string(), t));
        AggRequest {
            name: "t".into(),
            kind: AggKind::Terms { size: 10, min_doc_count: 1, order: TermsOrder::count_desc(), filter: None },
            field,
            subs: vec![],
            meta: None,
        }
    }

    fn buckets(keys: &[(u64, u64)]) -> AggFruit {
        AggFruit::Buckets(
            keys.iter().map(|(k, c)| (BucketKey::Num(*k), FruitBucket { count: *c, subs: vec![] })).collect(),
        )
    }

    fn unified(nodes: &[&AggRequest]) -> Result<AggRequest> {
        unify_node(nodes)
    }

    #[test]
    fn long_terms_meeting_double_terms_become_doubles() {
        let (long, double) = (terms(Some(FieldType::Long)), terms(Some(FieldType::Double)));
        let rep = unified(&[&long, &double]).unwrap();
        assert_eq!(rep.field.resolved.as_ref().map(|r| r.1), Some(FieldType::Double));
        let mut fruit = buckets(&[(10i64 as u64, 1)]);
        normalize(&long, &rep, &mut fruit, 0);
        let AggFruit::Buckets(b) = fruit else { panic!() };
        assert!(b.contains_key(&BucketKey::Num(10f64.to_bits())));
    }

    #[test]
    fn an_unmapped_index_takes_the_mapped_type() {
        let (none, kw) = (terms(None), terms(Some(FieldType::Keyword)));
        let rep = unified(&[&none, &kw]).unwrap();
        assert_eq!(rep.field.resolved.as_ref().map(|r| r.1), Some(FieldType::Keyword));
    }

    #[test]
    fn keyword_terms_meeting_long_terms_fail_as_es_reduces() {
        let (kw, long) = (terms(Some(FieldType::Keyword)), terms(Some(FieldType::Long)));
        let err = unified(&[&kw, &long]).unwrap_err();
        assert!(err.to_string().contains("existed as two different types"), "{err}");
    }

    #[test]
    fn shapes_that_cannot_merge_are_caught() {
        assert!(compatible(&buckets(&[(1, 1)]), &AggFruit::Values(vec![])));
        assert!(!compatible(&buckets(&[(1, 1)]), &AggFruit::Distinct(vec!["a".into()])));
    }
}
