//! ES's token filters (the ones this engine builds): each rewrites a token list as its Lucene
//! counterpart rewrites the stream (removed tokens leave their position gap; added tokens share
//! the position of the token they came from).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::folding::fold;
use super::stopwords;
use super::token::Tok;
use crate::error::{EngineError, Result};

#[derive(Debug, Clone)]
pub enum TokenFilter {
    Lowercase,
    Uppercase,
    AsciiFolding {
        preserve_original: bool,
    },
    Stop {
        words: HashSet<String>,
        ignore_case: bool,
        remove_trailing: bool,
    },
    Length {
        min: usize,
        max: usize,
    },
    Trim,
    Unique {
        only_on_same_position: bool,
    },
    Reverse,
    Truncate {
        length: usize,
    },
    NGram {
        min: usize,
        max: usize,
        preserve_original: bool,
        edge: bool,
    },
    Shingle(Shingle),
    /// Single-word rules only: each term maps to the terms it is replaced by (itself included
    /// when the rule keeps it).
    Synonym(HashMap<String, Vec<String>>),
}

#[derive(Debug, Clone)]
pub struct Shingle {
    min: usize,
    max: usize,
    output_unigrams: bool,
    output_unigrams_if_no_shingles: bool,
    separator: String,
    filler: String,
}

fn bad(reason: &str) -> EngineError {
    EngineError::IllegalArgument(reason.to_string())
}

fn usize_param(def: &Map<String, Value>, key: &str, default: usize) -> Result<usize> {
    match def.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_u64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            .map(|n| n as usize)
            .ok_or_else(|| bad(&format!("Failed to parse value [{v}] for setting [{key}]"))),
    }
}

fn bool_param(def: &Map<String, Value>, key: &str, default: bool) -> Result<bool> {
    match def.get(key) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) if s == "true" || s == "false" => Ok(s == "true"),
        Some(v) => Err(bad(&format!("Failed to parse value [{v}] as only [true] or [false] are allowed."))),
    }
}

fn str_param<'a>(def: &'a Map<String, Value>, key: &str, default: &'a str) -> &'a str {
    def.get(key).and_then(Value::as_str).unwrap_or(default)
}

impl TokenFilter {
    /// A filter ES ships under this name, with its defaults.
    pub fn builtin(name: &str) -> Option<TokenFilter> {
        let none = Map::new();
        Some(match name {
            "lowercase" => TokenFilter::Lowercase,
            "uppercase" => TokenFilter::Uppercase,
            "asciifolding" => TokenFilter::AsciiFolding { preserve_original: false },
            "stop" => TokenFilter::from_definition("stop", &stop_def()).ok()?,
            "trim" => TokenFilter::Trim,
            "unique" => TokenFilter::Unique { only_on_same_position: false },
            "reverse" => TokenFilter::Reverse,
            "truncate" => TokenFilter::Truncate { length: 10 },
            "length" => TokenFilter::Length { min: 0, max: i32::MAX as usize },
            "ngram" | "nGram" => TokenFilter::NGram { min: 1, max: 2, preserve_original: false, edge: false },
            "edge_ngram" | "edgeNGram" => TokenFilter::NGram { min: 1, max: 2, preserve_original: false, edge: true },
            "shingle" => TokenFilter::Shingle(Shingle::parse(&none).ok()?),
            _ => return None,
        })
    }

