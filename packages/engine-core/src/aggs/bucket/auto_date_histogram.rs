//! `auto_date_histogram`: at most `buckets` buckets, the interval picked from ES's ladder
//! (seconds 1/5/10/30, minutes 1/5/10/30, hours 1/3/12, days 1/7, months 1/3, years
//! 1/5/10/20/50/100). Each segment collects like ES's `FromSingle` collector, moving to a
//! coarser rung when the buckets no longer fit (only without sub-aggregations, whose states
//! cannot be merged mid-collection; with them it stays at the finest rung). Rendering
//! replays the rest on the merged buckets: the shard's rung over all segments, then
//! `InternalAutoDateHistogram`'s final reduce (empty buckets, merging, and grouping
//! consecutive buckets into an inner interval such as `3h`).

use std::cell::Cell;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::date_histogram::{date_bucket_json, parse_key_style, parse_zone};
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::bucket_budget;
use crate::aggs::bucket_budget::MAX_BUCKETS;
use crate::aggs::collect::key_hasher::KeyMap;
use crate::aggs::intermediate::AggFruit;
use crate::aggs::intermediate::{BucketKey, FruitBucket};
use crate::aggs::options::AutoDateSpec;
use crate::aggs::request::{AggKind, AggRequest, Interval};
use crate::date::math::CalendarUnit;
use crate::date::rounding::{KeyFormat, KeyStyle, Rounding};
use crate::date::zone::DateZone;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldType;

/// One rung of the ladder (ES `RoundingInfo`).
struct Rung {
    unit: CalendarUnit,
    /// ES's rough length of one unit (a month is 30 days, a year 365).
    rough_ms: i64,
    abbreviation: &'static str,
    /// `minimum_interval` name.
    name: &'static str,
    inner: &'static [i64],
}

const DAY_MS: i64 = 86_400_000;

static LADDER: [Rung; 6] = [
    Rung { unit: CalendarUnit::Second, rough_ms: 1000, abbreviation: "s", name: "second", inner: &[1, 5, 10, 30] },
    Rung { unit: CalendarUnit::Minute, rough_ms: 60_000, abbreviation: "m", name: "minute", inner: &[1, 5, 10, 30] },
    Rung { unit: CalendarUnit::Hour, rough_ms: 3_600_000, abbreviation: "h", name: "hour", inner: &[1, 3, 12] },
    Rung { unit: CalendarUnit::Day, rough_ms: DAY_MS, abbreviation: "d", name: "day", inner: &[1, 7] },
    Rung { unit: CalendarUnit::Month, rough_ms: 30 * DAY_MS, abbreviation: "M", name: "month", inner: &[1, 3] },
    Rung {
        unit: CalendarUnit::Year,
        rough_ms: 365 * DAY_MS,
        abbreviation: "y",
        name: "year",
        inner: &[1, 5, 10, 20, 50, 100],
    },
];

impl Rung {
    fn max_inner(&self) -> i64 {
        *self.inner.last().expect("every rung has inner intervals")
    }
}

impl AutoDateSpec {
    fn ladder(&self) -> Ladder<'static> {
        Ladder { rungs: &LADDER[self.first_rung..], zone: self.key_format.zone, target: self.target as i64 }
    }
}

/// A collected bucket key: the bucket start and the rung (index into the spec's ladder) it
/// was rounded at, so segments that coarsened differently can be merged at render.
pub(crate) fn encode(key: i64, rung: usize) -> u64 {
    key.wrapping_mul(8).wrapping_add(rung as i64) as u64
}

fn decode(raw: u64) -> (i64, usize) {
    let v = raw as i64;
    (v.div_euclid(8), v.rem_euclid(8) as usize)
}

/// One segment's collection state (ES `AutoDateHistogramAggregator.FromSingle`).
pub(crate) struct AutoCollect {
    ladder: Ladder<'static>,
    rung: Cell<usize>,
    /// Smallest and largest bucket key created so far.
    span: Cell<(i64, i64)>,
    /// The current bucket [start, end): consecutive docs usually share it.
    last: Cell<(i64, i64)>,
    can_coarsen: bool,
}

impl AutoCollect {
    pub(crate) fn new(spec: &AutoDateSpec, has_subs: bool) -> AutoCollect {
        AutoCollect {
            ladder: spec.ladder(),
            rung: Cell::new(0),
            span: Cell::new((i64::MAX, i64::MIN)),
            last: Cell::new((i64::MAX, i64::MIN)),
            can_coarsen: !has_subs,
        }
    }

