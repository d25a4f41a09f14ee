//! Reopening an index's tantivy writer and reader in place, for the changes tantivy only reads
//! when it opens an index: a schema with new fields (a mapping update) and the doc store's
//! compression (`index.codec`, changed while the index is closed).

use tantivy::{IndexReader, IndexWriter};

use super::{open_tantivy, IndexHandle, WriterState};
use crate::error::{EngineError, Result};

impl IndexHandle {
    /// Commits pending writes, waits for the writer's merges, runs `rewrite` on tantivy's files
    /// (no writer open) and opens a writer and reader on the result, returning the reader. When
    /// `rewrite` or the reopening fails, the index reopens as it is on disk, still writable,
    /// and the error returns.
    pub(super) fn swap_writer(
        &self,
        st: &mut WriterState,
        rewrite: impl FnOnce() -> Result<()>,
    ) -> Result<IndexReader> {
        self.refresh_locked(st)?;
        let old = st.writer.take().expect("a writer outside a writer swap");
        let swapped = old
            .wait_merging_threads()
            .map_err(EngineError::from)
            .and_then(|_| rewrite())
            .and_then(|_| open_tantivy(&self.dir));
        match swapped {
            Ok((_, writer, reader)) => {
                install(st, writer, reader.clone());
                Ok(reader)
            }
            Err(e) => {
                let (_, writer, reader) = open_tantivy(&self.dir)?;
                install(st, writer, reader);
                Err(e)
            }
        }
    }
}

fn install(st: &mut WriterState, writer: IndexWriter, reader: IndexReader) {
    st.writer = Some(writer);
    st.reader = reader;
    st.realtime = None;
    // A fresh reader of an unknown commit point: the next refresh reloads it once.
    st.reloaded_at = None;
}
