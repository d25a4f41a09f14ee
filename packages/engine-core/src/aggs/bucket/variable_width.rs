//! `variable_width_histogram`: Elasticsearch's one-pass clustering of a numeric field into
//! about `buckets` buckets, replayed step by step over the collected values.
//!
//! The shard phase buffers the first `initial_buffer` values, sorts them and cuts them into
//! `shard_size * 3 / 4` equal runs (clusters); values after the buffer join the nearest
//! cluster or, when far from all of them, start a new one. The reduce phase then merges the
//! two closest clusters (by centroid) until `buckets` remain. While every value fits in the
//! buffer the result depends only on the values, not on the order documents are visited.
//! Centroids are running means updated in ES's order of operations, so keys agree exactly.

use serde_json::{json, Map, Value};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::options::WidthSpec;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldType;

/// ES's defaults: 10 buckets, `shard_size` 50 per bucket, a buffer of 10 shard sizes (at
/// most 50,000 values).
pub struct VariableWidthHistogram;

impl Aggregation for VariableWidthHistogram {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        if def.has_subs() {
            // ES replays deferred sub-aggregations through its cluster merges; not done here.
            return Err(EngineError::Parsing(format!(
                "Aggregator [{}] of type [variable_width_histogram] cannot accept sub-aggregations",
                def.name
            )));
        }
        let spec = parse(def.name, def.body)?;
        Ok((AggKind::VariableWidth(Box::new(spec)), FieldRef::Field(def.field_name())))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty.is_f64() || matches!(ty, FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte)
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let AggKind::VariableWidth(spec) = &req.kind else { unreachable!("dispatched by kind") };
        let values: &[f64] = match fruit {
            AggFruit::Values(v) => v,
            _ => &[],
        };
        render(values, spec)
    }
}

fn parse(name: &str, body: &Map<String, Value>) -> Result<WidthSpec> {
    let (mut buckets, mut shard_size, mut initial_buffer) = (10i64, None, None);
    for (key, value) in body {
        let bad = || EngineError::XContentParse(format!("[variable_width_histogram] failed to parse field [{key}]"));
        match key.as_str() {
            "field" => {
                value.as_str().ok_or_else(bad)?;
            }
            "buckets" => buckets = value.as_i64().filter(|b| *b > 0).ok_or_else(bad)?,
            "shard_size" => shard_size = Some(value.as_i64().filter(|s| *s > 1).ok_or_else(bad)?),
            "initial_buffer" => initial_buffer = Some(value.as_i64().filter(|b| *b > 0).ok_or_else(bad)?),
            _ => return Err(EngineError::XContentParse(format!("[variable_width_histogram] unknown field [{key}]"))),
        }
    }
    if !body.contains_key("field") {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({name})"),
        ));
    }
    let shard_size = shard_size.unwrap_or(buckets * 50);
    let initial_buffer = initial_buffer.unwrap_or((10 * shard_size).min(50_000));
    if initial_buffer < buckets {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("initial_buffer must be at least buckets but was [{initial_buffer}<{buckets}] for [{name}]"),
        ));
    }
    let merge_phase_init = initial_clusters(shard_size as usize);
    if (merge_phase_init as i64) < buckets {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("3/4 of shard_size must be at least buckets but was [{merge_phase_init}<{buckets}] for [{name}]"),
        ));
    }
    Ok(WidthSpec {
        buckets: buckets as usize,
        shard_size: shard_size as usize,
        initial_buffer: initial_buffer as usize,
    })
}

/// Clusters the buffer is cut into, leaving room for distant values that come later.
fn initial_clusters(shard_size: usize) -> usize {
    shard_size * 3 / 4
}

/// One bucket: the mean of its values (`key`), their bounds and count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WidthBucket {
    pub centroid: f64,
    pub min: f64,
    pub max: f64,
    pub doc_count: u64,
}

/// The shard phase: clusters sorted by centroid.
struct Clusters {
    buckets: Vec<WidthBucket>,
    avg_distance: f64,
    shard_size: usize,
}

