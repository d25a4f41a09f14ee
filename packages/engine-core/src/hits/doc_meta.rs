//! A hit's `_version`, `_seq_no` and `_primary_term`, shown when a search (or a `top_hits`)
//! asks for them with `version` / `seq_no_primary_term`. The writer keeps version and
//! sequence number in columns of their own; the primary term of a one-node index never
//! changes from 1.

use tantivy::{DocAddress, Searcher};

use crate::store::mapping::{SEQ_NO_FIELD, VERSION_FIELD};

/// What to add to each hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DocMeta {
    pub version: bool,
    pub seq_no_primary_term: bool,
}

impl DocMeta {
    #[inline]
    pub fn any(self) -> bool {
        self.version || self.seq_no_primary_term
    }

    /// The hit's members, each with its leading comma (nothing when none was asked for).
    pub fn render(self, searcher: &Searcher, address: DocAddress) -> String {
        if !self.any() {
            return String::new();
        }
        let reader = searcher.segment_reader(address.segment_ord);
        let read = |name: &str| reader.fast_fields().u64(name).ok().and_then(|column| column.first(address.doc_id));
        let mut out = String::new();
        if self.version {
            out.push_str(&format!(r#","_version":{}"#, read(VERSION_FIELD).unwrap_or(1)));
        }
        if self.seq_no_primary_term {
            out.push_str(&format!(r#","_seq_no":{},"_primary_term":1"#, read(SEQ_NO_FIELD).unwrap_or(0)));
        }
        out
    }
}
