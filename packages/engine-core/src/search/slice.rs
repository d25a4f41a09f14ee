//! Sliced scroll: `{"slice": {"id", "max"[, "field"]}}` beside `scroll` splits one scroll into
//! `max` disjoint parts that together hold every match. As in ES, a slice is first a set of
//! the index's shards (each document belongs to the shard its routing, or its id, sends it to):
//! with fewer slices than shards, slice `id` takes the shards `s` with `s % max == id`; with
//! as many or more, slice `id` lives in shard `id % shards`, which splits its documents by a
//! hash of their `_id` (Murmur3, seed 7919, over the id as Lucene stores it) into as many
//! parts as there are slices on that shard.

use std::sync::Arc;

use serde_json::{Map, Value};
use tantivy::query::{BitSetDocSet, ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{BitSet, DocId, DocSet, Score, SegmentReader, TERMINATED};

use crate::error::{EngineError, Result, ShardCause};
use crate::store::ids::lucene_id_bytes;
use crate::store::index::IndexHandle;
use crate::store::routing::{murmur3_x86_32, routing_num_shards, shard_for};

/// ES's `TermsSliceQuery` seed.
const SEED: u32 = 7919;

/// A parsed `slice` section (validated as ES's `SliceBuilder` validates it).
#[derive(Debug, Clone, PartialEq)]
pub struct Slice {
    pub id: u32,
    pub max: u32,
    pub field: Option<String>,
}

/// ES 7.10's refusal of a slice outside a scroll (raised on each shard).
pub fn outside_scroll() -> EngineError {
    EngineError::shard(ShardCause::Search, "`slice` cannot be used outside of a scroll context")
}

impl Slice {
    pub fn parse(value: &Value) -> Result<Slice> {
        let obj = value
            .as_object()
            .ok_or_else(|| EngineError::XContentParse("[slice] failed to parse, expected an object".into()))?;
        let (mut id, mut max, mut field) = (None, None, None);
        for (key, v) in obj {
            match key.as_str() {
                "id" => id = Some(int(key, v)?),
                "max" => max = Some(int(key, v)?),
                "field" => {
                    field = Some(
                        v.as_str()
                            .ok_or_else(|| {
                                EngineError::XContentParse(format!("[slice] failed to parse field [{key}]"))
                            })?
                            .to_string(),
                    )
                }
                other => return Err(EngineError::XContentParse(format!("[slice] unknown field [{other}]"))),
            }
        }
        let (Some(id), Some(max)) = (id, max) else {
            return Err(EngineError::IllegalArgument("[slice] requires both [id] and [max]".into()));
        };
        if id < 0 {
            return Err(EngineError::IllegalArgument("id must be greater than or equal to 0".into()));
        }
        if max <= 1 {
            return Err(EngineError::IllegalArgument("max must be greater than 1".into()));
        }
        if id >= max {
            return Err(EngineError::IllegalArgument("max must be greater than id".into()));
        }
        Ok(Slice { id: id as u32, max: max as u32, field })
    }

    /// The filter of the slice's documents on `handle`, checked against the index's
    /// `max_slices_per_scroll` and the field's mapping (shard-level failures in ES).
    pub fn filter(&self, handle: &IndexHandle) -> Result<Box<dyn Query>> {
        let limit = handle.settings.limits.max_slices_per_scroll;
        if self.max as usize > limit {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("The number of slices [{}] is too large. It must be less than [{limit}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.", self.max),
            ));
        }
        match self.field.as_deref() {
            None | Some("_id" | "_uid") => {}
            Some(field) if !handle.mapping.fields.contains_key(field) => {
                return Err(EngineError::shard(ShardCause::IllegalArgument, format!("field {field} not found")));
            }
            // ES hashes a numeric field's doc values; only `_id` slicing is implemented here.
            Some(field) => {
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!("slicing by the doc values of [{field}] is not supported, only by [_id]"),
                ));
            }
        }
        let shards = handle.settings.number_of_shards.max(1);
        Ok(Box::new(SliceQuery(Arc::new(Plan {
            slice: self.clone(),
            shards,
            routing_shards: routing_num_shards(&handle.settings),
            id_field: handle.mapping.id_field,
            routing_field: handle.mapping.routing_field,
        }))))
    }
}

fn int(key: &str, v: &Value) -> Result<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .filter(|n| i32::try_from(*n).is_ok())
        .ok_or_else(|| EngineError::XContentParse(format!("[slice] failed to parse field [{key}]")))
}

/// The slice's body key taken out of a scroll's body, parsed.
pub fn take(body: &mut Map<String, Value>) -> Result<Option<Slice>> {
    body.remove("slice").map(|v| Slice::parse(&v)).transpose()
}

#[derive(Debug)]
struct Plan {
    slice: Slice,
    shards: u64,
    routing_shards: u64,
    id_field: Field,
    routing_field: Option<Field>,
}

/// Which documents a shard keeps: all, none, or those whose `_id` hash falls in `part` of `parts`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum ShardShare {
    None,
    All,
    Part { part: u32, parts: u32 },
}

