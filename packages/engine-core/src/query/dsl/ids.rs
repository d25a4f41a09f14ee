//! `ids`: documents by `_id`.

use serde::Deserialize;
use serde_json::Value;

use super::from_value;
use crate::error::Result;
use crate::query::ast::QueryAst;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdsOptions {
    #[serde(default)]
    values: Vec<String>,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: IdsOptions = from_value("ids", body)?;
    Ok(QueryAst::Ids { values: opts.values }.boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_values() {
        assert_eq!(
            parse(&json!({"values": ["a", "b"]})).unwrap(),
            QueryAst::Ids { values: vec!["a".into(), "b".into()] }
        );
        assert!(parse(&json!({"values": "a"})).is_err());
    }
}
