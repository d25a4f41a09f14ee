//! `GET [/{index}]/_segments`: each shard copy's segments, committed (in the last commit) and
//! searchable (in the reader searches use), in ES's shape. Tantivy names segments by UUID, not
//! by Lucene's `_<generation>`: a segment is listed under `_<n>`, its position in the shard's
//! list, oldest commit first, with its UUID under `attributes`.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use crate::error::Result;
use crate::store::index::IndexHandle;
use crate::store::segment_files::segment_bytes;

use super::super::resolve::ResolveOptions;
use super::super::Engine;
use super::layout::{shards_header, ShardLayout};

/// One segment of a shard as `_segments` and `_cat/segments` show it.
pub struct SegmentRow {
    pub name: String,
    pub id: String,
    pub docs: u64,
    pub deleted: u64,
    pub bytes: u64,
    pub committed: bool,
    pub searchable: bool,
}

/// The store's segments: the committed ones in commit order, then any searchable only.
pub fn segment_rows(handle: &IndexHandle) -> Result<Vec<SegmentRow>> {
    let committed = handle.committed_segments()?;
    let searcher = handle.searcher();
    let searchable: BTreeSet<String> =
        searcher.segment_readers().iter().map(|s| s.segment_id().uuid_string()).collect();
    let committed_ids: BTreeSet<String> = committed.iter().map(|m| m.id().uuid_string()).collect();
    let dir = handle.tantivy_dir();
    let mut rows: Vec<SegmentRow> = committed
        .iter()
        .map(|meta| {
            let id = meta.id().uuid_string();
            SegmentRow {
                name: String::new(),
                searchable: searchable.contains(&id),
                id,
                docs: u64::from(meta.num_docs()),
                deleted: u64::from(meta.num_deleted_docs()),
                bytes: segment_bytes(&dir, meta),
                committed: true,
            }
        })
        .collect();
    for reader in searcher.segment_readers() {
        let id = reader.segment_id().uuid_string();
        if committed_ids.contains(&id) {
            continue;
        }
        let meta = searcher.index().searchable_segment_metas()?.into_iter().find(|m| m.id() == reader.segment_id());
        rows.push(SegmentRow {
            name: String::new(),
            id,
            docs: u64::from(reader.num_docs()),
            deleted: u64::from(reader.num_deleted_docs()),
            bytes: meta.map_or(0, |m| segment_bytes(&dir, &m)),
            committed: false,
            searchable: true,
        });
    }
    for (n, row) in rows.iter_mut().enumerate() {
        row.name = format!("_{n}");
    }
    Ok(rows)
}

/// The version segments are written by: tantivy's (`tantivy v0.27.0, index_format v7`).
pub fn segment_version() -> String {
    let text = tantivy::version_string();
    text.strip_prefix("tantivy v").and_then(|rest| rest.split(',').next()).unwrap_or(text).to_string()
}

impl Engine {
    pub fn segments(&self, expression: &str, params: &Map<String, Value>) -> Result<String> {
        let mut params = params.clone();
        let options = ResolveOptions::take(&mut params)?;
        let targets = self.resolve(expression, options)?;
        let mut indices = Map::new();
        let mut layouts = Vec::new();
        for target in targets {
            let handle = self.get(&target.index)?;
            let layout = ShardLayout::of(&handle.settings);
            layouts.push(layout);
            let mut shards = Map::new();
            for shard in 0..layout.primaries {
                let rows = if shard == 0 { segment_rows(&handle)? } else { Vec::new() };
                let segments: Map<String, Value> = rows
                    .iter()
                    .enumerate()
                    .map(|(n, r)| {
                        let entry = json!({
                            "generation": n,
                            "num_docs": r.docs,
                            "deleted_docs": r.deleted,
                            "size_in_bytes": r.bytes,
                            "memory_in_bytes": 0,
                            "committed": r.committed,
                            "search": r.searchable,
                            "version": segment_version(),
                            "compound": false,
                            "attributes": { "tantivy.segment_id": r.id },
                        });
                        (r.name.clone(), entry)
                    })
                    .collect();
                let copy = json!({
                    "routing": { "state": "STARTED", "primary": true, "node": self.identity.node_id },
                    "num_committed_segments": rows.iter().filter(|r| r.committed).count(),
                    "num_search_segments": rows.iter().filter(|r| r.searchable).count(),
                    "segments": segments,
                });
                shards.insert(shard.to_string(), json!([copy]));
            }
            indices.insert(target.index, json!({ "shards": shards }));
        }
        Ok(json!({ "_shards": shards_header(&layouts), "indices": indices }).to_string())
    }
}
