//! The napi skin of the index administration APIs: templates (legacy, composable, component,
//! simulation), closing, opening and blocking indices, cluster settings, rollover, clone and
//! index resolution. Each method calls one engine function, as the rest of the skin does.

use napi::bindgen_prelude::Buffer;
use napi_derive::napi;

use super::{guarded, params_map, reply, reply_with_status, NativeEngine, Reply};

/// A reply with the deprecation and overlap warnings ES sends as `Warning` headers.
#[napi(object)]
pub struct WarnedReply {
    pub status: u32,
    pub body: String,
    pub warnings: Vec<String>,
}

fn warned(f: impl FnOnce() -> engine_core::Result<(String, Vec<String>)>) -> WarnedReply {
    match guarded(f) {
        Ok((body, warnings)) => WarnedReply { status: 200, body, warnings },
        Err(err) => {
            let error = Reply::error(err);
            WarnedReply { status: error.status, body: error.body, warnings: Vec::new() }
        }
    }
}

/// A HEAD answer: 200 or 404, no body.
fn exists(found: bool) -> Reply {
    Reply { status: if found { 200 } else { 404 }, body: String::new(), native_ms: None }
}

#[napi]
impl NativeEngine {
    /// `PUT /{index}` with the warnings template matching gives.
    #[napi]
    pub fn create_index_warned(&self, index: String, body: Buffer) -> WarnedReply {
        warned(|| self.engine.create_index_warned(&index, &body))
    }

    /// `PUT /_template/{name}`.
    #[napi]
    pub fn put_legacy_template(&self, name: String, body: Buffer, params: String) -> WarnedReply {
        warned(|| self.engine.put_legacy_template(&name, &body, &params_map(&params)?))
    }

    /// `GET /_template[/{names}]` (404 when names match nothing).
    #[napi]
    pub fn get_legacy_templates(&self, names: Option<String>, params: String) -> Reply {
        reply_with_status(|| self.engine.get_legacy_templates(names.as_deref(), &params_map(&params)?))
    }

    /// `HEAD /_template/{names}`.
    #[napi]
    pub fn legacy_template_exists(&self, names: String) -> Reply {
        exists(self.engine.legacy_template_exists(&names))
    }

    /// `DELETE /_template/{name}`.
    #[napi]
    pub fn delete_legacy_template(&self, name: String) -> Reply {
        reply(|| self.engine.delete_legacy_template(&name))
    }

    /// `PUT /_index_template/{name}`.
    #[napi]
    pub fn put_index_template(&self, name: String, body: Buffer, params: String) -> WarnedReply {
        warned(|| self.engine.put_index_template(&name, &body, &params_map(&params)?))
    }

    /// `GET /_index_template[/{name}]`.
    #[napi]
    pub fn get_index_templates(&self, name: Option<String>, params: String) -> Reply {
        reply(|| self.engine.get_index_templates(name.as_deref(), &params_map(&params)?))
    }

    /// `HEAD /_index_template/{name}`.
    #[napi]
    pub fn index_template_exists(&self, name: String) -> Reply {
        exists(self.engine.index_template_exists(&name))
    }

    /// `DELETE /_index_template/{name}`.
    #[napi]
    pub fn delete_index_template(&self, name: String) -> Reply {
        reply(|| self.engine.delete_index_template(&name))
    }

    /// `PUT /_component_template/{name}`.
    #[napi]
    pub fn put_component_template(&self, name: String, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.put_component_template(&name, &body, &params_map(&params)?))
    }

    /// `GET /_component_template[/{name}]`.
    #[napi]
    pub fn get_component_templates(&self, name: Option<String>, params: String) -> Reply {
        reply(|| self.engine.get_component_templates(name.as_deref(), &params_map(&params)?))
    }

    /// `HEAD /_component_template/{name}`.
    #[napi]
    pub fn component_template_exists(&self, name: String) -> Reply {
        exists(self.engine.component_template_exists(&name))
    }

    /// `DELETE /_component_template/{name}`.
    #[napi]
    pub fn delete_component_template(&self, name: String) -> Reply {
        reply(|| self.engine.delete_component_template(&name))
    }

    /// `POST /_index_template/_simulate_index/{index}`.
    #[napi]
    pub fn simulate_index_template(&self, index: String, body: Buffer) -> WarnedReply {
        warned(|| self.engine.simulate_index_template(&index, &body))
    }

    /// `POST /_index_template/_simulate[/{name}]`.
    #[napi]
    pub fn simulate_template(&self, name: Option<String>, body: Buffer) -> WarnedReply {
        warned(|| self.engine.simulate_template(name.as_deref(), &body))
    }

    /// `GET /_cat/templates[/{name}]`: the rows, as JSON.
    #[napi]
    pub fn cat_templates(&self, name: Option<String>) -> Reply {
        reply(|| Ok(self.engine.cat_templates(name.as_deref())))
    }

    /// `POST /{index}/_close`.
    #[napi]
    pub fn close_index(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.close_index(&index, &params_map(&params)?))
    }

    /// `POST /{index}/_open`.
    #[napi]
    pub fn open_index(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.open_index(&index, &params_map(&params)?))
    }

    /// `PUT /{index}/_block/{block}`.
    #[napi]
    pub fn add_block(&self, index: String, block: String, params: String) -> Reply {
        reply(|| self.engine.add_block(&index, &block, &params_map(&params)?))
    }

    /// `GET /_cluster/settings`.
    #[napi]
    pub fn get_cluster_settings(&self, params: String) -> Reply {
        reply(|| self.engine.get_cluster_settings(&params_map(&params)?))
    }

    /// `PUT /_cluster/settings`.
    #[napi]
    pub fn put_cluster_settings(&self, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.put_cluster_settings(&body, &params_map(&params)?))
    }

    /// `POST /{alias}/_rollover[/{new_index}]`.
    #[napi]
    pub fn rollover(&self, alias: String, new_index: Option<String>, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.rollover(&alias, new_index.as_deref(), &body, &params_map(&params)?))
    }

    /// `PUT|POST /{index}/_clone/{target}`.
    #[napi]
    pub fn clone_index(&self, index: String, target: String, body: Buffer) -> Reply {
        reply(|| self.engine.clone_index(&index, &target, &body))
    }

    /// `GET /_resolve/index/{name}`.
    #[napi]
    pub fn resolve_index(&self, name: String, params: String) -> Reply {
        reply(|| self.engine.resolve_index(&name, &params_map(&params)?))
    }

    /// `GET /{index}` with its URL parameters.
    #[napi]
    pub fn get_index_with(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.get_index_with(&index, &params_map(&params)?))
    }

    /// `DELETE /{index}` with its URL parameters.
    #[napi]
    pub fn delete_indices_with(&self, index: String, params: String) -> Reply {
        reply(|| self.engine.delete_indices_with(&index, &params_map(&params)?))
    }

    /// `PUT [/{index}]/_settings` with its URL parameters.
    #[napi]
    pub fn put_settings_with(&self, index: String, body: Buffer, params: String) -> Reply {
        reply(|| self.engine.put_settings_with(&index, &body, &params_map(&params)?))
    }

    /// `GET [/{index}]/_alias[/{name}]` with its URL parameters.
    #[napi]
    pub fn get_aliases_with(&self, index: Option<String>, name: Option<String>, params: String) -> Reply {
        reply_with_status(|| self.engine.get_aliases_with(index.as_deref(), name.as_deref(), &params_map(&params)?))
    }
}
