//! Analyzers by name: ES's built-in ones and those an index defines in `settings.analysis`
//! (`analyzer`, `tokenizer`, `filter`, `char_filter`, `normalizer`), each resolved to a chain of
//! char filters, one tokenizer and token filters.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::char_filters::{CharFilter, Filtered};
use super::stopwords;
use super::token::Tok;
use super::token_filters::TokenFilter;
use super::tokenizers::Tokenizer;
use crate::error::{EngineError, Result};

/// One analysis chain; each part keeps the name `_analyze`'s `explain` reports.
#[derive(Debug, Clone)]
pub struct Chain {
    pub char_filters: Vec<(String, CharFilter)>,
    pub tokenizer: (String, Tokenizer),
    pub filters: Vec<(String, TokenFilter)>,
}

impl Chain {
    fn of(tokenizer: &str, filters: Vec<(String, TokenFilter)>) -> Chain {
        let t = Tokenizer::builtin(tokenizer).expect("a built-in tokenizer");
        Chain { char_filters: Vec::new(), tokenizer: (tokenizer.to_string(), t), filters }
    }

    /// The text after the char filters, with its offsets back into `text`.
    pub fn char_filter(&self, text: &str) -> Filtered {
        let mut filtered = Filtered::identity(text);
        for (_, f) in &self.char_filters {
            filtered = f.filter(filtered);
        }
        filtered
    }

    /// Tokens of `text` with offsets into `text` itself.
    pub fn analyze(&self, text: &str) -> Vec<Tok> {
        let filtered = self.char_filter(text);
        let mut tokens = self.tokenizer.1.tokenize(&filtered.text);
        for (_, f) in &self.filters {
            tokens = f.apply(tokens);
        }
        restore_offsets(&mut tokens, &filtered);
        tokens
    }
}

/// Maps tokens' offsets in the filtered text back to the original text.
pub fn restore_offsets(tokens: &mut [Tok], filtered: &Filtered) {
    let last = filtered.origin.len() - 1;
    for tok in tokens {
        tok.start = filtered.origin[tok.start.min(last)];
        tok.end = filtered.origin[tok.end.min(last)];
    }
}

/// A named analyzer: ES's built-ins and the `type: standard|simple|...` ones an index configures
/// report themselves whole in `explain`; `custom` ones report each component.
#[derive(Debug, Clone)]
pub struct Analyzer {
    pub chain: Chain,
    pub custom: bool,
    /// Positions added between the values of an array (`position_increment_gap`).
    pub position_increment_gap: usize,
}

/// Every analysis component an index defines.
#[derive(Debug, Clone, Default)]
pub struct AnalysisSettings {
    analyzers: BTreeMap<String, Analyzer>,
    normalizers: BTreeMap<String, Chain>,
    tokenizers: BTreeMap<String, Tokenizer>,
    filters: BTreeMap<String, TokenFilter>,
    char_filters: BTreeMap<String, CharFilter>,
}

fn bad(reason: String) -> EngineError {
    EngineError::IllegalArgument(reason)
}

fn objects<'a>(root: &'a Map<String, Value>, key: &str) -> Result<Vec<(&'a String, &'a Map<String, Value>)>> {
    let Some(section) = root.get(key) else { return Ok(Vec::new()) };
    let section = section.as_object().ok_or_else(|| bad(format!("[index.analysis.{key}] must be an object")))?;
    section
        .iter()
        .map(|(name, def)| {
            def.as_object()
                .map(|d| (name, d))
                .ok_or_else(|| bad(format!("[index.analysis.{key}.{name}] must be an object")))
        })
        .collect()
}

/// `filter: "a"` or `filter: ["a", "b"]` (ES also takes a comma-separated string).
fn names(def: &Map<String, Value>, key: &str) -> Vec<String> {
    match def.get(key) {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        Some(Value::String(s)) => s.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect(),
        _ => Vec::new(),
    }
}

