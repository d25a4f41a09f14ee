//! An index's open/closed state (`POST /{index}/_close`, `/_open`). A closed index keeps its
//! metadata (settings, mappings, aliases stay readable and its settings changeable) while its
//! documents refuse every read and write (`index_closed_exception`, checked by the engine when
//! it hands out the index). Closing commits pending writes first, so the translog is empty and
//! the closed index holds exactly what was acknowledged, as ES's close flushes its shards.

use serde_json::Value;

use super::{lock, write_atomically, IndexHandle, META_FILE};
use crate::error::{EngineError, Result};

impl IndexHandle {
    /// This index closed (`true`) or open again, the state recorded in its meta file (ES's
    /// `"state": "close"`); the new handle shares the writer state.
    pub fn with_state(&self, closed: bool) -> Result<IndexHandle> {
        let mut st = lock(&self.state);
        if closed {
            self.refresh_locked(&mut st)?;
        }
        let meta_path = self.dir.join(META_FILE);
        let mut meta: Value = serde_json::from_slice(&std::fs::read(&meta_path)?)
            .map_err(|e| EngineError::Internal(format!("corrupt {META_FILE}: {e}")))?;
        meta["state"] = Value::from(if closed { "close" } else { "open" });
        write_atomically(&meta_path, &serde_json::to_vec_pretty(&meta).unwrap_or_default())?;
        Ok(IndexHandle {
            name: self.name.clone(),
            uuid: self.uuid.clone(),
            creation_date: self.creation_date,
            mapping: self.mapping.clone(),
            settings: self.settings.clone(),
            mappings_json: self.mappings_json.clone(),
            reader: self.reader.clone(),
            closed,
            dir: self.dir.clone(),
            state: self.state.clone(),
            counters: self.counters.clone(),
        })
    }

    /// ES's `state` of the index: `open` or `close`.
    pub fn state_name(&self) -> &'static str {
        if self.closed {
            "close"
        } else {
            "open"
        }
    }
}
