//! `_bulk`: NDJSON parsing, per-item validation against the mapping, and the ES response.
//! Items are grouped per index (keeping their positions) so each index takes its writer lock
//! and fsyncs its translog once per request.

use foldhash::HashMap;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};

use crate::error::{json_syntax_error, EngineError, Result};
use crate::store::bulk_action::parse_action;
use crate::store::index::{IndexHandle, PreparedWrite, WriteOutcome};

pub use crate::store::bulk_action::Action;
use crate::store::bulk_item::prepare;
pub use crate::store::bulk_item::BulkItem;

fn trim(line: &[u8]) -> &[u8] {
    let end = line.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |p| p + 1);
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(end);
    &line[start..end]
}

/// What a bulk's URL gives every item that does not say otherwise (`/{index}/_bulk`,
/// `?routing=`, `?_source=` for updates, `?require_alias=`).
#[derive(Debug, Clone, Default)]
pub struct BulkDefaults {
    pub index: Option<String>,
    pub routing: Option<String>,
    /// `_source` of update items, in the shape an action line gives it.
    pub source: Option<Value>,
    pub require_alias: bool,
}

/// Splits the NDJSON body into items; request-level problems fail the whole bulk, as in ES.
pub fn parse_bulk<'a>(body: &'a [u8], default_index: Option<&str>) -> Result<Vec<BulkItem<'a>>> {
    parse_bulk_with(body, &BulkDefaults { index: default_index.map(str::to_string), ..BulkDefaults::default() })
}

/// `parse_bulk` with the URL's defaults.
pub fn parse_bulk_with<'a>(body: &'a [u8], defaults: &BulkDefaults) -> Result<Vec<BulkItem<'a>>> {
    let default_index = defaults.index.as_deref();
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(EngineError::RequestBodyRequired);
    }
    // ES reads up to the last newline: a final line without one is refused, not dropped.
    let last = body.iter().rposition(|b| !b.is_ascii_whitespace()).unwrap_or(0);
    if !body[last..].contains(&b'\n') {
        return Err(EngineError::IllegalArgument("The bulk request must be terminated by a newline [\\n]".into()));
    }
    let mut lines =
        body.split(|b| *b == b'\n').enumerate().map(|(n, l)| (n + 1, trim(l))).filter(|(_, l)| !l.is_empty());
    let mut items = Vec::new();
    while let Some((line_no, line)) = lines.next() {
        let meta: Value = serde_json::from_slice(line).map_err(|e| json_syntax_error(&e))?;
        let (action, mut meta) = parse_action(line_no, &meta)?;
        let index = meta.index.take().or_else(|| default_index.map(str::to_string));
        let index = index
            .ok_or_else(|| EngineError::ActionRequestValidation("Validation Failed: 1: index is missing;".into()))?;
        let id = meta.id.take();
        if meta.routing.is_none() {
            meta.routing.clone_from(&defaults.routing);
        }
        if action == Action::Update && meta.source.is_none() {
            meta.source.clone_from(&defaults.source);
        }
        meta.require_alias = Some(meta.require_alias.unwrap_or(defaults.require_alias));
        if matches!(action, Action::Delete | Action::Update) && id.is_none() {
            return Err(EngineError::ActionRequestValidation("Validation Failed: 1: id is missing;".into()));
        }
        let source = if action == Action::Delete {
            None
        } else {
            // An action line with nothing after it is dropped, as ES drops it.
            let Some((_, src)) = lines.next() else { break };
            Some(src)
        };
        items.push(BulkItem { action, index, id, meta, source });
    }
    if items.is_empty() {
        return Err(EngineError::ActionRequestValidation("Validation Failed: 1: no requests added;".into()));
    }
    Ok(items)
}

/// The indices a bulk writes to: found (or auto-created) by name, an error failing only the
/// items that name it; and their mappings, extended when documents bring new fields.
pub trait Indices {
    fn resolve(&self, name: &str) -> Result<Arc<IndexHandle>>;
    /// Whether `name` is an alias (a `require_alias` item needs one).
    fn is_alias(&self, _name: &str) -> bool {
        false
    }
    /// Applies a mapping `update` and answers the index's handle under the new mapping.
    fn update_mapping(&self, name: &str, update: &Value) -> Result<Arc<IndexHandle>>;
}

/// A lookup alone: indices whose mappings never change (tests, tools).
impl<F: Fn(&str) -> Result<Arc<IndexHandle>>> Indices for F {
    fn resolve(&self, name: &str) -> Result<Arc<IndexHandle>> {
        self(name)
    }

