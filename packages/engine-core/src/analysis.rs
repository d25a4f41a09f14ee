//! Elasticsearch's `standard` tokenizer: Unicode word segmentation (UAX #29), as Lucene's
//! StandardTokenizer does. Splitting only on non-alphanumerics (tantivy's SimpleTokenizer) breaks
//! `don't`, `3.14`, `foo_bar` and `U.S.A` into pieces that ES keeps whole, so phrase and match
//! queries on real text found different documents than the baseline.
//!
//! Rules carried over from Lucene: a word boundary segment is a token when it holds a character of
//! UAX #29's word classes (a letter, a decimal digit; not a fraction, a superscript or a lone
//! combining mark) or an emoji (`©`, `™`, pictographs), as Lucene emits `<EMOJI>` tokens;
//! punctuation, symbols and spaces are dropped. A token longer than 255 characters is split at
//! 255-character intervals rather than dropped.
//!
//! Layer: a leaf. Uses only `error` (ARCHITECTURE.md).

use tantivy::tokenizer::{LowerCaser, TextAnalyzer, Token, TokenStream, Tokenizer};
use unicode_properties::{GeneralCategory, UnicodeEmoji, UnicodeGeneralCategory};
use unicode_segmentation::{UWordBoundIndices, UnicodeSegmentation};

pub mod analyze;
pub mod char_filters;
pub mod folding;
pub mod registry;
pub mod stopwords;
pub mod token;
pub mod token_filters;
pub mod tokenizers;

/// ES's `standard` analyzer: the standard tokenizer (UAX #29 words) then lowercase; no stop words.
pub fn es_standard_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(StandardTokenizer::default()).filter(LowerCaser).build()
}

/// ES `standard` tokenizer's default `max_token_length`, in characters.
pub const MAX_TOKEN_CHARS: usize = 255;

#[derive(Clone)]
pub struct StandardTokenizer {
    token: Token,
    /// `max_token_length`: longer segments are split at this many characters.
    max_chars: usize,
}

impl Default for StandardTokenizer {
    fn default() -> Self {
        StandardTokenizer { token: Token::default(), max_chars: MAX_TOKEN_CHARS }
    }
}

impl StandardTokenizer {
    /// The tokenizer with another `max_token_length` (ES accepts 1 to 1,048,576).
    pub fn with_max_token_length(max_chars: usize) -> StandardTokenizer {
        StandardTokenizer { token: Token::default(), max_chars: max_chars.max(1) }
    }
}

pub struct StandardTokenStream<'a> {
    segments: Segments<'a>,
    /// The rest of a segment longer than `MAX_TOKEN_CHARS`, still to be emitted in chunks.
    pending: Option<(usize, &'a str)>,
    token: &'a mut Token,
    max_chars: usize,
}

impl Tokenizer for StandardTokenizer {
    type TokenStream<'a> = StandardTokenStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> StandardTokenStream<'a> {
        self.token.reset();
        let segments = Segments { words: text.split_word_bound_indices(), rest: None };
        StandardTokenStream { segments, pending: None, token: &mut self.token, max_chars: self.max_chars }
    }
}

/// The cedilla (U+00B8) is a letter to word segmentation since Unicode 16; Lucene's grammar is
/// older and breaks words at it (`q¸ü` is `q`, `ü` in OpenSearch), so segments are split there.
const CEDILLA: char = '\u{B8}';

/// UAX #29 word segments, split again at each cedilla (the cedilla alone is not a word).
struct Segments<'a> {
    words: UWordBoundIndices<'a>,
    /// What is left of a segment holding a cedilla: its byte offset and text.
    rest: Option<(usize, &'a str)>,
}

impl<'a> Iterator for Segments<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let (offset, segment) = match self.rest.take() {
            Some(rest) => rest,
            None => self.words.next()?,
        };
        match segment.find(CEDILLA) {
            // The piece before the cedilla now, the rest after it later.
            Some(at) => {
                let after = at + CEDILLA.len_utf8();
                if after < segment.len() {
                    self.rest = Some((offset + after, &segment[after..]));
                }
                Some((offset, &segment[..at]))
            }
            None => Some((offset, segment)),
        }
    }
}

fn is_word(segment: &str) -> bool {
    segment.chars().any(|c| c.is_ascii_alphanumeric() || (!c.is_ascii() && is_word_char(c)))
}

/// A character that makes its segment a token in Lucene's grammar: a letter (cased, modifier,
/// other), a decimal digit, a letter number (Roman numerals), or an emoji. `char::is_alphanumeric`
/// also takes the other numbers (`½`, `¹`, circled digits) and the combining marks that are
/// alphabetic (Hebrew points): Lucene drops those segments. UAX #29 also counts some modifier
/// symbols as letters (`˴`, `˾`, the Hebrew geresh, Latin tone marks).
fn is_word_char(c: char) -> bool {
    use GeneralCategory::*;
    match c.general_category() {
        UppercaseLetter | LowercaseLetter | TitlecaseLetter | ModifierLetter | OtherLetter | DecimalNumber
        | LetterNumber => true,
        _ => {
            matches!(c, '\u{2C2}'..='\u{2C5}' | '\u{2D2}'..='\u{2DF}' | '\u{2E5}'..='\u{2EB}' | '\u{2ED}'
                | '\u{2EF}'..='\u{2FF}' | '\u{5F3}' | '\u{A720}'..='\u{A721}' | '\u{A789}'..='\u{A78A}' | '\u{AB5B}')
                || c.is_emoji_char()
        }
    }
}

impl<'a> StandardTokenStream<'a> {
    /// Emits at most `max_chars` characters of `segment` (starting at byte `offset`) and
    /// keeps the remainder for the next call.
    fn emit(&mut self, offset: usize, segment: &'a str) {
        let cut = segment.char_indices().nth(self.max_chars).map_or(segment.len(), |(i, _)| i);
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
    fn keeps_emoji_and_drops_fractions_superscripts_and_lone_marks() {
        // As OpenSearch 2.19's `_analyze` answers (the differences found on the mail corpus).
        assert_eq!(texts("Acme© Widget® Tools™ ½ cup x² ¾"), ["Acme", "©", "Widget", "®", "Tools", "™", "cup", "x"]);
        assert_eq!(texts("\u{FFFD}\u{05B4} ok"), ["ok"]);
        assert_eq!(texts("Ⅻ é"), ["Ⅻ", "é"]);
        assert_eq!(texts("q¸ü ¸u s¸ a˴b ˾"), ["q", "ü", "u", "s", "a˴b", "˾"]);
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
