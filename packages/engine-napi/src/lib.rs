//! Thin napi-rs skin over `engine_core::Engine`: JSON bytes in, `{status, body}` out (the
//! HTTP status and the ES response body as JSON text), errors included: an engine error is a
//! reply with its ES status and error body. Every entry point runs inside `catch_unwind`, so
//! a Rust panic becomes a 500 reply instead of taking down the Node process. Only opening and
//! closing the engine throw (a JS error whose message is `{"status":N,"body":{...}}`).

mod admin;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use engine_core::{Engine, EngineError};
use napi::bindgen_prelude::{AsyncTask, Buffer};
use napi::{Env, Error, Status, Task};
use napi_derive::napi;
use serde_json::{json, Map, Value};

/// An HTTP status and the ES response body (JSON text).
#[napi(object)]
pub struct Reply {
    pub status: u32,
    pub body: String,
    /// Milliseconds the engine spent on the call, measured inside the addon: the service
    /// reports it (`Server-Timing: engine`) so a client can tell the engine's time from the
    /// napi hop and the HTTP layer's.
    pub native_ms: Option<f64>,
}

impl Reply {
    fn ok(body: String) -> Reply {
        Reply { status: 200, body, native_ms: None }
    }

    fn error(err: EngineError) -> Reply {
        Reply { status: u32::from(err.status()), body: err.to_es_body().to_string(), native_ms: None }
    }

    fn took(mut self, started: Instant) -> Reply {
        self.native_ms = Some(started.elapsed().as_secs_f64() * 1e3);
        self
    }
}

fn to_napi(err: EngineError) -> Error {
    let message = json!({ "status": err.status(), "body": err.to_es_body() });
    Error::new(Status::GenericFailure, message.to_string())
}

/// Runs an engine call, turning panics into `engine_panic_exception` errors.
fn guarded<T>(f: impl FnOnce() -> engine_core::Result<T>) -> engine_core::Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let reason = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(EngineError::Panic(format!("engine panicked: {reason}")))
        }
    }
}

/// A guarded call that answers a body with status 200.
fn reply(f: impl FnOnce() -> engine_core::Result<String>) -> Reply {
    let started = Instant::now();
    guarded(f).map_or_else(Reply::error, Reply::ok).took(started)
}

/// A guarded call that answers its own status.
fn reply_with_status(f: impl FnOnce() -> engine_core::Result<(String, u16)>) -> Reply {
    let started = Instant::now();
    match guarded(f) {
        Ok((body, status)) => Reply { status: u32::from(status), body, native_ms: None },
        Err(err) => Reply::error(err),
    }
    .took(started)
}

/// A search that may have been held back for its cost (`None`); errors are replies.
fn gated(f: impl FnOnce() -> engine_core::Result<Option<String>>) -> Option<Reply> {
    let started = Instant::now();
    match guarded(f) {
        Ok(body) => body.map(Reply::ok),
        Err(err) => Some(Reply::error(err)),
    }
    .map(|reply| reply.took(started))
}

fn params_map(params: &str) -> engine_core::Result<Map<String, Value>> {
    if params.is_empty() {
        return Ok(Map::new());
    }
    serde_json::from_str(params).map_err(|e| EngineError::IllegalArgument(format!("bad parameters: {e}")))
}

/// The calls that can run off the event loop; `run` is the one implementation that both
/// the async task and the sync twin use.
enum Call {
    Search { index: String, body: Vec<u8>, params: String },
    Bulk { index: Option<String>, body: Vec<u8>, params: String },
    Refresh { index: String, params: String },
    ForceMerge { index: String, params: String },
    Count { index: String, body: Vec<u8>, params: String },
    Msearch { index: Option<String>, body: Vec<u8>, params: String },
    SearchPit { body: Vec<u8>, params: String },
    DeleteByQuery { index: String, body: Vec<u8>, params: String },
}

fn run(engine: &Engine, call: &Call) -> engine_core::Result<String> {
    match call {
        Call::Search { index, body, params } => engine.search(index, body, &params_map(params)?),
        Call::Bulk { index, body, params } => engine.bulk_with(index.as_deref(), body, &params_map(params)?),
        Call::Refresh { index, params } => engine.refresh_with(index, &params_map(params)?),
        Call::ForceMerge { index, params } => engine.force_merge(index, &params_map(params)?),
        Call::Count { index, body, params } => engine.count_with(index, body, &params_map(params)?),
        Call::Msearch { index, body, params } => engine.msearch(index.as_deref(), body, &params_map(params)?),
        Call::SearchPit { body, params } => engine.search_pit(body, &params_map(params)?),
        Call::DeleteByQuery { index, body, params } => engine.delete_by_query(index, body, &params_map(params)?),
    }
}

pub struct EngineTask {
    engine: Arc<Engine>,
    call: Call,
}

