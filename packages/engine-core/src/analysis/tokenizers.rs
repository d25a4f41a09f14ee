//! ES's tokenizers (the ones this engine builds): each splits a text into tokens with byte
//! offsets and positions, as its Lucene counterpart does.

use serde_json::{Map, Value};
use tantivy::tokenizer::{TokenStream, Tokenizer as _};

use super::token::Tok;
use crate::analysis::{StandardTokenizer, MAX_TOKEN_CHARS};
use crate::error::{EngineError, Result};

/// Which characters a `ngram`/`edge_ngram`/`char_group` tokenizer keeps in a token.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CharClasses {
    letter: bool,
    digit: bool,
    whitespace: bool,
    punctuation: bool,
    symbol: bool,
    custom: Vec<char>,
}

impl CharClasses {
    fn parse(value: Option<&Value>, custom: Option<&Value>, what: &str) -> Result<Option<CharClasses>> {
        let Some(value) = value else { return Ok(None) };
        let names: Vec<String> = match value {
            Value::Array(items) => items.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect(),
            Value::String(s) => s.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect(),
            _ => return Err(bad(&format!("[{what}] must be an array of strings"))),
        };
        if names.is_empty() {
            return Ok(None);
        }
        let mut out = CharClasses::default();
        for name in names {
            match name.as_str() {
                "letter" => out.letter = true,
                "digit" => out.digit = true,
                "whitespace" => out.whitespace = true,
                "punctuation" => out.punctuation = true,
                "symbol" => out.symbol = true,
                "custom" => {
                    let chars = custom.and_then(Value::as_str).ok_or_else(|| {
                        bad("Token type: [custom] requires setting `custom_token_chars`")
                    })?;
                    out.custom.extend(chars.chars());
                }
                // `char_group` also takes single characters and escapes.
                single if what == "tokenize_on_chars" => out.custom.extend(unescape(single)),
                other => return Err(bad(&format!("Unknown token type: '{other}', must be one of [symbol, private_use, paragraph_separator, start_punctuation, unassigned, enclosing_mark, connector_punctuation, letter_number, other_number, math_symbol, lowercase_letter, space_separator, surrogate, initial_quote_punctuation, decimal_digit_number, digit, other_punctuation, dash_punctuation, currency_symbol, non_spacing_mark, format, modifier_letter, control, uppercase_letter, other_symbol, modifier_symbol, other_letter, line_separator, titlecase_letter, letter, punctuation, combining_spacing_mark, final_quote_punctuation, whitespace, enclosing_punctuation, custom, connecting_punctuation]"))),
            }
        }
        Ok(Some(out))
    }

    fn contains(&self, c: char) -> bool {
        (self.letter && c.is_alphabetic())
            || (self.digit && c.is_numeric())
            || (self.whitespace && c.is_whitespace())
            || (self.punctuation && is_punctuation(c))
            || (self.symbol && is_symbol(c))
            || self.custom.contains(&c)
    }
}

fn unescape(s: &str) -> Vec<char> {
    match s {
        "\\n" => vec!['\n'],
        "\\t" => vec!['\t'],
        "\\r" => vec!['\r'],
        _ => s.chars().take(1).collect(),
    }
}

fn is_punctuation(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    c.general_category_group() == GeneralCategoryGroup::Punctuation
}

fn is_symbol(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    c.general_category_group() == GeneralCategoryGroup::Symbol
}

/// Java's `Character.isWhitespace`: Unicode spaces except the non-breaking ones.
fn is_java_whitespace(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{A0}' | '\u{2007}' | '\u{202F}')
}