    fn update_mapping(&self, name: &str, _update: &Value) -> Result<Arc<IndexHandle>> {
        Err(EngineError::IllegalArgument(format!("the mapping of [{name}] cannot change here")))
    }
}

/// How many rounds of dynamic mapping updates one run of writes may take (each round maps
/// every new field its documents bring, so more than one is needed only under races).
const MAPPING_ROUNDS: usize = 3;

/// Runs a parsed bulk against the resolved indices and renders ES's response body.
pub fn execute_bulk(mut items: Vec<BulkItem<'_>>, indices: &dyn Indices, refresh: bool) -> Result<String> {
    let started = Instant::now();
    let mut handles: HashMap<String, Result<Arc<IndexHandle>>> = HashMap::default();
    // An item that requires an alias never creates the index it names.
    let needs_alias = |item: &BulkItem<'_>| item.meta.require_alias == Some(true) && !indices.is_alias(&item.index);
    for item in items.iter().filter(|i| !needs_alias(i)) {
        if !handles.contains_key(&item.index) {
            handles.insert(item.index.clone(), indices.resolve(&item.index));
        }
    }
    for item in items.iter().filter(|i| needs_alias(i)) {
        handles.entry(item.index.clone()).or_insert_with(|| Err(EngineError::RequireAlias(item.index.clone())));
    }
    // Items that named an alias write to (and answer with) the index behind it.
    for item in items.iter_mut() {
        if let Some(Ok(handle)) = handles.get(&item.index) {
            if handle.name != item.index {
                item.meta.via_alias = true;
                item.index = handle.name.clone();
            }
        }
    }
    let concrete: Vec<(String, Arc<IndexHandle>)> =
        handles.values().flatten().map(|h| (h.name.clone(), h.clone())).collect();
    for (name, handle) in concrete {
        handles.entry(name).or_insert(Ok(handle));
    }
    let mut results: Vec<Option<Result<ItemOutcome>>> = (0..items.len()).map(|_| None).collect();
    // Updates read the document they change, so each runs alone, after the writes before it.
    let mut start = 0;
    while start < items.len() {
        if items[start].action == Action::Update {
            results[start] = Some(run_update(&items[start], &mut handles, indices));
            start += 1;
            continue;
        }
        let end = items[start..].iter().position(|i| i.action == Action::Update).map_or(items.len(), |p| start + p);
        run_writes(&mut items[start..end], &mut handles, indices, &mut results[start..end])?;
        start = end;
    }
    if refresh {
        for handle in handles.values().flatten() {
            handle.refresh()?;
        }
    }
    let mut errors = false;
    let mut rendered = String::with_capacity(items.len() * 200);
    for (i, (item, result)) in items.iter().zip(results).enumerate() {
        let result = result.expect("every bulk item has a result");
        errors |= result.is_err()
            || result.as_ref().is_ok_and(|o| o.outcome.status >= 400 && o.outcome.result != "not_found");
        if i > 0 {
            rendered.push(',');
        }
        let uuid = handles.get(&item.index).and_then(|h| h.as_ref().ok()).map(|h| h.uuid.as_str());
        render_item(item, result, uuid, &mut rendered);
    }
    Ok(format!(r#"{{"errors":{errors},"took":{},"items":[{rendered}]}}"#, started.elapsed().as_millis()))
}

/// A bulk item's result: the write, and for an `update` with `_source` the document after it.
pub struct ItemOutcome {
    pub outcome: WriteOutcome,
    pub get: Option<String>,
}

fn handle_for<'h>(handles: &'h HashMap<String, Result<Arc<IndexHandle>>>, index: &str) -> Result<&'h Arc<IndexHandle>> {
    handles[index].as_ref().map_err(Clone::clone)
}

/// How many times a write may find its index's mapping replaced under it before the rounds
/// count as failed mapping updates (bounded: the writers racing it are finitely many).
const STALE_HANDLE_ROUNDS: u32 = 64;

/// The dynamic mapping rounds of one write retried until its document fits the mapping
/// (`_update`, single-document writes): a round fails when the update left the handle the
/// write had (nothing to add, yet the write needed more); a handle that others' mapping
/// updates had already replaced (an update reads a document they keep adding fields to) is
/// progress, not a loop.
#[derive(Default)]
pub(crate) struct MappingRounds {
    failed: usize,
    stale: u32,
}

