//! What an index has done since the engine opened it, as ES's index statistics count it:
//! writes, gets, searches (query and fetch phases), refreshes, flushes and merges. Every
//! counter is a relaxed atomic bumped on the operation's own path (no lock: a search or a
//! bulk pays a few uncontended increments and one clock read); `_stats` reads them.
//! Search groups (`"stats": [...]` in a search body) are the one keyed part: a map behind a
//! mutex that only searches naming a group touch.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A monotonic count and the time spent on it.
#[derive(Default, Debug)]
pub struct Timed {
    pub count: AtomicU64,
    pub nanos: AtomicU64,
}

impl Timed {
    pub fn add(&self, n: u64, took: Duration) {
        self.count.fetch_add(n, Ordering::Relaxed);
        self.nanos.fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    pub fn millis(&self) -> u64 {
        self.nanos.load(Ordering::Relaxed) / 1_000_000
    }
}

/// Operations running now (`*_current` in ES's statistics).
#[derive(Default, Debug)]
pub struct Current(AtomicU64);

impl Current {
    /// Counts one operation until the guard drops.
    pub fn enter(&self) -> CurrentGuard<'_> {
        self.0.fetch_add(1, Ordering::Relaxed);
        CurrentGuard(&self.0)
    }

    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

pub struct CurrentGuard<'a>(&'a AtomicU64);

impl Drop for CurrentGuard<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The search phases ES times: query (matching, scoring, collecting) and fetch (reading the
/// hits' stored documents), plus scroll contexts.
#[derive(Default, Debug)]
pub struct SearchCounters {
    pub query: Timed,
    pub query_current: Current,
    pub fetch: Timed,
    pub fetch_current: Current,
    pub scroll: Timed,
    pub scroll_current: Current,
}

#[derive(Default, Debug)]
pub struct IndexCounters {
    pub index: Timed,
    pub index_current: Current,
    pub index_failed: AtomicU64,
    pub delete: Timed,
    pub delete_current: Current,
    pub noop_update: AtomicU64,
    pub get: Timed,
    pub get_exists: Timed,
    pub get_missing: Timed,
    pub get_current: Current,
    pub search: SearchCounters,
    /// Every refresh that made writes visible or was asked for; `external_refresh` those asked
    /// for through the API or a write's `?refresh` (the scheduled ones are the difference).
    pub refresh: Timed,
    pub external_refresh: Timed,
    pub flush: Timed,
    /// Merges the engine ran and waited for (`_forcemerge`): segments in, documents, bytes.
    pub merge: Timed,
    pub merge_docs: AtomicU64,
    pub merge_bytes: AtomicU64,
    pub merge_current: Current,
    groups: Mutex<BTreeMap<String, std::sync::Arc<SearchCounters>>>,
    /// Field data held in memory, bytes by field: what a field loaded for sorting or
    /// aggregating costs beyond its on-disk columns (ES's fielddata cache). Columns of
    /// keyword, numeric and date fields are memory-mapped files, ES's doc values: they are
    /// not field data and never appear here.
    fielddata: Mutex<BTreeMap<String, u64>>,
    pub fielddata_evictions: AtomicU64,
}

impl IndexCounters {
    /// The counters of search group `name`, created on first use.
    pub fn group(&self, name: &str) -> std::sync::Arc<SearchCounters> {
        let mut groups = self.groups.lock().unwrap_or_else(|p| p.into_inner());
        groups.entry(name.to_string()).or_default().clone()
    }

    /// Every search group seen so far, by name.
    pub fn groups(&self) -> Vec<(String, std::sync::Arc<SearchCounters>)> {
        let groups = self.groups.lock().unwrap_or_else(|p| p.into_inner());
        groups.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// Field data `field` now holds in memory (replacing what it held).
    pub fn set_fielddata(&self, field: &str, bytes: u64) {
        let mut held = self.fielddata.lock().unwrap_or_else(|p| p.into_inner());
        held.insert(field.to_string(), bytes);
    }

    /// Field data held, bytes by field.
    pub fn fielddata(&self) -> BTreeMap<String, u64> {
        self.fielddata.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Drops the field data of the fields `keep` selects (`_cache/clear?fielddata`).
    pub fn clear_fielddata(&self, selected: &dyn Fn(&str) -> bool) {
        let mut held = self.fielddata.lock().unwrap_or_else(|p| p.into_inner());
        held.retain(|field, _| !selected(field));
    }

    /// Records one bulk's writes: `took` is shared among its index and delete operations by
    /// their number (the batch goes to the translog and the writer as one unit).
    pub fn record_writes(&self, indexed: u64, deleted: u64, failed: u64, took: Duration) {
        let ops = indexed + deleted;
        if ops > 0 {
            let per_op = took / ops as u32;
            if indexed > 0 {
                self.index.add(indexed, per_op * indexed as u32);
            }
            if deleted > 0 {
                self.delete.add(deleted, per_op * deleted as u32);
            }
        }
        if failed > 0 {
            self.index_failed.fetch_add(failed, Ordering::Relaxed);
        }
    }

    /// Records one get: found or missing, with its time.
    pub fn record_get(&self, found: bool, started: Instant) {
        let took = started.elapsed();
        self.get.add(1, took);
        if found {
            self.get_exists.add(1, took);
        } else {
            self.get_missing.add(1, took);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_share_their_time_by_operation() {
        let c = IndexCounters::default();
        c.record_writes(3, 1, 2, Duration::from_millis(40));
        assert_eq!((c.index.count(), c.delete.count()), (3, 1));
        assert_eq!((c.index.millis(), c.delete.millis()), (30, 10));
        assert_eq!(c.index_failed.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn current_counts_until_the_guard_drops() {
        let c = IndexCounters::default();
        {
            let _one = c.search.query_current.enter();
            let _two = c.search.query_current.enter();
            assert_eq!(c.search.query_current.get(), 2);
        }
        assert_eq!(c.search.query_current.get(), 0);
    }

    #[test]
    fn groups_are_created_on_first_use_and_listed_by_name() {
        let c = IndexCounters::default();
        c.group("b").query.add(1, Duration::ZERO);
        c.group("a").query.add(2, Duration::ZERO);
        c.group("b").query.add(1, Duration::ZERO);
        let names: Vec<(String, u64)> = c.groups().into_iter().map(|(n, g)| (n, g.query.count())).collect();
        assert_eq!(names, vec![("a".to_string(), 2), ("b".to_string(), 2)]);
    }
}
