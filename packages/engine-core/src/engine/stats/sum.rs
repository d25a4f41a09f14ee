//! Sums of statistics sections: numbers add, objects merge key by key (per-field and
//! per-group detail, file sizes), anything else keeps its first value. The translog's
//! `earliest_last_modified_age` is a minimum and `max_unsafe_auto_id_timestamp` a maximum, as
//! ES combines them.

use serde_json::{Map, Value};

/// Adds `more` into `sum`.
pub fn add_into(sum: &mut Map<String, Value>, more: &Map<String, Value>) {
    for (key, value) in more {
        match (sum.get_mut(key), value) {
            (None, v) => {
                sum.insert(key.clone(), v.clone());
            }
            (Some(Value::Object(a)), Value::Object(b)) => add_into(a, b),
            (Some(Value::Number(a)), Value::Number(b)) => {
                let combined = if key == "earliest_last_modified_age" {
                    a.as_i64().zip(b.as_i64()).map(|(x, y)| x.min(y))
                } else if key == "max_unsafe_auto_id_timestamp" {
                    a.as_i64().zip(b.as_i64()).map(|(x, y)| x.max(y))
                } else {
                    a.as_i64().zip(b.as_i64()).map(|(x, y)| x + y)
                };
                if let Some(n) = combined {
                    *a = n.into();
                }
            }
            (Some(_), _) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_add_objects_merge_ages_take_the_minimum() {
        let mut sum = json!({ "docs": { "count": 1 }, "translog": { "earliest_last_modified_age": 50 } });
        let more = json!({
            "docs": { "count": 2, "deleted": 1 },
            "translog": { "earliest_last_modified_age": 20 },
            "segments": { "file_sizes": { "idx": { "size_in_bytes": 3, "description": "x" } } },
        });
        add_into(sum.as_object_mut().unwrap(), more.as_object().unwrap());
        assert_eq!(sum["docs"], json!({ "count": 3, "deleted": 1 }));
        assert_eq!(sum["translog"]["earliest_last_modified_age"], json!(20));
        assert_eq!(sum["segments"]["file_sizes"]["idx"]["description"], json!("x"));
    }
}
