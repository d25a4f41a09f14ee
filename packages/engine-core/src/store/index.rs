//! One open index: mapping, tantivy index/writer/reader, translog and the live version map.
//! Writes go translog -> tantivy writer under one mutex, then wait for the translog fsync
//! outside it (group commit, see translog.rs); `refresh` = tantivy commit +
//! reader reload + translog truncate, which is what makes writes visible to search.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, Term};

use crate::analyzers::ES_STANDARD_TOKENIZER;
use crate::error::{EngineError, Result};
use crate::store::counters::IndexCounters;
use crate::store::mapping::Mapping;
use crate::store::mapping_update::merge_json;
use crate::store::settings::IndexSettings;
use crate::store::translog::{Op, OpKind, Translog};
use crate::store::versioning::DocState;
use commit_watch::CommitStamp;

mod commit_watch;
mod copy;
mod refresh;
mod state;
mod stats_view;
mod write;
mod writer_swap;

pub(crate) use write::push_json_str;
pub use write::{PreparedWrite, WriteOutcome};

const META_FILE: &str = "index.json";
const TANTIVY_DIR: &str = "tantivy";
const TRANSLOG_FILE: &str = "translog.log";
const WRITER_MEMORY_BUDGET: usize = 128 << 20;

/// A map keyed by `_id`, hashed with foldhash: looked up and written once per indexed document.
type IdMap<V> = foldhash::HashMap<String, V>;

struct WriterState {
    /// `None` only while a mapping update swaps the schema (`with_mapping`).
    writer: Option<IndexWriter>,
    /// The reader of the current schema: the one writes check versions against and refreshes reload.
    reader: IndexReader,
    translog: Translog,
    /// Versions written since the last refresh, which the reader cannot see yet.
    live: IdMap<DocState>,
    /// Deleted ids and when, kept past refreshes for `TOMBSTONE_TTL` so their versions continue.
    tombstones: IdMap<(DocState, Instant)>,
    next_seq_no: u64,
    dirty: bool,
    /// Committed by a flush but not yet visible: the next refresh reloads the reader.
    unreloaded: bool,
    last_refresh: Instant,
    /// Real-time gets' own reader, opened the first time a get needs writes search cannot see
    /// yet: they are committed and read through it, as ES's real-time get reads without
    /// refreshing what searches see. `stale` until reloaded after a commit.
    realtime: Option<(IndexReader, bool)>,
    /// tantivy's commit point when `reader` last reloaded: a background merge moves it.
    reloaded_at: Option<CommitStamp>,
}

pub struct IndexHandle {
    pub name: String,
    pub uuid: String,
    pub creation_date: i64,
    pub mapping: Mapping,
    pub settings: IndexSettings,
    pub mappings_json: Value,
    pub reader: IndexReader,
    /// Closed (`POST /{index}/_close`): its metadata stays readable, its documents do not
    /// (`state.rs`); kept in the meta file as ES's `state: close`.
    pub closed: bool,
    dir: PathBuf,
    /// Shared with the handles of later mappings of the same index (`with_mapping`).
    state: Arc<Mutex<WriterState>>,
    /// What the index has done since it was opened (`_stats`); shared like `state`.
    pub counters: Arc<IndexCounters>,
}

impl WriterState {
    /// Reloads searches' reader, noting the commit point first: a merge that commits during the
    /// reload is then seen as a change by the next refresh, never missed.
    fn reload_reader(&mut self, tantivy_dir: &Path) -> Result<()> {
        self.reloaded_at = CommitStamp::read(tantivy_dir);
        self.reader.reload()?;
        Ok(())
    }

    /// Whether tantivy committed since the last reload without us (a background merge).
    fn commit_moved(&self, tantivy_dir: &Path) -> bool {
        CommitStamp::read(tantivy_dir) != self.reloaded_at
    }

    fn mark_realtime_stale(&mut self) {
        if let Some((_, stale)) = &mut self.realtime {
            *stale = true;
        }
    }

    fn writer(&self) -> &IndexWriter {
        self.writer.as_ref().expect("a writer outside a mapping swap")
    }

