//! Writing a small file so that a crash leaves either the old bytes or the new ones: write a
//! sibling `.tmp`, sync it, rename it over the target, sync the directory. Index metadata,
//! cluster settings, aliases, templates and tantivy's `meta.json` (the codec) all go through it.
//!
//! Layer: a leaf of the store; it imports nothing from the engine but its error type.

use crate::error::Result;
use std::path::Path;

pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)?;
    if let Some(parent) = path.parent() {
        std::fs::File::open(parent)?.sync_all()?;
    }
    Ok(())
}
