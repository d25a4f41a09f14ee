//! The field's text re-analyzed (ES's `ANALYSIS` offset source: our text fields keep no
//! offsets) and matched against the query's terms and phrases. Values of a multi-valued field
//! are joined with a separator, positions jump by ES's position_increment_gap (100) between
//! values so phrases never span two values.

use super::passages::{term_freqs, Match};
use super::query_terms::{FieldQuery, Phrase};
use crate::analysis::es_standard_analyzer;

/// Between values of a multi-valued field, as ES's unified highlighter joins them.
pub const VALUE_SEPARATOR: char = '\0';
const POSITION_GAP: usize = 100;

pub struct Token {
    pub text: String,
    /// Char offsets in the joined content.
    pub start: usize,
    pub end: usize,
    pub position: usize,
}

/// The joined content (as chars) and its tokens; `tokenized` false keeps each value whole
/// (keyword fields).
pub fn tokenize(values: &[String], tokenized: bool) -> (Vec<char>, Vec<Token>) {
    let mut content: Vec<char> = Vec::new();
    let mut tokens = Vec::new();
    let mut next_position = 0;
    let mut analyzer = es_standard_analyzer();
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            content.push(VALUE_SEPARATOR);
        }
        let base = content.len();
        // Byte offset -> char offset within this value.
        let mut char_at = vec![0usize; value.len() + 1];
        for (n, (b, _)) in value.char_indices().enumerate() {
            char_at[b] = n;
        }
        char_at[value.len()] = value.chars().count();
        content.extend(value.chars());
        if !tokenized {
            tokens.push(Token { text: value.clone(), start: base, end: content.len(), position: next_position });
            next_position += POSITION_GAP + 1;
            continue;
        }
        let mut stream = analyzer.token_stream(value);
        let mut last = next_position;
        while let Some(t) = stream.next() {
            let position = next_position + t.position;
            last = position;
            let (start, end) = (base + char_at[t.offset_from], base + char_at[t.offset_to]);
            tokens.push(Token { text: t.text.clone(), start, end, position });
        }
        next_position = last + POSITION_GAP + 1;
    }
    (content, tokens)
}

/// Indexes of the tokens where `phrase` occurs: in order and adjacent with no slop, within
/// `slop` moves otherwise (Lucene's sloppy span matching, in any order).
fn phrase_hits(phrase: &Phrase, tokens: &[Token], hit: &mut [bool]) {
    let by_position = |p: usize| tokens.iter().position(|t| t.position == p);
    for (anchor_idx, anchor) in tokens.iter().enumerate() {
        if !phrase.clauses[0].1.matches(&anchor.text) {
            continue;
        }
        if phrase.slop == 0 {
            let found: Option<Vec<usize>> = phrase
                .clauses
                .iter()
                .map(|(offset, m)| by_position(anchor.position + offset).filter(|i| m.matches(&tokens[*i].text)))
                .collect();
            if let Some(found) = found {
                found.into_iter().for_each(|i| hit[i] = true);
            }
            continue;
        }
        // Sloppy: every clause at a distinct token whose displacement from its expected
        // position stays within `slop` of the anchor's.
        let mut used = vec![anchor_idx];
        let mut ok = true;
        for (offset, m) in &phrase.clauses[1..] {
            let expected = anchor.position as i64 + *offset as i64;
            let best = tokens
                .iter()
                .enumerate()
                .filter(|(i, t)| !used.contains(i) && m.matches(&t.text))
                .map(|(i, t)| (i, (t.position as i64 - expected).abs()))
                .filter(|(_, d)| *d <= phrase.slop as i64)
                .min_by_key(|(_, d)| *d);
            match best {
                Some((i, _)) => used.push(i),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            used.into_iter().for_each(|i| hit[i] = true);
        }
    }
}

/// Every highlighted token occurrence, in offset order.
pub fn find_matches(query: &FieldQuery, tokens: &[Token]) -> Vec<Match> {
    let mut hit: Vec<bool> = tokens.iter().map(|t| query.terms.iter().any(|m| m.matches(&t.text))).collect();
    for phrase in &query.phrases {
        phrase_hits(phrase, tokens, &mut hit);
    }
    let freqs = term_freqs(tokens.iter().map(|t| t.text.as_str()));
    let mut out: Vec<Match> = tokens
        .iter()
        .zip(hit)
        .filter(|(_, h)| *h)
        .map(|(t, _)| Match { start: t.start, end: t.end, term: t.text.clone(), freq: freqs[t.text.as_str()] })
        .collect();
    out.sort_by_key(|m| (m.start, m.end));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::highlight::query_terms::TermMatcher;

    fn exact(t: &str) -> TermMatcher {
        TermMatcher::Exact(t.into())
    }

    fn spans(query: &FieldQuery, values: &[&str]) -> Vec<(usize, usize)> {
        let values: Vec<String> = values.iter().map(|s| s.to_string()).collect();
        let (_, tokens) = tokenize(&values, true);
        find_matches(query, &tokens).iter().map(|m| (m.start, m.end)).collect()
    }

    #[test]
    fn terms_match_every_occurrence_case_folded() {
        let q = FieldQuery { terms: vec![exact("fox")], phrases: vec![] };
        assert_eq!(spans(&q, &["The Fox saw a fox"]), [(4, 7), (14, 17)]);
    }

    #[test]
    fn phrases_match_only_where_the_phrase_occurs() {
        let phrase = Phrase { clauses: vec![(0, exact("brown")), (1, exact("fox"))], slop: 0 };
        let q = FieldQuery { terms: vec![], phrases: vec![phrase] };
        assert_eq!(spans(&q, &["brown dog, brown fox, fox"]), [(11, 16), (17, 20)]);
    }

    #[test]
    fn phrases_never_span_two_values_and_offsets_count_the_separator() {
        let phrase = Phrase { clauses: vec![(0, exact("a")), (1, exact("b"))], slop: 0 };
        let q = FieldQuery { terms: vec![exact("c")], phrases: vec![phrase] };
        assert_eq!(spans(&q, &["x a", "b c"]), [(6, 7)]);
    }

    #[test]
    fn sloppy_phrases_allow_gaps() {
        let phrase = Phrase { clauses: vec![(0, exact("quick")), (1, exact("fox"))], slop: 1 };
        let q = FieldQuery { terms: vec![], phrases: vec![phrase] };
        assert_eq!(spans(&q, &["quick brown fox"]), [(0, 5), (12, 15)]);
    }
}
