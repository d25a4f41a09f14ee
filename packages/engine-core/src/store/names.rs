//! Index name rules, as Elasticsearch's `MetadataCreateIndexService.validateIndexOrAliasName`.

use crate::error::{EngineError, Result};

const FORBIDDEN: [char; 12] = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',', '#', ':'];

pub fn validate_index_name(name: &str) -> Result<()> {
    let invalid = |why: &str| {
        Err(EngineError::InvalidIndexName {
            index: name.to_string(),
            reason: format!("Invalid index name [{name}], {why}"),
        })
    };
    if name.is_empty() {
        return invalid("must not be empty");
    }
    if name.chars().any(|c| FORBIDDEN.contains(&c)) {
        return invalid("must not contain the following characters [' ','\"','*',',','/','<','>','?','\\','|']");
    }
    if name.starts_with(['_', '-', '+']) {
        return invalid("must not start with '_', '-', or '+'");
    }
    if name != name.to_lowercase() {
        return invalid("must be lowercase");
    }
    if name == "." || name == ".." {
        return invalid("must not be '.' or '..'");
    }
    if name.len() > 255 {
        return invalid("index name is too long, (256 > 255)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_names() {
        for name in ["logs", "logs-2024.01", "a_b", "x1"] {
            assert!(validate_index_name(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn rejects_like_elasticsearch() {
        for (name, why) in [
            ("Logs", "must be lowercase"),
            ("_private", "must not start with"),
            ("a b", "must not contain"),
            ("a*", "must not contain"),
            ("..", "must not be '.' or '..'"),
        ] {
            let err = validate_index_name(name).unwrap_err();
            assert_eq!(err.es_type_and_status(), ("invalid_index_name_exception", 400));
            assert!(err.to_string().contains(why), "{name}: {err}");
        }
    }
}
