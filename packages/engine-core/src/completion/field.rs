//! The `completion` field type: its mapping parameters and how a document's inputs are indexed.
//!
//! Each input is one term of the field's own tantivy field (untokenized, postings only):
//! `<context>\x1E<analyzed form>\x00<weight>\x00<input as given>`, once per context the input
//! carries (once, with an empty context, when the field has no context mappings). The analyzed
//! form is the analyzer's tokens joined by `\x1F` (Lucene's separator label), so a prefix query
//! is one term-dictionary range per context and the suggestion's text and weight come back with
//! the term, without reading the document.

use serde_json::{Map, Value};
use tantivy::schema::{Field, IndexRecordOption, SchemaBuilder, TextFieldIndexing, TextOptions};
use tantivy::TantivyDocument;

use crate::analysis::registry::{AnalysisSettings, Chain};
use crate::completion::contexts::{index_contexts, parse_mappings, ContextMapping};
use crate::error::{EngineError, Result};

/// Lucene's separator between the tokens of an analyzed suggestion.
pub const SEP: char = '\u{1F}';
/// Between the context and the analyzed form.
pub const CONTEXT_END: char = '\u{1E}';

#[derive(Debug, Clone)]
pub struct CompletionSpec {
    pub name: String,
    pub source_path: String,
    pub analyzer: String,
    pub search_analyzer: String,
    pub preserve_separators: bool,
    pub max_input_length: usize,
    pub contexts: Vec<ContextMapping>,
    /// A multi-field of a `geo_point`: each point is suggested as its geohash.
    pub from_geo_point: bool,
}

#[derive(Debug, Clone)]
pub struct CompletionField {
    pub spec: CompletionSpec,
    pub field: Field,
}

fn mapper(reason: String) -> EngineError {
    EngineError::MapperParsing(format!("Failed to parse mapping: {reason}"))
}

fn builtin_chain(name: &str) -> Option<Chain> {
    AnalysisSettings::default().analyzer(name).map(|a| a.chain)
}

/// A multi-field: its name and definition.
type SubField = (String, Map<String, Value>);

/// Parses a `completion` definition; returns it and its multi-fields.
pub fn parse_spec(
    name: &str,
    source_path: &str,
    def: &Map<String, Value>,
    parent_type: Option<&str>,
) -> Result<(CompletionSpec, Vec<SubField>)> {
    let mut spec = CompletionSpec {
        name: name.to_string(),
        source_path: source_path.to_string(),
        analyzer: "simple".into(),
        search_analyzer: String::new(),
        preserve_separators: true,
        max_input_length: 50,
        contexts: Vec::new(),
        from_geo_point: parent_type == Some("geo_point"),
    };
    let mut search_analyzer = None;
    let mut subfields = Vec::new();
    let flag = |key: &str, v: &Value| -> Result<bool> {
        v.as_bool()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            .ok_or_else(|| mapper(format!("[{key}] on completion field [{name}] must be a boolean")))
    };
    for (key, value) in def {
        match key.as_str() {
            "type" => {}
            "analyzer" | "search_analyzer" => {
                let analyzer = value.as_str().unwrap_or_default();
                if builtin_chain(analyzer).is_none() {
                    return Err(mapper(format!("analyzer [{analyzer}] has not been configured in mappings")));
                }
                if key == "analyzer" {
                    spec.analyzer = analyzer.to_string();
                } else {
                    search_analyzer = Some(analyzer.to_string());
                }
            }
            "preserve_separators" => spec.preserve_separators = flag(key, value)?,
            // Position gaps only matter with analyzers that remove tokens; none of the
            // built-in ones a completion field takes here leave gaps inside a phrase it
            // matches differently, so either setting gives the same suggestions.
            "preserve_position_increments" => {
                flag(key, value)?;
            }
            "max_input_length" => {
                spec.max_input_length = value
                    .as_u64()
                    .or_else(|| value.as_str().and_then(|s| s.parse().ok()))
                    .filter(|&n| n > 0)
                    .ok_or_else(|| mapper(format!("[max_input_length] must be > 0 but was [{value}]")))?
                    as usize;
            }
            "contexts" => spec.contexts = parse_mappings(name, value)?,
            "fields" if parent_type.is_none() => {
                let subs = value.as_object().ok_or_else(|| mapper("[fields] must be an object".into()))?;
                for (sub, sub_def) in subs {
                    let sub_def =
                        sub_def.as_object().ok_or_else(|| mapper("multi-field definitions must be objects".into()))?;
                    subfields.push((format!("{name}.{sub}"), sub_def.clone()));
                }
            }
            other => {
                return Err(mapper(format!("unknown parameter [{other}] on mapper [{name}] of type [completion]")));
            }
        }
    }
    spec.search_analyzer = search_analyzer.unwrap_or_else(|| spec.analyzer.clone());
    Ok((spec, subfields))
}

