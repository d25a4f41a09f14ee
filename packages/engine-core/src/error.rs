//! One error type for the whole engine and the single table that maps each kind to the
//! Elasticsearch error `type` and HTTP status, so every caller renders errors the same way.

use serde_json::{json, Value};

#[derive(Debug, Clone, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    Parsing(String),
    #[error("{0}")]
    XContentParse(String),
    /// An `x_content_parse_exception` with a `caused_by`, as ES's `ObjectParser` reports an
    /// option whose setter rejected the value (outer: the field, cause: why).
    #[error("{reason}")]
    XContentParseCaused { reason: String, cause_type: &'static str, cause_reason: String },
    /// ES's `ElasticsearchParseException`, e.g. a time value with an unknown unit.
    #[error("{0}")]
    Parse(String),
    /// A `parse_exception` with a `caused_by`: a body ES reads as a map (index creation,
    /// `_mapping`) that is not well-formed JSON ("Failed to parse content to map").
    #[error("{reason}")]
    ParseCaused { reason: String, cause_type: &'static str, cause_reason: String },
    /// An `illegal_argument_exception` with a `caused_by`: an update script that failed to
    /// compile or to run ("failed to execute script", the `script_exception` as the cause).
    #[error("{reason}")]
    IllegalArgumentCaused { reason: String, cause_type: &'static str, cause_reason: String },
    /// A `mapper_parsing_exception` with a `caused_by`: a mapping refused for an argument ES's
    /// parser rejects (an empty field name), as ES wraps its `IllegalArgumentException`.
    #[error("{reason}")]
    MapperParsingCaused { reason: String, cause_type: &'static str, cause_reason: String },
    /// Jackson's errors for JSON that is not well-formed: truncated, or a bad token.
    #[error("{0}")]
    JsonEof(String),
    #[error("{0}")]
    JsonParse(String),
    #[error("no such index [{0}]")]
    IndexNotFound(String),
    /// A write with `require_alias` whose target is not an alias.
    #[error("no such index [{0}] and [require_alias] request flag is [true] and [{0}] is not an alias")]
    RequireAlias(String),
    /// Aliases named in a remove or delete that do not exist.
    #[error("aliases [{0}] missing")]
    AliasesNotFound(String),
    #[error("{reason}")]
    InvalidAliasName { alias: String, reason: String },
    #[error("index [{0}] already exists")]
    IndexAlreadyExists(String),
    #[error("{reason}")]
    InvalidIndexName { index: String, reason: String },
    /// A read or write of a closed index (ES's `index_closed_exception`, reason `closed`).
    #[error("closed")]
    IndexClosed { index: String, uuid: String },
    /// An index block (`index.blocks.*`) refuses the operation: `reason` is ES's whole text,
    /// `index [x] blocked by: [FORBIDDEN/8/index write (api)];`; 403, or 429 for the
    /// read-only-allow-delete block.
    #[error("{reason}")]
    ClusterBlock { reason: String, status: u16 },
    /// A legacy, composable or component template that does not exist.
    #[error("index_template [{0}] missing")]
    IndexTemplateMissing(String),
    /// A template whose name, patterns or settings ES refuses.
    #[error("index_template [{name}] invalid, cause [{reason}]")]
    InvalidIndexTemplate { name: String, reason: String },
    #[error("{0}")]
    IllegalArgument(String),
    /// ES's `illegal_state_exception` (a 500), e.g. resizing an index that is not write-blocked.
    #[error("{0}")]
    IllegalState(String),
    #[error("{0}")]
    MapperParsing(String),
    #[error("{0}")]
    DocumentParsing(String),
    /// A document bringing a field into an object whose mapping is `dynamic: strict`.
    #[error("{0}")]
    StrictDynamicMapping(String),
    /// Not an ES error: a document needs the mapping `update` (dynamic mapping) before it can be
    /// built; the engine applies it and writes the document again. Never reaches a client.
    #[error("the mapping needs an update first")]
    MappingUpdate(Value),
    #[error("[{id}]: version conflict, document already exists (current version [{version}])")]
    VersionConflict { id: String, version: u64 },
    /// A write whose condition (`if_seq_no`, an external version) the document does not meet.
    #[error("[{id}]: version conflict, {reason}")]
    Conflict { id: String, reason: String },
    /// A read-modify-write (`_update`) lost a race with another write to the same doc.
    #[error("[{id}]: version conflict, current version [{current}] is different than the one provided [{expected}]")]
    UpdateConflict { id: String, expected: u64, current: u64 },
    /// `_update` of a document that does not exist (and no upsert).
    #[error("[{id}]: document missing")]
    DocumentMissing { index: String, id: String },
    /// `_update` of a document whose mapping keeps no `_source` to update from.
    #[error("[{id}]: document source missing")]
    DocumentSourceMissing { id: String },
    /// A write or read without `routing` on an index whose mapping requires it.
    #[error("routing is required for [{index}]/[{id}]")]
    RoutingMissing { index: String, id: String },
    #[error("{0}")]
    ActionRequestValidation(String),
    /// ES's `resource_not_found_exception` (404), e.g. `GET _source` of a missing document.
    #[error("{0}")]
    ResourceNotFound(String),
    /// A failure while executing a search on the shard; ES wraps these in
    /// `search_phase_execution_exception` ("all shards failed") with the cause as root cause.
    /// Built only through [`EngineError::shard`].
    #[error("{reason}")]
    SearchPhase { cause: ShardCause, reason: String },
    /// `search.max_buckets` exceeded.
    #[error("{reason}")]
    TooManyBuckets { reason: String, max: u64 },
    /// A point in time or scroll id that expired, was closed or never existed.
    #[error("No search context found for id [{0}]")]
    SearchContextMissing(String),
    /// More open points in time and scrolls than `search.max_open_scroll_context`.
    #[error("{0}")]
    TooManyContexts(String),
    /// A write without a body (ES's `parse_exception`).
    #[error("request body is required")]
    RequestBodyRequired,
    #[error("{0}")]
    Panic(String),
    #[error("{0}")]
    Internal(String),
}

pub type Result<T> = std::result::Result<T, EngineError>;

/// Why a search failed on the shard: the root cause ES reports under
/// `search_phase_execution_exception`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardCause {
    /// A query that cannot run against this index's fields (`query_shard_exception`).
    QueryShard,
    IllegalArgument,
    /// ES's `ElasticsearchParseException` raised on the shard (a bad date or bound).
    Parse,
    /// A `parsing_exception` raised while building the query on the shard.
    Parsing,
    /// An aggregation that fails while it runs (a 500 in ES, not a 400).
    AggregationExecution,
    Script,
    /// ES's plain `ElasticsearchException` (type `exception`, a 500), e.g. an expensive query
    /// while `search.allow_expensive_queries` is off.
    Exception,
    /// ES's `SearchException` (type `search_exception`, a 500), e.g. `slice` outside a scroll.
    Search,
}

impl ShardCause {
    /// The cause's ES error `type`.
    pub fn es_type(self) -> &'static str {
        match self {
            ShardCause::QueryShard => "query_shard_exception",
            ShardCause::IllegalArgument => "illegal_argument_exception",
            ShardCause::Parse => "parse_exception",
            ShardCause::Parsing => "parsing_exception",
            ShardCause::AggregationExecution => "aggregation_execution_exception",
            ShardCause::Script => "script_exception",
            ShardCause::Exception => "exception",
            ShardCause::Search => "search_exception",
        }
    }
}

impl EngineError {
    /// The one constructor for a failure on the shard.
    pub fn shard(cause: ShardCause, reason: impl Into<String>) -> EngineError {
        EngineError::SearchPhase { cause, reason: reason.into() }
    }

    /// The one mapping table: engine error -> (ES error type, HTTP status).
    pub fn es_type_and_status(&self) -> (&'static str, u16) {
        match self {
            EngineError::Parsing(_) => ("parsing_exception", 400),
            EngineError::XContentParse(_) | EngineError::XContentParseCaused { .. } => {
                ("x_content_parse_exception", 400)
            }
            EngineError::Parse(_) => ("parse_exception", 400),
            EngineError::JsonEof(_) => ("json_e_o_f_exception", 400),
            EngineError::JsonParse(_) => ("json_parse_exception", 400),
            EngineError::ParseCaused { .. } => ("parse_exception", 400),
            EngineError::IllegalArgumentCaused { .. } => ("illegal_argument_exception", 400),
            EngineError::MapperParsingCaused { .. } => ("mapper_parsing_exception", 400),
            EngineError::IndexNotFound(_) | EngineError::RequireAlias(_) => ("index_not_found_exception", 404),
            EngineError::IndexAlreadyExists(_) => ("resource_already_exists_exception", 400),
            EngineError::InvalidIndexName { .. } => ("invalid_index_name_exception", 400),
            EngineError::IndexClosed { .. } => ("index_closed_exception", 400),
            EngineError::ClusterBlock { status, .. } => ("cluster_block_exception", *status),
            EngineError::IndexTemplateMissing(_) => ("index_template_missing_exception", 404),
            EngineError::InvalidIndexTemplate { .. } => ("invalid_index_template_exception", 400),
            EngineError::AliasesNotFound(_) => ("aliases_not_found_exception", 404),
            EngineError::InvalidAliasName { .. } => ("invalid_alias_name_exception", 400),
            EngineError::IllegalArgument(_) => ("illegal_argument_exception", 400),
            EngineError::IllegalState(_) => ("illegal_state_exception", 500),
            EngineError::MapperParsing(_) => ("mapper_parsing_exception", 400),
            EngineError::DocumentParsing(_) => ("document_parsing_exception", 400),
            EngineError::StrictDynamicMapping(_) => ("strict_dynamic_mapping_exception", 400),
            EngineError::MappingUpdate(_) => ("exception", 500),
            EngineError::VersionConflict { .. } | EngineError::UpdateConflict { .. } | EngineError::Conflict { .. } => {
                ("version_conflict_engine_exception", 409)
            }
            EngineError::DocumentMissing { .. } => ("document_missing_exception", 404),
            EngineError::DocumentSourceMissing { .. } => ("document_source_missing_exception", 400),
            EngineError::ActionRequestValidation(_) => ("action_request_validation_exception", 400),
            EngineError::RoutingMissing { .. } => ("routing_missing_exception", 400),
            EngineError::ResourceNotFound(_) => ("resource_not_found_exception", 404),
            // ES answers an aggregation that fails on the shard with 500, other shard failures 400.
            EngineError::SearchPhase {
                cause: ShardCause::AggregationExecution | ShardCause::Exception | ShardCause::Search,
                ..
            } => ("search_phase_execution_exception", 500),
            EngineError::SearchPhase { .. } => ("search_phase_execution_exception", 400),
            EngineError::TooManyBuckets { .. } => ("search_phase_execution_exception", 503),
            EngineError::SearchContextMissing(_) => ("search_phase_execution_exception", 404),
            EngineError::TooManyContexts(_) => ("too_many_scroll_contexts_exception", 429),
            EngineError::RequestBodyRequired => ("parse_exception", 400),
            EngineError::Panic(_) => ("engine_panic_exception", 500),
            EngineError::Internal(_) => ("exception", 500),
        }
    }

    pub fn status(&self) -> u16 {
        self.es_type_and_status().1
    }

    /// The `{type, reason, ...}` cause object ES puts in `root_cause` and `error`.
    pub fn cause_json(&self) -> serde_json::Value {
        let (kind, _) = self.es_type_and_status();
        let mut cause = json!({ "type": kind, "reason": self.to_string() });
        match self {
            EngineError::IndexNotFound(index) | EngineError::RequireAlias(index) => {
                cause["resource.type"] = json!("index_or_alias");
                cause["resource.id"] = json!(index);
                cause["index_uuid"] = json!("_na_");
                cause["index"] = json!(index);
            }
            EngineError::RoutingMissing { index, .. } => {
                cause["index"] = json!(index);
                cause["index_uuid"] = json!("_na_");
            }
            EngineError::DocumentMissing { index, .. } => {
                cause["index_uuid"] = json!("_na_");
                cause["shard"] = json!("0");
                cause["index"] = json!(index);
            }
            EngineError::AliasesNotFound(names) => {
                cause["resource.id"] = json!(names);
                cause["resource.type"] = json!("aliases");
            }
            EngineError::InvalidAliasName { alias, .. } => {
                cause["index_uuid"] = json!("_na_");
                cause["index"] = json!(alias);
            }
            EngineError::IndexClosed { index, uuid } => {
                cause["index_uuid"] = json!(uuid);
                cause["index"] = json!(index);
            }
            EngineError::IndexAlreadyExists(index) | EngineError::InvalidIndexName { index, .. } => {
                cause["index_uuid"] = json!("_na_");
                cause["index"] = json!(index);
            }
            _ => {}
        }
        cause
    }

    /// The full ES error body: `{"error":{"root_cause":[..],"type","reason"},"status":N}`.
    pub fn to_es_body(&self) -> serde_json::Value {
        let phase_cause = match self {
            EngineError::SearchPhase { cause, reason } => Some((cause.es_type(), reason.clone())),
            EngineError::SearchContextMissing(_) => Some(("search_context_missing_exception", self.to_string())),
            _ => None,
        };
        if let Some((cause_type, reason)) = phase_cause {
            let cause = json!({ "type": cause_type, "reason": reason });
            let error = json!({
                "root_cause": [cause.clone()],
                "type": "search_phase_execution_exception",
                "reason": "all shards failed",
                "phase": "query",
                "grouped": true,
                "failed_shards": [{ "shard": 0, "index": null, "node": null, "reason": cause.clone() }],
                "caused_by": cause,
            });
            return json!({ "error": error, "status": self.status() });
        }
        if let EngineError::TooManyBuckets { reason, max } = self {
            // ES fails this in the reduce ("fetch") phase: no shard failed, so no root cause.
            let cause = json!({ "type": "too_many_buckets_exception", "reason": reason, "max_buckets": max });
            let error = json!({
                "root_cause": [],
                "type": "search_phase_execution_exception",
                "reason": "",
                "phase": "fetch",
                "grouped": true,
                "failed_shards": [],
                "caused_by": cause,
            });
            return json!({ "error": error, "status": self.status() });
        }
        let cause = self.cause_json();
        let mut error = cause.clone();
        error["root_cause"] = json!([cause]);
        if let EngineError::XContentParseCaused { cause_type, cause_reason, .. }
        | EngineError::ParseCaused { cause_type, cause_reason, .. }
        | EngineError::IllegalArgumentCaused { cause_type, cause_reason, .. }
        | EngineError::MapperParsingCaused { cause_type, cause_reason, .. } = self
        {
            error["caused_by"] = json!({ "type": cause_type, "reason": cause_reason });
        }
        json!({ "error": error, "status": self.status() })
    }
}

impl From<tantivy::TantivyError> for EngineError {
    fn from(e: tantivy::TantivyError) -> Self {
        match e {
            // Raised by our own scorers for request problems found while scoring (a
            // function_score field without a value and no `missing`): a 400, as in ES.
            tantivy::TantivyError::InvalidArgument(reason) => EngineError::shard(ShardCause::IllegalArgument, reason),
            other => EngineError::Internal(format!("tantivy: {other}")),
        }
    }
}

impl From<std::io::Error> for EngineError {
    fn from(e: std::io::Error) -> Self {
        EngineError::Internal(format!("io: {e}"))
    }
}

/// Classifies a serde_json error the way ES's Jackson parser does: a truncated body is a
/// `json_e_o_f_exception`, a bad token a `json_parse_exception`; well-formed JSON that does
/// not fit (serde data errors) stays an `x_content_parse_exception`, except a duplicate key
/// (`strict_json`), which Jackson finds while tokenizing.
/// A body ES converts to a map first (index creation, `_mapping`) that does not parse: its
/// `parse_exception`, the JSON error as the cause.
pub fn content_to_map_error(e: &serde_json::Error) -> EngineError {
    let cause = json_syntax_error(e);
    let cause_type = match cause {
        EngineError::JsonEof(_) => "json_e_o_f_exception",
        EngineError::JsonParse(_) => "json_parse_exception",
        _ => "x_content_parse_exception",
    };
    EngineError::ParseCaused {
        reason: "Failed to parse content to map".into(),
        cause_type,
        cause_reason: cause.to_string(),
    }
}

pub fn json_syntax_error(e: &serde_json::Error) -> EngineError {
    let reason = format!("[{}:{}] {}", e.line(), e.column(), e);
    match e.classify() {
        serde_json::error::Category::Eof => EngineError::JsonEof(reason),
        serde_json::error::Category::Syntax => EngineError::JsonParse(reason),
        _ if crate::strict_json::is_duplicate(e) => EngineError::JsonParse(reason),
        _ => EngineError::XContentParse(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_every_kind_to_es_type_and_status() {
        let cases = [
            (EngineError::Parsing("x".into()), "parsing_exception", 400),
            (EngineError::IndexNotFound("a".into()), "index_not_found_exception", 404),
            (EngineError::IndexAlreadyExists("a".into()), "resource_already_exists_exception", 400),
            (EngineError::VersionConflict { id: "1".into(), version: 1 }, "version_conflict_engine_exception", 409),
            (EngineError::Panic("boom".into()), "engine_panic_exception", 500),
            (EngineError::TooManyBuckets { reason: "x".into(), max: 1 }, "search_phase_execution_exception", 503),
            (EngineError::SearchContextMissing("a1".into()), "search_phase_execution_exception", 404),
            (EngineError::TooManyContexts("x".into()), "too_many_scroll_contexts_exception", 429),
        ];
        for (err, kind, status) in cases {
            assert_eq!(err.es_type_and_status(), (kind, status));
        }
    }

    #[test]
    fn body_has_root_cause_type_reason_and_status() {
        let body = EngineError::IndexNotFound("logs".into()).to_es_body();
        assert_eq!(body["status"], 404);
        assert_eq!(body["error"]["type"], "index_not_found_exception");
        assert_eq!(body["error"]["reason"], "no such index [logs]");
        assert_eq!(body["error"]["root_cause"][0]["type"], "index_not_found_exception");
        assert_eq!(body["error"]["index"], "logs");
    }

    #[test]
    fn search_phase_errors_wrap_the_cause_like_elasticsearch() {
        let err = EngineError::shard(ShardCause::IllegalArgument, "Result window is too large");
        let body = err.to_es_body();
        assert_eq!(body["status"], 400);
        assert_eq!(body["error"]["type"], "search_phase_execution_exception");
        assert_eq!(body["error"]["reason"], "all shards failed");
        assert_eq!(body["error"]["root_cause"][0]["type"], "illegal_argument_exception");
    }

    #[test]
    fn json_syntax_errors_carry_position() {
        let err = serde_json::from_str::<serde_json::Value>("{\"a\":").unwrap_err();
        let mapped = json_syntax_error(&err);
        assert_eq!(mapped.es_type_and_status().0, "json_e_o_f_exception");
        assert!(mapped.to_string().starts_with("[1:5]"), "{mapped}");
        let err = serde_json::from_str::<serde_json::Value>("{\"a\": x}").unwrap_err();
        assert_eq!(json_syntax_error(&err).es_type_and_status().0, "json_parse_exception");
    }
}
