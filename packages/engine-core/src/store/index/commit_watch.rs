//! Whether tantivy's commit point moved since the reader last reloaded. Besides our own commits,
//! tantivy's background merges commit too (a finished merge rewrites `meta.json`): Lucene's
//! reader is then no longer current and ES's next refresh, scheduled or asked for, opens the
//! merged segments. Without this, searches would read every pre-merge segment until the next write.

use std::fs;
use std::path::Path;
use std::time::SystemTime;

/// The identity of one version of tantivy's `meta.json`. tantivy writes it by renaming a new file
/// over the old one, so while the old one is still held here the new file's inode differs from it:
/// the inode tells versions apart even when two land within one tick of the file-time clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CommitStamp {
    inode: u64,
    modified: Option<SystemTime>,
    len: u64,
}

/// tantivy's commit point in its index folder.
const TANTIVY_META: &str = "meta.json";

impl CommitStamp {
    /// The commit point as it is on disk now; `None` when it cannot be read (then a refresh
    /// reloads whenever the last stamp was readable, which is the safe side).
    pub(super) fn read(tantivy_dir: &Path) -> Option<CommitStamp> {
        let meta = fs::metadata(tantivy_dir.join(TANTIVY_META)).ok()?;
        Some(CommitStamp { inode: inode(&meta), modified: meta.modified().ok(), len: meta.len() })
    }
}

#[cfg(unix)]
fn inode(meta: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}

#[cfg(not(unix))]
fn inode(_meta: &fs::Metadata) -> u64 {
    0
}
