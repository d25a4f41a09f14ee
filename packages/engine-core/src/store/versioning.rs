//! Optimistic concurrency control, as ES does it: `op_type=create`, compare-and-set on
//! `if_seq_no`/`if_primary_term`, and external versions (`version_type=external|external_gte`).
//! The same conditions come from URL parameters (`_doc`, `_create`, `_update`, DELETE) and from
//! `_bulk` action lines; they are validated up front (ES's 400s) and decided under the index's
//! write lock against the document's current state, deleted documents included: a delete leaves
//! a tombstone whose version the next write continues (ES's `index.gc_deletes`, 60 s).

use serde_json::Value;

use crate::error::{EngineError, Result};

/// We run one primary that never fails over: every sequence number has primary term 1.
pub const PRIMARY_TERM: u64 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VersionType {
    #[default]
    Internal,
    External,
    ExternalGte,
}

/// What a write requires of the document's current state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conditions {
    /// `op_type=create`: fail if a live document has this id.
    pub create: bool,
    /// `if_seq_no` and `if_primary_term` (both present, or neither).
    pub if_seq_no: Option<(u64, u64)>,
    /// An external version (`version_type=external|external_gte`) the write stores as is.
    pub external: Option<(VersionType, u64)>,
    /// `_update`'s read-modify-write check: the live version it read.
    pub expect_version: Option<u64>,
}

/// A document's state as the writer knows it: live, or a tombstone left by a delete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocState {
    pub version: u64,
    pub seq_no: u64,
    pub deleted: bool,
}

/// Which write the conditions are for (each refuses a different set of combinations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    Index,
    Create,
    Update,
    Delete,
}

/// A parameter's value as text: URL parameters are strings, action-line values JSON scalars.
pub fn param_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn parse_long(name: &str, text: &str) -> Result<i64> {
    text.trim().parse::<i64>().map_err(|_| {
        EngineError::IllegalArgument(format!("Failed to parse long parameter [{name}] with value [{text}]"))
    })
}

fn validation(reason: &str) -> EngineError {
    EngineError::ActionRequestValidation(format!("Validation Failed: 1: {reason};"))
}

impl Conditions {
    /// Reads and validates `op_type`, `if_seq_no`, `if_primary_term`, `version` and
    /// `version_type` through `get` (URL parameters or an action line's keys).
    pub fn parse(get: &dyn Fn(&str) -> Option<String>, kind: WriteKind) -> Result<Conditions> {
        let mut create = kind == WriteKind::Create;
        if let Some(op) = get("op_type") {
            match op.as_str() {
                "create" => create = true,
                "index" => {}
                other => {
                    return Err(EngineError::IllegalArgument(format!(
                        "opType must be 'create' or 'index', found: [{other}]"
                    )))
                }
            }
        }
        let seq_no = get("if_seq_no").map(|t| parse_long("if_seq_no", &t)).transpose()?;
        let term = get("if_primary_term").map(|t| parse_long("if_primary_term", &t)).transpose()?;
        if let Some(s) = seq_no.filter(|s| *s < 0) {
            return Err(EngineError::IllegalArgument(format!("sequence numbers must be non negative. got [{s}].")));
        }
        if let Some(t) = term.filter(|t| *t <= 0) {
            return Err(EngineError::IllegalArgument(format!("primary term must be positive. got [{t}]")));
        }
        let if_seq_no = match (seq_no, term) {
            (None, None) => None,
            (Some(s), Some(t)) => Some((s as u64, t as u64)),
            (Some(_), None) => return Err(validation("ifSeqNo is set, but primary term is [0]")),
            (None, Some(t)) => return Err(validation(&format!("ifSeqNo is unassigned, but primary term is [{t}]"))),
        };
        let version_type = match get("version_type").as_deref() {
            None | Some("internal") => VersionType::Internal,
            Some("external") => VersionType::External,
            Some("external_gte") => VersionType::ExternalGte,
            Some(other) => return Err(EngineError::IllegalArgument(format!("No version type match [{other}]"))),
        };
        let version = get("version").map(|t| parse_long("version", &t)).transpose()?;
        let external = match (version_type, version) {
            (VersionType::Internal, None) => None,
            (VersionType::Internal, Some(_)) => {
                return Err(validation(
                    "internal versioning can not be used for optimistic concurrency control. \
                     Please use `if_seq_no` and `if_primary_term` instead",
                ))
            }
            (external, v) => {
                // ES's "not set" is -3 (`Versions.MATCH_ANY`).
                let v = v.unwrap_or(-3);
                if v < 0 {
                    let name = if external == VersionType::External { "EXTERNAL" } else { "EXTERNAL_GTE" };
                    return Err(validation(&format!("illegal version value [{v}] for version type [{name}]")));
                }
                Some((external, v as u64))
            }
        };
        if create && if_seq_no.is_some() {
            return Err(validation("create operations do not support compare and set. use index instead"));
        }
        if create && external.is_some() {
            return Err(validation("create operations only support internal versioning. use index instead"));
        }
        if kind == WriteKind::Update && external.is_some() {
            return Err(validation("can't provide version in update requests"));
        }
        Ok(Conditions { create, if_seq_no, external, expect_version: None })
    }