impl Task for EngineTask {
    type Output = Reply;
    type JsValue = Reply;

    fn compute(&mut self) -> napi::Result<Reply> {
        Ok(reply(|| run(&self.engine, &self.call)))
    }

    fn resolve(&mut self, _env: Env, output: Reply) -> napi::Result<Reply> {
        Ok(output)
    }
}

#[napi]
pub struct NativeEngine {
    engine: Arc<Engine>,
}

#[napi]
impl NativeEngine {
    /// Opens (or creates) the data directory, replaying any translog left by a crash.
    #[napi(constructor)]
    pub fn new(data_dir: String) -> napi::Result<Self> {
        let engine = guarded(|| Engine::open(Path::new(&data_dir))).map_err(to_napi)?;
        Ok(NativeEngine { engine: Arc::new(engine) })
    }

    fn task(&self, call: Call) -> AsyncTask<EngineTask> {
        AsyncTask::new(EngineTask { engine: self.engine.clone(), call })
    }

    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn search(&self, index: String, body: Buffer, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::Search { index, body: body.to_vec(), params })
    }

    /// Runs a search on the calling thread. With `cheap_only`, a search that may be heavy
    /// (the engine's cost, known once parsed) is not run: `null`, for the caller to send it to
    /// the pool (or run it here again without `cheap_only`).
    #[napi]
    pub fn search_sync(&self, index: String, body: Buffer, params: String, cheap_only: bool) -> Option<Reply> {
        let engine = &self.engine;
        gated(|| {
            let params = params_map(&params)?;
            if cheap_only {
                engine.search_if_cheap(&index, &body, &params)
            } else {
                engine.search(&index, &body, &params).map(Some)
            }
        })
    }

    /// `/_search` with a point in time (`pit` in the body names the index).
    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn search_pit(&self, body: Buffer, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::SearchPit { body: body.to_vec(), params })
    }

    /// As `search_sync`, with a point in time in the body.
    #[napi]
    pub fn search_pit_sync(&self, body: Buffer, params: String, cheap_only: bool) -> Option<Reply> {
        let engine = &self.engine;
        gated(|| {
            let params = params_map(&params)?;
            if cheap_only {
                engine.search_pit_if_cheap(&body, &params)
            } else {
                engine.search_pit(&body, &params).map(Some)
            }
        })
    }

    /// `PUT|POST /{index}/_doc[/{id}]` and `_create/{id}` (`create`): 201 `created` or 200 `updated`.
    #[napi]
    pub fn index_doc(&self, index: String, id: Option<String>, body: Buffer, params: String, create: bool) -> Reply {
        reply_with_status(|| self.engine.index_doc(&index, id.as_deref(), &body, &params_map(&params)?, create))
    }

    /// `DELETE /{index}/_doc/{id}` (404 `not_found`).
    #[napi]
    pub fn delete_doc(&self, index: String, id: String, params: String) -> Reply {
        reply_with_status(|| self.engine.delete_doc(&index, &id, &params_map(&params)?))
    }

    /// `POST /{index}/_update/{id}` (201 when upserted).
    #[napi]
    pub fn update_doc(&self, index: String, id: String, body: Buffer, params: String) -> Reply {
        reply_with_status(|| self.engine.update_doc(&index, &id, &body, &params_map(&params)?))
    }

    /// `_delete_by_query`: on the pool (it can touch every document).
    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn delete_by_query(&self, index: String, body: Buffer, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::DeleteByQuery { index, body: body.to_vec(), params })
    }

    /// Every index with doc count and store bytes (for `_cat/indices`).
    #[napi]
    pub fn list_indices(&self) -> Reply {
        reply(|| Ok(self.engine.list_indices()))
    }

    /// Opens a point in time; `opensearch` picks OpenSearch's response shape.
    #[napi]
    pub fn open_pit(&self, index: String, params: String, opensearch: bool) -> Reply {
        reply(|| self.engine.open_pit(&index, &params_map(&params)?, opensearch))
    }

    /// Closes points in time (404 when none was open).
    #[napi]
    pub fn close_pit(&self, body: Buffer, opensearch: bool, all: bool) -> Reply {
        reply_with_status(|| self.engine.close_pit(&body, opensearch, all))
    }

    /// The next page of a scroll (no aggregations after the first page: inline).
    #[napi]
    pub fn scroll(&self, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.scroll(&body, &params_map(&params)?))
    }

    /// `GET /_search/point_in_time/_all`: the open points in time.
    #[napi]
    pub fn list_pits(&self) -> Reply {
        Reply::ok(self.engine.list_pits())
    }

    /// Frees scrolls (404 when none was open).
    #[napi]
    pub fn clear_scroll(&self, body: Buffer, all: bool) -> Reply {
        reply_with_status(|| self.engine.clear_scroll(&body, all))
    }

    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn bulk(&self, index: Option<String>, body: Buffer, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::Bulk { index, body: body.to_vec(), params })
    }

    /// `GET /{index}/_doc/{id}` (404 when not found).
    #[napi]
    pub fn get_doc(&self, index: String, id: String, params: String) -> Reply {
        reply_with_status(|| self.engine.get_doc(&index, &id, &params_map(&params)?))
    }

    /// `GET _script_context`: the script contexts the engine runs scripts in.
    #[napi]
    pub fn script_contexts(&self) -> Reply {
        reply(|| Ok(engine_core::script::contexts::describe()))
    }

    /// `GET|POST /{index}/_explain/{id}` (404 when the document does not exist).
    #[napi]
    pub fn explain(&self, index: String, id: String, body: Buffer, params: String) -> Reply {
        reply_with_status(|| self.engine.explain(&index, &id, &body, &params_map(&params)?))
    }

    /// `GET /{index}/_source/{id}` (404 when not found).
    #[napi]
    pub fn get_source(&self, index: String, id: String, params: String) -> Reply {
        reply_with_status(|| self.engine.get_source(&index, &id, &params_map(&params)?))
    }

    #[napi]
    pub fn mget(&self, index: Option<String>, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.mget(index.as_deref(), &body, &params_map(&params)?))
    }

    /// `_msearch`: always on the pool (it runs several searches).
    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn msearch(&self, index: Option<String>, body: Buffer, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::Msearch { index, body: body.to_vec(), params })
    }

    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn refresh(&self, index: String, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::Refresh { index, params })
    }

    /// `_forcemerge`: on the pool (a merge rewrites the whole index).
    #[napi(ts_return_type = "Promise<Reply>")]
    pub fn force_merge(&self, index: String, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::ForceMerge { index, params })
    }

    #[napi]
    pub fn count_sync(&self, index: String, body: Buffer, params: String) -> Reply {
        let call = Call::Count { index, body: body.to_vec(), params };
        reply(|| run(&self.engine, &call))
    }

    #[napi]
    pub fn create_index(&self, index: String, body: Buffer) -> Reply {
        reply(|| self.engine.create_index(&index, &body))
    }

    /// `GET [/{index}]/_settings[/{names}]`.
    #[napi]
    pub fn get_settings(&self, index: String, names: Option<String>, params: String) -> Reply {
        reply(|| self.engine.get_settings(&index, names.as_deref(), &params_map(&params)?))
    }

    /// `PUT [/{index}]/_settings`.
    #[napi]
    pub fn put_settings(&self, index: String, body: Buffer) -> Reply {
        reply(|| self.engine.put_settings(&index, &body))
    }

    /// `GET|POST [/{index}]/_analyze`.
    #[napi]
    pub fn analyze(&self, index: Option<String>, body: Buffer) -> Reply {
        reply(|| self.engine.analyze(index.as_deref(), &body))
    }

    /// `GET|POST [/{index}]/_field_caps`.
    #[napi]
    pub fn field_caps(&self, index: Option<String>, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.field_caps(index.as_deref(), &body, &params_map(&params)?))
    }

    /// `GET|POST [/{index}]/_validate/query`.
    #[napi]
    pub fn validate_query(&self, index: Option<String>, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.validate_query(index.as_deref(), &body, &params_map(&params)?))
    }

    /// `GET|POST /{index}/_termvectors[/{id}]`.
    #[napi]
    pub fn termvectors(&self, index: String, id: Option<String>, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.termvectors(&index, id.as_deref(), &body, &params_map(&params)?))
    }

    /// `GET|POST [/{index}]/_mtermvectors`.
    #[napi]
    pub fn mtermvectors(&self, index: Option<String>, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.mtermvectors(index.as_deref(), &body, &params_map(&params)?))
    }

    /// `POST [/{index}]/_flush`.
    #[napi]
    pub fn flush(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.flush_with(&index, &params_map(&params)?))
    }

    /// `PUT|POST /{index}/_alias/{name}`.
    #[napi]
    pub fn put_alias(&self, index: String, name: String, body: Buffer) -> Reply {
        reply(|| self.engine.put_alias(&index, &name, &body))
    }

    /// `DELETE /{index}/_alias/{name}`.
    #[napi]
    pub fn delete_alias(&self, index: String, name: String) -> Reply {
        reply(|| self.engine.delete_alias(&index, &name))
    }

    /// `GET [/{index}]/_alias[/{name}]` (404 for a named alias that matches nothing).
    #[napi]
    pub fn get_aliases(&self, index: Option<String>, name: Option<String>) -> Reply {
        reply_with_status(|| self.engine.get_aliases(index.as_deref(), name.as_deref()))
    }

    /// `POST /_aliases`.
    #[napi]
    pub fn update_aliases(&self, body: Buffer) -> Reply {
        reply(|| self.engine.update_aliases(&body))
    }

    /// `PUT|POST /{index}/_mapping`.
    #[napi]
    pub fn put_mapping(&self, index: String, body: Buffer) -> Reply {
        reply(|| self.engine.put_mapping(&index, &body))
    }

    /// `GET [/{index}]/_mapping/field/{fields}`.
    #[napi]
    pub fn get_field_mapping(&self, index: String, fields: String, params: String) -> Reply {
        reply(|| self.engine.get_field_mapping(&index, &fields, &params_map(&params)?))
    }

    /// `GET [/{index}]/_mapping`.
    #[napi]
    pub fn get_mapping(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.get_mapping(&index, &params_map(&params)?))
    }

    /// `DELETE /{index}` (`ignore_unavailable` skips missing names).
    #[napi]
    pub fn delete_index(&self, index: String, ignore_unavailable: bool) -> Reply {
        reply(|| self.engine.delete_indices(&index, ignore_unavailable))
    }

    /// `HEAD /{index}`: 200 or 404, or the error a bad parameter gets.
    #[napi]
    pub fn index_exists_with(&self, index: String, params: String) -> Reply {
        match guarded(|| self.engine.index_exists_with(&index, &params_map(&params)?)) {
            Ok(found) => Reply { status: if found { 200 } else { 404 }, body: String::new(), native_ms: None },
            Err(err) => Reply::error(err),
        }
    }

    #[napi]
    pub fn get_index(&self, index: String) -> Reply {
        reply(|| self.engine.get_index(&index))
    }

    #[napi]
    pub fn index_exists(&self, index: String) -> napi::Result<bool> {
        guarded(|| Ok(self.engine.index_exists(&index))).map_err(to_napi)
    }

    /// `GET [/{index}]/_stats[/{metric}]`.
    #[napi]
    pub fn indices_stats(&self, index: String, metric: Option<String>, params: String) -> Reply {
        reply(|| self.engine.indices_stats(&index, metric.as_deref(), &params_map(&params)?))
    }

    /// The `indices` section of `_nodes/stats` (`index_metric`, `level`, ...).
    #[napi]
    pub fn node_indices_stats(&self, metric: Option<String>, params: String) -> Reply {
        reply(|| Ok(self.engine.node_indices_stats(metric.as_deref(), &params_map(&params)?)?.to_string()))
    }

    /// `GET /_cluster/health[/{index}]`: 200 when the `wait_for_*` conditions hold, else 408.
    #[napi]
    pub fn cluster_health(&self, index: String, params: String) -> Reply {
        reply_with_status(|| self.engine.cluster_health(&index, &params_map(&params)?))
    }

    /// `GET /_cluster/state[/{metric}[/{index}]]` (without `nodes`, the service's part).
    #[napi]
    pub fn cluster_state(&self, metric: Option<String>, index: String, params: String) -> Reply {
        reply(|| {
            let metrics = engine_core::engine::cluster::state::parse_metrics(metric.as_deref())?;
            self.engine.cluster_state(&metrics, &index, &params_map(&params)?)
        })
    }

    /// `GET [/{index}]/_segments`.
    #[napi]
    pub fn segments(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.segments(&index, &params_map(&params)?))
    }

    /// `GET|POST [/{index}]/_search_shards`.
    #[napi]
    pub fn search_shards(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.search_shards(&index, &params_map(&params)?))
    }

    /// `POST [/{index}]/_cache/clear`.
    #[napi]
    pub fn clear_cache(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.clear_cache(&index, &params_map(&params)?))
    }

    /// The node's id and cluster UUID (stable across restarts) and the cluster state version.
    #[napi]
    pub fn node_identity(&self) -> Reply {
        reply(|| {
            let id = &self.engine.identity;
            let body = json!({
                "node_id": id.node_id,
                "cluster_uuid": id.cluster_uuid,
                "state_version": self.engine.state_version(),
            });
            Ok(body.to_string())
        })
    }

    /// Commits every index and stops the background refresher.
    #[napi]
    pub fn close(&self) -> napi::Result<()> {
        guarded(|| self.engine.close()).map_err(to_napi)
    }

    /// Panics on purpose, to prove panics become 500s; inert unless the server was started
    /// with EVERYCELL_ENABLE_DEBUG_PANIC=1.
    #[napi]
    pub fn debug_panic(&self) -> Reply {
        reply(|| {
            if std::env::var("EVERYCELL_ENABLE_DEBUG_PANIC").as_deref() != Ok("1") {
                return Err(EngineError::IllegalArgument("debug panic is disabled".into()));
            }
            panic!("debug panic requested");
        })
    }
}