impl AnalysisSettings {
    /// Parses `index.analysis` (an object of sections), checking every reference as ES does when
    /// the index is created.
    pub fn parse(analysis: &Value) -> Result<AnalysisSettings> {
        let root = analysis.as_object().ok_or_else(|| bad("[index.analysis] must be an object".into()))?;
        for key in root.keys() {
            if !matches!(key.as_str(), "analyzer" | "tokenizer" | "filter" | "char_filter" | "normalizer") {
                return Err(bad(format!(
                    "unknown setting [index.analysis.{key}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings"
                )));
            }
        }
        let mut out = AnalysisSettings::default();
        for (name, def) in objects(root, "tokenizer")? {
            out.tokenizers.insert(name.clone(), Tokenizer::from_definition(name, def)?);
        }
        for (name, def) in objects(root, "filter")? {
            out.filters.insert(name.clone(), TokenFilter::from_definition(name, def)?);
        }
        for (name, def) in objects(root, "char_filter")? {
            out.char_filters.insert(name.clone(), CharFilter::from_definition(name, def)?);
        }
        for (name, def) in objects(root, "analyzer")? {
            // These would change how every text field is indexed or searched; text fields
            // here are always indexed with `standard`, so they are refused, not ignored.
            if matches!(name.as_str(), "default" | "default_search" | "default_search_quoted") {
                return Err(bad(format!(
                    "analyzer [{name}] is not supported: text fields are analyzed with [standard]"
                )));
            }
            let analyzer = out.analyzer_from_definition(name, def)?;
            out.analyzers.insert(name.clone(), analyzer);
        }
        for (name, def) in objects(root, "normalizer")? {
            let normalizer = out.normalizer_from_definition(name, def)?;
            out.normalizers.insert(name.clone(), normalizer);
        }
        Ok(out)
    }

    fn analyzer_from_definition(&self, name: &str, def: &Map<String, Value>) -> Result<Analyzer> {
        let kind = match def.get("type").and_then(Value::as_str) {
            Some(kind) => kind,
            None if def.contains_key("tokenizer") => "custom",
            None => return Err(bad(format!("analyzer [{name}] must specify either an analyzer type, or a tokenizer"))),
        };
        let gap = match def.get("position_increment_gap") {
            None => 100,
            Some(v) => v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok())).ok_or_else(|| {
                bad(format!(
                    "Failed to parse value [{v}] for setting [index.analysis.analyzer.{name}.position_increment_gap]"
                ))
            })? as usize,
        };
        if kind != "custom" {
            let chain = builtin_analyzer(kind, def)?
                .ok_or_else(|| bad(format!("Unknown analyzer type [{kind}] for [{name}]")))?;
            return Ok(Analyzer { chain, custom: false, position_increment_gap: gap });
        }
        let tokenizer_name = def
            .get("tokenizer")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(format!("Custom Analyzer [{name}] must be configured with a tokenizer")))?;
        let tokenizer = self.tokenizer(tokenizer_name).ok_or_else(|| {
            bad(format!("Custom Analyzer [{name}] failed to find tokenizer under name [{tokenizer_name}]"))
        })?;
        let mut chain =
            Chain { char_filters: Vec::new(), tokenizer: (tokenizer_name.to_string(), tokenizer), filters: Vec::new() };
        self.add_components(name, "Custom Analyzer", def, &mut chain)?;
        Ok(Analyzer { chain, custom: true, position_increment_gap: gap })
    }

    fn normalizer_from_definition(&self, name: &str, def: &Map<String, Value>) -> Result<Chain> {
        if let Some(kind) = def.get("type").and_then(Value::as_str).filter(|k| *k != "custom") {
            return Err(bad(format!("Unknown normalizer type [{kind}] for [{name}]")));
        }
        let mut chain = Chain::of("keyword", Vec::new());
        self.add_components(name, "Custom normalizer", def, &mut chain)?;
        Ok(chain)
    }

    fn add_components(&self, name: &str, what: &str, def: &Map<String, Value>, chain: &mut Chain) -> Result<()> {
        for filter in names(def, "char_filter") {
            let found = self
                .char_filter(&filter)
                .ok_or_else(|| bad(format!("{what} [{name}] failed to find char_filter under name [{filter}]")))?;
            chain.char_filters.push((filter, found));
        }
        for filter in names(def, "filter") {
            let found = self
                .token_filter(&filter)
                .ok_or_else(|| bad(format!("{what} [{name}] failed to find filter under name [{filter}]")))?;
            chain.filters.push((filter, found));
        }
        Ok(())
    }

    pub fn tokenizer(&self, name: &str) -> Option<Tokenizer> {
        self.tokenizers.get(name).cloned().or_else(|| Tokenizer::builtin(name))
    }

    pub fn token_filter(&self, name: &str) -> Option<TokenFilter> {
        self.filters.get(name).cloned().or_else(|| TokenFilter::builtin(name))
    }

    pub fn char_filter(&self, name: &str) -> Option<CharFilter> {
        self.char_filters.get(name).cloned().or_else(|| CharFilter::builtin(name))
    }

    /// An analyzer the index defines, or one of ES's built-in analyzers.
    pub fn analyzer(&self, name: &str) -> Option<Analyzer> {
        if let Some(a) = self.analyzers.get(name) {
            return Some(a.clone());
        }
        let chain = builtin_analyzer(name, &Map::new()).ok().flatten()?;
        Some(Analyzer { chain, custom: false, position_increment_gap: 0 })
    }

    pub fn has_analyzer(&self, name: &str) -> bool {
        self.analyzers.contains_key(name)
    }

    /// A normalizer the index defines, or ES's built-in `lowercase`.
    pub fn normalizer(&self, name: &str) -> Option<Chain> {
        if let Some(n) = self.normalizers.get(name) {
            return Some(n.clone());
        }
        (name == "lowercase").then(|| Chain::of("keyword", vec![("lowercase".into(), TokenFilter::Lowercase)]))
    }
}

