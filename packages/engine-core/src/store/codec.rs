//! `index.codec`: how the doc store (`_source`, most of an index's bytes) is compressed.
//!
//! ES offers `default` (LZ4, fast) and `best_compression` (DEFLATE, smaller, dearer to write
//! and to fetch). Both map to zstd here, whose block size and level were chosen by measuring
//! the 100k-document benchmark corpus (store bytes, compression time, uncached fetch of one
//! document; figures in the engine log): larger blocks and a higher level shrink the store,
//! and a larger block costs more per fetch outside the block cache.
//!
//! tantivy records the compressor in its own `meta.json` and applies it to segments written
//! after; an index's codec can change while it is closed (a static setting, as in ES), so
//! `reconcile` brings tantivy's record in line with the setting whenever an index opens.
//! Segments already written keep their blocks and stay readable: a zstd block decompresses
//! whatever level and size wrote it.

use crate::error::{EngineError, Result};
use serde_json::Value;
use std::path::Path;
use tantivy::store::{Compressor, ZstdCompressor};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Codec {
    #[default]
    Default,
    BestCompression,
}

impl Codec {
    /// ES's values: `default`, `best_compression`, and `lucene_default` (Lucene's own codec,
    /// the same stored-fields trade as `default`). ES also accepts the name of any Lucene codec
    /// class on its classpath; there are none here, so those fail as an unknown value does.
    pub fn parse(value: &Value) -> Result<Codec> {
        match value.as_str() {
            Some("default" | "lucene_default") => Ok(Codec::Default),
            Some("best_compression") => Ok(Codec::BestCompression),
            _ => {
                let shown = value.as_str().map_or_else(|| value.to_string(), str::to_string);
                Err(EngineError::IllegalArgument(format!(
                    "unknown value for [index.codec] must be one of [default, best_compression] but was: {shown}"
                )))
            }
        }
    }

    /// The doc store's zstd level and block size (uncompressed bytes per block). Measured on
    /// the 100k benchmark corpus, force-merged, against level 3 in 16 KiB blocks: level 9 in
    /// 16 KiB blocks saves 7% of the store for about a tenth more indexing CPU; 32 KiB blocks
    /// save 16% and cost `mget` a sixth more CPU (each uncached hit decompresses twice the
    /// bytes); level 9 in 64 KiB blocks saves 22% and costs `mget` 60% more. `default` keeps the
    /// fetch and indexing costs; `best_compression` takes the 64 KiB trade, as ES's DEFLATE does.
    fn level_and_block(self) -> (i32, usize) {
        match self {
            Codec::Default => (3, 16_384),
            Codec::BestCompression => (9, 65_536),
        }
    }

    /// tantivy's index settings for this codec (every other setting tantivy's default).
    pub fn tantivy_settings(self) -> tantivy::IndexSettings {
        let (level, block) = self.level_and_block();
        tantivy::IndexSettings {
            docstore_compression: Compressor::Zstd(ZstdCompressor { compression_level: Some(level) }),
            docstore_blocksize: block,
            ..tantivy::IndexSettings::default()
        }
    }

    /// Rewrites the doc-store settings in tantivy's `meta.json` when they differ from this
    /// codec's (no writer may be open), through `write` (the store's crash-safe file write,
    /// passed in so this leaf does not import the index that uses it).
    pub fn reconcile(self, tantivy_dir: &Path, write: impl FnOnce(&Path, &[u8]) -> Result<()>) -> Result<()> {
        let path = tantivy_dir.join("meta.json");
        let mut meta: Value = serde_json::from_slice(&std::fs::read(&path)?)
            .map_err(|e| EngineError::Internal(format!("corrupt tantivy meta.json: {e}")))?;
        let wanted = self.tantivy_settings();
        let compression =
            serde_json::to_value(wanted.docstore_compression).map_err(|e| EngineError::Internal(e.to_string()))?;
        let settings = &mut meta["index_settings"];
        if settings["docstore_compression"] == compression
            && settings["docstore_blocksize"] == wanted.docstore_blocksize
        {
            return Ok(());
        }
        settings["docstore_compression"] = compression;
        settings["docstore_blocksize"] = wanted.docstore_blocksize.into();
        write(&path, &serde_json::to_vec_pretty(&meta).unwrap())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_es_values_and_rejects_others_with_es_message() {
        assert_eq!(Codec::parse(&json!("default")).unwrap(), Codec::Default);
        assert_eq!(Codec::parse(&json!("lucene_default")).unwrap(), Codec::Default);
        assert_eq!(Codec::parse(&json!("best_compression")).unwrap(), Codec::BestCompression);
        let err = Codec::parse(&json!("lz4")).unwrap_err().to_string();
        assert!(
            err.contains("unknown value for [index.codec] must be one of [default, best_compression] but was: lz4"),
            "{err}"
        );
        assert!(Codec::parse(&json!(3)).is_err());
    }

    #[test]
    fn best_compression_packs_larger_blocks_at_a_higher_level() {
        let (dl, db) = Codec::Default.level_and_block();
        let (bl, bb) = Codec::BestCompression.level_and_block();
        assert!(bl > dl && bb > db);
    }
}
