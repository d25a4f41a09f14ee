//! One token of an analysis chain, as Lucene's attributes describe it: the term, its byte
//! offsets in the text the tokenizer read, its position, how many positions it spans and its type.

#[derive(Debug, Clone, PartialEq)]
pub struct Tok {
    pub term: String,
    /// Byte offsets into the (char-filtered) text; mapped back to the original text afterwards.
    pub start: usize,
    pub end: usize,
    pub position: usize,
    /// Lucene's `PositionLengthAttribute` (a shingle of two words spans 2).
    pub position_length: usize,
    pub kind: &'static str,
}

impl Tok {
    pub fn new(term: impl Into<String>, start: usize, end: usize, position: usize, kind: &'static str) -> Tok {
        Tok { term: term.into(), start, end, position, position_length: 1, kind }
    }
}

/// Byte offset -> UTF-16 code unit offset (what ES reports: Java string indices).
pub struct Utf16Offsets {
    /// For each char boundary (byte offset), its UTF-16 index; sorted by byte offset.
    boundaries: Vec<(usize, usize)>,
}

impl Utf16Offsets {
    pub fn new(text: &str) -> Utf16Offsets {
        let mut boundaries = Vec::with_capacity(text.len() + 1);
        let mut units = 0;
        for (at, c) in text.char_indices() {
            boundaries.push((at, units));
            units += c.len_utf16();
        }
        boundaries.push((text.len(), units));
        Utf16Offsets { boundaries }
    }

    pub fn at(&self, byte: usize) -> usize {
        match self.boundaries.binary_search_by_key(&byte, |b| b.0) {
            Ok(i) => self.boundaries[i].1,
            // Inside a character (cannot happen for offsets a tokenizer gives): the char's start.
            Err(i) => self.boundaries[i.saturating_sub(1)].1,
        }
    }

    /// The length of the text in UTF-16 code units.
    pub fn len(&self) -> usize {
        self.boundaries.last().map_or(0, |b| b.1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_offsets_count_java_chars() {
        let offsets = Utf16Offsets::new("aé😀b");
        assert_eq!(offsets.at(0), 0);
        assert_eq!(offsets.at(1), 1);
        assert_eq!(offsets.at(3), 2);
        assert_eq!(offsets.at(7), 4);
        assert_eq!(offsets.len(), 5);
    }
}
