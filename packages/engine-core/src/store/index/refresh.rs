//! Making writes visible and durable: refreshes (asked for, scheduled, and after a background
//! merge), `_flush`, and `_forcemerge`.

use std::time::{Duration, Instant};

use super::{lock, IndexHandle, WriterState, TANTIVY_DIR};
use crate::error::Result;

/// ES's `index.gc_deletes`: how long a deleted id's version is remembered.
const TOMBSTONE_TTL: Duration = Duration::from_secs(60);

/// How long `_forcemerge` retries while background merges hold its segments.
const FORCE_MERGE_RETRY_FOR: Duration = Duration::from_secs(120);

impl IndexHandle {
    /// A refresh asked for through the API or a write's `?refresh` (ES's external refresh).
    pub fn refresh(&self) -> Result<()> {
        let started = Instant::now();
        let mut st = lock(&self.state);
        self.refresh_locked(&mut st)?;
        drop(st);
        self.prepare_vectors(false);
        let took = started.elapsed();
        self.counters.refresh.add(1, took);
        self.counters.external_refresh.add(1, took);
        Ok(())
    }

    /// The refresher's periodic refresh (`refresh_interval`): counted in `refresh.total` only.
    pub fn scheduled_refresh(&self) -> Result<()> {
        let started = Instant::now();
        let mut st = lock(&self.state);
        self.refresh_locked(&mut st)?;
        drop(st);
        self.prepare_vectors(false);
        self.counters.refresh.add(1, started.elapsed());
        Ok(())
    }

    pub(super) fn refresh_locked(&self, st: &mut WriterState) -> Result<()> {
        let tantivy_dir = self.dir.join(TANTIVY_DIR);
        if !st.dirty && (st.unreloaded || st.commit_moved(&tantivy_dir)) {
            st.reload_reader(&tantivy_dir)?;
            // Searches see what gets saw: the gets' reader would only pin old segments now.
            st.realtime = None;
        }
        st.unreloaded = false;
        if st.dirty {
            st.writer_mut().commit()?;
            st.reload_reader(&tantivy_dir)?;
            st.realtime = None;
            st.translog.truncate()?;
            let now = Instant::now();
            st.tombstones.retain(|_, (_, at)| now.duration_since(*at) < TOMBSTONE_TTL);
            for (id, state) in std::mem::take(&mut st.live) {
                if state.deleted {
                    st.tombstones.insert(id, (state, now));
                } else {
                    st.tombstones.remove(&id);
                }
            }
            st.dirty = false;
            crate::store::memory_release::note_write();
        }
        st.last_refresh = Instant::now();
        Ok(())
    }

    /// `_forcemerge`: commits pending writes, then merges every searchable segment into one and
    /// waits for it (ES's default `wait_for_completion=true`). Merging to one segment satisfies any
    /// `max_num_segments >= 1`; old segment files are collected so the store size reflects the merge.
    pub fn force_merge(&self) -> Result<()> {
        let _merging = self.counters.merge_current.enter();
        let mut st = lock(&self.state);
        self.refresh_locked(&mut st)?;
        // The merge policy may be merging some of these segments in the background: then our
        // merge is refused, or its result is dropped because its inputs were merged away first.
        // Either way, retry over the segments as they are now, within a bounded time.
        let deadline = Instant::now() + FORCE_MERGE_RETRY_FOR;
        loop {
            let segments = st.writer().index().searchable_segment_ids()?;
            if segments.len() <= 1 {
                break;
            }
            let started = Instant::now();
            match st.writer_mut().merge(&segments).wait() {
                Ok(merged) => {
                    self.record_merge(merged.as_ref(), started.elapsed());
                    break;
                }
                Err(e) if Instant::now() >= deadline => return Err(e.into()),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
        st.reload_reader(&self.dir.join(TANTIVY_DIR))?;
        st.writer().garbage_collect_files().wait()?;
        drop(st);
        self.prepare_vectors(true);
        crate::store::memory_release::note_write();
        Ok(())
    }

    /// Queues kNN graphs for the large segments searches now see (`knn::graph`), outside the
    /// writer's lock. A force merge (`wait`) returns once they are built, as Lucene's merge
    /// returns once the merged segment's graph is written; a refresh leaves them to the
    /// builder, and searches scan a segment until its graph is ready.
    /// A segment whose vectors cannot be decoded is skipped here: searches report that error.
    fn prepare_vectors(&self, wait: bool) {
        let searcher = self.reader.searcher();
        for vf in self.mapping.vectors.values() {
            let (Some(dim), Some(metric)) = (vf.dimension(), vf.graph_metric()) else { continue };
            if let Ok(segments) = vf.cache.prepare(&searcher, &vf.tantivy_name, dim, metric) {
                if wait {
                    crate::knn::cache::VectorCache::wait_for_graphs(&segments);
                }
            }
        }
    }

    /// `_flush`: commits pending writes and empties the translog without making them visible
    /// (ES's flush is durability, not a refresh): the next refresh reloads the reader.
    pub fn flush(&self) -> Result<()> {
        let started = Instant::now();
        let mut st = lock(&self.state);
        Self::commit_unpublished(&mut st)?;
        drop(st);
        self.counters.flush.add(1, started.elapsed());
        Ok(())
    }

    /// Commits pending writes and empties the translog, leaving what searches see as it is.
    pub(super) fn commit_unpublished(st: &mut WriterState) -> Result<()> {
        if st.dirty {
            st.writer_mut().commit()?;
            st.translog.truncate()?;
            st.dirty = false;
            st.unreloaded = true;
            st.mark_realtime_stale();
        }
        Ok(())
    }

    /// True when the refresh interval has elapsed and writes are pending or tantivy committed a
    /// merge since searches' reader last reloaded.
    pub fn refresh_due(&self) -> bool {
        let Some(interval) = self.settings.refresh_interval_ms else { return false };
        let st = lock(&self.state);
        st.last_refresh.elapsed() >= Duration::from_millis(interval)
            && (st.dirty || st.unreloaded || st.commit_moved(&self.dir.join(TANTIVY_DIR)))
    }
}
