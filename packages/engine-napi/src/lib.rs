//! Thin napi-rs skin over `engine_core::Engine`: JSON bytes in, JSON strings out. Every
//! entry point runs inside `catch_unwind`, so a Rust panic becomes an error (HTTP 500)
//! instead of taking down the Node process. Errors cross as a JSON message
//! `{"status":N,"body":{...ES error body...}}` that the TS wrapper decodes.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

use engine_core::engine::RefreshPolicy;
use engine_core::{Engine, EngineError};
use napi::bindgen_prelude::{AsyncTask, Buffer};
use napi::{Env, Error, Status, Task};
use napi_derive::napi;
use serde_json::{json, Map, Value};

fn to_napi(err: EngineError) -> Error {
    let message = json!({ "status": err.status(), "body": err.to_es_body() });
    Error::new(Status::GenericFailure, message.to_string())
}

/// Runs an engine call, turning panics into `engine_panic_exception` errors.
fn guarded<T>(f: impl FnOnce() -> engine_core::Result<T>) -> napi::Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result.map_err(to_napi),
        Err(payload) => {
            let reason = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(to_napi(EngineError::Panic(format!("engine panicked: {reason}"))))
        }
    }
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
    Bulk { index: Option<String>, body: Vec<u8>, refresh: Option<String> },
    Refresh { index: String },
    ForceMerge { index: String, params: String },
    Count { index: String, body: Vec<u8> },
    Msearch { index: Option<String>, body: Vec<u8> },
    SearchPit { body: Vec<u8>, params: String },
    DeleteByQuery { index: String, body: Vec<u8>, params: String },
}

fn run(engine: &Engine, call: &Call) -> engine_core::Result<String> {
    match call {
        Call::Search { index, body, params } => engine.search(index, body, &params_map(params)?),
        Call::Bulk { index, body, refresh } => {
            engine.bulk(index.as_deref(), body, RefreshPolicy::parse(refresh.as_deref())?)
        }
        Call::Refresh { index } => engine.refresh(index),
        Call::ForceMerge { index, params } => engine.force_merge(index, &params_map(params)?),
        Call::Count { index, body } => engine.count(index, body),
        Call::Msearch { index, body } => engine.msearch(index.as_deref(), body),
        Call::SearchPit { body, params } => engine.search_pit(body, &params_map(params)?),
        Call::DeleteByQuery { index, body, params } => engine.delete_by_query(index, body, &params_map(params)?),
    }
}

pub struct EngineTask {
    engine: Arc<Engine>,
    call: Call,
}