#[derive(Debug, Clone)]
pub enum Tokenizer {
    Standard {
        max_token_length: usize,
    },
    Whitespace {
        max_token_length: usize,
    },
    Keyword,
    Letter,
    /// Letters, lowercased (ES's `lowercase` tokenizer, and the `simple` analyzer's).
    Lowercase,
    NGram {
        min: usize,
        max: usize,
        chars: Option<CharClasses>,
    },
    EdgeNGram {
        min: usize,
        max: usize,
        chars: Option<CharClasses>,
    },
    Pattern {
        pattern: regex::Regex,
        group: i64,
        lowercase_regex_text: String,
    },
    PathHierarchy {
        delimiter: char,
        replacement: char,
        skip: usize,
        reverse: bool,
    },
    CharGroup {
        on: CharClasses,
        max_token_length: usize,
    },
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

fn char_param(def: &Map<String, Value>, key: &str, default: char) -> Result<char> {
    match def.get(key).and_then(Value::as_str) {
        None => Ok(default),
        Some(s) if s.chars().count() == 1 => Ok(s.chars().next().unwrap_or(default)),
        Some(_) => Err(bad(&format!("[{key}] must be a single character"))),
    }
}

impl Tokenizer {
    /// A tokenizer ES ships under this name, with its defaults.
    pub fn builtin(name: &str) -> Option<Tokenizer> {
        Some(match name {
            "standard" => Tokenizer::Standard { max_token_length: MAX_TOKEN_CHARS },
            "whitespace" => Tokenizer::Whitespace { max_token_length: MAX_TOKEN_CHARS },
            "keyword" => Tokenizer::Keyword,
            "letter" => Tokenizer::Letter,
            "lowercase" => Tokenizer::Lowercase,
            "ngram" | "nGram" => Tokenizer::NGram { min: 1, max: 2, chars: None },
            "edge_ngram" | "edgeNGram" => Tokenizer::EdgeNGram { min: 1, max: 2, chars: None },
            "pattern" => Tokenizer::pattern(r"\W+", -1).ok()?,
            "path_hierarchy" | "PathHierarchy" => {
                Tokenizer::PathHierarchy { delimiter: '/', replacement: '/', skip: 0, reverse: false }
            }
            _ => return None,
        })
    }

    fn pattern(pattern: &str, group: i64) -> Result<Tokenizer> {
        let regex = regex::Regex::new(pattern).map_err(|e| bad(&format!("Invalid pattern [{pattern}]: {e}")))?;
        Ok(Tokenizer::Pattern { pattern: regex, group, lowercase_regex_text: pattern.to_string() })
    }

    /// A tokenizer defined by its settings (`{"type": "ngram", "min_gram": 2, ...}`).
    pub fn from_definition(name: &str, def: &Map<String, Value>) -> Result<Tokenizer> {
        let kind = def
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(&format!("tokenizer [{name}] must specify either an analyzer type, or a tokenizer")))?;
        Ok(match kind {
            "standard" => Tokenizer::Standard { max_token_length: usize_param(def, "max_token_length", 255)? },
            "whitespace" => Tokenizer::Whitespace { max_token_length: usize_param(def, "max_token_length", 255)? },
            "keyword" => Tokenizer::Keyword,
            "letter" => Tokenizer::Letter,
            "lowercase" => Tokenizer::Lowercase,
            "ngram" | "nGram" | "edge_ngram" | "edgeNGram" => {
                let min = usize_param(def, "min_gram", 1)?;
                let max = usize_param(def, "max_gram", 2)?;
                let chars = CharClasses::parse(def.get("token_chars"), def.get("custom_token_chars"), "token_chars")?;
                if kind.starts_with('n') {
                    // ES's `index.max_ngram_diff` default.
                    if max.saturating_sub(min) > 1 {
                        return Err(bad(&format!("The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [1] but was [{}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.", max - min)));
                    }
                    Tokenizer::NGram { min, max, chars }
                } else {
                    Tokenizer::EdgeNGram { min, max, chars }
                }
            }
            "pattern" => {
                let pattern = def.get("pattern").and_then(Value::as_str).unwrap_or(r"\W+");
                let group = def.get("group").and_then(Value::as_i64).unwrap_or(-1);
                if def.contains_key("flags") {
                    return Err(bad("[flags] of the pattern tokenizer are not supported"));
                }
                Tokenizer::pattern(pattern, group)?
            }
            "path_hierarchy" | "PathHierarchy" => {
                let delimiter = char_param(def, "delimiter", '/')?;
                Tokenizer::PathHierarchy {
                    delimiter,
                    replacement: char_param(def, "replacement", delimiter)?,
                    skip: usize_param(def, "skip", 0)?,
                    reverse: def.get("reverse").is_some_and(|v| v == true || v == "true"),
                }
            }
            "char_group" => Tokenizer::CharGroup {
                on: CharClasses::parse(def.get("tokenize_on_chars"), None, "tokenize_on_chars")?
                    .ok_or_else(|| bad("[tokenize_on_chars] cannot be empty"))?,
                max_token_length: usize_param(def, "max_token_length", 255)?,
            },
            other => return Err(bad(&format!("Unknown tokenizer type [{other}] for [{name}]"))),
        })
    }