    fn writer_mut(&mut self) -> &mut IndexWriter {
        self.writer.as_mut().expect("a writer outside a mapping swap")
    }
}

fn lock(m: &Mutex<WriterState>) -> MutexGuard<'_, WriterState> {
    // A panic elsewhere must not wedge the index: the state stays consistent per operation.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn now_millis() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

impl IndexHandle {
    pub fn create(dir: &Path, name: &str, settings_json: &Value, mappings_json: &Value) -> Result<IndexHandle> {
        // Validate both before anything touches the disk.
        let settings = IndexSettings::parse(settings_json)?;
        let mapping = Mapping::from_mappings_json(mappings_json)?;
        settings.similarity.check_mapping(&mapping)?;
        settings.limits.check_mapping(&mapping)?;
        if mapping.total_fields() > settings.total_fields_limit {
            return Err(EngineError::IllegalArgument(format!(
                "Limit of total fields [{}] has been exceeded",
                settings.total_fields_limit
            )));
        }
        std::fs::create_dir_all(dir.join(TANTIVY_DIR))?;
        let meta = json!({
            "name": name,
            "uuid": crate::store::ids::random_uuid(),
            "creation_date": now_millis(),
            "settings": settings_json,
            "mappings": mappings_json,
        });
        write_atomically(&dir.join(META_FILE), &serde_json::to_vec_pretty(&meta).unwrap())?;
        Index::builder()
            .schema(mapping.schema.clone())
            .settings(settings.codec.tantivy_settings())
            .create_in_dir(dir.join(TANTIVY_DIR))?;
        Self::open(dir)
    }

    pub fn open(dir: &Path) -> Result<IndexHandle> {
        let meta: Value = serde_json::from_slice(&std::fs::read(dir.join(META_FILE))?)
            .map_err(|e| EngineError::Internal(format!("corrupt {META_FILE} in {}: {e}", dir.display())))?;
        let settings = IndexSettings::parse(&meta["settings"])?;
        let on_disk = Index::open_in_dir(dir.join(TANTIVY_DIR))?.schema();
        let meta_fields = crate::store::mapping::MetaFields {
            routing: on_disk.get_field(crate::store::mapping::ROUTING_FIELD).is_ok(),
            ignored: on_disk.get_field(crate::store::mapping::IGNORED_FIELD).is_ok(),
            source_as_text: on_disk
                .get_field(crate::store::mapping::SOURCE_FIELD)
                .is_ok_and(|f| matches!(on_disk.get_field_entry(f).field_type(), tantivy::schema::FieldType::Str(_))),
        };
        let mut mapping = Mapping::from_stored_schema(&meta["mappings"], meta_fields)?;
        let mut mappings_json = meta["mappings"].clone();
        for update in meta["mapping_updates"].as_array().into_iter().flatten() {
            mapping = mapping.extend(update)?;
            merge_json(&mut mappings_json, update);
        }
        // A crash between recording an update and rewriting tantivy's schema leaves the
        // schema behind the mapping (never ahead): catch it up before opening a writer.
        if on_disk.num_fields() < mapping.schema.num_fields() {
            write_tantivy_schema(&dir.join(TANTIVY_DIR), &mapping.schema)?;
        }
        settings.codec.reconcile(&dir.join(TANTIVY_DIR), write_atomically)?;
        let (index, writer, reader) = open_tantivy(dir)?;
        // Before the translog replay below writes anything: it must check against these dims.
        crate::knn::restore_inferred_dims(&mapping.vectors, &reader.searcher())?;
        let (translog, pending) = Translog::open(&dir.join(TRANSLOG_FILE))?;
        let handle = IndexHandle {
            name: meta["name"].as_str().unwrap_or_default().to_string(),
            uuid: meta["uuid"].as_str().unwrap_or_default().to_string(),
            creation_date: meta["creation_date"].as_i64().unwrap_or(0),
            mapping,
            settings,
            mappings_json,
            reader: reader.clone(),
            closed: meta["state"] == "close",
            dir: dir.to_path_buf(),
            state: Arc::new(Mutex::new(WriterState {
                writer: Some(writer),
                reader,
                translog,
                live: IdMap::default(),
                tombstones: IdMap::default(),
                next_seq_no: 0,
                dirty: false,
                unreloaded: false,
                last_refresh: Instant::now(),
                realtime: None,
                reloaded_at: CommitStamp::read(&dir.join(TANTIVY_DIR)),
            })),
            counters: Arc::default(),
        };
        drop(index);
        handle.init_seq_no()?;
        handle.replay(pending)?;
        Ok(handle)
    }

