//! The break iterators the unified highlighter asks for passage bounds, with Java's
//! `preceding`/`following` contract: `preceding(o)` is the last boundary before `o`,
//! `following(o)` the first one after it, `None` (Java's `DONE`) past either end.
//!
//! Like Lucene's `SplittingBreakIterator`, which the unified highlighter wraps around every
//! break iterator, [`Breaker`] runs the iterator on one value of a multi-valued field at a
//! time (the text between separators), so no passage ever spans two values.
//!
//! [`BoundedSentences`] is ES's `BoundedBreakIteratorScanner` (the default for a positive
//! `fragment_size`): sentences merged up to `fragment_size` characters, and a sentence longer than that
//! cut at word boundaries around the match. It keeps state between calls, as the original
//! does, because the highlighter calls it with increasing offsets and a second passage in the
//! same long sentence starts where the previous one ended.

use super::sentence_breaks::sentence_boundaries;
use super::word_breaks::word_boundaries;

/// A fixed, ascending list of boundaries (always holding 0 and the text length).
pub struct Boundaries(pub Vec<usize>);

impl Boundaries {
    pub fn preceding(&self, offset: usize) -> Option<usize> {
        let i = self.0.partition_point(|b| *b < offset);
        i.checked_sub(1).map(|i| self.0[i])
    }

    pub fn following(&self, offset: usize) -> Option<usize> {
        let i = self.0.partition_point(|b| *b <= offset);
        self.0.get(i).copied()
    }
}

pub struct BoundedSentences {
    sentences: Boundaries,
    words: Boundaries,
    max_len: usize,
    window_start: Option<usize>,
    window_end: Option<usize>,
    inner_start: usize,
    inner_end: usize,
}

impl BoundedSentences {
    pub fn new(sentences: Boundaries, words: Boundaries, max_len: usize) -> BoundedSentences {
        BoundedSentences {
            sentences,
            words,
            max_len,
            window_start: None,
            window_end: None,
            inner_start: 0,
            inner_end: 0,
        }
    }

    /// The start of the passage holding the match that starts at `offset - 1`; must be
    /// called with increasing offsets, each followed by [`Self::passage_end`].
    pub fn preceding(&mut self, offset: usize) -> usize {
        let inside = matches!((self.window_start, self.window_end), (Some(s), Some(e)) if offset > s && offset < e);
        if inside {
            self.inner_start = self.inner_end;
            self.inner_end = self.window_end.unwrap_or(self.inner_end);
        } else {
            let start = self.sentences.preceding(offset).unwrap_or(0);
            let end = self.sentences.following(offset - 1).unwrap_or(offset);
            self.inner_start = start;
            self.inner_end = end;
            self.window_start = Some(start);
            self.window_end = Some(end);
            // Merge following sentences while the whole still fits in max_len.
            while self.inner_end - self.inner_start < self.max_len {
                match self.sentences.following(self.inner_end) {
                    Some(next) if next - self.inner_start <= self.max_len => {
                        self.inner_end = next;
                        self.window_end = Some(next);
                    }
                    _ => break,
                }
            }
        }
        let window_end = self.window_end.unwrap_or(self.inner_end);
        if self.inner_end - self.inner_start > self.max_len {
            // Too long: find a word boundary max_len before the match, then spend what is
            // left of max_len after it.
            if offset > self.max_len && offset - self.max_len > self.inner_start {
                let left = self.words.preceding(offset - self.max_len).unwrap_or(0);
                self.inner_start = self.inner_start.max(left);
            }
            let remaining = self.max_len.saturating_sub(offset.saturating_sub(self.inner_start));
            if offset + remaining < window_end {
                let right = self.words.following(offset + remaining).unwrap_or(window_end);
                self.inner_end = window_end.min(right);
            }
        }
        self.inner_start
    }

    /// The end of the passage found by the last [`Self::preceding`] call.
    pub fn passage_end(&self) -> usize {
        self.inner_end
    }
}

/// How a value is cut into passages.
#[derive(Debug, Clone, Copy)]
pub enum SliceBreaks {
    /// Sentences bounded by this `fragment_size` (the default).
    Bounded(usize),
    Sentences,
    Words,
    /// The whole value (`number_of_fragments: 0`, keyword fields).
    Whole,
}

