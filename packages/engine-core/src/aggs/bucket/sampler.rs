//! `sampler`: one bucket holding, on each shard (here each index), the `shard_size`
//! best-scoring matches of the query (default 100); its sub-aggregations see only those
//! documents and its `doc_count` is how many were kept. ES keeps the sample with a top-docs
//! collector beside the aggregation pass and replays the kept documents into the
//! sub-aggregations; here the sample is found first, in a pass of its own over the query
//! (`sample_docs`), and the aggregation pass keeps a document in the bucket when it is in
//! its segment's sample. Equal scores keep the lower document first, as Lucene's collector.
//!
//! ES samples per parent bucket when the sampler sits below another aggregation; this engine
//! samples the whole query only, so a `sampler` is accepted at the top level.

use std::sync::Arc;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::Value;
use tantivy::collector::TopDocs;
use tantivy::query::Query;
use tantivy::{DocId, Searcher, SegmentOrdinal};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::bucket::random_sampler::SegSampler;
use crate::aggs::intermediate::AggFruit;
use crate::aggs::render::single_bucket;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};

/// ES's `SamplerAggregationBuilder.DEFAULT_SHARD_SAMPLE_SIZE`.
const DEFAULT_SHARD_SIZE: usize = 100;

pub struct Sampler;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[allow(dead_code)]
    shard_size: Option<IgnoredAny>,
}

impl Aggregation for Sampler {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        def.check_keys::<Options>()?;
        let shard_size = match def.body.get("shard_size") {
            None => DEFAULT_SHARD_SIZE,
            Some(v) => {
                let n = v
                    .as_i64()
                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                    .and_then(|n| i32::try_from(n).ok())
                    .ok_or_else(|| def.bad_field("shard_size"))?;
                if n < 1 {
                    return Err(EngineError::shard(
                        ShardCause::IllegalArgument,
                        format!("[shard_size] must be greater than 0, was [{n}] in [{}]", def.name),
                    ));
                }
                n as usize
            }
        };
        Ok((AggKind::Sampler { shard_size }, FieldRef::Field(def.field_name())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match fruit {
            AggFruit::Buckets(b) => single_bucket(req, b.values().next()),
            _ => Value::Null,
        }
    }
}

/// The documents of one index a `sampler` keeps: per segment ordinal, their ids ascending.
#[derive(Debug, Default)]
pub struct TopSample {
    segments: Vec<Arc<[DocId]>>,
}

impl TopSample {
    fn segment(&self, segment: SegmentOrdinal) -> Arc<[DocId]> {
        self.segments.get(segment as usize).cloned().unwrap_or_else(|| Arc::from(Vec::new()))
    }
}

/// The sample of every top-level `sampler` in `aggs` (by position; `None` for the others),
/// taken from the best-scoring matches of `query` on `searcher`.
pub fn sample_docs(aggs: &[AggRequest], searcher: &Searcher, query: &dyn Query) -> Result<Vec<Option<Arc<TopSample>>>> {
    aggs.iter()
        .map(|req| match req.kind {
            AggKind::Sampler { shard_size } => best_docs(searcher, query, shard_size).map(|s| Some(Arc::new(s))),
            _ => Ok(None),
        })
        .collect()
}

fn best_docs(searcher: &Searcher, query: &dyn Query, shard_size: usize) -> Result<TopSample> {
    let limit = shard_size.min(searcher.num_docs().max(1) as usize);
    let top = searcher.search(query, &TopDocs::with_limit(limit).order_by_score())?;
    let mut segments: Vec<Vec<DocId>> = vec![Vec::new(); searcher.segment_readers().len()];
    for (_, addr) in top {
        if let Some(docs) = segments.get_mut(addr.segment_ord as usize) {
            docs.push(addr.doc_id);
        }
    }
    let segments = segments
        .into_iter()
        .map(|mut docs| {
            docs.sort_unstable();
            Arc::from(docs)
        })
        .collect();
    Ok(TopSample { segments })
}

/// Which documents of a segment a sampling bucket keeps.
pub(crate) enum DocSample {
    /// `random_sampler`: a seeded independent choice per document.
    Random(SegSampler),
    /// `sampler`: the segment's share of the index's best-scoring matches.
    Best(Arc<[DocId]>),
}

impl DocSample {
    /// The segment's sampling of a plan of `kind`; `sample` is the request's top-level sample
    /// for this aggregation, if it is a `sampler`.
    pub(crate) fn open(
        kind: &AggKind,
        sample: Option<&TopSample>,
        segment: SegmentOrdinal,
        reader: &tantivy::SegmentReader,
    ) -> Option<DocSample> {
        match kind {
            // A sampler whose sample was not taken (not at the top level) keeps nothing.
            AggKind::Sampler { .. } => {
                Some(DocSample::Best(sample.map_or_else(|| Arc::from(Vec::new()), |s| s.segment(segment))))
            }
            _ => SegSampler::open(kind, reader).map(DocSample::Random),
        }
    }

    pub(crate) fn keeps(&self, doc: DocId) -> bool {
        match self {
            DocSample::Random(s) => s.keeps(doc),
            DocSample::Best(docs) => docs.binary_search(&doc).is_ok(),
        }
    }
}

/// ES builds the sample per parent bucket; this engine only for the whole query.
pub(crate) fn check_top_level(reqs: &[AggRequest]) -> Result<()> {
    fn nested(reqs: &[AggRequest]) -> Option<&str> {
        reqs.iter().find_map(|r| {
            if matches!(r.kind, AggKind::Sampler { .. }) {
                Some(r.name.as_str())
            } else {
                nested(&r.subs)
            }
        })
    }
    match reqs.iter().find_map(|r| nested(&r.subs)) {
        Some(name) => Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("[sampler] aggregation [{name}] under another aggregation is not supported by this engine"),
        )),
        None => Ok(()),
    }
}
