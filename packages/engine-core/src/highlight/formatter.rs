//! Passage -> fragment text, as ES's `CustomPassageFormatter`: the passage's text with each
//! match wrapped in the tags (overlapping matches merged, adjacent ones wrapped separately),
//! the value separator dropped from the end, then trimmed the way Java's `String.trim` does.

use super::passages::Passage;

/// `encoder: html` escapes the text (never the tags) as Lucene's `SimpleHTMLEncoder`.
fn encode(out: &mut String, text: &[char], html: bool) {
    for &c in text {
        match (html, c) {
            (true, '"') => out.push_str("&quot;"),
            (true, '&') => out.push_str("&amp;"),
            (true, '<') => out.push_str("&lt;"),
            (true, '>') => out.push_str("&gt;"),
            (true, '\'') => out.push_str("&#x27;"),
            (true, '/') => out.push_str("&#x2F;"),
            _ => out.push(c),
        }
    }
}

pub struct Tags<'a> {
    pub pre: &'a str,
    pub post: &'a str,
    pub html: bool,
}

pub fn format(passage: &Passage, content: &[char], tags: &Tags) -> String {
    let mut out = String::new();
    let mut pos = passage.start;
    let mut i = 0;
    let matches = &passage.matches;
    while i < matches.len() {
        let start = matches[i].start.max(pos);
        encode(&mut out, &content[pos..start], tags.html);
        let mut end = matches[i].end;
        while i + 1 < matches.len() && matches[i + 1].start < end {
            i += 1;
            end = matches[i].end;
        }
        let end = end.min(passage.end).max(start);
        out.push_str(tags.pre);
        encode(&mut out, &content[start..end], tags.html);
        out.push_str(tags.post);
        pos = end;
        i += 1;
    }
    encode(&mut out, &content[pos..passage.end.max(pos)], tags.html);
    if out.ends_with(['\u{2029}', '\0']) {
        out.pop();
    }
    // Java's trim: every char up to U+0020 counts as space.
    out.trim_matches(|c: char| c <= ' ').to_string()
}

/// Java's `Strings.hasText`: at least one non-whitespace character.
pub fn has_text(fragment: &str) -> bool {
    fragment.chars().any(|c| !c.is_whitespace())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::highlight::passages::Match;

    fn passage(start: usize, end: usize, spans: &[(usize, usize)]) -> Passage {
        let matches = spans.iter().map(|&(s, e)| Match { start: s, end: e, term: String::new(), freq: 1 }).collect();
        Passage { start, end, score: 0.0, matches }
    }

    const EM: Tags = Tags { pre: "<em>", post: "</em>", html: false };

    #[test]
    fn wraps_adjacent_matches_separately_and_trims() {
        let text: Vec<char> = " quick brown fox ".chars().collect();
        assert_eq!(format(&passage(0, 17, &[(1, 6), (7, 12)]), &text, &EM), "<em>quick</em> <em>brown</em> fox");
    }

    #[test]
    fn merges_overlapping_matches() {
        let text: Vec<char> = "abcdef".chars().collect();
        assert_eq!(format(&passage(0, 6, &[(0, 3), (2, 5)]), &text, &EM), "<em>abcde</em>f");
    }

    #[test]
    fn html_encoder_escapes_text_but_not_tags() {
        let text: Vec<char> = "a<b> & 'c'".chars().collect();
        let tags = Tags { pre: "<b>", post: "</b>", html: true };
        assert_eq!(format(&passage(0, 10, &[(5, 6)]), &text, &tags), "a&lt;b&gt; <b>&amp;</b> &#x27;c&#x27;");
    }

    #[test]
    fn drops_a_trailing_value_separator() {
        let text: Vec<char> = "one\0".chars().collect();
        assert_eq!(format(&passage(0, 4, &[(0, 3)]), &text, &EM), "<em>one</em>");
    }
}
