//! Elasticsearch's `standard` tokenizer: Unicode word segmentation (UAX #29), as Lucene's
//! StandardTokenizer does. Splitting only on non-alphanumerics (tantivy's SimpleTokenizer) breaks
//! `don't`, `3.14`, `foo_bar` and `U.S.A` into pieces that ES keeps whole, so phrase and match
//! queries on real text found different documents than the baseline.
//!
//! Rules carried over from Lucene: a word boundary segment is a token when it holds at least one
//! letter or digit (punctuation and spaces are dropped); a token longer than 255 characters is
//! split at 255-character intervals rather than dropped. Not carried over: Lucene also emits
//! emoji sequences as tokens; this tokenizer drops them.

use tantivy::tokenizer::{LowerCaser, TextAnalyzer, Token, TokenStream, Tokenizer};
use unicode_segmentation::{UWordBoundIndices, UnicodeSegmentation};

/// ES's `standard` analyzer: the standard tokenizer (UAX #29 words) then lowercase; no stop words.
pub fn es_standard_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(StandardTokenizer::default()).filter(LowerCaser).build()
}

/// ES `standard` tokenizer's default `max_token_length`, in characters.
pub const MAX_TOKEN_CHARS: usize = 255;

#[derive(Clone, Default)]
pub struct StandardTokenizer {
    token: Token,
}

pub struct StandardTokenStream<'a> {
    segments: UWordBoundIndices<'a>,
    /// The rest of a segment longer than `MAX_TOKEN_CHARS`, still to be emitted in chunks.
    pending: Option<(usize, &'a str)>,
    token: &'a mut Token,
}

impl Tokenizer for StandardTokenizer {
    type TokenStream<'a> = StandardTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> StandardTokenStream<'a> {
        self.token.reset();
        StandardTokenStream { segments: text.split_word_bound_indices(), pending: None, token: &mut self.token }
    }
}

fn is_word(segment: &str) -> bool {
    segment.chars().any(char::is_alphanumeric)
}

impl<'a> StandardTokenStream<'a> {
    /// Emits at most `MAX_TOKEN_CHARS` characters of `segment` (starting at byte `offset`) and
    /// keeps the remainder for the next call.
    fn emit(&mut self, offset: usize, segment: &'a str) {
        let cut = segment.char_indices().nth(MAX_TOKEN_CHARS).map_or(segment.len(), |(i, _)| i);
        let (head, tail) = segment.split_at(cut);
        self.pending = if tail.is_empty() { None } else { Some((offset + cut, tail)) };
        self.token.text.clear();
        self.token.text.push_str(head);
        self.token.offset_from = offset;
        self.token.offset_to = offset + cut;
        self.token.position = self.token.position.wrapping_add(1);
    }
}

impl TokenStream for StandardTokenStream<'_> {
    fn advance(&mut self) -> bool {
        if let Some((offset, rest)) = self.pending.take() {
            self.emit(offset, rest);
            return true;
        }
        for (offset, segment) in self.segments.by_ref() {
            if is_word(segment) {
                self.emit(offset, segment);
                return true;
            }
        }
        false
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

    fn tokens(text: &str) -> Vec<(String, usize, usize, usize)> {
        let mut tokenizer = StandardTokenizer::default();
        let mut stream = tokenizer.token_stream(text);
        let mut out = Vec::new();
        while let Some(t) = stream.next() {
            out.push((t.text.clone(), t.position, t.offset_from, t.offset_to));
        }
        out
    }

    fn texts(text: &str) -> Vec<String> {
        tokens(text).into_iter().map(|t| t.0).collect()
    }

    #[test]
    fn keeps_what_lucene_keeps_whole() {
        assert_eq!(
            texts("Don't stop: 3.14 and 1,000 foo_bar U.S.A"),
            ["Don't", "stop", "3.14", "and", "1,000", "foo_bar", "U.S.A"]
        );
    }

    #[test]
    fn drops_punctuation_and_splits_ideographs() {
        assert_eq!(texts("-- hello , world !! 中文"), ["hello", "world", "中", "文"]);
        assert!(texts("  ... ___ !!").is_empty());
    }

    #[test]
    fn positions_and_offsets_follow_the_text() {
        assert_eq!(tokens("a, bb"), [("a".to_string(), 0, 0, 1), ("bb".to_string(), 1, 3, 5)]);
    }

    #[test]
    fn splits_tokens_over_the_maximum_length() {
        let long = "x".repeat(600);
        let got = tokens(&format!("{long} y"));
        let lens: Vec<usize> = got.iter().map(|t| t.0.len()).collect();
        assert_eq!(lens, [255, 255, 90, 1]);
        assert_eq!((got[1].2, got[1].3, got[1].1), (255, 510, 1));
        assert_eq!(got[3].1, 3);
    }
}