    pub(crate) fn push_key(&self, ms: i64, keys: &mut Vec<u64>) {
        keys.push(self.bucket(ms).0);
    }

    /// The collected key of `ms` at the current rung, and its bucket's [start, end).
    pub(crate) fn bucket(&self, ms: i64) -> (u64, i64, i64) {
        let rung = self.rung.get();
        let (start, end) = self.last.get();
        if ms >= start && ms < end {
            return (encode(start, rung), start, end);
        }
        let rounding = self.ladder.rounding(rung);
        let start = rounding.round(ms);
        let end = rounding.next(start);
        self.last.set((start, end));
        (encode(start, rung), start, end)
    }

    /// After a doc created bucket `raw`: when the bucket count or the span since the first
    /// bucket no longer fits the rung, re-key every bucket at coarser rungs until they do.
    pub(crate) fn bucket_created<V>(&self, raw: u64, buckets: &mut KeyMap<V>, merge: impl Fn(&mut V, V)) {
        let mut rung = self.rung.get();
        if !self.can_coarsen || rung >= self.ladder.last() {
            return;
        }
        let (key, _) = decode(raw);
        let (min, max) = self.span.get();
        let (min, max) = (min.min(key), max.max(key));
        self.span.set((min, max));
        let fits =
            |rung: usize, count: usize| self.ladder.fits_count(rung, count) && self.ladder.fits_span(rung, max - min);
        if fits(rung, buckets.len()) {
            return;
        }
        loop {
            rung += 1;
            let rounding = self.ladder.rounding(rung);
            for (old, value) in std::mem::take(buckets) {
                match buckets.entry(encode(rounding.round(decode(old).0), rung)) {
                    Entry::Occupied(mut e) => merge(e.get_mut(), value),
                    Entry::Vacant(e) => {
                        e.insert(value);
                    }
                }
            }
            if rung >= self.ladder.last() || fits(rung, buckets.len()) {
                break;
            }
        }
        self.rung.set(rung);
        self.last.set((i64::MAX, i64::MIN));
    }
}

pub struct AutoDateHistogram;

impl Aggregation for AutoDateHistogram {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let (kind, field) = parse(def.name, def.body)?;
        Ok((kind, FieldRef::Field(field)))
    }

    fn accepts(&self, _kind: &AggKind, ty: FieldType) -> bool {
        ty == FieldType::Date || ty.is_i64() || ty.is_f64()
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::AutoDateHistogram(spec), AggFruit::Buckets(buckets)) = (&req.kind, fruit) else {
            unreachable!("fruit shape follows the request")
        };
        render(req, spec, buckets)
    }
}

/// `auto_date_histogram` -> (kind, field name).
fn parse(name: &str, body: &Map<String, Value>) -> Result<(AggKind, String)> {
    const KIND: &str = "auto_date_histogram";
    let mut field = None;
    let mut target = 10usize;
    let mut first_rung = 0;
    let mut zone = DateZone::Utc;
    let mut style = KeyStyle::Iso;
    for (key, value) in body {
        let bad = || EngineError::XContentParse(format!("[{KIND}] failed to parse field [{key}]"));
        match key.as_str() {
            "field" => field = Some(value.as_str().ok_or_else(bad)?.to_string()),
            "buckets" => target = value.as_i64().filter(|n| *n > 0).ok_or_else(bad)? as usize,
            "minimum_interval" => {
                if !value.is_null() {
                    let text = value.as_str().ok_or_else(bad)?;
                    first_rung = LADDER.iter().position(|r| r.name == text).ok_or_else(bad)?;
                }
            }
            "time_zone" => zone = parse_zone(KIND, value)?,
            "format" => style = parse_key_style(KIND, value)?.1,
            _ => return Err(EngineError::XContentParse(format!("[{KIND}] unknown field [{key}]"))),
        }
    }
    let field = field.ok_or_else(|| {
        EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({name})"),
        )
    })?;
    // ES keeps the finest rung's buckets below search.max_buckets: the largest inner
    // interval below years is 30.
    let ceiling = (MAX_BUCKETS / 30) as usize;
    if target > ceiling {
        return Err(EngineError::shard(ShardCause::IllegalArgument, format!("buckets must be less than {ceiling}")));
    }
    let spec = AutoDateSpec { target, first_rung, key_format: KeyFormat { zone, style } };
    Ok((AggKind::AutoDateHistogram(Box::new(spec)), field))
}