impl Clusters {
    /// The buffered values sorted and cut into runs of `ceil(n / clusters)`.
    fn from_buffer(buffer: &[f64], shard_size: usize) -> Clusters {
        let mut sorted = buffer.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mut clusters = Clusters { buckets: Vec::new(), avg_distance: 0.0, shard_size };
        let per_cluster = (sorted.len() as f64 / initial_clusters(shard_size) as f64).ceil() as usize;
        for chunk in sorted.chunks(per_cluster.max(1)) {
            clusters.buckets.push(WidthBucket { centroid: chunk[0], min: chunk[0], max: chunk[0], doc_count: 1 });
            let last = clusters.buckets.len() - 1;
            for v in &chunk[1..] {
                clusters.add(last, *v);
            }
        }
        if buffer.len() > 1 {
            clusters.update_avg_distance();
        }
        clusters
    }

    fn add(&mut self, i: usize, v: f64) {
        let b = &mut self.buckets[i];
        b.max = b.max.max(v);
        b.min = b.min.min(v);
        let size = b.doc_count as f64;
        b.centroid = (b.centroid * size + v) / (size + 1.0);
        b.doc_count += 1;
    }

    /// Centroids are sorted, so the mean gap is the span over the number of gaps (NaN or
    /// infinite with one cluster, exactly as in ES, where it then never triggers a split).
    fn update_avg_distance(&mut self) {
        let n = self.buckets.len();
        self.avg_distance = (self.buckets[n - 1].centroid - self.buckets[0].centroid) / (n as f64 - 1.0);
    }

    /// A value after the buffer: into the nearest cluster, or a new one when it lies more
    /// than twice the mean gap away and there is room.
    fn collect(&mut self, v: f64) {
        let mut i = self.nearest(v);
        let distance = (self.buckets[i].centroid - v).abs();
        if distance > 2.0 * self.avg_distance && self.buckets.len() < self.shard_size {
            if v > self.buckets[i].centroid {
                i += 1;
            }
            self.buckets.insert(i, WidthBucket { centroid: v, min: v, max: v, doc_count: 1 });
            self.update_avg_distance();
        } else {
            self.add(i, v);
            if i == 0 || i == self.buckets.len() - 1 {
                self.update_avg_distance();
            }
        }
    }

    /// ES's binary search for the closest centroid (the lower index on a tie).
    fn nearest(&self, v: f64) -> usize {
        let c = |i: usize| self.buckets[i].centroid;
        let closest = |a: usize, b: usize| if (c(b) - v).abs() < (c(a) - v).abs() { b } else { a };
        let (mut from, mut to) = (0i64, self.buckets.len() as i64 - 1);
        while from < to {
            let mid = ((from + to) / 2) as usize;
            match c(mid).total_cmp(&v) {
                std::cmp::Ordering::Equal => return mid,
                std::cmp::Ordering::Less => {
                    if c(mid + 1) > v {
                        return closest(mid, mid + 1);
                    }
                    from = mid as i64 + 1;
                }
                std::cmp::Ordering::Greater => {
                    if mid as i64 > from && c(mid - 1) < v {
                        return closest(mid, mid - 1);
                    }
                    if mid == 0 {
                        return 0;
                    }
                    to = mid as i64 - 1;
                }
            }
        }
        from as usize
    }
}

/// The shard phase over values in collection order: buckets sorted by centroid.
fn shard_buckets(values: &[f64], spec: &WidthSpec) -> Vec<WidthBucket> {
    let buffered = values.len().min(spec.initial_buffer);
    let mut clusters = Clusters::from_buffer(&values[..buffered], spec.shard_size);
    for v in &values[buffered..] {
        clusters.collect(*v);
    }
    let mut buckets = clusters.buckets;
    buckets.sort_by(|a, b| a.centroid.total_cmp(&b.centroid));
    buckets
}

