//! Write-ahead translog, one per index. A bulk's operations are appended and fsynced before
//! they reach the tantivy writer, so an acknowledged bulk survives a crash (ES's default
//! `index.translog.durability: request`). A refresh commits tantivy and then empties the log;
//! opening an index replays whatever the log still holds. Replay is idempotent because every
//! replayed operation is an upsert/delete by `_id`.
//!
//! Group commit: a bulk writes its records under the index's write lock but waits for the
//! fsync after releasing it (`SyncTicket::wait`), and one fsync covers every record written
//! before it started, as ES's translog does. Concurrent bulks then share fsyncs instead of
//! queueing one fsync each behind the lock; each is still acknowledged only once durable.
//!
//! Record layout: `[u32 len][u32 crc32(payload)][payload]`, payload =
//! `[u8 kind][u64 version][u64 seq_no][u32 id_len][id][source bytes]`; an index operation with a
//! routing value is kind 3 and has `[u32 routing_len][routing]` between the id and the source
//! (kinds 1 and 2 are as they always were, so an older log still replays). A torn or corrupt tail
//! (a write that never returned, so never acknowledged) ends the replay and is cut off.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::error::Result;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    Index = 1,
    Delete = 2,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    pub kind: OpKind,
    pub id: String,
    pub version: u64,
    pub seq_no: u64,
    pub source: Vec<u8>,
    /// The write's `routing` value (index operations only).
    pub routing: Option<String>,
}

/// The record kind of an index operation that carries a routing value.
const ROUTED_INDEX: u8 = 3;

pub struct Translog {
    file: File,
    len: u64,
    /// Bytes ever written to this log (never reset by truncate): the positions tickets wait for.
    written: u64,
    syncer: Arc<Syncer>,
    /// Operations the log holds now (`_stats` `translog.operations`).
    ops: u64,
    /// When the log last changed (`translog.earliest_last_modified_age`).
    modified: Instant,
}

/// Shared by the writers waiting for durability: a second handle on the log file, and how far
/// (in `Translog::written` bytes) the log is known durable.
struct Syncer {
    file: File,
    written: AtomicU64,
    synced: Mutex<u64>,
}

impl Syncer {
    fn sync_to(&self, upto: u64) -> Result<()> {
        let mut synced = self.synced.lock().unwrap_or_else(|p| p.into_inner());
        if *synced >= upto {
            return Ok(());
        }
        // Everything written before this load is in the file, so this fsync makes it durable.
        let target = self.written.load(Ordering::Acquire);
        self.file.sync_data()?;
        *synced = (*synced).max(target);
        Ok(())
    }

    fn mark_synced(&self, upto: u64) {
        let mut synced = self.synced.lock().unwrap_or_else(|p| p.into_inner());
        *synced = (*synced).max(upto);
    }
}

/// A bulk's claim on durability: `wait` returns once its records are fsynced.
#[must_use = "a write is durable only after its ticket is waited on"]
pub struct SyncTicket {
    syncer: Arc<Syncer>,
    upto: u64,
}

impl SyncTicket {
    pub fn wait(self) -> Result<()> {
        self.syncer.sync_to(self.upto)
    }
}

impl Translog {
    /// Opens (or creates) the log and returns the operations it holds.
    pub fn open(path: &Path) -> Result<(Translog, Vec<Op>)> {
        let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        let (ops, good_len) = decode_all(&bytes);
        if good_len as usize != bytes.len() {
            file.set_len(good_len)?;
            file.sync_all()?;
        }
        file.seek(SeekFrom::Start(good_len))?;
        let syncer = Arc::new(Syncer { file: file.try_clone()?, written: AtomicU64::new(0), synced: Mutex::new(0) });
        let held = ops.len() as u64;
        Ok((Translog { file, len: good_len, written: 0, syncer, ops: held, modified: Instant::now() }, ops))
    }

    /// Appends the operations and fsyncs; returns only once they are durable.
    pub fn append(&mut self, ops: &[Op]) -> Result<()> {
        self.write(ops)?.wait()
    }

    /// Writes the operations to the log file without waiting for them to be durable: the
    /// ticket's `wait` does, and may share its fsync with other writers.
    pub fn write(&mut self, ops: &[Op]) -> Result<SyncTicket> {
        if !ops.is_empty() {
            let mut out = BufWriter::with_capacity(1 << 20, &mut self.file);
            let mut written = 0u64;
            for op in ops {
                let record = encode(op);
                out.write_all(&record)?;
                written += record.len() as u64;
            }
            out.flush()?;
            drop(out);
            self.len += written;
            self.written += written;
            self.ops += ops.len() as u64;
            self.modified = Instant::now();
            self.syncer.written.store(self.written, Ordering::Release);
        }
        Ok(SyncTicket { syncer: self.syncer.clone(), upto: self.written })
    }

    /// Empties the log once its operations are committed in tantivy.
    pub fn truncate(&mut self) -> Result<()> {
        self.file.set_len(0)?;
        self.file.seek(SeekFrom::Start(0))?;
        self.file.sync_all()?;
        self.len = 0;
        self.ops = 0;
        self.modified = Instant::now();
        // What the log held is committed in tantivy now: no ticket needs an fsync for it.
        self.syncer.mark_synced(self.written);
        Ok(())
    }

    pub fn size_in_bytes(&self) -> u64 {
        self.len
    }

    pub fn operations(&self) -> u64 {
        self.ops
    }

    pub fn last_modified(&self) -> Instant {
        self.modified
    }
}