impl MappingRounds {
    /// Whether another round may run.
    pub(crate) fn left(&self) -> bool {
        self.failed < MAPPING_ROUNDS
    }

    /// Counts a round: `used` is the handle the write ran with, `next` the one after the update.
    pub(crate) fn count(&mut self, used: &Arc<IndexHandle>, next: &Arc<IndexHandle>) {
        if Arc::ptr_eq(next, used) || self.stale == STALE_HANDLE_ROUNDS {
            self.failed += 1;
        } else {
            self.stale += 1;
        }
    }
}

fn run_update(
    item: &BulkItem<'_>,
    handles: &mut HashMap<String, Result<Arc<IndexHandle>>>,
    indices: &dyn Indices,
) -> Result<ItemOutcome> {
    let id = item.id.as_deref().unwrap_or_default();
    let filter = item.meta.source.as_ref().map(crate::store::source_filter::SourceFilter::from_body).transpose()?;
    let options = crate::store::writes::UpdateOptions {
        retry_on_conflict: item.meta.retry_on_conflict,
        cond: item.meta.cond.clone(),
        source: filter,
        routing: item.meta.routing.clone(),
    };
    handle_for(handles, &item.index)?;
    let (mut races, mut rounds) = (0, MappingRounds::default());
    loop {
        // The index's current handle each time: a mapping update may have replaced it.
        let handle = indices.resolve(&item.index)?;
        handles.insert(item.index.clone(), Ok(handle.clone()));
        match crate::store::writes::update(&handle, id, item.source.unwrap_or_default(), &options) {
            Ok((outcome, get)) => return Ok(ItemOutcome { outcome, get }),
            Err(EngineError::MappingUpdate(update)) if rounds.left() => {
                let next = indices.update_mapping(&item.index, &update)?;
                rounds.count(&handle, &next);
            }
            Err(e) if crate::store::writes::lost_race(&e) && races < options.retry_on_conflict => races += 1,
            Err(e) => return Err(e),
        }
    }
}

