//! Java's `BreakIterator.getWordInstance()` (the JDK's rule-based word iterator). The unified
//! highlighter uses it to cut a sentence longer than `fragment_size` and to end a
//! `no_match_size` summary, so its boundaries decide where those fragments stop.
//!
//! Segments, longest first: runs of letters and digits, joined by single inner punctuation
//! (`don't`, `well-known`, `3.14`, `1,000`, `abc123`); a number prefix (`$`, `#`, `.`) glued to
//! the number after it; runs of spaces and tabs with one optional trailing line break; runs of
//! kana or kanji; and any other character alone. Offsets are char indices.

fn is_kana_or_kanji(c: char) -> bool {
    matches!(c, '\u{3005}' | '\u{4E00}'..='\u{9FA5}' | '\u{F900}'..='\u{FA2D}' | '\u{3041}'..='\u{30FE}')
}

fn is_letter(c: char) -> bool {
    c.is_alphabetic() && !is_kana_or_kanji(c)
}

fn is_digit(c: char) -> bool {
    c.is_numeric()
}

/// Punctuation allowed between two letters of one word.
fn is_mid_word(c: char) -> bool {
    matches!(
        c,
        '-' | '_' | '\u{00AD}' | '\u{2027}' | '"' | '\'' | '.' | '\u{2010}'..='\u{2015}' | '\u{203F}' | '\u{2040}'
    )
}

/// Punctuation allowed between two digits of one number.
fn is_mid_number(c: char) -> bool {
    matches!(c, '"' | '\'' | ',' | '\u{066B}' | '.')
}

fn is_number_prefix(c: char) -> bool {
    matches!(c, '#' | '.' | '$' | '\u{00A3}' | '\u{00A5}' | '\u{20AC}' | '\u{20A0}'..='\u{20BF}')
}

fn is_number_suffix(c: char) -> bool {
    matches!(c, '%' | '&' | '\u{00A2}' | '\u{066A}' | '\u{2030}' | '\u{2031}')
}

fn is_horizontal_space(c: char) -> bool {
    c == '\t'
        || matches!(c, ' ' | '\u{00A0}' | '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}')
}

fn is_line_separator(c: char) -> bool {
    matches!(c, '\n' | '\u{000C}' | '\u{2028}' | '\u{2029}')
}

/// A run of `is(c)` characters where one `joiner` may sit between two of them.
fn joined_run(text: &[char], mut i: usize, is: fn(char) -> bool, joiner: fn(char) -> bool) -> usize {
    while i < text.len() && is(text[i]) {
        i += 1;
        if i + 1 < text.len() && joiner(text[i]) && is(text[i + 1]) {
            i += 1;
        }
    }
    i
}

/// Words and numbers back to back (`abc123`), a number optionally followed by a suffix.
fn alphanumeric_run(text: &[char], mut i: usize) -> usize {
    let mut ended_with_number = false;
    while i < text.len() {
        if is_letter(text[i]) {
            i = joined_run(text, i, is_letter, is_mid_word);
            ended_with_number = false;
        } else if is_digit(text[i]) {
            i = joined_run(text, i, is_digit, is_mid_number);
            ended_with_number = true;
        } else {
            break;
        }
    }
    if ended_with_number && i < text.len() && is_number_suffix(text[i]) {
        i += 1;
    }
    i
}

fn segment_end(text: &[char], i: usize) -> usize {
    let c = text[i];
    let next = text.get(i + 1).copied();
    if is_letter(c) || is_digit(c) {
        return alphanumeric_run(text, i);
    }
    if is_number_prefix(c) && next.is_some_and(is_digit) {
        return alphanumeric_run(text, i + 1);
    }
    if is_horizontal_space(c) || c == '\r' || is_line_separator(c) {
        let mut j = i;
        while j < text.len() && is_horizontal_space(text[j]) {
            j += 1;
        }
        if j < text.len() && text[j] == '\r' {
            j += 1;
        }
        if j < text.len() && is_line_separator(text[j]) {
            j += 1;
        }
        return j.max(i + 1);
    }
    if is_kana_or_kanji(c) {
        let kanji = |c: char| matches!(c, '\u{3005}' | '\u{4E00}'..='\u{9FA5}' | '\u{F900}'..='\u{FA2D}');
        let same = |d: char| if kanji(c) { kanji(d) } else { is_kana_or_kanji(d) && !kanji(d) };
        let mut j = i + 1;
        while j < text.len() && same(text[j]) {
            j += 1;
        }
        return j;
    }
    i + 1
}

/// Every word boundary of `text`, ascending, from 0 to the length.
pub fn word_boundaries(text: &[char]) -> Vec<usize> {
    let mut out = vec![0];
    let mut at = 0;
    while at < text.len() {
        at = segment_end(text, at);
        out.push(at);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments(text: &str) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        word_boundaries(&chars).windows(2).map(|w| chars[w[0]..w[1]].iter().collect()).collect()
    }

    #[test]
    fn words_keep_inner_punctuation_and_spaces_run_together() {
        assert_eq!(segments("don't  stop-it (now)"), ["don't", "  ", "stop-it", " ", "(", "now", ")"]);
    }

    #[test]
    fn numbers_keep_separators_prefixes_and_suffixes() {
        assert_eq!(
            segments("$1,000.50 is 12% of abc123."),
            ["$1,000.50", " ", "is", " ", "12%", " ", "of", " ", "abc123", "."]
        );
    }

    #[test]
    fn a_trailing_period_is_its_own_segment() {
        assert_eq!(segments("e.g. x"), ["e.g", ".", " ", "x"]);
    }
}