    pub fn tokenize(&self, text: &str) -> Vec<Tok> {
        match self {
            Tokenizer::Standard { max_token_length } => standard(text, *max_token_length),
            Tokenizer::Whitespace { max_token_length } => {
                char_runs(text, |c| !is_java_whitespace(c), *max_token_length, false)
            }
            Tokenizer::Keyword => vec![Tok::new(text, 0, text.len(), 0, "word")],
            Tokenizer::Letter => char_runs(text, char::is_alphabetic, MAX_TOKEN_CHARS, false),
            Tokenizer::Lowercase => char_runs(text, char::is_alphabetic, MAX_TOKEN_CHARS, true),
            Tokenizer::CharGroup { on, max_token_length } => {
                char_runs(text, |c| !on.contains(c), *max_token_length, false)
            }
            Tokenizer::NGram { min, max, chars } => ngrams(text, *min, *max, chars.as_ref(), false),
            Tokenizer::EdgeNGram { min, max, chars } => ngrams(text, *min, *max, chars.as_ref(), true),
            Tokenizer::Pattern { pattern, group, .. } => pattern_tokens(text, pattern, *group),
            Tokenizer::PathHierarchy { delimiter, replacement, skip, reverse } => {
                path_hierarchy(text, *delimiter, *replacement, *skip, *reverse)
            }
        }
    }
}

/// Lucene's `StandardTokenizer` type of a token: numbers, scripts without word spaces, emoji.
pub fn standard_type(term: &str) -> &'static str {
    let mut chars = term.chars();
    let Some(first) = chars.next() else { return "<ALPHANUM>" };
    let numeric =
        term.chars().all(|c| c.is_numeric() || matches!(c, '.' | ',' | '\'' | ';' | ':')) && first.is_numeric();
    if numeric {
        return "<NUM>";
    }
    match first as u32 {
        0x3040..=0x309F => "<HIRAGANA>",
        0x30A0..=0x30FF | 0x31F0..=0x31FF => "<KATAKANA>",
        0x1100..=0x11FF | 0xAC00..=0xD7AF | 0x3130..=0x318F => "<HANGUL>",
        0x0E00..=0x0EFF | 0x1000..=0x109F | 0x1780..=0x17FF => "<SOUTHEAST_ASIAN>",
        0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FFFF => "<IDEOGRAPHIC>",
        _ if !first.is_alphanumeric() && unicode_properties::UnicodeEmoji::is_emoji_char(first) => "<EMOJI>",
        _ => "<ALPHANUM>",
    }
}

fn standard(text: &str, max_token_length: usize) -> Vec<Tok> {
    let mut tokenizer = StandardTokenizer::with_max_token_length(max_token_length);
    let mut stream = tokenizer.token_stream(text);
    let mut out = Vec::new();
    while stream.advance() {
        let t = stream.token();
        out.push(Tok::new(t.text.clone(), t.offset_from, t.offset_to, t.position, standard_type(&t.text)));
    }
    out
}