/// Writes a run of index, create and delete items, grouped per index so each index takes its
/// writer lock and fsyncs its translog once.
fn run_writes(
    items: &mut [BulkItem<'_>],
    handles: &mut HashMap<String, Result<Arc<IndexHandle>>>,
    indices: &dyn Indices,
    results: &mut [Option<Result<ItemOutcome>>],
) -> Result<()> {
    let mut prepared = prepare_all(items, handles);
    for _ in 0..MAPPING_ROUNDS {
        // Documents that bring new fields: map them all (per index, in item order), then
        // prepare those documents again under the new mappings.
        let mut updates: Vec<(String, Value)> = Vec::new();
        for (item, p) in items.iter().zip(&prepared) {
            if let Err(EngineError::MappingUpdate(update)) = p {
                match updates.iter_mut().find(|(index, _)| *index == item.index) {
                    Some((_, merged)) => crate::store::dynamic::merge_first(merged, update),
                    None => updates.push((item.index.clone(), update.clone())),
                }
            }
        }
        if updates.is_empty() {
            break;
        }
        for (index, update) in updates {
            match indices.update_mapping(&index, &update) {
                Ok(next) => {
                    handles.insert(index, Ok(next));
                }
                // Another write mapped a field differently first: the documents fail to parse.
                Err(EngineError::IllegalArgument(reason)) if reason.contains("cannot be changed from type") => {}
                // Refused (e.g. the total fields limit): so are the documents that needed it.
                Err(e) => {
                    for (item, p) in items.iter().zip(prepared.iter_mut()) {
                        if item.index == index && matches!(p, Err(EngineError::MappingUpdate(_))) {
                            *p = Err(e.clone());
                        }
                    }
                }
            }
        }
        for (item, p) in items.iter_mut().zip(prepared.iter_mut()) {
            if matches!(p, Err(EngineError::MappingUpdate(_))) {
                *p = match handle_for(handles, &item.index) {
                    Ok(handle) => prepare(handle, item),
                    Err(e) => Err(e),
                };
            }
        }
    }
    let mut groups: Vec<(Arc<IndexHandle>, Vec<usize>, Vec<PreparedWrite>)> = Vec::new();
    let mut group_of: HashMap<&str, usize> = HashMap::default();
    for (pos, (item, prepared)) in items.iter().zip(prepared).enumerate() {
        let write = match prepared {
            Ok(w) => w,
            Err(e) => {
                results[pos] = Some(Err(e));
                continue;
            }
        };
        let g = *group_of.entry(item.index.as_str()).or_insert_with(|| {
            let handle = handle_for(handles, &item.index).expect("prepared items have an index").clone();
            groups.push((handle, Vec::new(), Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(pos);
        groups[g].2.push(write);
    }
    for (handle, positions, writes) in groups {
        let outcomes = handle.write(writes)?;
        for (pos, outcome) in positions.into_iter().zip(outcomes) {
            results[pos] = Some(outcome.map(|outcome| ItemOutcome { outcome, get: None }));
        }
    }
    Ok(())
}

/// Below this many items a bulk is prepared on the calling thread.
const PARALLEL_PREPARE_MIN_ITEMS: usize = 512;

fn prepare_all(
    items: &mut [BulkItem<'_>],
    handles: &HashMap<String, Result<Arc<IndexHandle>>>,
) -> Vec<Result<PreparedWrite>> {
    let prepare_one = |item: &mut BulkItem<'_>| match handle_for(handles, &item.index) {
        Ok(_) if item.meta.require_alias == Some(true) && !item.meta.via_alias => {
            Err(EngineError::RequireAlias(item.index.clone()))
        }
        Ok(handle) => prepare(handle, item),
        Err(e) => Err(e),
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if items.len() < PARALLEL_PREPARE_MIN_ITEMS || threads < 2 {
        return items.iter_mut().map(prepare_one).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let workers: Vec<_> = items
            .chunks_mut(chunk)
            .map(|part| scope.spawn(move || part.iter_mut().map(prepare_one).collect::<Vec<_>>()))
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

/// `{"<action>": {...result or error..., "status": N}}`, appended to `out`.
fn render_item(item: &BulkItem<'_>, result: Result<ItemOutcome>, uuid: Option<&str>, out: &mut String) {
    out.push_str(r#"{""#);
    out.push_str(item.action.name());
    out.push_str(r#"":"#);
    match result {
        Ok(ItemOutcome { outcome: o, get }) => {
            o.write_json(&item.index, Some(o.status), out);
            if let Some(get) = get {
                // Before the closing brace: `"get": {...}` as ES's update item carries it.
                out.pop();
                out.push_str(r#","get":"#);
                out.push_str(&get);
                out.push('}');
            }
        }
        Err(e) => {
            let mut cause = e.cause_json();
            if e.status() == 409 || matches!(e, EngineError::DocumentMissing { .. }) {
                cause["index_uuid"] = json!(uuid.unwrap_or_default());
                cause["shard"] = json!("0");
                cause["index"] = json!(item.index);
            }
            let body = json!({ "_index": item.index, "_id": item.id, "status": e.status(), "error": cause });
            out.push_str(&body.to_string());
        }
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_actions_ids_and_sources() {
        let body = b"{\"index\":{\"_index\":\"a\",\"_id\":\"1\"}}\n{\"x\":1}\n\n{\"create\":{}}\n{\"y\":2}\n{\"delete\":{\"_id\":3}}\n";
        let items = parse_bulk(body, Some("b")).unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!((items[0].action, items[0].index.as_str(), items[0].id.as_deref()), (Action::Index, "a", Some("1")));
        assert_eq!(items[0].source, Some(&b"{\"x\":1}"[..]));
        assert_eq!((items[1].action, items[1].index.as_str(), items[1].id.as_deref()), (Action::Create, "b", None));
        assert_eq!(items[2].id.as_deref(), Some("3"));
    }

    #[test]
    fn request_level_errors() {
        assert!(matches!(parse_bulk(b"", Some("a")), Err(EngineError::RequestBodyRequired)));
        assert!(matches!(parse_bulk(b"{\"index\":{}}\n{}\n", None), Err(EngineError::ActionRequestValidation(_))));
        // An update needs an id; an action line with nothing after it is dropped.
        let err = parse_bulk(b"{\"update\":{\"_index\":\"a\"}}\n{}\n", None).unwrap_err();
        assert!(err.to_string().contains("id is missing"));
        assert!(matches!(
            parse_bulk(b"{\"index\":{\"_index\":\"a\"}}\n", None),
            Err(EngineError::ActionRequestValidation(_))
        ));
        // The last line must end with a newline.
        assert!(matches!(
            parse_bulk(b"{\"index\":{\"_index\":\"a\"}}\n{}", None),
            Err(EngineError::IllegalArgument(_))
        ));
        assert!(matches!(parse_bulk(b"{bad\n{}\n", None), Err(EngineError::JsonParse(_))));
    }
}