/// The tantivy fields of the completion fields (named `completion{i}`), by ES name.
pub fn add_fields(
    builder: &mut SchemaBuilder,
    specs: Vec<CompletionSpec>,
) -> std::collections::BTreeMap<String, CompletionField> {
    let options = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("raw")
            .set_fieldnorms(false)
            .set_index_option(IndexRecordOption::Basic),
    );
    specs
        .into_iter()
        .enumerate()
        .map(|(i, spec)| {
            let field = builder.add_text_field(&format!("completion{i}"), options.clone());
            (spec.name.clone(), CompletionField { spec, field })
        })
        .collect()
}

/// The analyzed form of `text` with `analyzer`: its tokens joined by the separator.
pub fn analyzed(analyzer: &str, preserve_separators: bool, text: &str) -> String {
    let chain = builtin_chain(analyzer).expect("an analyzer checked when the mapping was parsed");
    let sep = if preserve_separators { SEP.to_string() } else { String::new() };
    chain.analyze(text).into_iter().map(|t| t.term).collect::<Vec<_>>().join(&sep)
}

/// One input of a document: its text, weight and the contexts it names.
struct Input {
    text: String,
    weight: u64,
    contexts: Option<Map<String, Value>>,
}

fn doc_err(field: &str, reason: &str) -> EngineError {
    EngineError::DocumentParsing(format!("failed to parse field [{field}] of type [completion]: {reason}"))
}

fn parse_weight(field: &str, value: &Value) -> Result<u64> {
    let weight = match value {
        Value::Number(n) => {
            n.as_i64().ok_or_else(|| doc_err(field, &format!("weight must be an integer, but was [{n}]")))?
        }
        Value::String(s) => {
            s.parse::<i64>().map_err(|_| doc_err(field, &format!("weight must be a number, but was [{s}]")))?
        }
        other => return Err(doc_err(field, &format!("weight must be a number or string, but was [{other}]"))),
    };
    if !(0..=i64::from(i32::MAX)).contains(&weight) {
        return Err(doc_err(field, &format!("weight must be in the interval [0..2147483647], but was [{weight}]")));
    }
    Ok(weight as u64)
}

fn collect_inputs(field: &str, value: &Value, out: &mut Vec<Input>) -> Result<()> {
    match value {
        Value::Null => {}
        Value::String(s) => out.push(Input { text: s.clone(), weight: 1, contexts: None }),
        Value::Array(items) => {
            for item in items {
                match item {
                    Value::Array(_) => return Err(doc_err(field, "expected text or object, but got START_ARRAY")),
                    other => collect_inputs(field, other, out)?,
                }
            }
        }
        Value::Object(obj) => {
            let mut texts = Vec::new();
            let mut weight = 1;
            let mut contexts = None;
            for (key, v) in obj {
                match key.as_str() {
                    "input" => match v {
                        Value::String(s) => texts.push(s.clone()),
                        Value::Array(items) => {
                            for item in items {
                                let s = item
                                    .as_str()
                                    .ok_or_else(|| doc_err(field, "input array must have string values"))?;
                                texts.push(s.to_string());
                            }
                        }
                        _ => return Err(doc_err(field, "input must be a string or array")),
                    },
                    "weight" => weight = parse_weight(field, v)?,
                    "contexts" => {
                        contexts =
                            Some(v.as_object().cloned().ok_or_else(|| doc_err(field, "contexts must be an object"))?)
                    }
                    other => {
                        return Err(doc_err(
                            field,
                            &format!("unknown field name [{other}], must be one of [input, weight, contexts]"),
                        ))
                    }
                }
            }
            out.extend(texts.into_iter().map(|text| Input { text, weight, contexts: contexts.clone() }));
        }
        other => {
            let kind = if other.is_number() { "VALUE_NUMBER" } else { "VALUE_BOOLEAN" };
            return Err(doc_err(field, &format!("expected text or object, but got {kind}")));
        }
    }
    Ok(())
}

