//! Java's `BreakIterator.getSentenceInstance()` (the JDK's rule-based sentence iterator, not
//! ICU's UAX #29): the unified highlighter cuts passages at these boundaries, so a sentence
//! ends where the JDK says it does, not where Unicode's sentence rules would put it.
//!
//! The JDK rules, in the order it tries them from the start of a sentence (the first that
//! completes ends the sentence):
//! - a paragraph separator (U+2029) always ends one, right after it;
//! - `!`/`?` (and CJK full stops), then any terminators, periods or closing punctuation, then
//!   spaces (and one optional U+2029): break after all of that;
//! - a period, then periods or closing punctuation, then at least one space, then a letter
//!   that is not lowercase: break before that letter (`e.g. the` is one sentence);
//! - the same with two or more spaces, then a letter or a sentence-start symbol: break there
//!   too, lowercase or not (`amount.  yesh` is two sentences, `amount.  4 yesh` one);
//! - a period, then optional spaces, then opening punctuation or sentence-start symbols followed
//!   by a space (a quoted `> ` line, a `- ` item, a `-----` rule): the break comes *before* the
//!   period, which starts the next sentence (`client.\n> Having` cuts at `.`). The last two are
//!   what OpenSearch 2.19's highlighter answers, probed on the mail corpus;
//! - a period, then periods or closing punctuation, then optional spaces, then opening
//!   punctuation or other sentence-start symbols followed by a letter: break before them.
//!
//! Offsets are char indices into the text (Java counts UTF-16 units: the same for the BMP).

fn is_space(c: char) -> bool {
    matches!(c, '\t' | '\r' | '\u{000C}' | '\n' | '\u{2028}')
        || matches!(c, ' ' | '\u{00A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
}

/// `[:Ps:][:Pi:]"'`: punctuation that may open a sentence.
fn is_start_punctuation(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '('
            | '['
            | '{'
            | '\u{00AB}'
            | '\u{2018}'
            | '\u{201B}'
            | '\u{201C}'
            | '\u{201F}'
            | '\u{2039}'
            | '\u{3008}'
            | '\u{300A}'
            | '\u{300C}'
            | '\u{300E}'
            | '\u{3010}'
            | '\u{FF08}'
            | '\u{FF3B}'
            | '\u{FF5B}'
    )
}

/// `[:Pe:][:Pf:]"'`: punctuation that may close a sentence.
fn is_end_punctuation(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | ')'
            | ']'
            | '}'
            | '\u{00BB}'
            | '\u{2019}'
            | '\u{201D}'
            | '\u{203A}'
            | '\u{3009}'
            | '\u{300B}'
            | '\u{300D}'
            | '\u{300F}'
            | '\u{3011}'
            | '\u{FF09}'
            | '\u{FF3D}'
            | '\u{FF5D}'
    )
}

fn is_terminator(c: char) -> bool {
    matches!(c, '!' | '?' | '\u{3002}' | '\u{FF01}' | '\u{FF1F}')
}

fn is_period(c: char) -> bool {
    matches!(c, '.' | '\u{FF0E}')
}

fn is_danda(c: char) -> bool {
    matches!(c, '\u{0964}' | '\u{0965}')
}

