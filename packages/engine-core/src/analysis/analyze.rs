//! `_analyze`: a text run through a named analyzer, a normalizer, a field's analyzer, or a chain
//! given in the request (`tokenizer`, `filter`, `char_filter`, each by name or as a definition),
//! answered as ES answers: the tokens, or with `explain` each stage's tokens.

use serde_json::{json, Map, Value};

use super::char_filters::CharFilter;
use super::registry::{restore_offsets, AnalysisSettings, Analyzer, Chain};
use super::token::{Tok, Utf16Offsets};
use super::token_filters::TokenFilter;
use super::tokenizers::Tokenizer;
use crate::error::{EngineError, Result};

/// ES's `index.analyze.max_token_count` default.
pub const DEFAULT_MAX_TOKEN_COUNT: usize = 10_000;

/// What the request asks to analyze with.
pub struct AnalyzeRequest {
    texts: Vec<String>,
    analyzer: Option<String>,
    tokenizer: Option<Value>,
    filters: Vec<Value>,
    char_filters: Vec<Value>,
    field: Option<String>,
    normalizer: Option<String>,
    explain: bool,
    attributes: Vec<String>,
}

fn invalid(reason: &str) -> EngineError {
    EngineError::ActionRequestValidation(format!("Validation Failed: 1: {reason};"))
}

fn list(value: &Value) -> Vec<Value> {
    match value {
        Value::Array(items) => items.clone(),
        other => vec![other.clone()],
    }
}

impl AnalyzeRequest {
    pub fn parse(body: &Value) -> Result<AnalyzeRequest> {
        let obj = body.as_object().ok_or_else(|| EngineError::Parsing("request body must be an object".into()))?;
        let mut req = AnalyzeRequest {
            texts: Vec::new(),
            analyzer: None,
            tokenizer: None,
            filters: Vec::new(),
            char_filters: Vec::new(),
            field: None,
            normalizer: None,
            explain: false,
            attributes: Vec::new(),
        };
        let string = |key: &str, v: &Value| -> Result<String> {
            v.as_str().map(str::to_string).ok_or_else(|| {
                EngineError::XContentParse(format!(
                    "[analyze_request] {key} doesn't support values of type: {}",
                    kind(v)
                ))
            })
        };
        for (key, value) in obj {
            match key.as_str() {
                "text" => {
                    req.texts = list(value).iter().map(|v| string(key, v)).collect::<Result<_>>()?;
                }
                "analyzer" => req.analyzer = Some(string(key, value)?),
                "tokenizer" => req.tokenizer = Some(value.clone()),
                "filter" | "token_filter" => req.filters = list(value),
                "char_filter" => req.char_filters = list(value),
                "field" => req.field = Some(string(key, value)?),
                "normalizer" => req.normalizer = Some(string(key, value)?),
                "explain" => {
                    req.explain =
                        value.as_bool().or_else(|| value.as_str().and_then(|s| s.parse().ok())).ok_or_else(|| {
                            EngineError::XContentParse("[analyze_request] failed to parse field [explain]".to_string())
                        })?
                }
                "attributes" => {
                    req.attributes =
                        list(value).iter().map(|v| string(key, v).map(|s| s.to_lowercase())).collect::<Result<_>>()?;
                }
                other => {
                    return Err(EngineError::XContentParse(format!("[analyze_request] unknown field [{other}]")));
                }
            }
        }
        if req.texts.is_empty() {
            return Err(invalid("text is missing"));
        }
        let components = req.tokenizer.is_some() || !req.filters.is_empty() || !req.char_filters.is_empty();
        if req.analyzer.is_some() && components {
            return Err(invalid("cannot define extra components on a named analyzer"));
        }
        if req.normalizer.is_some() && (req.analyzer.is_some() || req.tokenizer.is_some()) {
            return Err(invalid("tokenizer/analyze should be null if normalizer is specified"));
        }
        if req.normalizer.is_none() && req.tokenizer.is_none() && components {
            return Err(invalid("tokenizer is missing"));
        }
        Ok(req)
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Number(_) => "VALUE_NUMBER",
        Value::Bool(_) => "VALUE_BOOLEAN",
        Value::Object(_) => "START_OBJECT",
        Value::Array(_) => "START_ARRAY",
        Value::Null => "VALUE_NULL",
        Value::String(_) => "VALUE_STRING",
    }
}