    fn init_seq_no(&self) -> Result<()> {
        let searcher = self.reader.searcher();
        let mut next = 0;
        for seg in searcher.segment_readers() {
            if seg.num_docs() > 0 {
                next = next.max(seg.fast_fields().u64(crate::store::mapping::SEQ_NO_FIELD)?.max_value() + 1);
            }
        }
        lock(&self.state).next_seq_no = next;
        Ok(())
    }

    /// Re-applies translog operations the last commit does not hold, then commits them.
    fn replay(&self, ops: Vec<Op>) -> Result<()> {
        if ops.is_empty() {
            return Ok(());
        }
        let mut st = lock(&self.state);
        for op in &ops {
            let id_term = Term::from_field_text(self.mapping.id_field, &op.id);
            self.delete_nested_objects(st.writer(), &id_term);
            st.writer().delete_term(id_term);
            if op.kind == OpKind::Index {
                let source: Value = serde_json::from_slice(&op.source)
                    .map_err(|e| EngineError::Internal(format!("corrupt translog source for [{}]: {e}", op.id)))?;
                let mut doc = crate::store::document::build_document(&self.mapping, &op.id, &source, &op.source)?;
                let nested = crate::store::nested_documents::nested_documents(
                    &self.mapping,
                    &op.id,
                    &source,
                    self.settings.limits.nested_objects_limit,
                )?;
                doc.add_u64(self.mapping.version_field, op.version);
                doc.add_u64(self.mapping.seq_no_field, op.seq_no);
                if let (Some(field), Some(value)) = (self.mapping.routing_field, &op.routing) {
                    doc.add_text(field, value);
                }
                self.add_block(st.writer(), doc, nested)?;
            }
            let deleted = op.kind == OpKind::Delete;
            st.live.insert(op.id.clone(), DocState { version: op.version, seq_no: op.seq_no, deleted });
            st.next_seq_no = st.next_seq_no.max(op.seq_no + 1);
        }
        st.dirty = true;
        self.refresh_locked(&mut st)
    }

    /// This index under a new mapping: `update` (a `mappings` body) is recorded in the index's
    /// meta file, then pending writes are committed and tantivy's schema gains the new fields
    /// (appended, so existing segments stay valid). The new handle shares the writer state with
    /// this one, so writes still in flight through this handle land in the same index.
    pub fn with_mapping(&self, mapping: Mapping, update: &Value) -> Result<IndexHandle> {
        let mut st = lock(&self.state);
        let meta_path = self.dir.join(META_FILE);
        let mut meta: Value = serde_json::from_slice(&std::fs::read(&meta_path)?)
            .map_err(|e| EngineError::Internal(format!("corrupt {META_FILE}: {e}")))?;
        match meta["mapping_updates"].as_array_mut() {
            Some(list) => list.push(update.clone()),
            None => meta["mapping_updates"] = json!([update]),
        }
        write_atomically(&meta_path, &serde_json::to_vec_pretty(&meta).unwrap())?;
        let reader =
            self.swap_writer(&mut st, || write_tantivy_schema(&self.dir.join(TANTIVY_DIR), &mapping.schema))?;
        let mut mappings_json = self.mappings_json.clone();
        merge_json(&mut mappings_json, update);
        Ok(IndexHandle {
            name: self.name.clone(),
            uuid: self.uuid.clone(),
            creation_date: self.creation_date,
            mapping,
            settings: self.settings.clone(),
            mappings_json,
            reader,
            closed: self.closed,
            dir: self.dir.clone(),
            state: self.state.clone(),
            counters: self.counters.clone(),
        })
    }