    pub fn from_definition(name: &str, def: &Map<String, Value>) -> Result<TokenFilter> {
        let kind = def.get("type").and_then(Value::as_str).ok_or_else(|| {
            bad(&format!("token filter [{name}] must specify either an analyzer type, or a tokenizer"))
        })?;
        Ok(match kind {
            "lowercase" => match def.get("language").and_then(Value::as_str) {
                None => TokenFilter::Lowercase,
                Some(lang) => return Err(bad(&format!("lowercase filter [language] [{lang}] is not supported"))),
            },
            "uppercase" => TokenFilter::Uppercase,
            "asciifolding" => {
                TokenFilter::AsciiFolding { preserve_original: bool_param(def, "preserve_original", false)? }
            }
            "stop" => {
                if def.contains_key("stopwords_path") {
                    return Err(bad("[stopwords_path] is not supported: files cannot be read"));
                }
                let ignore_case = bool_param(def, "ignore_case", false)?;
                let words = stopwords::parse(def.get("stopwords"), &stopwords::ENGLISH)?
                    .into_iter()
                    .map(|w| if ignore_case { w.to_lowercase() } else { w })
                    .collect();
                TokenFilter::Stop { words, ignore_case, remove_trailing: bool_param(def, "remove_trailing", true)? }
            }
            "length" => TokenFilter::Length {
                min: usize_param(def, "min", 0)?,
                max: usize_param(def, "max", i32::MAX as usize)?,
            },
            "trim" => TokenFilter::Trim,
            "unique" => TokenFilter::Unique { only_on_same_position: bool_param(def, "only_on_same_position", false)? },
            "reverse" => TokenFilter::Reverse,
            "truncate" => TokenFilter::Truncate { length: usize_param(def, "length", 10)?.max(1) },
            "ngram" | "nGram" | "edge_ngram" | "edgeNGram" => {
                let edge = kind.starts_with('e');
                let min = usize_param(def, "min_gram", 1)?;
                let max = usize_param(def, "max_gram", 2)?;
                if !edge && max.saturating_sub(min) > 1 {
                    return Err(bad(&format!("The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [1] but was [{}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.", max - min)));
                }
                if def.get("side").is_some_and(|s| s != "front") {
                    return Err(bad("[side] other than [front] is not supported"));
                }
                TokenFilter::NGram { min, max, preserve_original: bool_param(def, "preserve_original", false)?, edge }
            }
            "shingle" => TokenFilter::Shingle(Shingle::parse(def)?),
            "synonym" | "synonym_graph" => TokenFilter::Synonym(parse_synonyms(def)?),
            other => return Err(bad(&format!("Unknown filter type [{other}] for [{name}]"))),
        })
    }

    pub fn apply(&self, tokens: Vec<Tok>) -> Vec<Tok> {
        match self {
            TokenFilter::Lowercase => map_terms(tokens, |t| t.to_lowercase()),
            TokenFilter::Uppercase => map_terms(tokens, |t| t.to_uppercase()),
            TokenFilter::Trim => map_terms(tokens, |t| t.trim().to_string()),
            TokenFilter::Reverse => map_terms(tokens, |t| t.chars().rev().collect()),
            TokenFilter::Truncate { length } => map_terms(tokens, |t| t.chars().take(*length).collect()),
            TokenFilter::AsciiFolding { preserve_original } => {
                let mut out = Vec::with_capacity(tokens.len());
                for tok in tokens {
                    match fold(&tok.term) {
                        Some(folded) if *preserve_original => {
                            out.push(Tok { term: folded, ..tok.clone() });
                            out.push(tok);
                        }
                        Some(folded) => out.push(Tok { term: folded, ..tok }),
                        None => out.push(tok),
                    }
                }
                out
            }
            TokenFilter::Stop { words, ignore_case, remove_trailing } => {
                let last = tokens.len().saturating_sub(1);
                tokens
                    .into_iter()
                    .enumerate()
                    .filter(|(i, t)| {
                        // `remove_trailing: false` keeps a last token that may be a word's start.
                        (!*remove_trailing && *i == last) || {
                            let key = if *ignore_case { t.term.to_lowercase() } else { t.term.clone() };
                            !words.contains(&key)
                        }
                    })
                    .map(|(_, t)| t)
                    .collect()
            }
            TokenFilter::Length { min, max } => {
                tokens.into_iter().filter(|t| (*min..=*max).contains(&t.term.chars().count())).collect()
            }
            TokenFilter::Unique { only_on_same_position } => {
                let mut seen = HashSet::new();
                tokens
                    .into_iter()
                    .filter(|t| {
                        let key =
                            if *only_on_same_position { (t.position, t.term.clone()) } else { (0, t.term.clone()) };
                        seen.insert(key)
                    })
                    .collect()
            }
            TokenFilter::NGram { min, max, preserve_original, edge } => {
                let mut out = Vec::new();
                for tok in tokens {
                    let chars: Vec<char> = tok.term.chars().collect();
                    let mut emitted = false;
                    let starts = if *edge { 0..1 } else { 0..chars.len() };
                    for from in starts {
                        for len in (*min).max(1)..=*max {
                            if from + len > chars.len() {
                                break;
                            }
                            out.push(Tok { term: chars[from..from + len].iter().collect(), ..tok.clone() });
                            emitted = true;
                        }
                    }
                    let whole_emitted =
                        emitted && (chars.len() <= *max && chars.len() >= *min && (*edge || chars.len() == 1));
                    if *preserve_original && !whole_emitted && (chars.len() < *min || chars.len() > *max) {
                        out.push(tok);
                    }
                }
                out
            }
            TokenFilter::Shingle(shingle) => shingle.apply(tokens),
            TokenFilter::Synonym(rules) => {
                let mut out = Vec::with_capacity(tokens.len());
                for tok in tokens {
                    match rules.get(&tok.term) {
                        Some(replacements) => {
                            for term in replacements {
                                let kind = if *term == tok.term { tok.kind } else { "SYNONYM" };
                                out.push(Tok { term: term.clone(), kind, ..tok.clone() });
                            }
                        }
                        None => out.push(tok),
                    }
                }
                out
            }
        }
    }
}

