//! Matches -> passages, as Lucene's `FieldHighlighter` does it in the copy ES/OpenSearch keep
//! (`CustomFieldHighlighter`, the pre-LUCENE-9093 loop): walk the matches in offset order; a
//! match past the current passage opens a new one bounded by the break iterator; passages are
//! scored with Lucene's BM25-like `PassageScorer` and only the best `max_passages` are kept,
//! then returned in text order.

use std::collections::HashMap;

use super::breaks::{Boundaries, Breaker};

/// One highlighted token occurrence: char offsets, its term and the term's frequency in the
/// field (the passage scorer's "document frequency" stand-in).
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub start: usize,
    pub end: usize,
    pub term: String,
    pub freq: u32,
}

#[derive(Debug, Clone)]
pub struct Passage {
    pub start: usize,
    pub end: usize,
    pub score: f32,
    pub matches: Vec<Match>,
}

/// Lucene's `PassageScorer` with its defaults (k1 1.2, b 0.75, pivot 87), in f32 as Java.
fn score(passage: &Passage, content_len: usize) -> f32 {
    const K1: f32 = 1.2;
    const B: f32 = 0.75;
    const PIVOT: f32 = 87.0;
    let mut per_term: Vec<(&str, u32, u32)> = Vec::new();
    for m in &passage.matches {
        match per_term.iter_mut().find(|(t, _, _)| *t == m.term) {
            Some(entry) => entry.1 += 1,
            None => per_term.push((&m.term, 1, m.freq)),
        }
    }
    let passage_len = (passage.end - passage.start) as f32;
    let num_docs = 1.0 + content_len as f32 / PIVOT;
    let mut total = 0f64;
    for (_, in_passage, in_doc) in per_term {
        let norm = K1 * ((1.0 - B) + B * (passage_len / PIVOT));
        let tf = in_passage as f32 / (in_passage as f32 + norm);
        let weight = (K1 + 1.0) * (1.0 + (num_docs as f64 + 0.5) / (in_doc as f64 + 0.5)).ln() as f32;
        total += (tf * weight) as f64;
    }
    let position_norm = 1.0 + 1.0 / (PIVOT + passage.start as f32).ln();
    (total * position_norm as f64) as f32
}

/// The best `max_passages` passages holding `matches` (sorted by start), in text order.
pub fn passages(matches: &[Match], breaker: &mut Breaker, content_len: usize, max_passages: usize) -> Vec<Passage> {
    let mut kept: Vec<Passage> = Vec::new();
    let mut current: Option<Passage> = None;
    let offer = |p: Passage, kept: &mut Vec<Passage>| {
        let mut p = p;
        p.score = score(&p, content_len);
        // Lucene's queue: lowest score first, ties broken by the lower start offset.
        let weakest = |kept: &[Passage]| {
            (0..kept.len()).min_by(|a, b| {
                let (x, y) = (&kept[*a], &kept[*b]);
                x.score.partial_cmp(&y.score).unwrap_or(std::cmp::Ordering::Equal).then(x.start.cmp(&y.start))
            })
        };
        if kept.len() == max_passages {
            if let Some(w) = weakest(kept.as_slice()) {
                if p.score < kept[w].score {
                    return;
                }
            }
        }
        kept.push(p);
        if kept.len() > max_passages {
            if let Some(w) = weakest(kept.as_slice()) {
                kept.remove(w);
            }
        }
    };
    for m in matches {
        if m.start >= content_len || m.end > content_len {
            continue;
        }
        let opens_new = current.as_ref().is_none_or(|p| m.start >= p.end);
        if opens_new {
            if let Some(p) = current.take() {
                offer(p, &mut kept);
            }
            let (start, end) = breaker.bounds(m.start);
            current = Some(Passage { start, end, score: 0.0, matches: Vec::new() });
        }
        if let Some(p) = current.as_mut() {
            p.matches.push(m.clone());
        }
    }
    if let Some(p) = current.take() {
        offer(p, &mut kept);
    }
    kept.sort_by_key(|p| p.start);
    kept
}

/// ES's summary for a field without matches: the first value cut at the first word boundary
/// after `no_match_size` characters (`None` when there is nothing to show).
pub fn no_match_passage(content: &[char], no_match_size: usize, separator: char) -> Option<Passage> {
    if no_match_size == 0 {
        return None;
    }
    let start = content.iter().position(|c| *c != separator)?;
    let mut end = content[start..].iter().position(|c| *c == separator).map_or(content.len(), |i| start + i);
    if no_match_size + start < end {
        let words = Boundaries(super::word_breaks::word_boundaries(content));
        end = words.following(no_match_size + start).unwrap_or(content.len());
    }
    Some(Passage { start, end, score: f32::NAN, matches: Vec::new() })
}

/// How often each term occurs among the field's tokens (what the scorer calls doc freq).
pub fn term_freqs<'a>(tokens: impl Iterator<Item = &'a str>) -> HashMap<&'a str, u32> {
    let mut freqs = HashMap::new();
    for t in tokens {
        *freqs.entry(t).or_insert(0) += 1;
    }
    freqs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::highlight::breaks::SliceBreaks;

    fn m(start: usize, end: usize, term: &str) -> Match {
        Match { start, end, term: term.into(), freq: 1 }
    }

    #[test]
    fn matches_in_one_value_share_a_passage() {
        let text: Vec<char> = "a b\0c a".chars().collect();
        let mut breaker = Breaker::new(&text, SliceBreaks::Whole, '\0');
        let got = passages(&[m(0, 1, "a"), m(2, 3, "b"), m(6, 7, "a")], &mut breaker, text.len(), 10);
        let bounds: Vec<_> = got.iter().map(|p| (p.start, p.end, p.matches.len())).collect();
        assert_eq!(bounds, [(0, 3, 2), (4, 7, 1)]);
    }

    #[test]
    fn keeps_the_best_scoring_passages_in_text_order() {
        let text: Vec<char> = "x\0y y\0x".chars().collect();
        let mut breaker = Breaker::new(&text, SliceBreaks::Whole, '\0');
        let got = passages(&[m(0, 1, "x"), m(2, 3, "y"), m(4, 5, "y"), m(6, 7, "x")], &mut breaker, text.len(), 1);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].start, 2, "two matches outscore one");
    }

    #[test]
    fn no_match_summary_ends_at_a_word_boundary() {
        let text: Vec<char> = "hello wonderful world".chars().collect();
        let p = no_match_passage(&text, 8, '\0').unwrap();
        assert_eq!((p.start, p.end), (0, 15));
        assert!(no_match_passage(&text, 0, '\0').is_none());
    }
}
