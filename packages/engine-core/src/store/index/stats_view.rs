//! What `_stats`, `_segments` and `_cat` read from an open index beyond its counters: the
//! committed segments, the translog, the writes waiting for a refresh; and the bookkeeping of
//! the merges the index runs.

use std::path::PathBuf;
use std::time::Duration;

use super::{lock, IndexHandle, TANTIVY_DIR};
use crate::error::Result;

impl IndexHandle {
    /// Where tantivy keeps the index's segment files.
    pub fn tantivy_dir(&self) -> PathBuf {
        self.dir.join(TANTIVY_DIR)
    }

    /// The segments of the last commit (what a restart would open), committed or not yet
    /// searchable: ES's segment statistics read the writer's view, which a flush moves too.
    pub fn committed_segments(&self) -> Result<Vec<tantivy::index::SegmentMeta>> {
        let st = lock(&self.state);
        Ok(st.writer().index().searchable_segment_metas()?)
    }

    /// The sequence number the next write takes.
    pub fn next_seq_no(&self) -> u64 {
        lock(&self.state).next_seq_no
    }

    /// The last commit: its opstamp (tantivy's commit generation), the documents its segments
    /// hold, and the sequence number the next write takes.
    pub fn commit_point(&self) -> Result<(u64, u64, u64)> {
        let st = lock(&self.state);
        let meta = st.writer().index().load_metas()?;
        let docs = meta.segments.iter().map(|s| u64::from(s.num_docs())).sum();
        Ok((meta.opstamp, docs, st.next_seq_no))
    }

    /// The translog as `_stats` shows it: operations not yet committed, their bytes, and how
    /// long ago the log was last written.
    pub fn translog_stats(&self) -> (u64, u64, Duration) {
        let st = lock(&self.state);
        (st.translog.operations(), st.translog.size_in_bytes(), st.translog.last_modified().elapsed())
    }

    /// Writes waiting for a refresh, and the live version map's entries (ES's version map).
    pub fn pending_writes(&self) -> (bool, usize) {
        let st = lock(&self.state);
        (st.dirty, st.live.len() + st.tombstones.len())
    }

    pub(super) fn record_merge(&self, merged: Option<&tantivy::index::SegmentMeta>, took: Duration) {
        let c = &self.counters;
        c.merge.add(1, took);
        if let Some(meta) = merged {
            use std::sync::atomic::Ordering::Relaxed;
            c.merge_docs.fetch_add(u64::from(meta.max_doc()), Relaxed);
            c.merge_bytes.fetch_add(crate::store::segment_files::segment_bytes(&self.tantivy_dir(), meta), Relaxed);
        }
    }
}
