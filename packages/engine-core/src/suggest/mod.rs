//! Suggesters: the `suggest` section of a search (`term`, `phrase`, `completion`, each named,
//! with its own `text`/`prefix` or the section's global `text`). The `completion` field type
//! they read is `completion/`, below the store. One index answers in `run`; a search over
//! several indices merges each index's answer in `merge`.
//!
//! Layer: suggesters, above `query/`. Uses `query/`, `store/`, `completion/` and the leaves
//! (ARCHITECTURE.md).

pub mod completion;
pub mod phrase;
pub mod term;

use serde_json::{json, Map, Value};
use tantivy::Searcher;

use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;
use crate::store::source_filter::SourceFilter;

#[derive(Debug, Clone)]
pub enum SuggesterKind {
    Term(term::TermOptions),
    Phrase(phrase::PhraseOptions),
    Completion(completion::CompletionOptions),
}

impl SuggesterKind {
    fn type_name(&self) -> &'static str {
        match self {
            SuggesterKind::Term(_) => "term",
            SuggesterKind::Phrase(_) => "phrase",
            SuggesterKind::Completion(_) => "completion",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Suggester {
    pub name: String,
    pub text: String,
    pub kind: SuggesterKind,
}

#[derive(Debug, Clone, Default)]
pub struct SuggestRequest {
    pub suggesters: Vec<Suggester>,
}

fn parsing(reason: String) -> EngineError {
    EngineError::Parsing(reason)
}

impl SuggestRequest {
    pub fn parse(value: &Value) -> Result<SuggestRequest> {
        let obj = value.as_object().ok_or_else(|| parsing("[suggest] must be an object".into()))?;
        let global = match obj.get("text") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(parsing("[suggest] global text must be a string".into())),
        };
        let mut suggesters = Vec::new();
        for (name, def) in obj.iter().filter(|(k, _)| k.as_str() != "text") {
            let def = def.as_object().ok_or_else(|| parsing(format!("suggestion [{name}] must be an object")))?;
            let mut text = None;
            let mut kind = None;
            for (key, value) in def {
                match key.as_str() {
                    "text" | "prefix" => {
                        text = Some(
                            value.as_str().ok_or_else(|| parsing(format!("[{key}] must be a string")))?.to_string(),
                        )
                    }
                    "regex" => {
                        return Err(EngineError::IllegalArgument(
                            "[regex] completion suggestions are not supported".into(),
                        ))
                    }
                    "term" | "phrase" | "completion" => {
                        if kind.is_some() {
                            return Err(parsing(format!("suggestion [{name}] can only have one suggester type")));
                        }
                        let body = value.as_object().ok_or_else(|| parsing(format!("[{key}] must be an object")))?;
                        kind = Some(match key.as_str() {
                            "term" => SuggesterKind::Term(term::TermOptions::parse(body)?),
                            "phrase" => SuggesterKind::Phrase(phrase::PhraseOptions::parse(body)?),
                            _ => SuggesterKind::Completion(completion::CompletionOptions::parse(body)?),
                        });
                    }
                    other => return Err(parsing(format!("suggester [{other}] not supported"))),
                }
            }
            let kind = kind.ok_or_else(|| parsing(format!("suggestion [{name}] must have a suggester type")))?;
            let text = text
                .or_else(|| global.clone())
                .ok_or_else(|| EngineError::IllegalArgument("The required text option is missing".into()))?;
            suggesters.push(Suggester { name: name.clone(), text, kind });
        }
        Ok(SuggestRequest { suggesters })
    }

    /// One index's answer: `{name: [entries]}` (`type#name` with `typed_keys`).
    pub fn run(
        &self,
        handle: &IndexHandle,
        searcher: &Searcher,
        source: &SourceFilter,
        typed_keys: bool,
    ) -> Result<Value> {
        let mut out = Map::new();
        for s in &self.suggesters {
            let entries = match &s.kind {
                SuggesterKind::Term(opts) => term::render(&term::suggest(handle, searcher, opts, &s.text)?),
                SuggesterKind::Phrase(opts) => phrase::suggest(handle, searcher, opts, &s.text)?,
                SuggesterKind::Completion(opts) => {
                    let options = completion::suggest(handle, searcher, opts, &s.text, source)?;
                    let length = crate::analysis::token::Utf16Offsets::new(&s.text).len();
                    let options: Vec<Value> = options.into_iter().map(|(_, _, o)| o).collect();
                    json!([{"text": s.text, "offset": 0, "length": length, "options": options}])
                }
            };
            out.insert(key(s, typed_keys), entries);
        }
        Ok(Value::Object(out))
    }

    /// The `suggest` sections of several indices' answers merged into one, as ES reduces
    /// shards: entries align by position, options join and are re-sorted and cut to `size`.
    pub fn merge(&self, answers: &[&Value], typed_keys: bool) -> Value {
        let mut out = Map::new();
        for s in &self.suggesters {
            let name = key(s, typed_keys);
            let mut entries: Vec<Value> = Vec::new();
            for answer in answers {
                let Some(list) = answer.get(&name).and_then(Value::as_array) else { continue };
                for (i, entry) in list.iter().enumerate() {
                    if i >= entries.len() {
                        entries.push(entry.clone());
                        continue;
                    }
                    let options = entries[i]["options"].as_array_mut().expect("an entry's options");
                    options.extend(entry["options"].as_array().into_iter().flatten().cloned());
                }
            }
            for entry in &mut entries {
                if let Some(options) = entry["options"].as_array_mut() {
                    merge_options(&s.kind, options);
                }
            }
            out.insert(name, Value::Array(entries));
        }
        Value::Object(out)
    }
}

fn key(s: &Suggester, typed_keys: bool) -> String {
    if typed_keys {
        format!("{}#{}", s.kind.type_name(), s.name)
    } else {
        s.name.clone()
    }
}

fn merge_options(kind: &SuggesterKind, options: &mut Vec<Value>) {
    let score = |o: &Value, k: &str| o[k].as_f64().unwrap_or(0.0);
    match kind {
        SuggesterKind::Completion(opts) => {
            options.sort_by(|a, b| {
                score(b, "_score")
                    .total_cmp(&score(a, "_score"))
                    .then_with(|| a["text"].as_str().cmp(&b["text"].as_str()))
            });
            if opts.skip_duplicates {
                let mut seen = std::collections::BTreeSet::new();
                options.retain(|o| seen.insert(o["text"].as_str().unwrap_or_default().to_string()));
            }
            options.truncate(opts.size);
        }
        SuggesterKind::Term(opts) => {
            // The same correction from two indices: frequencies add, the best score stays.
            let mut merged: Vec<(String, f32, u64)> = Vec::new();
            for o in options.iter() {
                let text = o["text"].as_str().unwrap_or_default().to_string();
                let (s, f) = (score(o, "score") as f32, o["freq"].as_u64().unwrap_or(0));
                match merged.iter_mut().find(|m| m.0 == text) {
                    Some(m) => {
                        m.1 = m.1.max(s);
                        m.2 += f;
                    }
                    None => merged.push((text, s, f)),
                }
            }
            term::sort_options(&mut merged, opts.by_frequency);
            merged.truncate(opts.size);
            *options = merged.into_iter().map(|(t, s, f)| json!({"text": t, "score": s, "freq": f})).collect();
        }
        SuggesterKind::Phrase(opts) => {
            let mut seen = std::collections::BTreeSet::new();
            options.sort_by(|a, b| score(b, "score").total_cmp(&score(a, "score")));
            options.retain(|o| seen.insert(o["text"].as_str().unwrap_or_default().to_string()));
            options.truncate(opts.size);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_named_suggesters_with_the_global_text() {
        let req = SuggestRequest::parse(&json!({
            "text": "Elastic",
            "t": {"term": {"field": "title"}},
            "c": {"prefix": "el", "completion": {"field": "s", "size": 3}}
        }))
        .unwrap();
        assert_eq!(req.suggesters.len(), 2);
        let t = req.suggesters.iter().find(|s| s.name == "t").unwrap();
        assert_eq!(t.text, "Elastic");
        assert!(SuggestRequest::parse(&json!({"x": {"text": "a"}})).is_err());
        assert!(SuggestRequest::parse(&json!({"x": {"term": {"field": "f"}}})).is_err());
    }

    #[test]
    fn merges_completion_options_by_score() {
        let req =
            SuggestRequest::parse(&json!({"c": {"prefix": "d", "completion": {"field": "s", "size": 1}}})).unwrap();
        let a = json!({"c": [{"text": "d", "offset": 0, "length": 1, "options": [{"text": "doc", "_score": 1.0}]}]});
        let b = json!({"c": [{"text": "d", "offset": 0, "length": 1, "options": [{"text": "dog", "_score": 2.0}]}]});
        let merged = req.merge(&[&a, &b], false);
        assert_eq!(merged["c"][0]["options"], json!([{"text": "dog", "_score": 2.0}]));
    }
}