fn stop_def() -> Map<String, Value> {
    let mut def = Map::new();
    def.insert("type".into(), Value::String("stop".into()));
    def
}

fn map_terms(mut tokens: Vec<Tok>, f: impl Fn(&str) -> String) -> Vec<Tok> {
    for tok in &mut tokens {
        tok.term = f(&tok.term);
    }
    tokens
}

impl Shingle {
    fn parse(def: &Map<String, Value>) -> Result<Shingle> {
        let min = usize_param(def, "min_shingle_size", 2)?;
        let max = usize_param(def, "max_shingle_size", 2)?;
        if min < 2 || max < min {
            return Err(bad(&format!(
                "Invalid shingle sizes: min_shingle_size [{min}] must be at least 2 and at most max_shingle_size [{max}]"
            )));
        }
        if max - min > 3 {
            return Err(bad(&format!("In Shingle TokenFilter the difference between max_shingle_size and min_shingle_size (and +1 if outputting unigrams) must be less than or equal to: [3] but was [{}]. This limit can be set by changing the [index.max_shingle_diff] index level setting.", max - min)));
        }
        Ok(Shingle {
            min,
            max,
            output_unigrams: bool_param(def, "output_unigrams", true)?,
            output_unigrams_if_no_shingles: bool_param(def, "output_unigrams_if_no_shingles", false)?,
            separator: str_param(def, "token_separator", " ").to_string(),
            filler: str_param(def, "filler_token", "_").to_string(),
        })
    }

    /// Lucene's `ShingleFilter`: at each position the unigram (if kept), then the shingles
    /// starting there by growing size; a position gap (a removed stop word) is the filler, and
    /// a shingle of fillers alone is not emitted.
    fn apply(&self, tokens: Vec<Tok>) -> Vec<Tok> {
        let Some(first) = tokens.first().map(|t| t.position) else { return tokens };
        let mut slots: Vec<Option<&Tok>> = Vec::new();
        for tok in &tokens {
            let at = tok.position - first;
            if at >= slots.len() {
                slots.resize(at + 1, None);
                slots[at] = Some(tok);
            }
        }
        let mut out = Vec::new();
        let mut any_shingle = false;
        for i in 0..slots.len() {
            if let (Some(tok), true) = (slots[i], self.output_unigrams) {
                out.push(tok.clone());
            }
            for size in self.min..=self.max {
                if i + size > slots.len() {
                    break;
                }
                let window = &slots[i..i + size];
                let real: Vec<&Tok> = window.iter().flatten().copied().collect();
                let (Some(head), Some(last)) = (real.first(), real.last()) else { continue };
                let terms: Vec<&str> =
                    window.iter().map(|s| s.map_or(self.filler.as_str(), |t| t.term.as_str())).collect();
                let mut tok = Tok::new(terms.join(&self.separator), head.start, last.end, first + i, "shingle");
                tok.position_length = size;
                out.push(tok);
                any_shingle = true;
            }
        }
        if !any_shingle && !self.output_unigrams && self.output_unigrams_if_no_shingles {
            return tokens;
        }
        out
    }
}

