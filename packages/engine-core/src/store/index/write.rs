//! The write path of an index: a bulk's prepared writes get their versions (live map, then
//! tombstones, then the committed index), go to the translog, then to the tantivy writer as
//! one batch; and the ES result body each write answers with.

use std::time::Instant;

use tantivy::indexer::UserOperation;
use tantivy::schema::IndexRecordOption;
use tantivy::{DocSet, IndexWriter, Searcher, TantivyDocument, Term, TERMINATED};

use super::{lock, IndexHandle, WriterState};
use crate::error::Result;
use crate::store::mapping::{SEQ_NO_FIELD, VERSION_FIELD};
use crate::store::translog::{Op, OpKind};
use crate::store::versioning::{Conditions, DocState};

/// A validated write waiting for its version: the outcome of one bulk item.
pub enum PreparedWrite {
    /// `auto` ids were generated for this request and cannot exist yet: no version lookup.
    Index {
        id: String,
        auto: bool,
        /// What the write requires of the current document (`op_type=create`, `if_seq_no`, ...).
        cond: Conditions,
        doc: TantivyDocument,
        /// The document's nested objects (`store::nested_documents`), written just before it.
        nested: Vec<TantivyDocument>,
        raw: Vec<u8>,
        /// The write's `routing` value, stored as `_routing`.
        routing: Option<String>,
    },
    Delete {
        id: String,
        cond: Conditions,
    },
}

#[derive(Debug, Clone)]
pub struct WriteOutcome {
    pub id: String,
    pub version: u64,
    pub seq_no: u64,
    pub result: &'static str,
    pub status: u16,
}

impl WriteOutcome {
    /// The ES write result body (`_index`, `_id`, `_version`, `result`, ...), written straight
    /// into `out`, with the per-item `status` that only `_bulk` adds when given: a bulk of 1,000
    /// items renders its response without building 1,000 JSON trees (`perf` during a 1M-doc
    /// load: about a fifth of all CPU samples went to building, serializing and dropping them).
    pub fn write_json(&self, index: &str, status: Option<u16>, out: &mut String) {
        use std::fmt::Write as _;
        out.push_str(r#"{"_index":"#);
        push_json_str(out, index);
        out.push_str(r#","_id":"#);
        push_json_str(out, &self.id);
        let _ = write!(
            out,
            r#","_version":{},"result":"{}","_shards":{{"total":2,"successful":1,"failed":0}},"_seq_no":{},"_primary_term":1"#,
            self.version, self.result, self.seq_no
        );
        if let Some(status) = status {
            let _ = write!(out, r#","status":{status}"#);
        }
        out.push('}');
    }
}

/// Appends `s` as a JSON string literal.
pub(crate) fn push_json_str(out: &mut String, s: &str) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(&serde_json::to_string(s).expect("a str serializes"));
    } else {
        out.push('"');
        out.push_str(s);
        out.push('"');
    }
}

impl IndexHandle {
    /// The state of `id` as last written: live map first, then tombstones, then the committed
    /// index.
    fn current_state(&self, st: &WriterState, searcher: &Searcher, id: &str) -> Result<Option<DocState>> {
        if let Some(live) = st.live.get(id) {
            return Ok(Some(*live));
        }
        if !st.tombstones.is_empty() {
            if let Some((state, _)) = st.tombstones.get(id) {
                return Ok(Some(*state));
            }
        }
        let term = Term::from_field_text(self.mapping.id_field, id);
        for seg in searcher.segment_readers() {
            let inverted = seg.inverted_index(self.mapping.id_field)?;
            let Some(mut postings) = inverted.read_postings(&term, IndexRecordOption::Basic)? else { continue };
            let mut doc = postings.doc();
            while doc != TERMINATED {
                if seg.alive_bitset().is_none_or(|alive| alive.is_alive(doc)) {
                    let ff = seg.fast_fields();
                    let version = ff.u64(VERSION_FIELD)?.first(doc).unwrap_or(1);
                    let seq_no = ff.u64(SEQ_NO_FIELD)?.first(doc).unwrap_or(0);
                    return Ok(Some(DocState { version, seq_no, deleted: false }));
                }
                doc = postings.advance();
            }
        }
        Ok(None)
    }