impl Plan {
    /// ES's `SliceBuilder.toFilter`, for one shard.
    fn share(&self, shard: u64) -> ShardShare {
        let (id, max) = (u64::from(self.slice.id), u64::from(self.slice.max));
        if self.shards == 1 {
            return ShardShare::Part { part: self.slice.id, parts: self.slice.max };
        }
        if max >= self.shards {
            if id % self.shards != shard {
                return ShardShare::None;
            }
            let parts = max / self.shards + u64::from(max % self.shards > shard);
            if parts == 1 {
                return ShardShare::All;
            }
            return ShardShare::Part { part: (id / self.shards) as u32, parts: parts as u32 };
        }
        if shard % max == id {
            ShardShare::All
        } else {
            ShardShare::None
        }
    }

    fn shard_of(&self, routing: &str) -> u64 {
        if self.shards == 1 {
            0
        } else {
            shard_for(routing, self.shards, self.routing_shards)
        }
    }

    /// The segment's documents in the slice.
    fn segment(&self, reader: &SegmentReader) -> tantivy::Result<BitSet> {
        let max_doc = reader.max_doc();
        let mut kept = BitSet::with_max_value(max_doc);
        // A document with a custom routing lives on the routing's shard.
        let mut routed: Vec<Option<u64>> = Vec::new();
        if let Some(field) = self.routing_field.filter(|_| self.shards > 1) {
            let index = reader.inverted_index(field)?;
            let mut stream = index.terms().stream()?;
            while stream.advance() {
                let shard = self.shard_of(&String::from_utf8_lossy(stream.key()));
                let mut postings = index.read_postings_from_terminfo(stream.value(), IndexRecordOption::Basic)?;
                if routed.is_empty() {
                    routed = vec![None; max_doc as usize];
                }
                let mut doc = postings.doc();
                while doc != TERMINATED {
                    routed[doc as usize] = Some(shard);
                    doc = postings.advance();
                }
            }
        }
        let index = reader.inverted_index(self.id_field)?;
        let mut stream = index.terms().stream()?;
        while stream.advance() {
            let id = String::from_utf8_lossy(stream.key());
            let id_shard = self.shard_of(&id);
            let mut hash = None;
            let mut postings = index.read_postings_from_terminfo(stream.value(), IndexRecordOption::Basic)?;
            let mut doc = postings.doc();
            while doc != TERMINATED {
                let shard = routed.get(doc as usize).copied().flatten().unwrap_or(id_shard);
                let keep = match self.share(shard) {
                    ShardShare::None => false,
                    ShardShare::All => true,
                    ShardShare::Part { part, parts } => {
                        let h = *hash.get_or_insert_with(|| murmur3_x86_32(&lucene_id_bytes(&id), SEED) as i32);
                        i64::from(h).rem_euclid(i64::from(parts)) == i64::from(part)
                    }
                };
                if keep {
                    kept.insert(doc);
                }
                doc = postings.advance();
            }
        }
        Ok(kept)
    }
}

#[derive(Debug, Clone)]
struct SliceQuery(Arc<Plan>);

impl Query for SliceQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for SliceQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(ConstScorer::new(BitSetDocSet::from(self.0.segment(reader)?), boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) == doc {
            return Ok(Explanation::new("slice", scorer.score()));
        }
        Err(tantivy::TantivyError::InvalidArgument(format!("document #({doc}) does not match")))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn plan(id: u32, max: u32, shards: u64) -> Plan {
        let mut builder = tantivy::schema::Schema::builder();
        let id_field = builder.add_text_field("_id", tantivy::schema::STRING);
        Plan { slice: Slice { id, max, field: None }, shards, routing_shards: shards, id_field, routing_field: None }
    }

    #[test]
    fn fewer_slices_than_shards_take_whole_shards() {
        let shares: Vec<_> = (0..5).map(|s| plan(0, 2, 5).share(s)).collect();
        use ShardShare::{All, None};
        assert_eq!(shares, vec![All, None, All, None, All]);
        assert_eq!(plan(1, 2, 5).share(3), All);
    }

    #[test]
    fn more_slices_than_shards_split_one_shard_by_id_hash() {
        // 7 slices on 3 shards: shard 0 holds slices 0, 3, 6; shards 1 and 2 two each.
        assert_eq!(plan(6, 7, 3).share(0), ShardShare::Part { part: 2, parts: 3 });
        assert_eq!(plan(4, 7, 3).share(1), ShardShare::Part { part: 1, parts: 2 });
        assert_eq!(plan(4, 7, 3).share(0), ShardShare::None);
        assert_eq!(plan(2, 3, 3).share(2), ShardShare::All);
        assert_eq!(plan(1, 4, 1).share(0), ShardShare::Part { part: 1, parts: 4 });
    }

    #[test]
    fn the_section_is_validated_as_es_does() {
        let err = |v: Value| Slice::parse(&v).unwrap_err().to_string();
        assert_eq!(err(json!({"id": -1, "max": 2})), "id must be greater than or equal to 0");
        assert_eq!(err(json!({"id": 0, "max": 1})), "max must be greater than 1");
        assert_eq!(err(json!({"id": 2, "max": 2})), "max must be greater than id");
        assert!(err(json!({"id": 0, "max": 2, "size": 1})).contains("unknown field [size]"));
        let ok = Slice::parse(&json!({"id": 1, "max": 3, "field": "_id"})).unwrap();
        assert_eq!((ok.id, ok.max, ok.field.as_deref()), (1, 3, Some("_id")));
    }
}
