//! Index blocks, ES's `index.blocks.*` settings (`PUT /{index}/_block/{block}` sets them too):
//! `read_only`, `read_only_allow_delete`, `read`, `write` and `metadata`, each refusing some
//! levels of operation with ES's `cluster_block_exception` and the block's id and text.

use serde_json::{json, Value};

use crate::error::{EngineError, Result};

/// What an operation does to an index, as ES's `ClusterBlockLevel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Searches, gets, counts.
    Read,
    /// Document writes and deletes.
    Write,
    /// Reading settings, mappings and aliases.
    MetadataRead,
    /// Changing settings, mappings and aliases, closing and deleting the index.
    MetadataWrite,
}

/// One block: its `index.blocks.*` name, ES's id, description, HTTP status and levels.
struct Block {
    setting: &'static str,
    id: u32,
    description: &'static str,
    status: u16,
    levels: &'static [Level],
    /// The index may still be deleted (ES's `allowReleaseResources`).
    allows_delete: bool,
}

const BLOCKS: [Block; 5] = [
    Block {
        setting: "read_only",
        id: 5,
        description: "index read-only (api)",
        status: 403,
        levels: &[Level::Write, Level::MetadataWrite],
        allows_delete: false,
    },
    Block {
        setting: "read",
        id: 7,
        description: "index read (api)",
        status: 403,
        levels: &[Level::Read],
        allows_delete: false,
    },
    Block {
        setting: "write",
        id: 8,
        description: "index write (api)",
        status: 403,
        levels: &[Level::Write],
        allows_delete: false,
    },
    Block {
        setting: "metadata",
        id: 9,
        description: "index metadata (api)",
        status: 403,
        levels: &[Level::MetadataRead, Level::MetadataWrite],
        allows_delete: false,
    },
    Block {
        setting: "read_only_allow_delete",
        id: 12,
        description: "disk usage exceeded flood-stage watermark, index has read-only-allow-delete block",
        status: 429,
        levels: &[Level::Write, Level::MetadataWrite],
        allows_delete: true,
    },
];

/// The blocks set on one index (a bit per entry of `BLOCKS`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Blocks(u8);

/// ES's strict boolean setting values.
pub(crate) fn parse_bool(value: &Value) -> Result<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        other => {
            let text = other.as_str().map_or_else(|| other.to_string(), str::to_string);
            Err(EngineError::IllegalArgument(format!(
                "Failed to parse value [{text}] as only [true] or [false] are allowed."
            )))
        }
    }
}

impl Blocks {
    /// Whether `name` (a setting without the `index.` prefix) is one of the block settings.
    pub fn is_block_setting(name: &str) -> bool {
        name.strip_prefix("blocks.").is_some_and(|b| BLOCKS.iter().any(|block| block.setting == b))
    }

    /// Applies the setting `blocks.<name>`.
    pub fn set(&mut self, name: &str, value: &Value) -> Result<()> {
        let block = name.strip_prefix("blocks.").unwrap_or(name);
        let at = BLOCKS.iter().position(|b| b.setting == block).ok_or_else(|| {
            EngineError::IllegalArgument(format!(
                "unknown setting [index.{name}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings"
            ))
        })?;
        if parse_bool(value)? {
            self.0 |= 1 << at;
        } else {
            self.0 &= !(1 << at);
        }
        Ok(())
    }

    /// The block named by `PUT /{index}/_block/{block}` (`read_only`, `read`, `write`, `metadata`).
    pub fn api_block(name: &str) -> Result<&'static str> {
        match name {
            "read_only" | "read" | "write" | "metadata" => {
                Ok(BLOCKS.iter().find(|b| b.setting == name).map_or("", |b| b.setting))
            }
            other => Err(EngineError::IllegalArgument(format!(
                "No enum constant org.opensearch.cluster.metadata.IndexMetadata.APIBlock.{}",
                other.to_uppercase()
            ))),
        }
    }

    fn active(&self) -> impl Iterator<Item = &'static Block> + '_ {
        BLOCKS.iter().enumerate().filter(|(i, _)| self.0 & (1 << i) != 0).map(|(_, b)| b)
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// ES's refusal of an operation at `level` on `index`, if a block covers it.
    pub fn check(&self, index: &str, level: Level) -> Result<()> {
        self.refusal(index, |b| b.levels.contains(&level))
    }

    /// Deleting the index: refused by the metadata-write blocks that do not allow it.
    pub fn check_delete(&self, index: &str) -> Result<()> {
        self.refusal(index, |b| b.levels.contains(&Level::MetadataWrite) && !b.allows_delete)
    }

    fn refusal(&self, index: &str, applies: impl Fn(&Block) -> bool) -> Result<()> {
        if self.0 == 0 {
            return Ok(());
        }
        let hits: Vec<&Block> = self.active().filter(|b| applies(b)).collect();
        if hits.is_empty() {
            return Ok(());
        }
        let status = hits.iter().map(|b| b.status).max().unwrap_or(403);
        let list: Vec<String> =
            hits.iter().map(|b| format!("{}/{}/{}", status_name(b.status), b.id, b.description)).collect();
        Err(EngineError::ClusterBlock { reason: format!("index [{index}] blocked by: [{}];", list.join(", ")), status })
    }

    /// The blocks as `GET _cluster/state/blocks` lists them under `blocks.indices.<index>`.
    pub fn to_state_json(&self) -> Value {
        let mut out = serde_json::Map::new();
        for b in self.active() {
            let levels: Vec<&str> = b
                .levels
                .iter()
                .map(|l| match l {
                    Level::Read => "read",
                    Level::Write => "write",
                    Level::MetadataRead => "metadata_read",
                    Level::MetadataWrite => "metadata_write",
                })
                .collect();
            out.insert(b.id.to_string(), json!({ "description": b.description, "retryable": false, "levels": levels }));
        }
        Value::Object(out)
    }
}

fn status_name(status: u16) -> &'static str {
    if status == 429 {
        "TOO_MANY_REQUESTS"
    } else {
        "FORBIDDEN"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_refuse_their_levels_with_es_text() {
        let mut b = Blocks::default();
        b.set("blocks.write", &json!(true)).unwrap();
        assert!(b.check("t", Level::Read).is_ok());
        let err = b.check("t", Level::Write).unwrap_err();
        assert_eq!(err.to_string(), "index [t] blocked by: [FORBIDDEN/8/index write (api)];");
        assert_eq!(err.status(), 403);
        b.set("blocks.write", &json!("false")).unwrap();
        assert!(b.is_empty());
        b.set("blocks.read_only_allow_delete", &json!("true")).unwrap();
        assert_eq!(b.check("t", Level::Write).unwrap_err().status(), 429);
        assert!(b.check_delete("t").is_ok());
        b.set("blocks.read_only", &json!(true)).unwrap();
        assert!(b.check_delete("t").is_err());
        assert!(b.set("blocks.write", &json!("yes")).is_err());
        assert!(b.set("blocks.colour", &json!(true)).is_err());
    }
}
