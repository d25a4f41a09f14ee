//! A segment's view of nested objects: which path each document belongs to (none for a
//! root document), read from the `_nested_path` column, and the walks of the block join:
//! from an object forward to its parent, from a parent back over its objects.

use tantivy::columnar::Column;
use tantivy::{DocId, SegmentReader};

use crate::store::mapping::NESTED_PATH_FIELD;

pub struct SegLevels {
    /// `None` when the segment holds no nested object at all.
    column: Option<Column<u64>>,
    max_doc: DocId,
}

impl SegLevels {
    pub fn open(reader: &SegmentReader) -> tantivy::Result<SegLevels> {
        let column = reader.fast_fields().column_opt::<u64>(NESTED_PATH_FIELD)?;
        Ok(SegLevels { column, max_doc: reader.max_doc() })
    }

    /// The nested path of `doc` (its index in `NestedFields::paths`); `None` for a root document.
    pub fn level(&self, doc: DocId) -> Option<usize> {
        self.column.as_ref().and_then(|c| c.first(doc)).map(|v| v as usize)
    }

    /// The first document after `doc` at `level`: the ancestor of `doc` there (the block's
    /// documents are contiguous and each parent follows its objects).
    pub fn ancestor(&self, doc: DocId, level: Option<usize>) -> Option<DocId> {
        (doc + 1..self.max_doc).find(|d| self.level(*d) == level)
    }

    /// The first document of `parent`'s block: `[start, parent)` are its objects at any depth.
    /// `inside[p]` says whether path `p` lies inside the level `parent` itself is at.
    pub fn block_start(&self, parent: DocId, inside: &[bool]) -> DocId {
        let mut start = parent;
        while start > 0 {
            match self.level(start - 1) {
                Some(path) if inside.get(path).copied().unwrap_or(false) => start -= 1,
                _ => break,
            }
        }
        start
    }
}
