//! `auto_date_histogram`'s interval ladder (ES `RoundingInfo`: seconds 1/5/10/30, minutes
//! 1/5/10/30, hours 1/3/12, days 1/7, months 1/3, years 1/5/10/20/50/100) and the final reduce
//! over the merged buckets (`InternalAutoDateHistogram`: the shard's rung over all segments,
//! then empty buckets, merging, and grouping consecutive buckets into an inner interval such
//! as `3h`).

use crate::aggs::bucket_budget::MAX_BUCKETS;
use crate::aggs::intermediate::AggFruit;
use crate::aggs::options::AutoDateSpec;
use crate::aggs::request::Interval;
use crate::date::math::CalendarUnit;
use crate::date::rounding::Rounding;
use crate::date::zone::DateZone;

/// One rung of the ladder (ES `RoundingInfo`).
pub(super) struct Rung {
    pub(super) unit: CalendarUnit,
    /// ES's rough length of one unit (a month is 30 days, a year 365).
    pub(super) rough_ms: i64,
    pub(super) abbreviation: &'static str,
    /// `minimum_interval` name.
    pub(super) name: &'static str,
    pub(super) inner: &'static [i64],
}

pub(super) const DAY_MS: i64 = 86_400_000;

pub(super) static LADDER: [Rung; 6] = [
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
    pub(super) fn max_inner(&self) -> i64 {
        *self.inner.last().expect("every rung has inner intervals")
    }
}

impl AutoDateSpec {
    pub(super) fn ladder(&self) -> Ladder<'static> {
        Ladder { rungs: &LADDER[self.first_rung..], zone: self.key_format.zone, target: self.target as i64 }
    }
}

/// A collected bucket key: the bucket start and the rung (index into the spec's ladder) it
/// was rounded at, so segments that coarsened differently can be merged at render.
pub(crate) fn encode(key: i64, rung: usize) -> u64 {
    key.wrapping_mul(8).wrapping_add(rung as i64) as u64
}

pub(super) fn decode(raw: u64) -> (i64, usize) {
    let v = raw as i64;
    (v.div_euclid(8), v.rem_euclid(8) as usize)
}

/// A bucket being merged: its key, count and sub-aggregation fruits (`None`: still empty).
pub(super) struct Merged {
    pub(super) key: i64,
    pub(super) count: u64,
    pub(super) subs: Option<Vec<AggFruit>>,
}

impl Merged {
    pub(super) fn absorb(&mut self, other: Merged) {
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
pub(super) struct Ladder<'a> {
    pub(super) rungs: &'a [Rung],
    pub(super) zone: DateZone,
    pub(super) target: i64,
}

impl Ladder<'_> {
    pub(super) fn rounding(&self, idx: usize) -> Rounding {
        Rounding::new(Interval::Calendar(self.rungs[idx].unit), self.zone)
    }

    pub(super) fn last(&self) -> usize {
        self.rungs.len() - 1
    }

    pub(super) fn fits_count(&self, idx: usize, count: usize) -> bool {
        count as i64 <= self.target * self.rungs[idx].max_inner()
    }

    pub(super) fn fits_span(&self, idx: usize, span: i64) -> bool {
        span <= self.target * self.rungs[idx].rough_ms * self.rungs[idx].max_inner()
    }

    /// The shard collector's rung (`FromSingle.increaseRoundingIfNeeded`), replayed from
    /// the coarsest rung a segment reached over all keys in time order: each new bucket may
    /// push the rounding coarser, when the bucket count or the span between the first and
    /// newest bucket no longer fits.
    pub(super) fn shard_rung(&self, start: usize, fine_keys: &[i64]) -> usize {
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
    pub(super) fn merge_to(&self, idx: usize, buckets: Vec<Merged>) -> Vec<Merged> {
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
    pub(super) fn merge_if_needed(&self, mut idx: usize, mut buckets: Vec<Merged>) -> (usize, Vec<Merged>) {
        while !self.fits_count(idx, buckets.len()) && idx < self.last() {
            idx += 1;
            buckets = self.merge_to(idx, buckets);
        }
        (idx, buckets)
    }

    /// ES `getAppropriateRounding`: the rung whose number of steps from the first key to the
    /// last fits (a rough estimate first, then counted exactly).
    pub(super) fn appropriate_rung(&self, min_key: i64, max_key: i64, idx: usize) -> usize {
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
    pub(super) fn add_empty(&self, idx: usize, buckets: Vec<Merged>) -> (usize, Vec<Merged>) {
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
    pub(super) fn merge_consecutive(&self, idx: usize, buckets: Vec<Merged>) -> (i64, Vec<Merged>) {
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