    /// Applies one bulk's writes for this index: versions and conflicts are decided, the
    /// operations are made durable in the translog, then handed to the tantivy writer.
    pub fn write(&self, writes: Vec<PreparedWrite>) -> Result<Vec<Result<WriteOutcome>>> {
        let started = Instant::now();
        let _writing = self.counters.index_current.enter();
        let mut st = lock(&self.state);
        let searcher = st.reader.searcher();
        let mut outcomes = Vec::with_capacity(writes.len());
        let mut ops = Vec::with_capacity(writes.len());
        let mut docs: Vec<(Option<Term>, Option<TantivyDocument>, Vec<TantivyDocument>)> =
            Vec::with_capacity(writes.len());
        for write in writes {
            match write {
                PreparedWrite::Index { id, auto, cond, mut doc, nested, raw, routing } => {
                    let current = if auto { None } else { self.current_state(&st, &searcher, &id)? };
                    let version = match cond.resolve(&id, current) {
                        Ok(v) => v,
                        Err(e) => {
                            outcomes.push(Err(e));
                            continue;
                        }
                    };
                    let exists = current.is_some_and(|c| !c.deleted);
                    let seq_no = st.next_seq_no;
                    st.next_seq_no += 1;
                    doc.add_text(self.mapping.id_field, &id);
                    doc.add_u64(self.mapping.version_field, version);
                    doc.add_u64(self.mapping.seq_no_field, seq_no);
                    if let (Some(field), Some(value)) = (self.mapping.routing_field, &routing) {
                        doc.add_text(field, value);
                    }
                    // An id never written before needs no delete; auto ids are fresh by construction.
                    let delete =
                        (!auto && current.is_some()).then(|| Term::from_field_text(self.mapping.id_field, &id));
                    st.live.insert(id.clone(), DocState { version, seq_no, deleted: false });
                    ops.push(Op { kind: OpKind::Index, id: id.clone(), version, seq_no, source: raw, routing });
                    docs.push((delete, Some(doc), nested));
                    let (result, status) = if exists { ("updated", 200) } else { ("created", 201) };
                    outcomes.push(Ok(WriteOutcome { id, version, seq_no, result, status }));
                }
                PreparedWrite::Delete { id, cond } => {
                    let current = self.current_state(&st, &searcher, &id)?;
                    let version = match cond.resolve(&id, current) {
                        Ok(v) => v,
                        Err(e) => {
                            outcomes.push(Err(e));
                            continue;
                        }
                    };
                    let seq_no = st.next_seq_no;
                    st.next_seq_no += 1;
                    let tombstone = DocState { version, seq_no, deleted: true };
                    if current.is_none_or(|c| c.deleted) {
                        // Nothing to delete, but the id's version moves on, as ES's tombstones do.
                        match st.live.get_mut(&id) {
                            Some(live) => *live = tombstone,
                            None => {
                                st.tombstones.insert(id.clone(), (tombstone, Instant::now()));
                            }
                        }
                        outcomes.push(Ok(WriteOutcome { id, version, seq_no, result: "not_found", status: 404 }));
                        continue;
                    }
                    st.live.insert(id.clone(), tombstone);
                    ops.push(Op {
                        kind: OpKind::Delete,
                        id: id.clone(),
                        version,
                        seq_no,
                        source: Vec::new(),
                        routing: None,
                    });
                    docs.push((Some(Term::from_field_text(self.mapping.id_field, &id)), None, Vec::new()));
                    outcomes.push(Ok(WriteOutcome { id, version, seq_no, result: "deleted", status: 200 }));
                }
            }
        }
        let durable = st.translog.write(&ops)?;
        // The whole bulk as one batch: tantivy indexes a batch on one thread into one segment, in
        // order, as ES indexes a bulk's documents on one shard; documents one by one would be
        // spread over the indexing threads, and hits of equal score would come in an order that
        // changes from run to run. Bulks still index in parallel with each other.
        let mut batch = Vec::with_capacity(docs.len());
        for (delete, doc, nested) in docs {
            if let Some(term) = delete {
                if let (Some(nested), Some(id)) = (&self.mapping.nested, term.value().as_str()) {
                    batch.push(UserOperation::Delete(Term::from_field_text(nested.root_field, id)));
                }
                batch.push(UserOperation::Delete(term));
            }
            if let Some(doc) = doc {
                batch.extend(nested.into_iter().map(UserOperation::Add));
                batch.push(UserOperation::Add(doc));
            }
        }
        if !batch.is_empty() {
            st.writer().run(batch)?;
        }
        if !ops.is_empty() {
            st.dirty = true;
        }
        // Acknowledge only once durable, but fsync outside the lock so concurrent bulks share
        // fsyncs (group commit). Should the fsync fail, the bulk answers an error although its
        // documents already sit in the writer: a later refresh may still make them visible.
        drop(st);
        durable.wait()?;
        let deleted = ops.iter().filter(|op| op.kind == OpKind::Delete).count() as u64;
        let failed = outcomes.iter().filter(|o| o.is_err()).count() as u64;
        self.counters.record_writes(ops.len() as u64 - deleted, deleted, failed, started.elapsed());
        Ok(outcomes)
    }

    /// A document and its nested objects as one batch: tantivy keeps a batch in one segment,
    /// in order, which is the block join's layout (objects first, the document last).
    pub(super) fn add_block(
        &self,
        writer: &IndexWriter,
        doc: TantivyDocument,
        nested: Vec<TantivyDocument>,
    ) -> Result<()> {
        if nested.is_empty() {
            writer.add_document(doc)?;
        } else {
            let ops: Vec<UserOperation> = nested.into_iter().chain([doc]).map(UserOperation::Add).collect();
            writer.run(ops)?;
        }
        Ok(())
    }

    /// Replacing or deleting a document removes its nested objects (tagged with its `_id`).
    pub(super) fn delete_nested_objects(&self, writer: &IndexWriter, id_term: &Term) {
        if let (Some(nested), Some(id)) = (&self.mapping.nested, id_term.value().as_str()) {
            writer.delete_term(Term::from_field_text(nested.root_field, id));
        }
    }
}
