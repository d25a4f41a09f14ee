//! `include`/`exclude` of a `terms` aggregation on an ip field: a list of addresses, held as
//! the keys the buckets are. Patterns and partitions (over the rendered text in ES) are refused.

use serde_json::Value;

use crate::aggs::options::{TermFilter, TermSelect};
use crate::error::{EngineError, Result, ShardCause};
use crate::ip::{parse_ip, to_key};

pub(crate) fn parse(name: &str, value: &Value, bad: impl Fn() -> EngineError) -> Result<TermSelect> {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().and_then(parse_ip).map(to_key).ok_or_else(&bad))
            .collect::<Result<Vec<_>>>()
            .map(|keys| TermSelect::Terms(TermFilter::Exact(keys))),
        // A 500 (aggregation_execution_exception) in OpenSearch, as for every non-string field there.
        Value::String(_) => Err(EngineError::shard(
            ShardCause::AggregationExecution,
            format!(
                "Aggregation [{name}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses"
            ),
        )),
        Value::Object(_) => Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("[terms] partitions on the ip field of [{name}] are not supported"),
        )),
        _ => Err(bad()),
    }
}