/// ES's analyzers by type (`standard`, `simple`, `whitespace`, `keyword`, `stop`, `pattern`),
/// configured by `def`; `None` for a type ES has but this engine does not build.
fn builtin_analyzer(kind: &str, def: &Map<String, Value>) -> Result<Option<Chain>> {
    let stop = |default: &[&str]| -> Result<Vec<(String, TokenFilter)>> {
        let words = stopwords::parse(def.get("stopwords"), default)?;
        if words.is_empty() {
            return Ok(Vec::new());
        }
        let mut stop_def = Map::new();
        stop_def.insert("type".into(), Value::String("stop".into()));
        stop_def.insert("stopwords".into(), Value::Array(words.into_iter().map(Value::String).collect()));
        Ok(vec![("stop".to_string(), TokenFilter::from_definition("stop", &stop_def)?)])
    };
    let lowercase = || ("lowercase".to_string(), TokenFilter::Lowercase);
    Ok(Some(match kind {
        "standard" => {
            let mut chain = Chain::of("standard", vec![lowercase()]);
            if let Some(max) = def.get("max_token_length") {
                let mut t = Map::new();
                t.insert("type".into(), Value::String("standard".into()));
                t.insert("max_token_length".into(), max.clone());
                chain.tokenizer.1 = Tokenizer::from_definition("standard", &t)?;
            }
            chain.filters.extend(stop(&[])?);
            chain
        }
        "simple" => Chain::of("lowercase", Vec::new()),
        "whitespace" => Chain::of("whitespace", Vec::new()),
        "keyword" => Chain::of("keyword", Vec::new()),
        "stop" => Chain::of("lowercase", stop(&stopwords::ENGLISH)?),
        "pattern" => {
            let mut t = Map::new();
            t.insert("type".into(), Value::String("pattern".into()));
            if let Some(p) = def.get("pattern") {
                t.insert("pattern".into(), p.clone());
            }
            let mut filters = Vec::new();
            if def.get("lowercase").is_none_or(|v| v == true || v == "true") {
                filters.push(lowercase());
            }
            filters.extend(stop(&[])?);
            Chain {
                char_filters: Vec::new(),
                tokenizer: ("pattern".into(), Tokenizer::from_definition("pattern", &t)?),
                filters,
            }
        }
        _ => return Ok(None),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn terms(chain: &Chain, text: &str) -> Vec<String> {
        chain.analyze(text).into_iter().map(|t| t.term).collect()
    }

    #[test]
    fn builtin_analyzers() {
        let none = AnalysisSettings::default();
        assert_eq!(terms(&none.analyzer("standard").unwrap().chain, "Foo Bar!"), ["foo", "bar"]);
        assert_eq!(terms(&none.analyzer("simple").unwrap().chain, "Foo-Bar 42"), ["foo", "bar"]);
        assert_eq!(terms(&none.analyzer("stop").unwrap().chain, "The Fox"), ["fox"]);
        assert_eq!(terms(&none.analyzer("keyword").unwrap().chain, "The Fox"), ["The Fox"]);
        assert!(none.analyzer("nope").is_none());
    }

    #[test]
    fn custom_analyzers_resolve_their_components() {
        let settings = AnalysisSettings::parse(&json!({
            "char_filter": {"emoticons": {"type": "mapping", "mappings": [":) => happy"]}},
            "tokenizer": {"grams": {"type": "edge_ngram", "min_gram": 1, "max_gram": 3}},
            "filter": {"my_stop": {"type": "stop", "stopwords": ["happy"]}},
            "analyzer": {
                "my": {"type": "custom", "tokenizer": "whitespace", "char_filter": ["emoticons"], "filter": ["lowercase", "my_stop"]},
                "edge": {"tokenizer": "grams"},
                "std_stop": {"type": "standard", "stopwords": "_english_"}
            },
            "normalizer": {"lower": {"type": "custom", "filter": ["lowercase", "asciifolding"]}}
        }))
        .unwrap();
        let my = settings.analyzer("my").unwrap();
        assert!(my.custom);
        let toks = my.chain.analyze("I am :) Now");
        let got: Vec<(String, usize, usize)> = toks.into_iter().map(|t| (t.term, t.start, t.end)).collect();
        assert_eq!(got, [("i".into(), 0, 1), ("am".into(), 2, 4), ("now".into(), 8, 11)]);
        assert_eq!(terms(&settings.analyzer("edge").unwrap().chain, "abcd"), ["a", "ab", "abc"]);
        assert_eq!(terms(&settings.analyzer("std_stop").unwrap().chain, "The fox"), ["fox"]);
        assert_eq!(terms(&settings.normalizer("lower").unwrap(), "Éclair Au"), ["eclair au"]);
    }

    #[test]
    fn unknown_references_fail_as_es_does() {
        let err = AnalysisSettings::parse(&json!({"analyzer": {"a": {"tokenizer": "nope"}}})).unwrap_err();
        assert_eq!(err.to_string(), "Custom Analyzer [a] failed to find tokenizer under name [nope]");
        let err = AnalysisSettings::parse(&json!({"analyzer": {"a": {"tokenizer": "standard", "filter": ["x"]}}}))
            .unwrap_err();
        assert_eq!(err.to_string(), "Custom Analyzer [a] failed to find filter under name [x]");
        assert!(AnalysisSettings::parse(&json!({"analyzer": {"a": {"type": "klingon"}}})).is_err());
    }
}

/// An index's `analysis` settings as given and as parsed; equal when given alike.
#[derive(Debug, Clone, Default)]
pub struct IndexAnalysisSettings {
    pub given: Value,
    pub parsed: std::sync::Arc<AnalysisSettings>,
}

impl PartialEq for IndexAnalysisSettings {
    fn eq(&self, other: &Self) -> bool {
        self.given == other.given
    }
}

impl IndexAnalysisSettings {
    pub fn parse(given: Value) -> Result<IndexAnalysisSettings> {
        let parsed = std::sync::Arc::new(AnalysisSettings::parse(&given)?);
        Ok(IndexAnalysisSettings { given, parsed })
    }
}