impl Task for EngineTask {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        guarded(|| run(&self.engine, &self.call))
    }

    fn resolve(&mut self, _env: Env, output: String) -> napi::Result<String> {
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
        let engine = guarded(|| Engine::open(Path::new(&data_dir)))?;
        Ok(NativeEngine { engine: Arc::new(engine) })
    }

    fn task(&self, call: Call) -> AsyncTask<EngineTask> {
        AsyncTask::new(EngineTask { engine: self.engine.clone(), call })
    }

    #[napi(ts_return_type = "Promise<string>")]
    pub fn search(&self, index: String, body: Buffer, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::Search { index, body: body.to_vec(), params })
    }

    #[napi]
    pub fn search_sync(&self, index: String, body: Buffer, params: String) -> napi::Result<String> {
        let call = Call::Search { index, body: body.to_vec(), params };
        guarded(|| run(&self.engine, &call))
    }

    /// `/_search` with a point in time (`pit` in the body names the index).
    #[napi(ts_return_type = "Promise<string>")]
    pub fn search_pit(&self, body: Buffer, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::SearchPit { body: body.to_vec(), params })
    }

    #[napi]
    pub fn search_pit_sync(&self, body: Buffer, params: String) -> napi::Result<String> {
        let call = Call::SearchPit { body: body.to_vec(), params };
        guarded(|| run(&self.engine, &call))
    }

    /// `DELETE /{index}/_doc/{id}`: `{"status", "body"}` JSON (404 `not_found`).
    #[napi]
    pub fn delete_doc(&self, index: String, id: String, params: String) -> napi::Result<String> {
        guarded(|| {
            let (body, status) = self.engine.delete_doc(&index, &id, &params_map(&params)?)?;
            Ok(format!(r#"{{"status":{status},"body":{body}}}"#))
        })
    }

    /// `POST /{index}/_update/{id}`: `{"status", "body"}` JSON (201 when upserted).
    #[napi]
    pub fn update_doc(&self, index: String, id: String, body: Buffer, params: String) -> napi::Result<String> {
        guarded(|| {
            let (body, status) = self.engine.update_doc(&index, &id, &body, &params_map(&params)?)?;
            Ok(format!(r#"{{"status":{status},"body":{body}}}"#))
        })
    }

    /// `_delete_by_query`: on the pool (it can touch every document).
    #[napi(ts_return_type = "Promise<string>")]
    pub fn delete_by_query(&self, index: String, body: Buffer, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::DeleteByQuery { index, body: body.to_vec(), params })
    }

    /// Every index with doc count and store bytes (for `_cat/indices`).
    #[napi]
    pub fn list_indices(&self) -> napi::Result<String> {
        guarded(|| Ok(self.engine.list_indices()))
    }

    /// Opens a point in time; `opensearch` picks OpenSearch's response shape.
    #[napi]
    pub fn open_pit(&self, index: String, params: String, opensearch: bool) -> napi::Result<String> {
        guarded(|| self.engine.open_pit(&index, &params_map(&params)?, opensearch))
    }

    /// Closes points in time: `{"status", "body"}` JSON (404 when none was open).
    #[napi]
    pub fn close_pit(&self, body: Buffer, opensearch: bool, all: bool) -> napi::Result<String> {
        guarded(|| {
            let (body, status) = self.engine.close_pit(&body, opensearch, all)?;
            Ok(format!(r#"{{"status":{status},"body":{body}}}"#))
        })
    }

    /// The next page of a scroll (no aggregations after the first page: inline).
    #[napi]
    pub fn scroll(&self, body: Buffer, params: String) -> napi::Result<String> {
        guarded(|| self.engine.scroll(&body, &params_map(&params)?))
    }

    /// Frees scrolls: `{"status", "body"}` JSON (404 when none was open).
    #[napi]
    pub fn clear_scroll(&self, body: Buffer, all: bool) -> napi::Result<String> {
        guarded(|| {
            let (body, status) = self.engine.clear_scroll(&body, all)?;
            Ok(format!(r#"{{"status":{status},"body":{body}}}"#))
        })
    }

    #[napi(ts_return_type = "Promise<string>")]
    pub fn bulk(&self, index: Option<String>, body: Buffer, refresh: Option<String>) -> AsyncTask<EngineTask> {
        self.task(Call::Bulk { index, body: body.to_vec(), refresh })
    }

    /// `GET /{index}/_doc/{id}`: `{"status", "body"}` JSON (404 when not found).
    #[napi]
    pub fn get_doc(&self, index: String, id: String) -> napi::Result<String> {
        guarded(|| {
            let (body, status) = self.engine.get_doc(&index, &id)?;
            Ok(format!(r#"{{"status":{status},"body":{body}}}"#))
        })
    }

    #[napi]
    pub fn mget(&self, index: Option<String>, body: Buffer) -> napi::Result<String> {
        guarded(|| self.engine.mget(index.as_deref(), &body))
    }

    /// `_msearch`: always on the pool (it runs several searches).
    #[napi(ts_return_type = "Promise<string>")]
    pub fn msearch(&self, index: Option<String>, body: Buffer) -> AsyncTask<EngineTask> {
        self.task(Call::Msearch { index, body: body.to_vec() })
    }

    #[napi(ts_return_type = "Promise<string>")]
    pub fn refresh(&self, index: String) -> AsyncTask<EngineTask> {
        self.task(Call::Refresh { index })
    }

    /// `_forcemerge`: on the pool (a merge rewrites the whole index).
    #[napi(ts_return_type = "Promise<string>")]
    pub fn force_merge(&self, index: String, params: String) -> AsyncTask<EngineTask> {
        self.task(Call::ForceMerge { index, params })
    }

    #[napi]
    pub fn count_sync(&self, index: String, body: Buffer) -> napi::Result<String> {
        let call = Call::Count { index, body: body.to_vec() };
        guarded(|| run(&self.engine, &call))
    }

    #[napi]
    pub fn create_index(&self, index: String, body: Buffer) -> napi::Result<String> {
        guarded(|| self.engine.create_index(&index, &body))
    }

    #[napi]
    pub fn delete_index(&self, index: String) -> napi::Result<String> {
        guarded(|| self.engine.delete_index(&index))
    }

    #[napi]
    pub fn get_index(&self, index: String) -> napi::Result<String> {
        guarded(|| self.engine.get_index(&index))
    }

    #[napi]
    pub fn index_exists(&self, index: String) -> napi::Result<bool> {
        guarded(|| Ok(self.engine.index_exists(&index)))
    }

    #[napi]
    pub fn stats(&self, index: String) -> napi::Result<String> {
        guarded(|| self.engine.stats(&index))
    }

    #[napi]
    pub fn cluster_health(&self) -> napi::Result<String> {
        guarded(|| Ok(self.engine.cluster_health()))
    }

    /// Commits every index and stops the background refresher.
    #[napi]
    pub fn close(&self) -> napi::Result<()> {
        guarded(|| self.engine.close())
    }

    /// Panics on purpose, to prove panics become 500s; inert unless the server was started
    /// with EVERYCELL_ENABLE_DEBUG_PANIC=1.
    #[napi]
    pub fn debug_panic(&self) -> napi::Result<String> {
        guarded(|| {
            if std::env::var("EVERYCELL_ENABLE_DEBUG_PANIC").as_deref() != Ok("1") {
                return Err(EngineError::IllegalArgument("debug panic is disabled".into()));
            }
            panic!("debug panic requested");
        })
    }
}