/// ES's `reduceBucket`: counts add up, the centroid is the count-weighted mean (summed in
/// the order given), bounds widen.
fn reduce_bucket<'a>(buckets: impl Iterator<Item = &'a WidthBucket>) -> WidthBucket {
    let mut out = WidthBucket { centroid: 0.0, min: f64::INFINITY, max: f64::NEG_INFINITY, doc_count: 0 };
    let mut sum = 0.0;
    for b in buckets {
        out.doc_count += b.doc_count;
        out.min = out.min.min(b.min);
        out.max = out.max.max(b.max);
        sum += b.doc_count as f64 * b.centroid;
    }
    out.centroid = sum / out.doc_count as f64;
    out
}

/// Replaces each run `[start, end]` of `buckets` by its merge; ES merges a run from its
/// last bucket down to its first, which fixes the summation order of the centroid.
fn merge_runs(buckets: &[WidthBucket], runs: &[(usize, usize)]) -> Vec<WidthBucket> {
    runs.iter()
        .map(
            |&(start, end)| {
                if start == end {
                    buckets[start]
                } else {
                    reduce_bucket(buckets[start..=end].iter().rev())
                }
            },
        )
        .collect()
}

/// Merges the two closest neighbours (by centroid) until `target` buckets remain.
fn merge_to_target(buckets: &[WidthBucket], target: usize) -> Vec<WidthBucket> {
    // (start, end, centroid, doc_count) of the planned merges.
    let mut ranges: Vec<(usize, usize, f64, u64)> =
        buckets.iter().enumerate().map(|(i, b)| (i, i, b.centroid, b.doc_count)).collect();
    while ranges.len() > target {
        let mut closest = 0;
        let mut smallest = f64::INFINITY;
        for i in 0..ranges.len() - 1 {
            let distance = ranges[i + 1].2 - ranges[i].2;
            if distance < smallest {
                closest = i;
                smallest = distance;
            }
        }
        let next = ranges.remove(closest + 1);
        let r = &mut ranges[closest];
        r.1 = next.1;
        if r.3 + next.3 > 0 {
            r.2 = (r.2 * r.3 as f64 + next.2 * next.3 as f64) / (r.3 + next.3) as f64;
            r.3 += next.3;
        }
    }
    let runs: Vec<(usize, usize)> = ranges.iter().map(|r| (r.0, r.1)).collect();
    merge_runs(buckets, &runs)
}

/// The final buckets of a single shard's values: the shard phase, then ES's reduce.
pub(crate) fn buckets(values: &[f64], spec: &WidthSpec) -> Vec<WidthBucket> {
    let shard = shard_buckets(values, spec);
    // Buckets with the same centroid are one key: reduced together (every bucket passes
    // through `reduce_bucket`, which can move a centroid by an ulp).
    let mut keyed: Vec<WidthBucket> = Vec::new();
    let mut start = 0;
    while start < shard.len() {
        let end = (start..shard.len()).take_while(|j| shard[*j].centroid == shard[start].centroid).last().unwrap();
        keyed.push(reduce_bucket(shard[start..=end].iter()));
        start = end + 1;
    }
    let merged = merge_to_target(&keyed, spec.buckets);
    // Neighbours starting at the same value become one bucket.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, b) in merged.iter().enumerate() {
        match runs.last_mut() {
            Some(run) if merged[run.1].min == b.min => run.1 = i,
            _ => runs.push((i, i)),
        }
    }
    let mut out = merge_runs(&merged, &runs);
    // Overlapping neighbours meet halfway.
    for i in 1..out.len() {
        if out[i].min < out[i - 1].max {
            out[i].min = (out[i - 1].max + out[i].min) / 2.0;
            out[i - 1].max = out[i].min;
        }
    }
    out
}

