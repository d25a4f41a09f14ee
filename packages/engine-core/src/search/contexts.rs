//! Reader contexts that outlive one request: points in time (ES `/_pit`, OpenSearch
//! `/_search/point_in_time`) and scrolls. A context pins one tantivy `Searcher`, a snapshot of
//! the index's segments, so every page reads the same documents however the index changes
//! meanwhile. Pinning costs only the segment files kept alive, never a copy of the matches:
//! pages are cut with `search_after` on the pinned snapshot, O(size) memory per page.
//!
//! Each use extends a context's life by its `keep_alive`; expired contexts are dropped
//! lazily whenever the registry is touched. Like ES, the number open at once is capped.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use tantivy::Searcher;

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;

/// ES's `search.max_open_scroll_context` default (it bounds points in time too).
pub const MAX_OPEN_CONTEXTS: usize = 500;

/// Where a scroll has got to: the request it repeats and the sort key of the last hit sent.
#[derive(Clone)]
pub struct ScrollState {
    /// The first request's body without `aggs` (ES returns aggregations on the first page only).
    pub body: Map<String, Value>,
    /// The first request's URL parameters (without `scroll`).
    pub params: Map<String, Value>,
    /// Sort values of the last hit returned, in the internal sort (user sort + `_doc`).
    pub after: Option<Vec<Value>>,
    /// The hit total the first page reported; later pages repeat it, as ES does.
    pub total: Value,
    /// How many sort values the client asked for (hits show those, not the tiebreaker).
    pub user_sort: usize,
}

#[derive(Clone)]
pub struct Context {
    pub handle: Arc<IndexHandle>,
    pub searcher: Searcher,
    pub scroll: Option<ScrollState>,
    keep_alive: Duration,
    expires: Instant,
    /// When it was opened, epoch milliseconds (listed by `GET /_search/point_in_time/_all`).
    created_ms: u64,
}

/// An open point in time as OpenSearch lists it.
pub struct PitInfo {
    pub id: String,
    pub created_ms: u64,
    pub keep_alive_ms: u64,
}

/// ES's `search.max_keep_alive` default: a scroll may not ask to live longer.
pub const MAX_KEEP_ALIVE: Duration = Duration::from_secs(24 * 3600);

/// Whether `id` has the shape of the ids this registry issues (32 hex digits). Anything else
/// was never a context id: ES answers 400 "Cannot parse", not 404 "no such context".
pub fn is_well_formed_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

#[derive(Default)]
pub struct ReaderContexts {
    inner: Mutex<HashMap<String, Context>>,
    /// Per-process random keys: ids are unguessable from one another.
    ids: RandomState,
    issued: AtomicU64,
    /// `search.max_keep_alive` in milliseconds as the cluster settings have it (0: ES's default).
    max_keep_alive_ms: AtomicU64,
}

impl ReaderContexts {
    /// The longest keep-alive a scroll may ask for (`search.max_keep_alive`).
    pub fn max_keep_alive(&self) -> Duration {
        match self.max_keep_alive_ms.load(Ordering::Relaxed) {
            0 => MAX_KEEP_ALIVE,
            ms => Duration::from_millis(ms),
        }
    }

