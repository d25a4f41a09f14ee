//! `script` query: `{"script": {"script": "doc['n'].value > 8"}}`, documents for which the
//! Painless subset (`script/`) answers true. A filter: every match scores its boost.

use serde::Deserialize;
use serde_json::Value;

use super::from_value;
use crate::error::Result;
use crate::query::ast::QueryAst;
use crate::script::Script;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    script: Value,
    boost: Option<f32>,
    #[serde(rename = "_name")]
    _name: Option<String>,
}

pub fn parse(body: &Value) -> Result<QueryAst> {
    let opts: Options = from_value("script", body)?;
    Ok(QueryAst::Script(Box::new(Script::from_json(&opts.script)?)).boosted(opts.boost))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_the_script_and_refuses_unknown_options() {
        assert!(matches!(parse(&json!({"script": {"source": "doc['n'].value > 1"}})).unwrap(), QueryAst::Script(_)));
        assert!(parse(&json!({"script": "doc['n'].value > 1", "bogus": 1})).is_err());
        assert!(parse(&json!({"script": {"source": "doc['n'].value = 1"}})).is_err());
    }
}