/// A bucket being merged: its key, count and sub-aggregation fruits (`None`: still empty).
struct Merged {
    key: i64,
    count: u64,
    subs: Option<Vec<AggFruit>>,
}

impl Merged {
    fn absorb(&mut self, other: Merged) {
        self.count += other.count;
        let Some(theirs) = other.subs else { return };
        match &mut self.subs {
            Some(mine) => {
                for (m, t) in mine.iter_mut().zip(theirs) {
                    m.merge(t);
                }
            }
            None => self.subs = Some(theirs),
        }
    }
}

/// The ladder from `minimum_interval` up, with the zone's roundings.
struct Ladder<'a> {
    rungs: &'a [Rung],
    zone: DateZone,
    target: i64,
}

impl Ladder<'_> {
    fn rounding(&self, idx: usize) -> Rounding {
        Rounding::new(Interval::Calendar(self.rungs[idx].unit), self.zone)
    }

    fn last(&self) -> usize {
        self.rungs.len() - 1
    }

    fn fits_count(&self, idx: usize, count: usize) -> bool {
        count as i64 <= self.target * self.rungs[idx].max_inner()
    }

    fn fits_span(&self, idx: usize, span: i64) -> bool {
        span <= self.target * self.rungs[idx].rough_ms * self.rungs[idx].max_inner()
    }

    /// The shard collector's rung (`FromSingle.increaseRoundingIfNeeded`), replayed from
    /// the coarsest rung a segment reached over all keys in time order: each new bucket may
    /// push the rounding coarser, when the bucket count or the span between the first and
    /// newest bucket no longer fits.
    fn shard_rung(&self, start: usize, fine_keys: &[i64]) -> usize {
        let mut idx = start;
        let (mut min, mut max) = (i64::MAX, i64::MIN);
        let mut keys: Vec<i64> = Vec::new();
        for &fine in fine_keys {
            let rounded = self.rounding(idx).round(fine);
            if keys.last() == Some(&rounded) {
                continue;
            }
            keys.push(rounded);
            if idx >= self.last() {
                continue;
            }
            min = min.min(rounded);
            max = max.max(rounded);
            if self.fits_count(idx, keys.len()) && self.fits_span(idx, max - min) {
                continue;
            }
            loop {
                idx += 1;
                let rounding = self.rounding(idx);
                keys = keys.iter().map(|k| rounding.round(*k)).collect();
                keys.dedup();
                if idx >= self.last() || (self.fits_count(idx, keys.len()) && self.fits_span(idx, max - min)) {
                    break;
                }
            }
        }
        idx
    }

    /// Buckets re-keyed to rung `idx`, consecutive equal keys merged (ES `mergeBuckets`).
    fn merge_to(&self, idx: usize, buckets: Vec<Merged>) -> Vec<Merged> {
        let rounding = self.rounding(idx);
        let mut out: Vec<Merged> = Vec::with_capacity(buckets.len());
        for mut b in buckets {
            b.key = rounding.round(b.key);
            match out.last_mut() {
                Some(last) if last.key == b.key => last.absorb(b),
                _ => out.push(b),
            }
        }
        out
    }

    /// ES `mergeBucketsIfNeeded`: coarser rungs while the count exceeds what the rung's
    /// largest inner interval can bring under the target.
    fn merge_if_needed(&self, mut idx: usize, mut buckets: Vec<Merged>) -> (usize, Vec<Merged>) {
        while !self.fits_count(idx, buckets.len()) && idx < self.last() {
            idx += 1;
            buckets = self.merge_to(idx, buckets);
        }
        (idx, buckets)
    }

    /// ES `getAppropriateRounding`: the rung whose number of steps from the first key to the
    /// last fits (a rough estimate first, then counted exactly).
    fn appropriate_rung(&self, min_key: i64, max_key: i64, idx: usize) -> usize {
        if idx == self.last() {
            return idx;
        }
        let mut current = idx;
        for i in idx + 1..self.rungs.len() {
            let rough = (max_key - min_key) / self.rungs[i].rough_ms;
            if rough < self.target * self.rungs[i].max_inner() {
                current = i - 1;
                break;
            }
        }
        loop {
            let rounding = self.rounding(current);
            let (mut key, mut required) = (min_key, 0i64);
            while key < max_key {
                required += 1;
                key = rounding.next(key);
            }
            current += 1;
            if !(required > self.target * self.rungs[current - 1].max_inner() && current < self.rungs.len()) {
                return current - 1;
            }
        }
    }

    /// ES `addEmptyBuckets`: possibly a coarser rung, then every gap filled.
    fn add_empty(&self, idx: usize, buckets: Vec<Merged>) -> (usize, Vec<Merged>) {
        let (Some(first), Some(last)) = (buckets.first().map(|b| b.key), buckets.last().map(|b| b.key)) else {
            return (idx, buckets);
        };
        let idx = self.appropriate_rung(first, last, idx);
        let rounding = self.rounding(idx);
        let merged = self.merge_to(idx, buckets);
        let mut out: Vec<Merged> = Vec::with_capacity(merged.len());
        for b in merged {
            if let Some(prev) = out.last().map(|p| p.key) {
                let mut key = rounding.next(prev);
                while key < b.key && (out.len() as u64) <= MAX_BUCKETS {
                    out.push(Merged { key, count: 0, subs: None });
                    key = rounding.next(key);
                }
            }
            out.push(b);
        }
        (idx, out)
    }

    /// ES `maybeMergeConsecutiveBuckets`: the smallest inner interval that brings the count
    /// to the target, grouping buckets from the first one.
    fn merge_consecutive(&self, idx: usize, buckets: Vec<Merged>) -> (i64, Vec<Merged>) {
        let n = buckets.len() as i64;
        if n <= self.target {
            return (1, buckets);
        }
        let Some(&inner) = self.rungs[idx].inner.iter().find(|i| (n + *i - 1) / *i <= self.target) else {
            return (1, buckets);
        };
        let mut out: Vec<Merged> = Vec::new();
        for (i, b) in buckets.into_iter().enumerate() {
            match out.last_mut() {
                Some(last) if i as i64 % inner != 0 => last.absorb(b),
                _ => out.push(b),
            }
        }
        (inner, out)
    }
}