    /// Follows a change of `search.max_keep_alive`.
    pub fn set_max_keep_alive(&self, max: Duration) {
        self.max_keep_alive_ms.store(max.as_millis().max(1) as u64, Ordering::Relaxed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Context>> {
        let mut map = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        map.retain(|_, c| c.expires > now);
        map
    }

    /// An opaque id no client can guess from another (ES's ids are opaque too).
    fn new_id(&self) -> String {
        let n = self.issued.fetch_add(1, Ordering::Relaxed);
        let mut h = self.ids.build_hasher();
        h.write_u64(n);
        let a = h.finish();
        let mut h = self.ids.build_hasher();
        h.write_u64(a ^ n.rotate_left(17));
        format!("{a:016x}{:016x}", h.finish())
    }

    /// Pins the handle's current searcher; returns the new context's id.
    pub fn open(&self, handle: Arc<IndexHandle>, keep_alive: Duration, scroll: Option<ScrollState>) -> Result<String> {
        let searcher = handle.searcher();
        self.open_on(handle, searcher, keep_alive, scroll)
    }

    /// Like [`open`](Self::open) but on a searcher the caller already read from (a scroll's first page).
    pub fn open_on(
        &self,
        handle: Arc<IndexHandle>,
        searcher: Searcher,
        keep_alive: Duration,
        scroll: Option<ScrollState>,
    ) -> Result<String> {
        let mut map = self.lock();
        if map.len() >= MAX_OPEN_CONTEXTS {
            return Err(EngineError::TooManyContexts(format!(
                "Trying to create too many scroll contexts. Must be less than or equal to: [{MAX_OPEN_CONTEXTS}]. This limit can be set by changing the [search.max_open_scroll_context] setting."
            )));
        }
        let mut id = self.new_id();
        while map.contains_key(&id) {
            id = self.new_id();
        }
        let expires = Instant::now() + keep_alive;
        let created_ms =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        map.insert(id.clone(), Context { handle, searcher, scroll, keep_alive, expires, created_ms });
        Ok(id)
    }

    /// The context `id`, its life extended by `keep_alive` (or by its own when none is given).
    pub fn touch(&self, id: &str, keep_alive: Option<Duration>) -> Result<Context> {
        let mut map = self.lock();
        let ctx = map.get_mut(id).ok_or_else(|| EngineError::SearchContextMissing(id.to_string()))?;
        if let Some(k) = keep_alive {
            ctx.keep_alive = k;
        }
        ctx.expires = Instant::now() + ctx.keep_alive;
        Ok(ctx.clone())
    }

    /// Records where a scroll got to after serving a page (and, on the first, its total).
    pub fn advance_scroll(&self, id: &str, after: Option<Vec<Value>>, total: Option<Value>) {
        if let Some(state) = self.lock().get_mut(id).and_then(|c| c.scroll.as_mut()) {
            if after.is_some() {
                state.after = after;
            }
            if let Some(total) = total {
                state.total = total;
            }
        }
    }

    /// Closes the given contexts; returns how many were open.
    pub fn close(&self, ids: &[String]) -> usize {
        let mut map = self.lock();
        ids.iter().filter(|id| map.remove(id.as_str()).is_some()).count()
    }

    /// Closes every context of one kind (scrolls or points in time); returns their ids.
    pub fn close_all(&self, scrolls: bool) -> Vec<String> {
        let mut map = self.lock();
        let ids: Vec<String> =
            map.iter().filter(|(_, c)| c.scroll.is_some() == scrolls).map(|(id, _)| id.clone()).collect();
        for id in &ids {
            map.remove(id);
        }
        ids
    }

    /// The open points in time, oldest first.
    pub fn list_pits(&self) -> Vec<PitInfo> {
        let map = self.lock();
        let mut pits: Vec<PitInfo> = map
            .iter()
            .filter(|(_, c)| c.scroll.is_none())
            .map(|(id, c)| PitInfo {
                id: id.clone(),
                created_ms: c.created_ms,
                keep_alive_ms: c.keep_alive.as_millis() as u64,
            })
            .collect();
        pits.sort_by(|a, b| a.created_ms.cmp(&b.created_ms).then_with(|| a.id.cmp(&b.id)));
        pits
    }

    pub fn open_count(&self) -> usize {
        self.lock().len()
    }
}

/// ES `keep_alive` / `scroll` time values (`1m`, `30s`); a missing value is an error.
pub fn parse_keep_alive(name: &str, v: Option<&Value>) -> Result<Duration> {
    let v =
        v.ok_or_else(|| EngineError::ActionRequestValidation(format!("Validation Failed: 1: [{name}] is required;")))?;
    super::deadline::parse_time_value(name, v)?
        .filter(|d| !d.is_zero())
        .ok_or_else(|| EngineError::IllegalArgument(format!("[{name}] must be a positive time value")))
}