/// Lucene's `CharTokenizer`: maximal runs of characters `keep` accepts, split every `max` chars.
fn char_runs(text: &str, keep: impl Fn(char) -> bool, max: usize, lowercase: bool) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut count = 0;
    let push = |from: usize, to: usize, out: &mut Vec<Tok>| {
        let term = if lowercase { text[from..to].to_lowercase() } else { text[from..to].to_string() };
        let position = out.len();
        out.push(Tok::new(term, from, to, position, "word"));
    };
    for (at, c) in text.char_indices() {
        if keep(c) {
            if let Some(from) = start.filter(|_| count == max.max(1)) {
                push(from, at, &mut out);
                start = None;
            }
            if start.is_none() {
                start = Some(at);
                count = 0;
            }
            count += 1;
        } else if let Some(from) = start.take() {
            push(from, at, &mut out);
        }
    }
    if let Some(from) = start {
        push(from, text.len(), &mut out);
    }
    out
}

/// `ngram` / `edge_ngram` tokenizers: grams of each run of token characters (the whole text
/// when no `token_chars` are given), ordered by start then length, as Lucene emits them.
fn ngrams(text: &str, min: usize, max: usize, chars: Option<&CharClasses>, edge: bool) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut words: Vec<Vec<(usize, char)>> = vec![Vec::new()];
    for (at, c) in text.char_indices() {
        if chars.is_none_or(|cls| cls.contains(c)) {
            words.last_mut().expect("one word").push((at, c));
        } else if !words.last().expect("one word").is_empty() {
            words.push(Vec::new());
        }
    }
    let end_of =
        |word: &[(usize, char)], i: usize| word.get(i).map_or(word[i - 1].0 + word[i - 1].1.len_utf8(), |c| c.0);
    for word in words.iter().filter(|w| !w.is_empty()) {
        let starts = if edge { 0..1 } else { 0..word.len() };
        for from in starts {
            for len in min.max(1)..=max {
                if from + len > word.len() {
                    break;
                }
                let (start, end) = (word[from].0, end_of(word, from + len));
                let position = out.len();
                out.push(Tok::new(&text[start..end], start, end, position, "word"));
            }
        }
    }
    out
}

fn pattern_tokens(text: &str, pattern: &regex::Regex, group: i64) -> Vec<Tok> {
    let mut out = Vec::new();
    let push = |from: usize, to: usize, out: &mut Vec<Tok>| {
        if from < to {
            let position = out.len();
            out.push(Tok::new(&text[from..to], from, to, position, "word"));
        }
    };
    if group < 0 {
        let mut last = 0;
        for m in pattern.find_iter(text) {
            push(last, m.start(), &mut out);
            last = m.end();
        }
        push(last, text.len(), &mut out);
    } else {
        for caps in pattern.captures_iter(text) {
            if let Some(m) = caps.get(group as usize) {
                push(m.start(), m.end(), &mut out);
            }
        }
    }
    out
}