/// Adds the terms of every completion field's inputs in `source` to `doc`.
pub fn add_inputs(
    doc: &mut TantivyDocument,
    completions: &std::collections::BTreeMap<String, CompletionField>,
    source: &Value,
) -> Result<()> {
    for completion in completions.values() {
        let spec = &completion.spec;
        let mut values = Vec::new();
        crate::json_source::lookup_all(source, &spec.source_path, &mut values);
        if values.is_empty() {
            continue;
        }
        let mut inputs = Vec::new();
        for value in values {
            if spec.from_geo_point {
                geo_inputs(&spec.name, value, &mut inputs)?;
            } else {
                collect_inputs(&spec.name, value, &mut inputs)?;
            }
        }
        let document_values = |path: &str| {
            let mut found = Vec::new();
            crate::json_source::lookup_all(source, path, &mut found);
            found.into_iter().cloned().collect::<Vec<Value>>()
        };
        // The same input twice keeps its highest weight, as ES keeps it.
        let mut seen: Vec<(String, u64, Vec<String>)> = Vec::new();
        for input in inputs {
            let text: String = input.text.replace('\0', "").chars().take(spec.max_input_length).collect();
            if text.trim().is_empty() {
                continue;
            }
            let contexts = if spec.contexts.is_empty() {
                vec![String::new()]
            } else {
                let found = index_contexts(&spec.contexts, input.contexts.as_ref(), &document_values)?;
                if found.is_empty() {
                    return Err(EngineError::IllegalArgument(format!(
                        "Contexts are mandatory in context enabled completion field [{}]",
                        spec.name
                    )));
                }
                found
            };
            match seen.iter_mut().find(|(t, _, _)| *t == text) {
                Some(entry) => {
                    entry.1 = entry.1.max(input.weight);
                    entry.2.extend(contexts);
                }
                None => seen.push((text, input.weight, contexts)),
            }
        }
        for (text, weight, mut contexts) in seen {
            contexts.sort();
            contexts.dedup();
            let form = analyzed(&spec.analyzer, spec.preserve_separators, &text);
            for context in contexts {
                doc.add_text(completion.field, format!("{context}{CONTEXT_END}{form}\0{weight}\0{text}"));
            }
        }
    }
    Ok(())
}

/// A `geo_point`'s value as suggestion inputs: each point's full geohash.
fn geo_inputs(field: &str, value: &Value, out: &mut Vec<Input>) -> Result<()> {
    let points: Vec<&Value> = match value {
        Value::Array(items) if !crate::geo::parse::is_coordinate_array(items) => items.iter().collect(),
        other => vec![other],
    };
    for p in points {
        let point = crate::geo::parse::parse_point(p).map_err(|e| doc_err(field, &e))?;
        out.push(Input {
            text: crate::completion::contexts::geohash(point.lat, point.lon, 12),
            weight: 1,
            contexts: None,
        });
    }
    Ok(())
}

/// One indexed suggestion term, split into its parts.
pub struct SuggestionTerm<'a> {
    pub context: &'a str,
    pub analyzed: &'a str,
    pub weight: u64,
    pub text: &'a str,
}

pub fn split_term(term: &[u8]) -> Option<SuggestionTerm<'_>> {
    let s = std::str::from_utf8(term).ok()?;
    let (context, rest) = s.split_once(CONTEXT_END)?;
    let (analyzed, rest) = rest.split_once('\0')?;
    let (weight, text) = rest.split_once('\0')?;
    Some(SuggestionTerm { context, analyzed, weight: weight.parse().ok()?, text })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_definitions_and_refuses_unknown_parameters() {
        let def = json!({"type": "completion", "contexts": [{"name": "color", "type": "category"}], "fields": {"raw": {"type": "keyword"}}});
        let (spec, subs) = parse_spec("s", "s", def.as_object().unwrap(), None).unwrap();
        assert_eq!(spec.analyzer, "simple");
        assert_eq!(spec.contexts.len(), 1);
        assert_eq!(subs[0].0, "s.raw");
        let bad = json!({"type": "completion", "bogus": 1});
        assert!(parse_spec("s", "s", bad.as_object().unwrap(), None).is_err());
    }

    #[test]
    fn inputs_in_every_form() {
        let mut out = Vec::new();
        collect_inputs("s", &json!(["a", {"input": ["b", "c"], "weight": "3"}]), &mut out).unwrap();
        let got: Vec<(&str, u64)> = out.iter().map(|i| (i.text.as_str(), i.weight)).collect();
        assert_eq!(got, [("a", 1), ("b", 3), ("c", 3)]);
        assert!(collect_inputs("s", &json!({"input": "a", "weight": -1}), &mut Vec::new()).is_err());
        assert!(collect_inputs("s", &json!(42), &mut Vec::new()).is_err());
    }

    #[test]
    fn terms_round_trip() {
        let form = analyzed("simple", true, "Foo Red");
        assert_eq!(form, "foo\u{1F}red");
        let term = format!("ared{CONTEXT_END}{form}\x007\x00Foo Red");
        let parts = split_term(term.as_bytes()).unwrap();
        assert_eq!((parts.context, parts.weight, parts.text), ("ared", 7, "Foo Red"));
    }
}