fn render(req: &AggRequest, spec: &AutoDateSpec, buckets: &HashMap<BucketKey, FruitBucket>) -> Value {
    let ladder = spec.ladder();
    let mut collected: Vec<(i64, usize, &FruitBucket)> = buckets
        .iter()
        .filter_map(|(k, b)| match k {
            BucketKey::Num(raw) => Some((decode(*raw).0, decode(*raw).1, b)),
            BucketKey::Str(_) => None,
        })
        .collect();
    collected.sort_by_key(|(k, _, _)| *k);
    // Segments may have coarsened to different rungs: the shard continues from the coarsest.
    let start = collected.iter().map(|(_, rung, _)| *rung).max().unwrap_or(0);
    let merged: Vec<Merged> =
        collected.into_iter().map(|(key, _, b)| Merged { key, count: b.count, subs: Some(b.subs.clone()) }).collect();
    let merged = ladder.merge_to(start, merged);
    let keys: Vec<i64> = merged.iter().map(|b| b.key).collect();
    let shard_idx = ladder.shard_rung(start, &keys);
    let merged = ladder.merge_to(shard_idx, merged);
    let (idx, merged) = ladder.merge_if_needed(shard_idx, merged);
    let (idx, merged) = ladder.add_empty(idx, merged);
    let (idx, merged) = ladder.merge_if_needed(idx, merged);
    let (inner, merged) = ladder.merge_consecutive(idx, merged);
    let mut rendered = Vec::with_capacity(merged.len());
    for b in merged {
        let bucket = b.subs.map(|subs| FruitBucket { count: b.count, subs });
        let empty = FruitBucket { count: 0, subs: req.subs.iter().map(AggFruit::empty).collect() };
        rendered.push(date_bucket_json(req, &spec.key_format, b.key, Some(bucket.as_ref().unwrap_or(&empty))));
        if bucket_budget::exceeded().is_some() {
            break;
        }
    }
    json!({ "buckets": rendered, "interval": format!("{inner}{}", ladder.rungs[idx].abbreviation) })
}

#[cfg(test)]
#[path = "auto_date_histogram_tests.rs"]
mod tests;