    /// Whether any condition applies (most writes have none).
    pub fn is_empty(&self) -> bool {
        *self == Conditions::default()
    }

    /// Decides the write against `current` and answers the version it will have, or ES's 409.
    pub fn resolve(&self, id: &str, current: Option<DocState>) -> Result<u64> {
        let live = current.filter(|c| !c.deleted);
        let conflict = |reason: String| Err(EngineError::Conflict { id: id.to_string(), reason });
        if let Some(expected) = self.expect_version {
            if live.map(|c| c.version) != Some(expected) {
                let current = live.map_or(0, |c| c.version);
                return Err(EngineError::UpdateConflict { id: id.to_string(), expected, current });
            }
        }
        if let Some((seq_no, term)) = self.if_seq_no {
            match live {
                None => {
                    return conflict(format!(
                        "required seqNo [{seq_no}], primary term [{term}]. but no document was found"
                    ))
                }
                Some(c) if c.seq_no != seq_no || term != PRIMARY_TERM => {
                    return conflict(format!(
                        "required seqNo [{seq_no}], primary term [{term}]. current document has seqNo [{}] and primary term [{PRIMARY_TERM}]",
                        c.seq_no
                    ))
                }
                Some(_) => {}
            }
        }
        if let Some((kind, version)) = self.external {
            if let Some(c) = current {
                if kind == VersionType::External && c.version >= version {
                    return conflict(format!(
                        "current version [{}] is higher or equal to the one provided [{version}]",
                        c.version
                    ));
                }
                if kind == VersionType::ExternalGte && c.version > version {
                    return conflict(format!(
                        "current version [{}] is higher than the one provided [{version}]",
                        c.version
                    ));
                }
            }
            return Ok(version);
        }
        if let Some(c) = live.filter(|_| self.create) {
            return Err(EngineError::VersionConflict { id: id.to_string(), version: c.version });
        }
        Ok(current.map_or(1, |c| c.version + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(pairs: &[(&str, &str)], kind: WriteKind) -> Result<Conditions> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Conditions::parse(&|k| map.get(k).cloned(), kind)
    }

    fn live(version: u64, seq_no: u64) -> Option<DocState> {
        Some(DocState { version, seq_no, deleted: false })
    }

    #[test]
    fn validates_like_elasticsearch() {
        let status = |r: Result<Conditions>| r.unwrap_err().es_type_and_status();
        assert_eq!(status(parse(&[("version", "1")], WriteKind::Index)).0, "action_request_validation_exception");
        assert_eq!(
            status(parse(&[("if_primary_term", "1")], WriteKind::Index)).0,
            "action_request_validation_exception"
        );
        assert_eq!(
            status(parse(&[("if_seq_no", "x"), ("if_primary_term", "1")], WriteKind::Index)).0,
            "illegal_argument_exception"
        );
        assert_eq!(
            status(parse(&[("if_seq_no", "-3"), ("if_primary_term", "1")], WriteKind::Index)).0,
            "illegal_argument_exception"
        );
        assert_eq!(status(parse(&[("version_type", "sideways")], WriteKind::Index)).0, "illegal_argument_exception");
        assert_eq!(
            status(parse(&[("version_type", "external")], WriteKind::Index)).0,
            "action_request_validation_exception"
        );
        assert_eq!(status(parse(&[("op_type", "upsert")], WriteKind::Index)).0, "illegal_argument_exception");
        let create_cas =
            parse(&[("op_type", "create"), ("if_seq_no", "0"), ("if_primary_term", "1")], WriteKind::Index);
        assert!(create_cas.unwrap_err().to_string().contains("do not support compare and set"));
        assert!(parse(&[], WriteKind::Index).unwrap().is_empty());
    }

    #[test]
    fn decides_versions_and_conflicts() {
        let create = parse(&[("op_type", "create")], WriteKind::Index).unwrap();
        assert_eq!(create.resolve("1", None).unwrap(), 1);
        assert_eq!(create.resolve("1", live(1, 0)).unwrap_err().status(), 409);
        // A tombstone is not a document: create succeeds and the version continues.
        assert_eq!(create.resolve("1", Some(DocState { version: 2, seq_no: 1, deleted: true })).unwrap(), 3);
        let cas = parse(&[("if_seq_no", "0"), ("if_primary_term", "1")], WriteKind::Index).unwrap();
        assert_eq!(cas.resolve("1", live(1, 0)).unwrap(), 2);
        assert!(cas.resolve("1", live(2, 1)).unwrap_err().to_string().contains("current document has seqNo [1]"));
        assert!(cas.resolve("1", None).unwrap_err().to_string().contains("but no document was found"));
        let external = parse(&[("version", "10"), ("version_type", "external")], WriteKind::Index).unwrap();
        assert_eq!(external.resolve("1", None).unwrap(), 10);
        assert_eq!(external.resolve("1", live(10, 0)).unwrap_err().status(), 409);
        let gte = parse(&[("version", "10"), ("version_type", "external_gte")], WriteKind::Index).unwrap();
        assert_eq!(gte.resolve("1", live(10, 0)).unwrap(), 10);
        assert_eq!(gte.resolve("1", live(11, 0)).unwrap_err().status(), 409);
    }
}
