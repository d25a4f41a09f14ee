//! ES's character filters: each rewrites the text before the tokenizer sees it, and keeps, for
//! every byte of its output, the byte of the original text it came from, so token offsets
//! point into the text as sent (Lucene's offset correction).

use serde_json::{Map, Value};

use crate::error::{EngineError, Result};

#[derive(Debug, Clone)]
pub enum CharFilter {
    HtmlStrip {
        escaped_tags: Vec<String>,
    },
    /// Pairs of (from, to), longest `from` first.
    Mapping(Vec<(String, String)>),
    PatternReplace {
        pattern: regex::Regex,
        replacement: String,
    },
}

/// A filtered text and, for each of its byte offsets (its length included), the offset in the
/// text before filtering.
pub struct Filtered {
    pub text: String,
    pub origin: Vec<usize>,
}

impl Filtered {
    pub fn identity(text: &str) -> Filtered {
        Filtered { text: text.to_string(), origin: (0..=text.len()).collect() }
    }

    /// `next` (a filtering of `self.text`) with its offsets taken back through this one.
    fn then(self, next: Filtered) -> Filtered {
        let origin = next.origin.iter().map(|&at| self.origin[at.min(self.origin.len() - 1)]).collect();
        Filtered { text: next.text, origin }
    }
}

/// Builds output text and its origin map.
struct Builder {
    text: String,
    origin: Vec<usize>,
}

impl Builder {
    fn new(capacity: usize) -> Builder {
        Builder { text: String::with_capacity(capacity), origin: Vec::with_capacity(capacity + 1) }
    }

    /// Appends `s`, every byte of it coming from `from` in the input.
    fn push(&mut self, s: &str, from: usize) {
        self.text.push_str(s);
        self.origin.extend(std::iter::repeat_n(from, s.len()));
    }

    /// Appends input text kept as it is, starting at input offset `from`.
    fn keep(&mut self, s: &str, from: usize) {
        self.text.push_str(s);
        self.origin.extend(from..from + s.len());
    }

    fn finish(mut self, input_len: usize) -> Filtered {
        self.origin.push(input_len);
        Filtered { text: self.text, origin: self.origin }
    }
}

fn bad(reason: &str) -> EngineError {
    EngineError::IllegalArgument(reason.to_string())
}

impl CharFilter {
    pub fn builtin(name: &str) -> Option<CharFilter> {
        match name {
            "html_strip" => Some(CharFilter::HtmlStrip { escaped_tags: Vec::new() }),
            _ => None,
        }
    }

    pub fn from_definition(name: &str, def: &Map<String, Value>) -> Result<CharFilter> {
        let kind = def.get("type").and_then(Value::as_str).ok_or_else(|| {
            bad(&format!("char filter [{name}] must specify either an analyzer type, or a tokenizer"))
        })?;
        let strings = |key: &str| -> Vec<String> {
            match def.get(key) {
                Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).map(str::to_string).collect(),
                Some(Value::String(s)) => s.split(',').map(|p| p.trim().to_string()).collect(),
                _ => Vec::new(),
            }
        };
        Ok(match kind {
            "html_strip" => CharFilter::HtmlStrip {
                escaped_tags: strings("escaped_tags").iter().map(|t| t.to_lowercase()).collect(),
            },
            "mapping" => {
                if def.contains_key("mappings_path") {
                    return Err(bad("[mappings_path] is not supported: files cannot be read"));
                }
                if !def.contains_key("mappings") {
                    return Err(bad("mapping requires either `mappings` or `mappings_path` to be configured"));
                }
                let mut pairs = Vec::new();
                for rule in strings("mappings") {
                    let (from, to) =
                        rule.split_once("=>").ok_or_else(|| bad(&format!("Invalid Mapping Rule : [{rule}]")))?;
                    let from = unescape(from.trim());
                    if from.is_empty() {
                        return Err(bad(&format!("Invalid Mapping Rule : [{rule}]")));
                    }
                    pairs.push((from, unescape(to.trim())));
                }
                pairs.sort_by_key(|p| std::cmp::Reverse(p.0.len()));
                CharFilter::Mapping(pairs)
            }
            "pattern_replace" => {
                let pattern = def
                    .get("pattern")
                    .and_then(Value::as_str)
                    .ok_or_else(|| bad("pattern is missing for [pattern_replace] char filter"))?;
                if def.contains_key("flags") {
                    return Err(bad("[flags] of the pattern_replace char filter are not supported"));
                }
                CharFilter::PatternReplace {
                    pattern: regex::Regex::new(pattern)
                        .map_err(|e| bad(&format!("Invalid pattern [{pattern}]: {e}")))?,
                    replacement: def.get("replacement").and_then(Value::as_str).unwrap_or("").to_string(),
                }
            }
            other => return Err(bad(&format!("Unknown char_filter type [{other}] for [{name}]"))),
        })
    }

    pub fn filter(&self, input: Filtered) -> Filtered {
        let text = input.text.as_str();
        let next = match self {
            CharFilter::HtmlStrip { escaped_tags } => html_strip(text, escaped_tags),
            CharFilter::Mapping(pairs) => mapping(text, pairs),
            CharFilter::PatternReplace { pattern, replacement } => pattern_replace(text, pattern, replacement),
        };
        input.then(next)
    }
}

