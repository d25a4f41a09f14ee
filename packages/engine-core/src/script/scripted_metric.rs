//! `scripted_metric` is Painless with loops and state, far outside the expression subset.
//! We recognise one shape, the classic "sum a field" (init collects a list, map adds
//! `doc['f'].value`, combine and reduce sum with a for loop), and answer it as a sum of
//! that field. Any other script is a 400 rather than a guess.

use serde_json::{Map, Value};

use super::unsupported;
use crate::error::{EngineError, Result, ShardCause};

/// Whitespace-insensitive templates; `$S` is the state variable, `$F` the field, `$T`/`$V`
/// local names. Each placeholder must capture the same text every time it appears.
const INIT: &[&str] = &["state.$S=[]", "state.$S=new ArrayList()"];
const MAP: &[&str] = &["state.$S.add(doc['$F'].value)", "state.$S.add(doc['$F'].getValue())"];
const COMBINE: &[&str] = &[
    "double $T=0;for($V in state.$S){$T+=$V}return $T",
    "double $T=0.0;for($V in state.$S){$T+=$V}return $T",
    "def $T=0;for($V in state.$S){$T+=$V}return $T",
];
const REDUCE: &[&str] = &[
    "double $T=0;for($V in states){$T+=$V}return $T",
    "double $T=0.0;for($V in states){$T+=$V}return $T",
    "def $T=0;for($V in states){$T+=$V}return $T",
];

/// The field whose values the recognised scripted_metric sums.
pub fn summed_field(body: &Map<String, Value>) -> Result<String> {
    for key in body.keys() {
        if !matches!(key.as_str(), "init_script" | "map_script" | "combine_script" | "reduce_script" | "params") {
            return Err(EngineError::XContentParse(format!("[scripted_metric] unknown field [{key}]")));
        }
    }
    let source = |name: &str| -> Result<String> {
        let v = body
            .get(name)
            .ok_or_else(|| EngineError::shard(ShardCause::IllegalArgument, format!("[{name}] must not be null")))?;
        let s = match v {
            Value::String(s) => s.as_str(),
            Value::Object(o) => o.get("source").and_then(Value::as_str).unwrap_or_default(),
            _ => "",
        };
        Ok(normalise(s))
    };
    let mut caps: Vec<(char, String)> = Vec::new();
    for (name, templates) in
        [("init_script", INIT), ("map_script", MAP), ("combine_script", COMBINE), ("reduce_script", REDUCE)]
    {
        let text = source(name)?;
        // Local names ($T, $V) are per script; the state name and field carry across.
        caps.retain(|(c, _)| matches!(c, 'S' | 'F'));
        let matched = templates.iter().any(|t| {
            let mut trial = caps.clone();
            if matches(&normalise(t), &text, &mut trial) {
                caps = trial;
                true
            } else {
                false
            }
        });
        if !matched {
            return Err(unsupported(format!(
                "scripted_metric {name} [{text}]: only the init/map/combine/reduce shape that sums doc['field'].value is recognised"
            )));
        }
    }
    caps.into_iter().find(|(c, _)| *c == 'F').map(|(_, f)| f).ok_or_else(|| unsupported("scripted_metric".into()))
}

/// Collapses whitespace, drops it around punctuation, and ignores `;` before `}` or at the end.
fn normalise(s: &str) -> String {
    let s = s.replace('"', "'");
    let words: Vec<&str> = s.split_whitespace().collect();
    let mut out = String::new();
    for w in words {
        let prev_word = out.chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        let next_word = w.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        if prev_word && next_word {
            out.push(' ');
        }
        out.push_str(w);
    }
    let out = out.replace(";}", "}");
    out.trim_end_matches(';').to_string()
}

fn matches(template: &str, text: &str, caps: &mut Vec<(char, String)>) -> bool {
    let t: Vec<char> = template.chars().collect();
    let x: Vec<char> = text.chars().collect();
    let (mut i, mut j) = (0, 0);
    while i < t.len() {
        if t[i] == '$' && i + 1 < t.len() {
            let name = t[i + 1];
            let start = j;
            while j < x.len() && (x[j].is_alphanumeric() || x[j] == '_' || (name == 'F' && x[j] == '.')) {
                j += 1;
            }
            if j == start {
                return false;
            }
            let got: String = x[start..j].iter().collect();
            match caps.iter().find(|(c, _)| *c == name) {
                Some((_, prev)) if *prev != got => return false,
                Some(_) => {}
                None => caps.push((name, got)),
            }
            i += 2;
        } else {
            if j >= x.len() || x[j] != t[i] {
                return false;
            }
            i += 1;
            j += 1;
        }
    }
    j == x.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recognises_the_summing_shape() {
        let body = json!({
            "init_script": "state.prices = []",
            "map_script": "state.prices.add(doc[\"price\"].value)",
            "combine_script": "double total = 0; for (p in state.prices) { total += p } return total",
            "reduce_script": "double total = 0; for (a in states) { total += a; } return total;"
        });
        assert_eq!(summed_field(body.as_object().unwrap()).unwrap(), "price");
    }

    #[test]
    fn rejects_other_scripts() {
        let body = json!({
            "init_script": "state.prices = []",
            "map_script": "state.prices.add(doc['price'].value * 2)",
            "combine_script": "double total = 0; for (p in state.prices) { total += p } return total",
            "reduce_script": "double total = 0; for (a in states) { total += a } return total"
        });
        let err = summed_field(body.as_object().unwrap()).unwrap_err();
        assert!(err.to_string().contains("map_script"), "{err}");
        let mismatched_state = json!({
            "init_script": "state.a = []",
            "map_script": "state.b.add(doc['price'].value)",
            "combine_script": "double t = 0; for (p in state.b) { t += p } return t",
            "reduce_script": "double t = 0; for (a in states) { t += a } return t"
        });
        assert!(summed_field(mismatched_state.as_object().unwrap()).is_err());
    }
}
