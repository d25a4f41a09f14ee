//! Structures derived from one column of one segment (zone maps, sort ranks), built on first
//! use and shared by later queries. A segment never changes once written, so an entry stays
//! right for as long as the segment lives; entries of merged-away segments go when the cache
//! reaches its budget and is emptied.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tantivy::index::SegmentId;

type Entries<T> = HashMap<(SegmentId, String), Arc<T>>;

pub struct SegmentCache<T> {
    /// The entries and the sum of their weights.
    entries: OnceLock<Mutex<(Entries<T>, usize)>>,
    /// Emptied before an insert would take the held weight past this.
    budget: usize,
    weight: fn(&T) -> usize,
}

impl<T> SegmentCache<T> {
    pub const fn new(budget: usize, weight: fn(&T) -> usize) -> SegmentCache<T> {
        SegmentCache { entries: OnceLock::new(), budget, weight }
    }

    /// Entries held.
    pub fn entries(&self) -> usize {
        self.entries.get().and_then(|e| e.lock().ok().map(|g| g.0.len())).unwrap_or(0)
    }

    /// Entries held for the segments `keep` selects, and their weight.
    pub fn usage(&self, keep: impl Fn(&SegmentId) -> bool) -> (usize, usize) {
        let Some(Ok(guard)) = self.entries.get().map(Mutex::lock) else { return (0, 0) };
        guard
            .0
            .iter()
            .filter(|((segment, _), _)| keep(segment))
            .fold((0, 0), |(n, bytes), (_, entry)| (n + 1, bytes + (self.weight)(entry)))
    }

    /// Drops the entries of the segments `drop` selects.
    pub fn remove(&self, drop: impl Fn(&SegmentId) -> bool) {
        let Some(Ok(mut guard)) = self.entries.get().map(Mutex::lock) else { return };
        let (map, held) = &mut *guard;
        map.retain(|(segment, _), entry| {
            let gone = drop(segment);
            if gone {
                *held -= (self.weight)(entry);
            }
            !gone
        });
    }

    /// The entry for a segment's column, if there is one.
    pub fn get(&self, segment: SegmentId, column: &str) -> Option<Arc<T>> {
        let entries = self.entries.get_or_init(Default::default);
        let found = entries.lock().ok()?.0.get(&(segment, column.to_string())).cloned();
        found
    }

    /// The entry for a segment's column, building it when absent. Built outside the lock: two
    /// concurrent first queries may both build it, but neither waits on the other.
    pub fn get_or_build(&self, segment: SegmentId, column: &str, build: impl FnOnce() -> T) -> Option<Arc<T>> {
        let entries = self.entries.get_or_init(Default::default);
        let key = (segment, column.to_string());
        if let Some(found) = entries.lock().ok()?.0.get(&key) {
            return Some(found.clone());
        }
        let built = Arc::new(build());
        let weight = (self.weight)(&built);
        let mut guard = entries.lock().ok()?;
        let (map, held) = &mut *guard;
        if *held + weight > self.budget {
            map.clear();
            *held = 0;
        }
        if let Some(previous) = map.insert(key, built.clone()) {
            *held -= (self.weight)(&previous);
        }
        *held += weight;
        Some(built)
    }
}