/// The index a request runs against: its analysis components and what its fields use.
pub struct IndexAnalysis<'a> {
    pub settings: &'a AnalysisSettings,
    pub max_token_count: usize,
    /// The analyzer of a mapped field and its name, `None` when the field is unmapped.
    pub field_analyzer: &'a dyn Fn(&str) -> Option<(String, Analyzer)>,
    /// Whether the request named an index (errors then say "analyzer", not "global analyzer").
    pub has_index: bool,
}

/// What a request resolves to.
enum Resolved {
    Named(String, Analyzer),
    Components(Chain),
}

fn resolve(req: &AnalyzeRequest, index: &IndexAnalysis) -> Result<Resolved> {
    let scope = if index.has_index { "" } else { "global " };
    if let Some(name) = &req.analyzer {
        let analyzer = index
            .settings
            .analyzer(name)
            .ok_or_else(|| EngineError::IllegalArgument(format!("failed to find {scope}analyzer [{name}]")))?;
        return Ok(Resolved::Named(name.clone(), analyzer));
    }
    if let Some(name) = &req.normalizer {
        let mut chain = index
            .settings
            .normalizer(name)
            .ok_or_else(|| EngineError::IllegalArgument(format!("failed to find normalizer under [{name}]")))?;
        add_components(req, index, &mut chain)?;
        return Ok(Resolved::Components(chain));
    }
    if let Some(tokenizer) = &req.tokenizer {
        let tokenizer =
            component(tokenizer, "tokenizer", scope, |n| index.settings.tokenizer(n), Tokenizer::from_definition)?;
        let mut chain = Chain { char_filters: Vec::new(), tokenizer, filters: Vec::new() };
        add_components(req, index, &mut chain)?;
        return Ok(Resolved::Components(chain));
    }
    if let Some(field) = &req.field {
        if let Some((name, analyzer)) = (index.field_analyzer)(field) {
            return Ok(Resolved::Named(name, analyzer));
        }
    }
    let analyzer = index.settings.analyzer("standard").expect("the standard analyzer");
    Ok(Resolved::Named("standard".into(), analyzer))
}

fn add_components(req: &AnalyzeRequest, index: &IndexAnalysis, chain: &mut Chain) -> Result<()> {
    let scope = if index.has_index { "" } else { "global " };
    for f in &req.char_filters {
        chain.char_filters.push(component(
            f,
            "char_filter",
            scope,
            |n| index.settings.char_filter(n),
            CharFilter::from_definition,
        )?);
    }
    for f in &req.filters {
        chain.filters.push(component(
            f,
            "filter",
            scope,
            |n| index.settings.token_filter(n),
            TokenFilter::from_definition,
        )?);
    }
    Ok(())
}

/// A component named (looked up) or defined inline (named `__anonymous__<type>`, as ES names it).
fn component<T>(
    value: &Value,
    what: &str,
    scope: &str,
    by_name: impl Fn(&str) -> Option<T>,
    define: impl Fn(&str, &Map<String, Value>) -> Result<T>,
) -> Result<(String, T)> {
    match value {
        Value::String(name) => by_name(name)
            .map(|t| (name.clone(), t))
            .ok_or_else(|| EngineError::IllegalArgument(format!("failed to find {scope}{what} under [{name}]"))),
        Value::Object(def) => {
            let kind = def.get("type").and_then(Value::as_str).unwrap_or_default();
            let name = format!("__anonymous__{kind}");
            Ok((name.clone(), define(&name, def)?))
        }
        other => Err(EngineError::IllegalArgument(format!("[{what}] must be a name or a definition, got [{other}]"))),
    }
}

