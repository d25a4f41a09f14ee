//! `buckets_path` syntax (`agg>sub.metric`, `agg>sub[99.9]`, `_count`, `_key`,
//! `agg._bucket_count`) and its resolution against one rendered bucket.

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};

/// One `>`-separated element: an aggregation name and an optional metric key.
#[derive(Debug, Clone, PartialEq)]
pub struct PathElement {
    pub name: String,
    pub key: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BucketsPath {
    pub raw: String,
    pub elements: Vec<PathElement>,
}

fn invalid(raw: &str) -> EngineError {
    EngineError::IllegalArgument(format!("Invalid path [{raw}]"))
}

impl BucketsPath {
    pub fn parse(raw: &str) -> Result<BucketsPath> {
        if raw.is_empty() {
            return Err(invalid(raw));
        }
        let elements = raw
            .split('>')
            .map(|part| {
                if part.is_empty() {
                    return Err(invalid(raw));
                }
                if let Some(open) = part.find('[') {
                    let key = part[open + 1..].strip_suffix(']').ok_or_else(|| invalid(raw))?;
                    return Ok(PathElement { name: part[..open].to_string(), key: Some(key.to_string()) });
                }
                Ok(match part.split_once('.') {
                    Some((name, key)) if !name.is_empty() && !key.is_empty() => {
                        PathElement { name: name.to_string(), key: Some(key.to_string()) }
                    }
                    Some(_) => return Err(invalid(raw)),
                    None => PathElement { name: part.to_string(), key: None },
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(BucketsPath { raw: raw.to_string(), elements })
    }

    /// The path as ES's flat property list: every name, each followed by its key.
    pub fn flat(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for e in &self.elements {
            out.push(e.name.as_str());
            if let Some(k) = &e.key {
                out.push(k.as_str());
            }
        }
        out
    }

    pub fn first(&self) -> &str {
        &self.elements[0].name
    }

    pub fn is_count(&self) -> bool {
        self.raw == "_count"
    }
}

fn not_numeric(what: &str) -> EngineError {
    EngineError::IllegalArgument(format!(
        "buckets_path must reference either a number value or a single value numeric metric aggregation, got: [{what}]"
    ))
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

pub fn doc_count(bucket: &Map<String, Value>) -> u64 {
    bucket.get("doc_count").and_then(Value::as_u64).unwrap_or(0)
}

/// The number `path` names inside `bucket`; NaN stands for a missing metric value.
pub fn resolve(bucket: &Map<String, Value>, path: &[&str], raw: &str) -> Result<f64> {
    match path {
        [] => Err(not_numeric("bucket")),
        ["_count"] => Ok(doc_count(bucket) as f64),
        ["_key"] => match bucket.get("key") {
            Some(Value::Number(n)) => Ok(n.as_f64().unwrap_or(f64::NAN)),
            _ => Err(not_numeric("String")),
        },
        [name, rest @ ..] => {
            let agg = bucket
                .get(*name)
                .ok_or_else(|| EngineError::IllegalArgument(format!("No aggregation found for path [{raw}]")))?;
            property(name, agg, rest, raw)
        }
    }
}

fn property(name: &str, agg: &Value, rest: &[&str], raw: &str) -> Result<f64> {
    let obj = agg.as_object().ok_or_else(|| not_numeric(name))?;
    if let Some(buckets) = obj.get("buckets") {
        return match rest {
            ["_bucket_count"] => {
                Ok(buckets.as_array().map_or_else(|| buckets.as_object().map_or(0, Map::len), Vec::len) as f64)
            }
            _ => Err(not_numeric(&format!("multi-bucket aggregation [{name}]"))),
        };
    }
    if obj.contains_key("doc_count") {
        // A single-bucket aggregation (filter, missing): descend into it.
        return resolve(obj, rest, raw);
    }
    match rest {
        [] => match obj.get("value") {
            Some(v) => Ok(number(v)),
            None => Err(EngineError::IllegalArgument(format!(
                "buckets_path must reference either a number value or a single value numeric metric aggregation, but [{name}] contains multiple values. Please specify which to use."
            ))),
        },
        [key] => {
            if let Some(Value::Object(values)) = obj.get("values") {
                // percentiles: keys are rendered like Java doubles ("99.0"); match numerically.
                let wanted: f64 = key.parse().map_err(|_| invalid(raw))?;
                return values
                    .iter()
                    .find(|(k, _)| k.parse::<f64>().ok() == Some(wanted))
                    .map(|(_, v)| number(v))
                    .ok_or_else(|| {
                        EngineError::IllegalArgument(format!("Invalid percentile [{key}] in path [{raw}]"))
                    });
            }
            obj.get(*key).map(number).ok_or_else(|| {
                EngineError::IllegalArgument(format!("Unknown value [{key}] in aggregation [{name}]"))
            })
        }
        _ => Err(invalid(raw)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_and_resolves_paths() {
        let p = BucketsPath::parse("hist>stats.avg").unwrap();
        assert_eq!(p.flat(), vec!["hist", "stats", "avg"]);
        assert_eq!(BucketsPath::parse("pct[99.9]").unwrap().flat(), vec!["pct", "99.9"]);
        assert!(BucketsPath::parse("a>>b").is_err());
        let bucket = json!({"key": 10, "doc_count": 3, "avg_n": {"value": 2.5}, "s": {"count": 3, "avg": 1.5},
            "f": {"doc_count": 2, "m": {"value": 7.0}}, "h": {"buckets": [{}, {}]}, "e": {"value": null}});
        let b = bucket.as_object().unwrap();
        assert_eq!(resolve(b, &["_count"], "").unwrap(), 3.0);
        assert_eq!(resolve(b, &["_key"], "").unwrap(), 10.0);
        assert_eq!(resolve(b, &["avg_n"], "").unwrap(), 2.5);
        assert_eq!(resolve(b, &["s", "avg"], "").unwrap(), 1.5);
        assert_eq!(resolve(b, &["f", "m"], "").unwrap(), 7.0);
        assert_eq!(resolve(b, &["f", "_count"], "").unwrap(), 2.0);
        assert_eq!(resolve(b, &["h", "_bucket_count"], "").unwrap(), 2.0);
        assert!(resolve(b, &["e"], "").unwrap().is_nan());
        assert!(resolve(b, &["s"], "").unwrap_err().to_string().contains("multiple values"));
        assert!(resolve(b, &["h"], "").is_err());
    }
}
