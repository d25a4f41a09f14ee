//! `POST /{index}/_delete_by_query`: deletes every document matching a query in the index's
//! current snapshot, like ES (documents written after it starts are not seen). Matches are
//! streamed segment by segment and deleted in batches of 1,000 ids (ES's scroll size), so
//! memory stays flat however many documents match. Over several indices (a list, a wildcard,
//! an alias) each index is done in turn and the counts are summed.

use std::time::Instant;

use serde_json::{json, Value};
use tantivy::query::EnableScoring;
use tantivy::{DocSet, TERMINATED};

use super::resolve::Target;
use super::Engine;
use crate::error::{json_syntax_error, EngineError, Result};
use crate::query::ast::QueryAst;
use crate::query::dsl::parse_query;
use crate::search::lower_query;
use crate::store::index::{IndexHandle, PreparedWrite};
use crate::store::mapping::ID_FIELD;

const BATCH: usize = 1_000;

#[derive(Default)]
struct Tally {
    /// Matches taken (deleted or found already gone).
    total: u64,
    deleted: u64,
    conflicts: u64,
    batches: u64,
}

fn flush(handle: &IndexHandle, ids: &mut Vec<String>, tally: &mut Tally) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let writes = ids.drain(..).map(|id| PreparedWrite::Delete { id, cond: Default::default() }).collect();
    for outcome in handle.write(writes)? {
        match outcome?.result {
            "deleted" => tally.deleted += 1,
            // Deleted by someone else since the snapshot: ES counts it as a version conflict.
            _ => tally.conflicts += 1,
        }
    }
    tally.batches += 1;
    Ok(())
}

/// `_delete_by_query` over `targets` (each with its alias filter); `max_docs` bounds them all.
pub(crate) fn over_targets(
    engine: &Engine,
    targets: &[Target],
    body: &[u8],
    max_docs: Option<u64>,
    refresh: bool,
) -> Result<String> {
    let started = Instant::now();
    let mut sum = Tally::default();
    for target in targets {
        let remaining = max_docs.map(|m| m.saturating_sub(sum.total));
        if remaining == Some(0) {
            break;
        }
        let request = match &target.filter {
            Some(filter) => super::multi_search::with_filter(body, filter)?,
            None => body.to_vec(),
        };
        let one = run(engine.get(&target.index)?.as_ref(), &request, remaining, refresh)?;
        sum.total += one.total;
        sum.deleted += one.deleted;
        sum.batches += one.batches;
        sum.conflicts += one.conflicts;
    }
    Ok(reply_body(started, &sum))
}

/// ES's `_delete_by_query` reply.
fn reply_body(started: Instant, tally: &Tally) -> String {
    json!({
        "took": started.elapsed().as_millis() as u64,
        "timed_out": false,
        "total": tally.total,
        "deleted": tally.deleted,
        "batches": tally.batches,
        "version_conflicts": tally.conflicts,
        "noops": 0,
        "retries": { "bulk": 0, "search": 0 },
        "throttled_millis": 0,
        "requests_per_second": -1.0,
        "throttled_until_millis": 0,
        "failures": [],
    })
    .to_string()
}

pub fn delete_by_query(handle: &IndexHandle, body: &[u8], max_docs: Option<u64>, refresh: bool) -> Result<String> {
    let started = Instant::now();
    Ok(reply_body(started, &run(handle, body, max_docs, refresh)?))
}

/// Deletes one index's matches of the request; its counts.
fn run(handle: &IndexHandle, body: &[u8], max_docs: Option<u64>, refresh: bool) -> Result<Tally> {
    let value: Value = serde_json::from_slice(body).map_err(|e| json_syntax_error(&e))?;
    let obj = value.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?;
    let mut query: Option<QueryAst> = None;
    let mut max_docs = max_docs;
    for (key, v) in obj {
        match key.as_str() {
            "query" => query = Some(parse_query(v)?),
            "max_docs" => {
                max_docs = Some(v.as_u64().filter(|n| *n > 0).ok_or_else(|| {
                    EngineError::ActionRequestValidation("Validation Failed: 1: maxDocs must be greater than 0;".into())
                })?)
            }
            other => return Err(EngineError::Parsing(format!("Unknown key for a START_OBJECT in [{other}]."))),
        }
    }
    let query =
        query.ok_or_else(|| EngineError::ActionRequestValidation("Validation Failed: 1: query is missing;".into()))?;
    let query = crate::query::root_only::root_only(query, &handle.mapping);
    crate::query::limits::check_clause_count(&query)?;
    let lowered = lower_query(handle, &query)?;
    let searcher = handle.searcher();
    let weight = lowered.weight(EnableScoring::disabled_from_searcher(&searcher))?;
    let limit = max_docs.unwrap_or(u64::MAX);
    let mut tally = Tally::default();
    let mut ids = Vec::with_capacity(BATCH);
    let mut id = String::new();
    'segments: for seg in searcher.segment_readers() {
        let Some(id_column) = seg.fast_fields().str(ID_FIELD)? else { continue };
        let mut docs = weight.scorer(seg, 1.0)?;
        let mut doc = docs.doc();
        while doc != TERMINATED {
            if seg.alive_bitset().is_none_or(|alive| alive.is_alive(doc)) {
                if tally.total == limit {
                    break 'segments;
                }
                if let Some(ord) = id_column.term_ords(doc).next() {
                    id.clear();
                    id_column.ord_to_str(ord, &mut id)?;
                    ids.push(id.clone());
                    tally.total += 1;
                }
                if ids.len() == BATCH {
                    flush(handle, &mut ids, &mut tally)?;
                }
            }
            doc = docs.advance();
        }
    }
    flush(handle, &mut ids, &mut tally)?;
    if refresh {
        handle.refresh()?;
    }
    Ok(tally)
}