fn render(values: &[f64], spec: &WidthSpec) -> Value {
    let rendered: Vec<Value> = buckets(values, spec)
        .into_iter()
        .map(|b| {
            crate::aggs::bucket_budget::consume();
            json!({ "min": b.min, "key": b.centroid, "max": b.max, "doc_count": b.doc_count })
        })
        .collect();
    json!({ "buckets": rendered })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec(buckets: usize, shard_size: usize, initial_buffer: usize) -> WidthSpec {
        WidthSpec { buckets, shard_size, initial_buffer }
    }

    #[test]
    fn defaults_follow_buckets() {
        let s = parse("w", json!({"field": "n", "buckets": 4}).as_object().unwrap()).unwrap();
        assert_eq!(s, spec(4, 200, 2000));
        let s = parse("w", json!({"field": "n"}).as_object().unwrap()).unwrap();
        assert_eq!(s, spec(10, 500, 5000));
        let s = parse("w", json!({"field": "n", "buckets": 100, "shard_size": 10000}).as_object().unwrap()).unwrap();
        assert_eq!(s.initial_buffer, 50_000);
    }

    #[test]
    fn invalid_sizes_are_refused() {
        let p = |v: Value| parse("w", v.as_object().unwrap());
        assert!(p(json!({"field": "n", "buckets": 0})).is_err());
        assert!(p(json!({"field": "n", "shard_size": 1})).is_err());
        assert!(p(json!({"field": "n", "buckets": 5, "initial_buffer": 4})).is_err());
        assert!(p(json!({"field": "n", "buckets": 8, "shard_size": 10})).is_err());
        assert!(p(json!({"buckets": 3})).is_err());
        assert!(p(json!({"field": "n", "interval": 3})).is_err());
    }

    #[test]
    fn clusters_a_small_buffer_into_target_buckets() {
        // shard_size 4: 3 initial clusters of ceil(7/3) = 3 sorted values:
        // [1,2,3] c=2, [10,11,12] c=11, [30] c=30. Two buckets: 2 and 11 are closest.
        let values = [12.0, 1.0, 30.0, 3.0, 10.0, 2.0, 11.0];
        let out = buckets(&values, &spec(2, 4, 100));
        assert_eq!(out.len(), 2);
        assert_eq!((out[0].min, out[0].max, out[0].doc_count), (1.0, 12.0, 6));
        assert_eq!(out[0].centroid, (3.0 * 11.0 + 3.0 * 2.0) / 6.0);
        assert_eq!(out[1], WidthBucket { centroid: 30.0, min: 30.0, max: 30.0, doc_count: 1 });
        // Three buckets keep the initial clusters.
        let out = buckets(&values, &spec(3, 4, 100));
        let keys: Vec<f64> = out.iter().map(|b| b.centroid).collect();
        assert_eq!(keys, vec![2.0, 11.0, 30.0]);
    }

    #[test]
    fn equal_centroids_are_one_bucket() {
        // One value per cluster (shard_size 8 -> 6 clusters >= 4 values): the two 5s share a key.
        let out = buckets(&[5.0, 5.0, 1.0, 9.0], &spec(3, 8, 100));
        assert_eq!(out.len(), 3);
        assert_eq!(out[1], WidthBucket { centroid: 5.0, min: 5.0, max: 5.0, doc_count: 2 });
    }

    #[test]
    fn overlapping_neighbours_meet_halfway() {
        // Buffer [0, 10]; then 4 and 5.9 join the low cluster (centroid 3.3), 7, 6 and 5.8 the
        // high one as its centroid comes down: the high cluster starts below the low one's max.
        let out = buckets(&[0.0, 10.0, 4.0, 5.9, 7.0, 6.0, 5.8], &spec(2, 4, 2));
        assert_eq!(out.len(), 2);
        assert_eq!((out[0].doc_count, out[1].doc_count), (3, 4));
        assert_eq!(out[0].max, (5.9 + 5.8) / 2.0);
        assert_eq!(out[1].min, out[0].max);
    }

    #[test]
    fn values_past_the_buffer_join_or_open_clusters() {
        // Buffer [0, 10] -> 2 clusters, mean gap 10; 11 joins 10, 100 opens a new cluster.
        let out = buckets(&[0.0, 10.0, 11.0, 100.0], &spec(3, 4, 2));
        let keys: Vec<(f64, u64)> = out.iter().map(|b| (b.centroid, b.doc_count)).collect();
        assert_eq!(keys, vec![(0.0, 1), (10.5, 2), (100.0, 1)]);
    }

    #[test]
    fn no_values_no_buckets() {
        assert!(buckets(&[], &spec(3, 150, 10000)).is_empty());
    }
}