/// `synonyms` in Solr's format: `a, b, c` (equivalent; with `expand` each maps to all, without
/// to the first) and `a, b => c` (replaced). Rules of several words per side are refused.
fn parse_synonyms(def: &Map<String, Value>) -> Result<HashMap<String, Vec<String>>> {
    if def.contains_key("synonyms_path") {
        return Err(bad("[synonyms_path] is not supported: files cannot be read"));
    }
    if def.get("format").is_some_and(|f| f != "solr") {
        return Err(bad("synonym [format] other than [solr] is not supported"));
    }
    let expand = bool_param(def, "expand", true)?;
    let lenient = bool_param(def, "lenient", false)?;
    let rules: Vec<&str> = match def.get("synonyms") {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        None => Vec::new(),
        Some(_) => return Err(bad("[synonyms] must be an array of strings")),
    };
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    let words = |side: &str| -> Result<Vec<String>> {
        let list: Vec<String> = side.split(',').map(|w| w.trim().to_string()).filter(|w| !w.is_empty()).collect();
        if list.iter().any(|w| w.contains(char::is_whitespace)) {
            return Err(bad("synonym rules of several words are not supported"));
        }
        Ok(list)
    };
    for rule in rules.iter().map(|r| r.trim()).filter(|r| !r.is_empty() && !r.starts_with('#')) {
        let parsed = match rule.split_once("=>") {
            Some((from, to)) => words(from).and_then(|from| Ok((from, words(to)?))),
            None => words(rule).map(|all| {
                let targets = if expand { all.clone() } else { all[..1].to_vec() };
                (all, targets)
            }),
        };
        let (from, to) = match parsed {
            Ok(p) => p,
            Err(_) if lenient => continue,
            Err(e) => return Err(e),
        };
        for word in from {
            let entry = out.entry(word).or_default();
            for target in &to {
                if !entry.contains(target) {
                    entry.push(target.clone());
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn toks(words: &[&str]) -> Vec<Tok> {
        let mut at = 0;
        words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let t = Tok::new(*w, at, at + w.len(), i, "word");
                at += w.len() + 1;
                t
            })
            .collect()
    }

    fn filter(def: Value) -> TokenFilter {
        TokenFilter::from_definition("f", def.as_object().unwrap()).unwrap()
    }

    fn terms(t: &[Tok]) -> Vec<(String, usize)> {
        t.iter().map(|t| (t.term.clone(), t.position)).collect()
    }

    #[test]
    fn stop_keeps_position_gaps() {
        let stop = filter(json!({"type": "stop", "stopwords": ["foo", "buzz"]}));
        assert_eq!(terms(&stop.apply(toks(&["foo", "bar", "buzz"]))), [("bar".to_string(), 1)]);
        let english = TokenFilter::builtin("stop").unwrap();
        assert_eq!(english.apply(toks(&["the", "fox"])).len(), 1);
    }

    #[test]
    fn shingles_with_fillers() {
        let shingle = TokenFilter::builtin("shingle").unwrap();
        let got: Vec<String> = shingle.apply(toks(&["a", "b", "c"])).into_iter().map(|t| t.term).collect();
        assert_eq!(got, ["a", "a b", "b", "b c", "c"]);
        let stop = filter(json!({"type": "stop", "stopwords": ["b"]}));
        let got: Vec<String> = shingle.apply(stop.apply(toks(&["a", "b", "c"]))).into_iter().map(|t| t.term).collect();
        assert_eq!(got, ["a", "a _", "_ c", "c"]);
    }

    #[test]
    fn synonyms_ngrams_and_simple_filters() {
        let syn = filter(json!({"type": "synonym", "synonyms": ["quick, fast", "jump => leap"]}));
        let got = syn.apply(toks(&["quick", "jump"]));
        assert_eq!(terms(&got), [("quick".into(), 0), ("fast".into(), 0), ("leap".into(), 1)]);
        let edge = TokenFilter::builtin("edge_ngram").unwrap();
        assert_eq!(terms(&edge.apply(toks(&["abc"]))), [("a".into(), 0), ("ab".into(), 0)]);
        let length = filter(json!({"type": "length", "min": 2}));
        assert_eq!(length.apply(toks(&["a", "bb"])).len(), 1);
        let unique = TokenFilter::builtin("unique").unwrap();
        assert_eq!(unique.apply(toks(&["a", "a", "b"])).len(), 2);
        assert_eq!(TokenFilter::builtin("reverse").unwrap().apply(toks(&["abc"]))[0].term, "cba");
    }
}