enum SliceIter {
    Bounded(BoundedSentences),
    Plain(Boundaries),
}

/// The break iterator of a field's joined content, applied per value.
pub struct Breaker<'a> {
    content: &'a [char],
    kind: SliceBreaks,
    separator: char,
    /// The value the iterator is on: its bounds in `content` and its iterator. Moving to
    /// another value starts a fresh iterator, as `SplittingBreakIterator`'s `setText` does.
    slice: Option<(usize, usize, SliceIter)>,
}

impl<'a> Breaker<'a> {
    pub fn new(content: &'a [char], kind: SliceBreaks, separator: char) -> Breaker<'a> {
        Breaker { content, kind, separator, slice: None }
    }

    fn iterator(&self, text: &[char]) -> SliceIter {
        match self.kind {
            SliceBreaks::Bounded(max_len) => SliceIter::Bounded(BoundedSentences::new(
                Boundaries(sentence_boundaries(text)),
                Boundaries(word_boundaries(text)),
                max_len,
            )),
            SliceBreaks::Sentences => SliceIter::Plain(Boundaries(sentence_boundaries(text))),
            SliceBreaks::Words => SliceIter::Plain(Boundaries(word_boundaries(text))),
            SliceBreaks::Whole => SliceIter::Plain(Boundaries(vec![0, text.len()])),
        }
    }

    /// The passage bounds (in `content`) for a match starting at `start`: the highlighter's
    /// `preceding(start + 1)` then `following(start)`.
    pub fn bounds(&mut self, start: usize) -> (usize, usize) {
        let inside = matches!(&self.slice, Some((s, e, _)) if start >= *s && start < *e);
        if !inside {
            let s = self.content[..start].iter().rposition(|c| *c == self.separator).map_or(0, |i| i + 1);
            let e = self.content[start..]
                .iter()
                .position(|c| *c == self.separator)
                .map_or(self.content.len(), |i| start + i);
            let iter = self.iterator(&self.content[s..e]);
            self.slice = Some((s, e, iter));
        }
        let Some((s, e, iter)) = self.slice.as_mut() else { unreachable!("slice set above") };
        let (s, len) = (*s, *e - *s);
        let rel = start - s;
        let (from, to) = match iter {
            SliceIter::Bounded(b) => (b.preceding(rel + 1), b.passage_end()),
            SliceIter::Plain(b) => (b.preceding(rel + 1).unwrap_or(0), b.following(rel).unwrap_or(len)),
        };
        (s + from, s + to.min(len))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanner(text: &[char], max_len: usize) -> BoundedSentences {
        BoundedSentences::new(Boundaries(sentence_boundaries(text)), Boundaries(word_boundaries(text)), max_len)
    }

    #[test]
    fn short_sentences_merge_up_to_the_limit() {
        let text: Vec<char> = "One. Two. Three is long enough.".chars().collect();
        let mut s = scanner(&text, 12);
        assert_eq!(s.preceding(1), 0);
        assert_eq!(s.passage_end(), 10);
    }

    #[test]
    fn a_long_sentence_is_cut_at_words_around_the_match() {
        let text: Vec<char> = "aaa bbb ccc ddd eee fff ggg hhh".chars().collect();
        let mut s = scanner(&text, 8);
        // The match "eee" starts at 16: a word boundary max_len before it, and nothing of
        // max_len left after it, so the passage ends at the match's own word end.
        let start = s.preceding(17);
        assert_eq!((start, s.passage_end()), (8, 19));
    }

    #[test]
    fn boundaries_answer_like_java() {
        let b = Boundaries(vec![0, 3, 5]);
        assert_eq!((b.preceding(4), b.following(3)), (Some(3), Some(5)));
        assert_eq!((b.preceding(0), b.following(5)), (None, None));
    }

    #[test]
    fn each_value_is_broken_on_its_own() {
        // Merged as one text, both sentences would fit one 100-char passage.
        let text: Vec<char> = "One fox.\0Two fox.".chars().collect();
        let mut breaker = Breaker::new(&text, SliceBreaks::Bounded(100), '\0');
        assert_eq!(breaker.bounds(4), (0, 8));
        assert_eq!(breaker.bounds(13), (9, 17));
    }
}