    /// This index under new settings (`PUT /{index}/_settings`): `stored` (the settings as given)
    /// replaces them in the index's meta file; the new handle shares the writer state.
    pub fn with_settings(&self, settings: IndexSettings, stored: &Value) -> Result<IndexHandle> {
        let mut st = lock(&self.state);
        let meta_path = self.dir.join(META_FILE);
        let mut meta: Value = serde_json::from_slice(&std::fs::read(&meta_path)?)
            .map_err(|e| EngineError::Internal(format!("corrupt {META_FILE}: {e}")))?;
        meta["settings"] = stored.clone();
        write_atomically(&meta_path, &serde_json::to_vec_pretty(&meta).unwrap())?;
        // tantivy reads the doc store's compression when it opens an index (a closed index is
        // the only one whose codec may change).
        let reader = if settings.codec == self.settings.codec {
            self.reader.clone()
        } else {
            self.swap_writer(&mut st, || settings.codec.reconcile(&self.dir.join(TANTIVY_DIR), write_atomically))?
        };
        Ok(IndexHandle {
            name: self.name.clone(),
            uuid: self.uuid.clone(),
            creation_date: self.creation_date,
            mapping: self.mapping.clone(),
            settings,
            mappings_json: self.mappings_json.clone(),
            reader,
            closed: self.closed,
            dir: self.dir.clone(),
            state: self.state.clone(),
            counters: self.counters.clone(),
        })
    }

    /// What a real-time get reads: every acknowledged write. Writes searches cannot see yet are
    /// committed (as a flush commits them) and read through the gets' own reader, so a get never
    /// makes them visible to search (ES's real-time get does not refresh either).
    pub fn realtime_searcher(&self) -> Result<Searcher> {
        let mut st = lock(&self.state);
        if !st.dirty && !st.unreloaded {
            return Ok(st.reader.searcher());
        }
        Self::commit_unpublished(&mut st)?;
        let index = st.writer().index().clone();
        let (reader, stale) = match st.realtime.take() {
            Some(open) => open,
            None => (index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?, false),
        };
        if stale {
            reader.reload()?;
        }
        let searcher = reader.searcher();
        st.realtime = Some((reader, false));
        Ok(searcher)
    }

    pub fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }

    pub fn num_docs(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    pub fn store_size_in_bytes(&self) -> u64 {
        dir_size(&self.dir)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Commits pending writes so a clean shutdown leaves an empty translog.
    pub fn close(&self) -> Result<()> {
        let mut st = lock(&self.state);
        self.refresh_locked(&mut st)
    }
}

/// Opens the tantivy index in `dir` with its writer and a manually reloaded reader.
fn open_tantivy(dir: &Path) -> Result<(Index, IndexWriter, IndexReader)> {
    let index = Index::open_in_dir(dir.join(TANTIVY_DIR))?;
    index.tokenizers().register(ES_STANDARD_TOKENIZER, crate::analysis::es_standard_analyzer());
    // Every built-in analyzer a field may name, for its postings and for its fielddata column.
    crate::analyzers::register_all(index.tokenizers());
    crate::analyzers::register_all(index.fast_field_tokenizer());
    let writer: IndexWriter = index.writer(WRITER_MEMORY_BUDGET)?;
    let reader: IndexReader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
    Ok((index, writer, reader))
}

/// Replaces the schema in tantivy's `meta.json` (no writer may be open): only ever with one
/// that extends it, so the segments it lists stay readable.
fn write_tantivy_schema(tantivy_dir: &Path, schema: &tantivy::schema::Schema) -> Result<()> {
    let path = tantivy_dir.join("meta.json");
    let mut meta: Value = serde_json::from_slice(&std::fs::read(&path)?)
        .map_err(|e| EngineError::Internal(format!("corrupt tantivy meta.json: {e}")))?;
    meta["schema"] = serde_json::to_value(schema).map_err(|e| EngineError::Internal(e.to_string()))?;
    write_atomically(&path, &serde_json::to_vec_pretty(&meta).unwrap())
}

fn dir_size(path: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(path) else { return 0 };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_size(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
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