/// `path_hierarchy`: every ancestor path of `text` (or every suffix, `reverse`), all at one position.
fn path_hierarchy(text: &str, delimiter: char, replacement: char, skip: usize, reverse: bool) -> Vec<Tok> {
    let replaced: String = text.chars().map(|c| if c == delimiter { replacement } else { c }).collect();
    // Byte offsets of each delimiter (same in `text` and `replaced` when both are one byte long).
    let cuts: Vec<usize> = text.char_indices().filter(|(_, c)| *c == delimiter).map(|(i, _)| i).collect();
    let mut spans = Vec::new();
    if !reverse {
        // Components start after a leading delimiter; each token ends before the next delimiter.
        let mut ends: Vec<usize> = cuts.iter().copied().filter(|&i| i > 0).collect();
        ends.push(text.len());
        ends.dedup();
        let starts_at = if skip == 0 { 0 } else { cuts.get(skip).copied().unwrap_or(text.len()) };
        for end in ends.into_iter().filter(|&e| e > starts_at) {
            spans.push((starts_at, end));
        }
    } else {
        let mut starts = vec![0];
        starts.extend(cuts.iter().map(|&i| i + delimiter.len_utf8()).filter(|&i| i < text.len()));
        starts.dedup();
        let end = if skip == 0 { text.len() } else { cuts.iter().rev().nth(skip - 1).copied().unwrap_or(0) };
        for start in starts.into_iter().filter(|&s| s < end) {
            spans.push((start, end));
        }
    }
    let same_width = delimiter.len_utf8() == replacement.len_utf8();
    spans
        .into_iter()
        .map(|(s, e)| {
            let term = if same_width {
                replaced[s..e].to_string()
            } else {
                text[s..e].replace(delimiter, &replacement.to_string())
            };
            Tok::new(term, s, e, 0, "word")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn terms(t: &Tokenizer, text: &str) -> Vec<String> {
        t.tokenize(text).into_iter().map(|t| t.term).collect()
    }

    fn defined(def: Value) -> Tokenizer {
        Tokenizer::from_definition("t", def.as_object().unwrap()).unwrap()
    }

    #[test]
    fn whitespace_letter_keyword_lowercase() {
        assert_eq!(terms(&Tokenizer::builtin("whitespace").unwrap(), "Foo  Bar!"), ["Foo", "Bar!"]);
        assert_eq!(terms(&Tokenizer::builtin("letter").unwrap(), "don't 42x"), ["don", "t", "x"]);
        assert_eq!(terms(&Tokenizer::builtin("lowercase").unwrap(), "Foo BAR"), ["foo", "bar"]);
        assert_eq!(terms(&Tokenizer::builtin("keyword").unwrap(), "New York"), ["New York"]);
    }

    #[test]
    fn standard_types() {
        let toks = Tokenizer::builtin("standard").unwrap().tokenize("abc 3.14 中");
        let kinds: Vec<&str> = toks.iter().map(|t| t.kind).collect();
        assert_eq!(kinds, ["<ALPHANUM>", "<NUM>", "<IDEOGRAPHIC>"]);
    }

    #[test]
    fn ngrams_in_lucene_order() {
        assert_eq!(terms(&Tokenizer::builtin("ngram").unwrap(), "abc"), ["a", "ab", "b", "bc", "c"]);
        let edge = defined(json!({"type": "edge_ngram", "min_gram": 2, "max_gram": 3, "token_chars": ["letter"]}));
        assert_eq!(terms(&edge, "Quick fox"), ["Qu", "Qui", "fo", "fox"]);
        assert!(Tokenizer::from_definition("t", json!({"type": "ngram", "max_gram": 5}).as_object().unwrap()).is_err());
    }

    #[test]
    fn pattern_and_path_hierarchy() {
        assert_eq!(terms(&Tokenizer::builtin("pattern").unwrap(), "a-b  c"), ["a", "b", "c"]);
        let comma = defined(json!({"type": "pattern", "pattern": ","}));
        assert_eq!(terms(&comma, "x,y z"), ["x", "y z"]);
        let path = Tokenizer::builtin("path_hierarchy").unwrap();
        assert_eq!(terms(&path, "/a/b/c"), ["/a", "/a/b", "/a/b/c"]);
        let reverse = defined(json!({"type": "path_hierarchy", "reverse": true}));
        assert_eq!(terms(&reverse, "one/two/three"), ["one/two/three", "two/three", "three"]);
        let replaced = defined(json!({"type": "path_hierarchy", "delimiter": "-", "replacement": "/"}));
        assert_eq!(terms(&replaced, "a-b"), ["a", "a/b"]);
    }
}