fn is_ignorable(c: char) -> bool {
    // Format characters (Cf) the JDK skips; combining marks are rare in the text we see.
    matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Anything that may start a sentence besides letters: not a letter, space, punctuation the
/// rules name, digit, comma, paragraph separator or ignorable.
fn is_sentence_start(c: char) -> bool {
    !(c.is_alphabetic()
        || is_space(c)
        || is_start_punctuation(c)
        || is_end_punctuation(c)
        || c.is_numeric()
        || is_terminator(c)
        || is_period(c)
        || c == ','
        || c == '\u{2029}'
        || is_ignorable(c))
}

fn skip_while(text: &[char], mut i: usize, pred: impl Fn(char) -> bool) -> usize {
    while i < text.len() && pred(text[i]) {
        i += 1;
    }
    i
}

/// Where the sentence that starts at `start` ends (exclusive); `text.len()` at the latest.
fn sentence_end(text: &[char], start: usize) -> usize {
    let n = text.len();
    let mut i = start;
    while i < n {
        let c = text[i];
        if c == '\u{2029}' {
            return i + 1;
        }
        if is_danda(c) {
            return skip_while(text, i + 1, is_space);
        }
        if is_terminator(c) {
            let j = skip_while(text, i + 1, |c| is_terminator(c) || is_period(c) || is_end_punctuation(c));
            let j = skip_while(text, j, is_space);
            return if j < n && text[j] == '\u{2029}' { j + 1 } else { j };
        }
        // A period that opens a sentence (the rule below put it there) does not end it.
        if is_period(c) && i > start {
            let j = skip_while(text, i + 1, |c| is_period(c) || is_end_punctuation(c));
            let after_spaces = skip_while(text, j, is_space);
            let opener_end = skip_while(text, after_spaces, |c| is_start_punctuation(c) || is_sentence_start(c));
            if opener_end > after_spaces && opener_end < n && is_space(text[opener_end]) {
                return i;
            }
            if after_spaces > j
                && after_spaces < n
                && text[after_spaces].is_alphabetic()
                && !text[after_spaces].is_lowercase()
            {
                return after_spaces;
            }
            if after_spaces >= j + 2
                && after_spaces < n
                && (text[after_spaces].is_alphabetic() || opener_end > after_spaces)
            {
                return after_spaces;
            }
            if opener_end > after_spaces && opener_end < n && text[opener_end].is_alphabetic() {
                return after_spaces;
            }
        }
        i += 1;
    }
    n
}

/// Every sentence boundary of `text`, ascending: 0, the end of each sentence, and the length.
pub fn sentence_boundaries(text: &[char]) -> Vec<usize> {
    let mut out = vec![0];
    let mut at = 0;
    while at < text.len() {
        at = sentence_end(text, at).max(at + 1);
        out.push(at);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        sentence_boundaries(&chars).windows(2).map(|w| chars[w[0]..w[1]].iter().collect()).collect()
    }

    #[test]
    fn breaks_after_a_period_before_a_capital() {
        assert_eq!(sentences("The fox ran. The dog slept."), ["The fox ran. ", "The dog slept."]);
    }

    #[test]
    fn a_period_before_lowercase_or_a_digit_is_no_break() {
        assert_eq!(sentences("see e.g. the dog. 5 cats"), ["see e.g. the dog. 5 cats"]);
        assert_eq!(sentences("pi is 3.14 exactly"), ["pi is 3.14 exactly"]);
    }

    #[test]
    fn two_spaces_after_a_period_break_before_anything_but_a_digit() {
        // Each as OpenSearch 2.19's highlighter cut it.
        assert_eq!(sentences("the amount.  yesh ok"), ["the amount.  ", "yesh ok"]);
        assert_eq!(sentences("the amount. \nyesh ok"), ["the amount. \n", "yesh ok"]);
        assert_eq!(sentences("the amount.)\t\tyesh ok"), ["the amount.)\t\t", "yesh ok"]);
        assert_eq!(sentences("the amount.  4 yesh"), ["the amount.  4 yesh"]);
        assert_eq!(sentences("the amount.\nyesh"), ["the amount.\nyesh"]);
        assert_eq!(sentences("the amount:  yesh"), ["the amount:  yesh"]);
        assert_eq!(sentences("the amount.  , yesh"), ["the amount.  , yesh"]);
    }

    #[test]
    fn a_period_before_a_quote_marker_or_a_rule_starts_the_next_sentence() {
        assert_eq!(sentences("the client.\n> Having it"), ["the client", ".\n> Having it"]);
        assert_eq!(sentences("the client. * it"), ["the client", ". * it"]);
        assert_eq!(sentences("ideas.\n\n-----\nThis"), ["ideas", ".\n\n-----\nThis"]);
        // A marker glued to the word is rule three: the break stays after the spaces.
        assert_eq!(sentences("the client.\n>Having it"), ["the client.\n", ">Having it"]);
    }

    #[test]
    fn question_and_exclamation_marks_always_break() {
        assert_eq!(sentences("Why? because! ok"), ["Why? ", "because! ", "ok"]);
    }

    #[test]
    fn closing_quotes_stay_with_the_sentence_and_opening_ones_start_the_next() {
        assert_eq!(sentences("He said \"stop.\" Then left."), ["He said \"stop.\" ", "Then left."]);
        assert_eq!(sentences("It ended. (Then more.)"), ["It ended. ", "(Then more.)"]);
    }

    #[test]
    fn paragraph_separators_are_hard_breaks() {
        assert_eq!(sentences("one\u{2029}two"), ["one\u{2029}", "two"]);
        assert_eq!(sentence_boundaries(&[]), [0]);
    }
}
