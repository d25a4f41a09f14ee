//! The search `timeout`: ES stops collecting when time runs out and returns what it has with
//! `timed_out: true`. tantivy's `Searcher::search` runs every segment to the end, so a timed
//! search drives the collector itself: the clock is checked before each segment and every
//! few thousand matching docs inside one, and collection stops at the first check past the
//! deadline (the partial fruits are still merged and rendered).

use std::time::{Duration, Instant};

use serde_json::Value;
use tantivy::collector::{Collector, SegmentCollector};
use tantivy::query::{EnableScoring, Query};
use tantivy::{DocSet, Searcher, TERMINATED};

use crate::error::{EngineError, Result};

/// Docs collected between two clock reads (a read costs ~20 ns; this keeps it under 1%).
const CHECK_EVERY: u32 = 4096;

/// ES time values as `timeout` takes them: `500ms`, `1s`, `2m`, `10micros`, `-1` (none).
pub fn parse_timeout(v: &Value) -> Result<Option<Duration>> {
    parse_time_value("timeout", v)
}

/// An ES time value of the setting or parameter `name`; one without a known unit is ES's
/// `illegal_argument_exception` naming it.
pub fn parse_time_value(name: &str, v: &Value) -> Result<Option<Duration>> {
    let text = match v {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    if text == "-1" {
        return Ok(None);
    }
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (num, unit) = text.split_at(split);
    let bad = || {
        EngineError::IllegalArgument(format!(
            "failed to parse setting [{name}] with value [{text}] as a time value: unit is missing or unrecognized"
        ))
    };
    let n: u64 = num.parse().map_err(|_| bad())?;
    let nanos_per: u64 = match unit {
        "nanos" => 1,
        "micros" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        "d" => 86_400_000_000_000,
        "" if n == 0 => 1,
        _ => return Err(bad()),
    };
    Ok(Some(Duration::from_nanos(n.saturating_mul(nanos_per))))
}

/// Runs `collector` over `query` until `deadline`; the bool is ES's `timed_out`.
pub fn search_until<C: Collector>(
    searcher: &Searcher,
    query: &dyn Query,
    collector: &C,
    deadline: Instant,
) -> Result<(C::Fruit, bool)> {
    let scoring = collector.requires_scoring();
    let enable = if scoring {
        EnableScoring::enabled_from_searcher(searcher)
    } else {
        EnableScoring::disabled_from_searcher(searcher)
    };
    let weight = query.weight(enable)?;
    let mut fruits = Vec::new();
    let mut timed_out = false;
    for (ord, reader) in searcher.segment_readers().iter().enumerate() {
        if Instant::now() >= deadline {
            timed_out = true;
            break;
        }
        let mut child = collector.for_segment(ord as u32, reader)?;
        let mut scorer = weight.scorer(reader, 1.0)?;
        let alive = reader.alive_bitset();
        let mut doc = scorer.doc();
        let mut since_check = 0u32;
        while doc != TERMINATED {
            if alive.is_none_or(|a| a.is_alive(doc)) {
                let score = if scoring { scorer.score() } else { 0.0 };
                child.collect(doc, score);
            }
            since_check += 1;
            if since_check == CHECK_EVERY {
                since_check = 0;
                if Instant::now() >= deadline {
                    timed_out = true;
                    break;
                }
            }
            doc = scorer.advance();
        }
        fruits.push(child.harvest());
        if timed_out {
            break;
        }
    }
    Ok((collector.merge_fruits(fruits)?, timed_out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_es_time_units() {
        assert_eq!(parse_timeout(&json!("1ms")).unwrap(), Some(Duration::from_millis(1)));
        assert_eq!(parse_timeout(&json!("10micros")).unwrap(), Some(Duration::from_micros(10)));
        assert_eq!(parse_timeout(&json!("2m")).unwrap(), Some(Duration::from_secs(120)));
        assert_eq!(parse_timeout(&json!("-1")).unwrap(), None);
        let err = parse_timeout(&json!("5 parsecs")).unwrap_err();
        assert_eq!(err.es_type_and_status(), ("illegal_argument_exception", 400));
        assert!(err.to_string().contains("setting [timeout]"));
        let err = parse_time_value("scroll", &json!("soon")).unwrap_err();
        assert!(err.to_string().starts_with("failed to parse setting [scroll] with value [soon]"));
    }
}
