//! Elasticsearch's built-in analyzers by name, as a text field's `analyzer` and
//! `search_analyzer` name them: `standard` (and `default`, the index's default, which is
//! `standard` here), `simple`, `whitespace`, `keyword` and `stop`. Each is registered with the
//! index's tokenizers under its own name, so a field is indexed with its analyzer, and a query
//! on the field analyzes its text with the same one (`LowerContext::analyzer_for`).

use tantivy::tokenizer::{
    LowerCaser, RawTokenizer, StopWordFilter, TextAnalyzer, Token, TokenStream, Tokenizer, TokenizerManager,
};

/// The name the index registers ES's `standard` tokenizer under.
pub const ES_STANDARD_TOKENIZER: &str = "es_standard";

/// The analyzers a mapping may name.
pub const BUILTIN: [&str; 6] = ["standard", "default", "simple", "whitespace", "keyword", "stop"];

/// Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`, the `stop` analyzer's default list.
pub const ENGLISH_STOP_WORDS: [&str; 33] = [
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of",
    "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
];

/// The tokenizer name an analyzer is registered under (`standard` keeps the engine's own name,
/// so indices written before per-field analyzers read the same).
pub fn tokenizer_name(analyzer: &str) -> String {
    match analyzer {
        "standard" | "default" => ES_STANDARD_TOKENIZER.to_string(),
        other => format!("es_{other}"),
    }
}

/// The built-in analyzer `name`, or `None` when ES has no such built-in analyzer here.
pub fn builtin(name: &str) -> Option<TextAnalyzer> {
    Some(match name {
        "standard" | "default" => crate::analysis::es_standard_analyzer(),
        // Lucene's LetterTokenizer (runs of letters) and a lower case filter.
        "simple" => TextAnalyzer::builder(CharRunTokenizer::letters()).filter(LowerCaser).build(),
        // Runs of non-whitespace, as Java's `Character.isWhitespace` splits; case kept.
        "whitespace" => TextAnalyzer::builder(CharRunTokenizer::non_whitespace()).build(),
        "keyword" => TextAnalyzer::builder(RawTokenizer::default()).build(),
        "stop" => TextAnalyzer::builder(CharRunTokenizer::letters())
            .filter(LowerCaser)
            .filter(StopWordFilter::remove(ENGLISH_STOP_WORDS.iter().map(|w| w.to_string())))
            .build(),
        _ => return None,
    })
}

/// Registers every built-in analyzer with an index's tokenizers.
pub fn register_all(manager: &TokenizerManager) {
    for name in BUILTIN.iter().filter(|n| **n != "default") {
        if let Some(analyzer) = builtin(name) {
            manager.register(&tokenizer_name(name), analyzer);
        }
    }
}

/// Java's `Character.isWhitespace`: Unicode spaces except the no-break ones, and the ASCII
/// separators and controls 0x1C-0x1F.
fn is_java_whitespace(c: char) -> bool {
    (c.is_whitespace() && !matches!(c, '\u{00A0}' | '\u{2007}' | '\u{202F}')) || ('\u{1C}'..='\u{1F}').contains(&c)
}

/// Tokens are the longest runs of characters `keep` accepts (Lucene's `CharTokenizer`), at
/// most 255 characters each, as Lucene's default `maxTokenLen`.
#[derive(Clone)]
pub struct CharRunTokenizer {
    keep: fn(char) -> bool,
    token: Token,
}

impl CharRunTokenizer {
    pub fn letters() -> Self {
        CharRunTokenizer { keep: char::is_alphabetic, token: Token::default() }
    }

    pub fn non_whitespace() -> Self {
        CharRunTokenizer { keep: |c| !is_java_whitespace(c), token: Token::default() }
    }
}

pub struct CharRunStream<'a> {
    text: &'a str,
    at: usize,
    keep: fn(char) -> bool,
    token: &'a mut Token,
}

impl Tokenizer for CharRunTokenizer {
    type TokenStream<'a> = CharRunStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> CharRunStream<'a> {
        self.token.reset();
        CharRunStream { text, at: 0, keep: self.keep, token: &mut self.token }
    }
}

const MAX_TOKEN_CHARS: usize = 255;

impl TokenStream for CharRunStream<'_> {
    fn advance(&mut self) -> bool {
        let rest = &self.text[self.at..];
        let Some(start) = rest.char_indices().find(|(_, c)| (self.keep)(*c)).map(|(i, _)| self.at + i) else {
            self.at = self.text.len();
            return false;
        };
        let mut end = start;
        for (n, (i, c)) in self.text[start..].char_indices().enumerate() {
            if !(self.keep)(c) || n == MAX_TOKEN_CHARS {
                break;
            }
            end = start + i + c.len_utf8();
        }
        self.at = end;
        self.token.text.clear();
        self.token.text.push_str(&self.text[start..end]);
        self.token.offset_from = start;
        self.token.offset_to = end;
        self.token.position = self.token.position.wrapping_add(1);
        self.token.position_length = 1;
        true
    }

    fn token(&self) -> &Token {
        self.token
    }

    fn token_mut(&mut self) -> &mut Token {
        self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(analyzer: &str, text: &str) -> Vec<(String, usize)> {
        let mut a = builtin(analyzer).unwrap();
        let mut stream = a.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push((t.text.clone(), t.position));
        }
        out
    }

    fn words(analyzer: &str, text: &str) -> Vec<String> {
        tokens(analyzer, text).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn builtin_analyzers_split_as_lucene_does() {
        assert_eq!(words("whitespace", "Quick  brown-Fox\u{2003}jumps"), ["Quick", "brown-Fox", "jumps"]);
        assert_eq!(words("whitespace", "a\u{00A0}b"), ["a\u{00A0}b"]);
        assert_eq!(words("simple", "The 2 QUICK brown-foxes"), ["the", "quick", "brown", "foxes"]);
        assert_eq!(words("keyword", "New York"), ["New York"]);
        assert_eq!(words("standard", "Don't stop"), ["don't", "stop"]);
        assert!(builtin("english").is_none());
    }

    #[test]
    fn stop_words_leave_position_gaps() {
        assert_eq!(tokens("stop", "the quick and the dead"), [("quick".to_string(), 1), ("dead".to_string(), 4)]);
    }

    #[test]
    fn long_runs_are_cut_at_255_characters() {
        let long = "x".repeat(300);
        let cut = words("whitespace", &long);
        assert_eq!(cut.iter().map(String::len).collect::<Vec<_>>(), [255, 45]);
    }

    #[test]
    fn names_map_to_registered_tokenizers() {
        assert_eq!(tokenizer_name("default"), ES_STANDARD_TOKENIZER);
        let manager = TokenizerManager::default();
        register_all(&manager);
        assert!(manager.get(&tokenizer_name("whitespace")).is_some());
    }
}