/// Escapes mapping rules may use: `\\uXXXX`, `\\n`, `\\t`, `\\r`, `\\\\`.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                if let Some(c) = u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn mapping(text: &str, pairs: &[(String, String)]) -> Filtered {
    let mut out = Builder::new(text.len());
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        if let Some((from, to)) = pairs.iter().find(|(from, _)| rest.starts_with(from.as_str())) {
            out.push(to, at);
            at += from.len();
        } else {
            let c = rest.chars().next().expect("not at the end");
            out.keep(&rest[..c.len_utf8()], at);
            at += c.len_utf8();
        }
    }
    out.finish(text.len())
}

fn pattern_replace(text: &str, pattern: &regex::Regex, replacement: &str) -> Filtered {
    let mut out = Builder::new(text.len());
    let mut last = 0;
    for caps in pattern.captures_iter(text) {
        let m = caps.get(0).expect("group 0");
        out.keep(&text[last..m.start()], last);
        let mut replaced = String::new();
        caps.expand(replacement, &mut replaced);
        out.push(&replaced, m.start());
        last = m.end();
    }
    out.keep(&text[last..], last);
    out.finish(text.len())
}

/// Elements Lucene's `HTMLStripCharFilter` replaces with a newline.
const BLOCK_TAGS: [&str; 29] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "ul",
];

fn html_strip(text: &str, escaped_tags: &[String]) -> Filtered {
    let mut out = Builder::new(text.len());
    let mut at = 0;
    let bytes = text.as_bytes();
    while at < text.len() {
        let rest = &text[at..];
        if bytes[at] == b'<' {
            if let Some(end) = rest.find('>') {
                let inner = &rest[1..end];
                let name: String = inner
                    .trim_start_matches(['/', '!'])
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect::<String>()
                    .to_lowercase();
                let is_tag = !name.is_empty() || inner.starts_with("!--");
                if is_tag {
                    if escaped_tags.contains(&name) {
                        out.keep(&rest[..=end], at);
                    } else if BLOCK_TAGS.contains(&name.as_str()) {
                        out.push("\n", at);
                    }
                    // Script and style bodies are dropped with their tags.
                    let mut skip_to = at + end + 1;
                    if (name == "script" || name == "style") && !inner.starts_with('/') {
                        let close = format!("</{name}");
                        if let Some(c) = text[skip_to..].to_lowercase().find(&close) {
                            let after = skip_to + c;
                            skip_to = text[after..].find('>').map_or(text.len(), |g| after + g + 1);
                        }
                    }
                    at = skip_to;
                    continue;
                }
            }
        }
        if bytes[at] == b'&' {
            if let Some((decoded, len)) = entity(rest) {
                out.push(&decoded.to_string(), at);
                at += len;
                continue;
            }
        }
        let c = rest.chars().next().expect("not at the end");
        out.keep(&rest[..c.len_utf8()], at);
        at += c.len_utf8();
    }
    out.finish(text.len())
}

/// A character entity at the start of `s` and its length in bytes.
fn entity(s: &str) -> Option<(char, usize)> {
    let end = s.find(';').filter(|&e| e <= 10)?;
    let name = &s[1..end];
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{A0}',
        "copy" => '©',
        "reg" => '®',
        _ => {
            let code = name.strip_prefix('#')?;
            let value = match code.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => code.parse().ok()?,
            };
            char::from_u32(value)?
        }
    };
    Some((c, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(filter: &CharFilter, text: &str) -> Filtered {
        filter.filter(Filtered::identity(text))
    }

    #[test]
    fn html_strip_keeps_origins() {
        let f = CharFilter::builtin("html_strip").unwrap();
        let out = run(&f, "<p>I&apos;m so <b>happy</b>!</p>");
        assert_eq!(out.text, "\nI'm so happy!\n");
        // "happy" starts at byte 18 of the original.
        let at = out.text.find("happy").unwrap();
        assert_eq!(out.origin[at], 18);
    }

    #[test]
    fn mapping_and_pattern_replace() {
        let def = json!({"type": "mapping", "mappings": [":) => _happy_", ":( => _sad_"]});
        let f = CharFilter::from_definition("m", def.as_object().unwrap()).unwrap();
        let out = run(&f, "I'm :) ok");
        assert_eq!(out.text, "I'm _happy_ ok");
        assert_eq!(out.origin[out.text.len()], 9);
        let def = json!({"type": "pattern_replace", "pattern": "(\\d+)-", "replacement": "${1}_"});
        let f = CharFilter::from_definition("p", def.as_object().unwrap()).unwrap();
        assert_eq!(run(&f, "123-456-789").text, "123_456_789");
    }
}
