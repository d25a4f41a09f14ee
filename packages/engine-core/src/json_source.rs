//! Reading values out of a document's `_source`: a field's values found by its dotted path (as
//! nested objects or literal dotted keys, as ES does), and ES's coercion of a JSON value to a
//! number. Shared by indexing, vectors, nested documents, range fields and queries, so it sits
//! below all of them.

use serde_json::Value;

/// Finds the value at a dotted path, accepting both nested objects and literal dotted keys.
#[inline]
pub(crate) fn lookup<'a>(source: &'a Value, path: &str) -> Option<&'a Value> {
    let obj = source.as_object()?;
    if let Some(v) = obj.get(path) {
        return Some(v);
    }
    for (dot, _) in path.match_indices('.') {
        if let Some(found) = obj.get(&path[..dot]).and_then(|child| lookup(child, &path[dot + 1..])) {
            return Some(found);
        }
    }
    None
}

/// Every value at a dotted path, through arrays of objects as well as objects and literal
/// dotted keys: `{"people": [{"n": "a"}, {"n": "b"}]}` has `a` and `b` at `people.n`, as ES
/// flattens an array of (non-nested) objects.
pub(crate) fn lookup_all<'a>(source: &'a Value, path: &str, out: &mut Vec<&'a Value>) {
    match source {
        Value::Array(items) => items.iter().for_each(|item| lookup_all(item, path, out)),
        Value::Object(obj) => {
            if let Some(v) = obj.get(path) {
                out.push(v);
            }
            for (dot, _) in path.match_indices('.') {
                if let Some(child) = obj.get(&path[..dot]) {
                    lookup_all(child, &path[dot + 1..], out);
                }
            }
        }
        _ => {}
    }
}

#[inline]
pub fn coerce_i64(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => {
            n.as_i64().or_else(|| n.as_f64().filter(|f| f.is_finite() && f.abs() < 9.2e18).map(|f| f.trunc() as i64))
        }
        Value::String(s) => s.trim().parse::<i64>().ok().or_else(|| {
            s.trim().parse::<f64>().ok().filter(|f| f.is_finite() && f.abs() < 9.2e18).map(|f| f.trunc() as i64)
        }),
        _ => None,
    }
}

#[inline]
pub fn coerce_f64(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    }
}