/// Runs the request: ES's `{"tokens": [...]}` or, with `explain`, `{"detail": {...}}`.
pub fn analyze(req: &AnalyzeRequest, index: &IndexAnalysis) -> Result<Value> {
    let resolved = resolve(req, index)?;
    let limit = index.max_token_count;
    let too_many = || {
        EngineError::IllegalState(format!(
            "The number of tokens produced by calling _analyze has exceeded the allowed maximum of [{limit}]. This limit can be set by changing the [index.analyze.max_token_count] index level setting."
        ))
    };
    let (chain, gap) = match &resolved {
        Resolved::Named(_, a) => (&a.chain, a.position_increment_gap),
        Resolved::Components(c) => (c, 0),
    };
    if !req.explain {
        let mut all = Vec::new();
        let mut stream = Stream::default();
        for text in &req.texts {
            let tokens = chain.analyze(text);
            stream.add(text, tokens, gap, &mut all);
            if all.len() > limit {
                return Err(too_many());
            }
        }
        let tokens: Vec<Value> = all.iter().map(|t| token_json(t, None)).collect();
        return Ok(json!({ "tokens": tokens }));
    }
    let attrs = Some(req.attributes.as_slice());
    let render = |stage: &[(String, Tok)]| -> Vec<Value> { stage.iter().map(|(_, t)| token_json(t, attrs)).collect() };
    match &resolved {
        Resolved::Named(name, analyzer) if !analyzer.custom => {
            let stage = run_stage(&req.texts, gap, limit, |t| analyzer.chain.analyze(t)).ok_or_else(too_many)?;
            Ok(json!({"detail": {"custom_analyzer": false, "analyzer": {"name": name, "tokens": render(&stage)}}}))
        }
        _ => {
            // Each stage is run on every text from the start, as ES's detailed analysis does.
            let mut charfilters = Vec::new();
            for i in 0..chain.char_filters.len() {
                let partial = Chain { char_filters: chain.char_filters[..=i].to_vec(), ..chain.clone() };
                let texts: Vec<String> = req.texts.iter().map(|t| partial.char_filter(t).text).collect();
                charfilters.push(json!({"name": chain.char_filters[i].0, "filtered_text": texts}));
            }
            let tokenize = |text: &str, filters: usize| {
                let filtered = chain.char_filter(text);
                let mut tokens = chain.tokenizer.1.tokenize(&filtered.text);
                for (_, f) in &chain.filters[..filters] {
                    tokens = f.apply(tokens);
                }
                restore_offsets(&mut tokens, &filtered);
                tokens
            };
            let tokenizer = run_stage(&req.texts, gap, limit, |t| tokenize(t, 0)).ok_or_else(too_many)?;
            let mut tokenfilters = Vec::new();
            for i in 0..chain.filters.len() {
                let stage = run_stage(&req.texts, gap, limit, |t| tokenize(t, i + 1)).ok_or_else(too_many)?;
                tokenfilters.push(json!({"name": chain.filters[i].0, "tokens": render(&stage)}));
            }
            Ok(json!({"detail": {
                "custom_analyzer": true,
                "charfilters": charfilters,
                "tokenizer": {"name": chain.tokenizer.0, "tokens": render(&tokenizer)},
                "tokenfilters": tokenfilters,
            }}))
        }
    }
}

/// One stage's tokens over every text; `None` past the token limit.
fn run_stage(texts: &[String], gap: usize, limit: usize, f: impl Fn(&str) -> Vec<Tok>) -> Option<Vec<(String, Tok)>> {
    let mut all = Vec::new();
    let mut stream = Stream::default();
    for text in texts {
        stream.add(text, f(text), gap, &mut all);
        if all.len() > limit {
            return None;
        }
    }
    Some(all.into_iter().map(|t| (String::new(), t)).collect())
}

/// Positions and offsets continued across the values of `text` as ES's `_analyze` continues
/// them: each value's offsets follow the previous value's last offset plus 1, its positions
/// follow the last position plus the analyzer's `position_increment_gap`.
#[derive(Default)]
struct Stream {
    next_position: usize,
    offset_base: usize,
}