fn encode(op: &Op) -> Vec<u8> {
    let routing = op.routing.as_deref().filter(|_| op.kind == OpKind::Index);
    let mut payload = Vec::with_capacity(25 + op.id.len() + routing.map_or(0, str::len) + op.source.len());
    payload.push(if routing.is_some() { ROUTED_INDEX } else { op.kind as u8 });
    payload.extend_from_slice(&op.version.to_le_bytes());
    payload.extend_from_slice(&op.seq_no.to_le_bytes());
    payload.extend_from_slice(&(op.id.len() as u32).to_le_bytes());
    payload.extend_from_slice(op.id.as_bytes());
    if let Some(routing) = routing {
        payload.extend_from_slice(&(routing.len() as u32).to_le_bytes());
        payload.extend_from_slice(routing.as_bytes());
    }
    payload.extend_from_slice(&op.source);
    let mut record = Vec::with_capacity(8 + payload.len());
    record.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    record.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    record.extend_from_slice(&payload);
    record
}

/// Decodes every complete, intact record; returns them and the byte length they span.
fn decode_all(bytes: &[u8]) -> (Vec<Op>, u64) {
    let mut ops = Vec::new();
    let mut pos = 0usize;
    while let Some((op, next)) = decode_one(bytes, pos) {
        ops.push(op);
        pos = next;
    }
    (ops, pos as u64)
}

fn decode_one(bytes: &[u8], pos: usize) -> Option<(Op, usize)> {
    let u32_at = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    let u64_at = |at: usize| bytes.get(at..at + 8).map(|b| u64::from_le_bytes(b.try_into().unwrap()));
    let len = u32_at(pos)? as usize;
    let crc = u32_at(pos + 4)?;
    let payload = bytes.get(pos + 8..pos + 8 + len)?;
    if crc32fast::hash(payload) != crc || payload.len() < 21 {
        return None;
    }
    let kind = match payload[0] {
        1 | ROUTED_INDEX => OpKind::Index,
        2 => OpKind::Delete,
        _ => return None,
    };
    let base = pos + 8;
    let version = u64_at(base + 1)?;
    let seq_no = u64_at(base + 9)?;
    let id_len = u32_at(base + 17)? as usize;
    let id = std::str::from_utf8(payload.get(21..21 + id_len)?).ok()?.to_string();
    let mut at = 21 + id_len;
    let routing = if payload[0] == ROUTED_INDEX {
        let routing_len = u32_at(base + at)? as usize;
        let routing = std::str::from_utf8(payload.get(at + 4..at + 4 + routing_len)?).ok()?.to_string();
        at += 4 + routing_len;
        Some(routing)
    } else {
        None
    };
    let source = payload.get(at..)?.to_vec();
    Some((Op { kind, id, version, seq_no, source, routing }, pos + 8 + len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(id: &str) -> Op {
        Op { kind: OpKind::Index, id: id.into(), version: 1, seq_no: 3, source: br#"{"a":1}"#.to_vec(), routing: None }
    }

    #[test]
    fn routing_values_survive_and_unrouted_records_keep_their_layout() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("translog.log");
        let (mut log, _) = Translog::open(&path).unwrap();
        let routed = Op { routing: Some("tenant-7".into()), ..op("r") };
        let delete = Op { kind: OpKind::Delete, source: Vec::new(), ..op("d") };
        log.append(&[op("a"), routed.clone(), delete.clone()]).unwrap();
        drop(log);
        assert_eq!(Translog::open(&path).unwrap().1, vec![op("a"), routed, delete]);
        // An unrouted index record is byte for byte the layout older builds wrote and read.
        let plain = encode(&op("a"));
        assert_eq!(plain[8], 1);
        assert_eq!(&plain[8 + 21 + 1..], br#"{"a":1}"#);
    }

    #[test]
    fn appended_ops_come_back_on_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("translog.log");
        let (mut log, ops) = Translog::open(&path).unwrap();
        assert!(ops.is_empty());
        log.append(&[op("a"), op("b")]).unwrap();
        drop(log);
        let (_, ops) = Translog::open(&path).unwrap();
        assert_eq!(ops, vec![op("a"), op("b")]);
    }

    #[test]
    fn one_fsync_covers_every_record_written_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("translog.log");
        let (mut log, _) = Translog::open(&path).unwrap();
        let first = log.write(&[op("a")]).unwrap();
        let second = log.write(&[op("b")]).unwrap();
        // The later ticket's fsync happens first and covers the earlier record too.
        second.wait().unwrap();
        assert_eq!(*log.syncer.synced.lock().unwrap(), log.written);
        first.wait().unwrap();
        // After a truncate (the records are committed in tantivy) no ticket needs an fsync.
        let third = log.write(&[op("c")]).unwrap();
        log.truncate().unwrap();
        assert_eq!(*log.syncer.synced.lock().unwrap(), log.written);
        third.wait().unwrap();
        let fourth = log.write(&[op("d")]).unwrap();
        fourth.wait().unwrap();
        drop(log);
        assert_eq!(Translog::open(&path).unwrap().1, vec![op("d")]);
    }

    #[test]
    fn torn_tail_is_cut_and_truncate_empties() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("translog.log");
        let (mut log, _) = Translog::open(&path).unwrap();
        log.append(&[op("a"), op("b")]).unwrap();
        drop(log);
        let full = std::fs::metadata(&path).unwrap().len();
        OpenOptions::new().write(true).open(&path).unwrap().set_len(full - 3).unwrap();
        let (mut log, ops) = Translog::open(&path).unwrap();
        assert_eq!(ops, vec![op("a")]);
        log.truncate().unwrap();
        drop(log);
        assert!(Translog::open(&path).unwrap().1.is_empty());
    }
}
