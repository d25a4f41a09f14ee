//! A copy of an index under a new name (ES's `_clone`): pending writes are committed, then
//! tantivy's files are copied into the new index's directory beside a meta file of its own
//! (new name, uuid and creation date; the source's mappings; the settings given).

use std::path::Path;

use serde_json::{json, Value};

use super::{lock, now_millis, write_atomically, IndexHandle, META_FILE, TANTIVY_DIR};
use crate::error::{EngineError, Result};

/// How many times a copy starts over when a background merge replaced files under it.
const COPY_ATTEMPTS: usize = 5;

fn copy_files(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        // tantivy's lock files belong to the writer of the source.
        if name.to_string_lossy().starts_with(".tantivy") {
            continue;
        }
        std::fs::copy(entry.path(), to.join(&name))?;
    }
    Ok(())
}

impl IndexHandle {
    /// Copies this index into `dir` as index `name` with `settings` (as given) and opens it.
    pub fn copy_to(&self, dir: &Path, name: &str, settings: &Value) -> Result<IndexHandle> {
        {
            let mut st = lock(&self.state);
            self.refresh_locked(&mut st)?;
            let mut copied = Err(std::io::Error::other("not copied"));
            for _ in 0..COPY_ATTEMPTS {
                let _ = std::fs::remove_dir_all(dir);
                copied = copy_files(&self.dir.join(TANTIVY_DIR), &dir.join(TANTIVY_DIR));
                if copied.is_ok() {
                    break;
                }
            }
            copied.map_err(|e| EngineError::Internal(format!("copying index [{}]: {e}", self.name)))?;
        }
        // The mappings and their updates as recorded, so the copy rebuilds the very schema
        // (field order included) its copied segments were written with.
        let source: Value = serde_json::from_slice(&std::fs::read(self.dir.join(META_FILE))?)
            .map_err(|e| EngineError::Internal(format!("corrupt {META_FILE}: {e}")))?;
        let meta = json!({
            "name": name,
            "uuid": crate::store::ids::auto_id(),
            "creation_date": now_millis(),
            "settings": settings,
            "mappings": source["mappings"],
            "mapping_updates": source.get("mapping_updates").cloned().unwrap_or_else(|| json!([])),
        });
        write_atomically(&dir.join(META_FILE), &serde_json::to_vec_pretty(&meta).unwrap_or_default())?;
        IndexHandle::open(dir)
    }
}