impl Stream {
    fn add(&mut self, text: &str, tokens: Vec<Tok>, gap: usize, out: &mut Vec<Tok>) {
        let units = Utf16Offsets::new(text);
        let mut last_position = None;
        for mut tok in tokens {
            tok.start = self.offset_base + units.at(tok.start);
            tok.end = self.offset_base + units.at(tok.end);
            tok.position += self.next_position;
            last_position = Some(last_position.map_or(tok.position, |p: usize| p.max(tok.position)));
            out.push(tok);
        }
        if let Some(p) = last_position {
            self.next_position = p + 1 + gap;
        } else {
            self.next_position += gap;
        }
        self.offset_base += units.len() + 1;
    }
}

fn token_json(t: &Tok, explain_attributes: Option<&[String]>) -> Value {
    let mut out = Map::new();
    out.insert("token".into(), json!(t.term));
    out.insert("start_offset".into(), json!(t.start));
    out.insert("end_offset".into(), json!(t.end));
    out.insert("type".into(), json!(t.kind));
    out.insert("position".into(), json!(t.position));
    match explain_attributes {
        None => {
            if t.position_length > 1 {
                out.insert("positionLength".into(), json!(t.position_length));
            }
        }
        Some(wanted) => {
            let keep = |name: &str| wanted.is_empty() || wanted.iter().any(|w| w == &name.to_lowercase());
            if keep("bytes") {
                let hex: Vec<String> = t.term.bytes().map(|b| format!("{b:02x}")).collect();
                out.insert("bytes".into(), json!(format!("[{}]", hex.join(" "))));
            }
            if keep("positionLength") {
                out.insert("positionLength".into(), json!(t.position_length));
            }
            if keep("termFrequency") {
                out.insert("termFrequency".into(), json!(1));
            }
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(body: Value) -> Result<Value> {
        let settings = AnalysisSettings::default();
        let none = |_: &str| None;
        let index = IndexAnalysis { settings: &settings, max_token_count: 3, field_analyzer: &none, has_index: false };
        analyze(&AnalyzeRequest::parse(&body)?, &index)
    }

    #[test]
    fn tokens_with_offsets_across_values() {
        let out = run(json!({"text": ["Foo Bar", "Baz"], "tokenizer": "standard"})).unwrap();
        assert_eq!(
            out["tokens"][0],
            json!({"token": "Foo", "start_offset": 0, "end_offset": 3, "type": "<ALPHANUM>", "position": 0})
        );
        assert_eq!(out["tokens"][2]["start_offset"], 8);
        assert_eq!(out["tokens"][2]["position"], 2);
    }

    #[test]
    fn explain_named_and_custom() {
        let out = run(json!({"text": "This is troubled", "analyzer": "standard", "explain": true})).unwrap();
        assert_eq!(out["detail"]["custom_analyzer"], false);
        assert_eq!(out["detail"]["analyzer"]["tokens"][0]["bytes"], "[74 68 69 73]");
        let out = run(json!({"text": "foo bar buzz", "tokenizer": "standard", "explain": true,
            "filter": [{"type": "stop", "stopwords": ["foo", "buzz"]}]}))
        .unwrap();
        assert_eq!(out["detail"]["tokenizer"]["tokens"].as_array().unwrap().len(), 3);
        assert_eq!(out["detail"]["tokenfilters"][0]["name"], "__anonymous__stop");
        assert_eq!(out["detail"]["tokenfilters"][0]["tokens"][0]["token"], "bar");
    }

    #[test]
    fn errors() {
        assert!(run(json!({"text": "a b c d"})).unwrap_err().to_string().contains("allowed maximum of [3]"));
        assert_eq!(
            run(json!({"analyzer": "standard"})).unwrap_err().to_string(),
            "Validation Failed: 1: text is missing;"
        );
        assert_eq!(
            run(json!({"text": "a", "analyzer": "nope"})).unwrap_err().to_string(),
            "failed to find global analyzer [nope]"
        );
        assert!(run(json!({"text": "a", "analyzer": "standard", "filter": ["lowercase"]})).is_err());
        assert!(run(json!({"text": "a", "bogus": 1})).is_err());
    }
}
