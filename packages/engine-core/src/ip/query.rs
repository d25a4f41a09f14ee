//! Term, CIDR and range queries on an ip field. Each is an inclusive range of keys
//! (`key.rs`) over the field's terms, scored as ES scores its point queries: a constant.

use std::net::Ipv6Addr;
use std::ops::Bound;

use serde_json::Value;
use tantivy::query::{ConstScoreQuery, EmptyQuery, Query, RangeQuery, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::Term;

use super::addr::{not_an_ip, parse_ip};
use super::cidr::{parse_cidr, IpBlock};
use super::key::to_key;
use crate::error::{EngineError, Result, ShardCause};

fn query_error(reason: String) -> EngineError {
    EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {reason}"))
}

fn value_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// One address.
pub fn parse_value(value: &Value) -> Result<Ipv6Addr> {
    let text = value_text(value);
    parse_ip(&text).ok_or_else(|| query_error(not_an_ip(&text)))
}

/// What a `term` value covers: one address, or with a `/` a CIDR block.
pub fn term_block(value: &Value) -> Result<IpBlock> {
    let text = value_text(value);
    if text.contains('/') {
        return parse_cidr(&text).map_err(query_error);
    }
    let addr = parse_value(value)?;
    Ok(IpBlock { first: addr, last: addr })
}

/// The addresses a `range` covers (`None`: none, an exclusive bound at the end of the space).
pub fn range_block(
    gt: Option<&Value>,
    gte: Option<&Value>,
    lt: Option<&Value>,
    lte: Option<&Value>,
) -> Result<Option<IpBlock>> {
    let first = match (gt, gte) {
        (Some(v), _) => match u128::from(parse_value(v)?).checked_add(1) {
            Some(n) => n,
            None => return Ok(None),
        },
        (None, Some(v)) => u128::from(parse_value(v)?),
        _ => 0,
    };
    let last = match (lt, lte) {
        (Some(v), _) => match u128::from(parse_value(v)?).checked_sub(1) {
            Some(n) => n,
            None => return Ok(None),
        },
        (None, Some(v)) => u128::from(parse_value(v)?),
        _ => u128::MAX,
    };
    Ok((first <= last).then(|| IpBlock { first: first.into(), last: last.into() }))
}

/// The tantivy query for a block of addresses, with the given constant score.
pub fn block_query(field: Field, block: Option<IpBlock>, score: f32) -> Box<dyn Query> {
    let Some(block) = block else { return Box::new(EmptyQuery) };
    let term = |addr| Term::from_field_text(field, &to_key(addr));
    let inner: Box<dyn Query> = if block.first == block.last {
        Box::new(TermQuery::new(term(block.first), IndexRecordOption::Basic))
    } else {
        Box::new(RangeQuery::new(Bound::Included(term(block.first)), Bound::Included(term(block.last))))
    };
    Box::new(ConstScoreQuery::new(inner, score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ip::format_ip;
    use serde_json::json;

    fn shown(block: Option<IpBlock>) -> Option<(String, String)> {
        block.map(|b| (format_ip(b.first), format_ip(b.last)))
    }

    #[test]
    fn term_values_are_addresses_or_blocks() {
        assert_eq!(shown(Some(term_block(&json!("10.0.0.1")).unwrap())), Some(("10.0.0.1".into(), "10.0.0.1".into())));
        assert_eq!(shown(Some(term_block(&json!("10.0.0.0/24")).unwrap())).unwrap().1, "10.0.0.255");
        let err = term_block(&json!("nope")).unwrap_err();
        assert_eq!(err.es_type_and_status().1, 400);
        assert!(err.to_string().contains("'nope' is not an IP string literal."));
    }

    #[test]
    fn exclusive_bounds_step_one_address() {
        let (a, b) = (json!("10.0.0.1"), json!("192.168.1.5"));
        let block = range_block(Some(&a), None, Some(&b), None).unwrap();
        assert_eq!(shown(block), Some(("10.0.0.2".into(), "192.168.1.4".into())));
        let top = json!("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
        assert_eq!(range_block(Some(&top), None, None, None).unwrap(), None);
        assert_eq!(range_block(None, None, Some(&json!("::")), None).unwrap(), None);
        assert_eq!(range_block(None, Some(&b), None, Some(&a)).unwrap(), None);
        assert_eq!(shown(range_block(None, None, None, None).unwrap()).unwrap().0, "::");
    }
}
