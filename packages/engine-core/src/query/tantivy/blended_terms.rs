//! The scored union of a fuzzy query's kept expansions (`fuzzy_expansion.rs`), read in windows
//! of 4,096 documents straight from each term's decoded postings blocks.
//!
//! A typo of a common word expands to terms held by a fifth of the corpus, and exact totals
//! leave nothing to prune: every match is scored. tantivy's boolean union does that through a
//! term scorer per expansion and a per-document callback into the collector; here each term's
//! blocks are read as slices (document, frequency) into one window of scores and a bit set,
//! and a search that wants the top hits and the total (`search/score_top.rs`) drains the
//! window into its own top-k with no dynamic call per document. A term's postings are opened
//! from the term info its expansion found in each segment, so no term is looked up twice.
//!
//! Scores are tantivy's BM25 term scores (`Bm25Weight`, the blended statistics, the
//! expansion's boost), summed per document in clause order, as the boolean union sums them.
//! Everywhere else (inside a `bool`, an aggregation's filter, `explain`) it is an ordinary
//! scorer over the same windows.

use std::collections::{HashMap, HashSet};

use tantivy::collector::sort_key::NaturalComparator;
use tantivy::collector::TopNComputer;
use tantivy::fastfield::AliveBitSet;
use tantivy::fieldnorm::FieldNormReader;
use tantivy::index::SegmentId;
use tantivy::postings::BlockSegmentPostings;
use tantivy::postings::TermInfo;
use tantivy::query::{Bm25Weight, EmptyScorer, Explanation, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocAddress, DocId, DocSet, Score, SegmentReader, TantivyError, Term, TERMINATED};

const WINDOW: u32 = 4096;
const SLOTS: usize = WINDOW as usize;
const WORDS: usize = SLOTS / 64;

/// One kept expansion.
pub struct BlendedTerm {
    pub term: Term,
    /// BM25 on the blended statistics, before the expansion's boost.
    pub bm25: Bm25Weight,
    /// `1 - edits / length`: closer terms score higher.
    pub boost: Score,
    /// Where the term's postings are, in each segment that has it.
    pub infos: HashMap<SegmentId, TermInfo>,
}

pub struct BlendedTermsWeight {
    field: Field,
    terms: Vec<BlendedTerm>,
    /// The segments the expansion looked at: a term missing from one of them is absent there.
    seen: HashSet<SegmentId>,
}

impl BlendedTermsWeight {
    pub fn new(field: Field, terms: Vec<BlendedTerm>, seen: HashSet<SegmentId>) -> Self {
        BlendedTermsWeight { field, terms, seen }
    }

    fn open(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Option<BlendedTermsScorer>> {
        let index = reader.inverted_index(self.field)?;
        let known = self.seen.contains(&reader.segment_id());
        let mut cursors = Vec::with_capacity(self.terms.len());
        for t in &self.terms {
            let postings = if known {
                match t.infos.get(&reader.segment_id()) {
                    Some(info) => index.read_block_postings_from_terminfo(info, IndexRecordOption::WithFreqs)?,
                    None => continue,
                }
            } else {
                match index.read_block_postings(&t.term, IndexRecordOption::WithFreqs)? {
                    Some(postings) => postings,
                    None => continue,
                }
            };
            let cursor = Cursor { postings, pos: 0, bm25: t.bm25.boost_by(boost * t.boost) };
            if cursor.doc() != TERMINATED {
                cursors.push(cursor);
            }
        }
        if cursors.is_empty() {
            return Ok(None);
        }
        let norms = reader
            .fieldnorms_readers()
            .get_field(self.field)?
            .unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1));
        Ok(Some(BlendedTermsScorer::new(cursors, norms)))
    }
}

impl Weight for BlendedTermsWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(match self.open(reader, boost)? {
            Some(scorer) => Box::new(scorer),
            None => Box::new(EmptyScorer),
        })
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let not_matching = || TantivyError::InvalidArgument(format!("Document #({doc}) does not match"));
        let mut scorer = self.open(reader, 1.0)?.ok_or_else(not_matching)?;
        if scorer.seek(doc) != doc {
            return Err(not_matching());
        }
        let mut explanation = Explanation::new("sum of the matching expansions", scorer.score());
        let index = reader.inverted_index(self.field)?;
        for t in &self.terms {
            let Some(mut postings) = index.read_postings(&t.term, IndexRecordOption::WithFreqs)? else { continue };
            if postings.seek(doc) != doc {
                continue;
            }
            use tantivy::postings::Postings;
            let mut detail = t.bm25.explain(scorer.norms.fieldnorm_id(doc), postings.term_freq());
            detail.add_context(format!("Term={:?}", t.term));
            if t.boost != 1.0 {
                let mut boosted =
                    Explanation::new_with_string(format!("Boost x{} of ...", t.boost), detail.value() * t.boost);
                boosted.add_detail(detail);
                detail = boosted;
            }
            explanation.add_detail(detail);
        }
        Ok(explanation)
    }
}

/// One expansion's postings in a segment, read block by block.
struct Cursor {
    postings: BlockSegmentPostings,
    /// Position in the current block.
    pos: usize,
    bm25: Bm25Weight,
}

impl Cursor {
    #[inline]
    fn doc(&self) -> DocId {
        self.postings.docs().get(self.pos).copied().unwrap_or(TERMINATED)
    }

    /// Adds this term's score of every document below `base + WINDOW` into the window.
    #[inline]
    fn fill(&mut self, base: DocId, norms: &FieldNormReader, scores: &mut [Score; SLOTS], bits: &mut [u64; WORDS]) {
        let end = base.saturating_add(WINDOW);
        let Cursor { postings, pos, bm25 } = self;
        loop {
            let docs = postings.docs();
            if docs.is_empty() {
                return;
            }
            // A field indexed without frequencies decodes none: every frequency is 1.
            let freqs = postings.freqs();
            let with_freqs = freqs.len() >= docs.len();
            let mut i = *pos;
            while i < docs.len() {
                let doc = docs[i];
                if doc >= end {
                    break;
                }
                let tf = if with_freqs { freqs[i] } else { 1 };
                // Below `WINDOW`: the mask only tells the compiler so.
                let delta = (doc - base) as usize & (SLOTS - 1);
                scores[delta] += bm25.score(norms.fieldnorm_id(doc), tf);
                bits[delta >> 6] |= 1u64 << (delta & 63);
                i += 1;
            }
            if i < docs.len() {
                *pos = i;
                return;
            }
            postings.advance();
            *pos = 0;
        }
    }

    fn seek(&mut self, target: DocId) {
        if self.doc() < target {
            self.pos = self.postings.seek(target);
        }
    }
}

pub struct BlendedTermsScorer {
    cursors: Vec<Cursor>,
    norms: FieldNormReader,
    scores: Box<[Score; SLOTS]>,
    bits: Box<[u64; WORDS]>,
    /// First document of the window.
    base: DocId,
    /// The bit-set word the next document is looked for in.
    word: usize,
    doc: DocId,
    score: Score,
}

impl BlendedTermsScorer {
    fn new(cursors: Vec<Cursor>, norms: FieldNormReader) -> Self {
        let mut scorer = BlendedTermsScorer {
            cursors,
            norms,
            scores: Box::new([0.0; SLOTS]),
            bits: Box::new([0; WORDS]),
            base: 0,
            word: WORDS,
            doc: 0,
            score: 0.0,
        };
        scorer.advance();
        scorer
    }

    /// Reads the next window, starting at the smallest document any term has left.
    fn refill(&mut self) -> bool {
        // `retain` keeps the clause order, the order scores are summed in.
        self.cursors.retain(|c| c.doc() != TERMINATED);
        let Some(base) = self.cursors.iter().map(Cursor::doc).min() else { return false };
        self.base = base;
        self.word = 0;
        for cursor in &mut self.cursors {
            cursor.fill(base, &self.norms, &mut self.scores, &mut self.bits);
        }
        true
    }

    /// The next document of the window, its score taken (and cleared).
    #[inline]
    fn next_in_window(&mut self) -> bool {
        while self.word < WORDS {
            let bits = self.bits[self.word];
            if bits != 0 {
                let idx = self.word * 64 + bits.trailing_zeros() as usize;
                self.bits[self.word] = bits & (bits - 1);
                self.doc = self.base + idx as DocId;
                self.score = std::mem::take(&mut self.scores[idx]);
                return true;
            }
            self.word += 1;
        }
        false
    }

    /// Counts every live match from the current document on and offers each to `top` (which
    /// keeps the earlier of equal scores, as documents come in order); the scorer ends
    /// exhausted. The loop a top-k search runs: no call per document, the count by words when
    /// the segment has no deletes, and `top` touched only by a score above its threshold.
    pub fn drain_top(
        &mut self,
        alive: Option<&AliveBitSet>,
        segment_ord: u32,
        top: &mut TopNComputer<Score, DocAddress, NaturalComparator>,
    ) -> u64 {
        if self.doc == TERMINATED {
            return 0;
        }
        let mut count = 0u64;
        let mut threshold = top.threshold.unwrap_or(Score::NEG_INFINITY);
        let mut offer = |doc: DocId, score: Score, threshold: &mut Score| {
            if score > *threshold {
                top.push(score, DocAddress::new(segment_ord, doc));
                *threshold = top.threshold.unwrap_or(Score::NEG_INFINITY);
            }
        };
        if alive.is_none_or(|a| a.is_alive(self.doc)) {
            count += 1;
            offer(self.doc, self.score, &mut threshold);
        }
        loop {
            for word in self.word..WORDS {
                let mut bits = std::mem::take(&mut self.bits[word]);
                let first = self.base + (word * 64) as DocId;
                match alive {
                    None => count += bits.count_ones() as u64,
                    Some(alive) => {
                        let mut live = bits;
                        while live != 0 {
                            let bit = live.trailing_zeros();
                            live &= live - 1;
                            if alive.is_deleted(first + bit) {
                                bits &= !(1u64 << bit);
                                self.scores[word * 64 + bit as usize] = 0.0;
                            }
                        }
                        count += bits.count_ones() as u64;
                    }
                }
                let slots: &mut [Score; 64] = (&mut self.scores[word * 64..][..64]).try_into().unwrap();
                // Once the top is full most words hold nothing above its threshold: one
                // vectorised look at the 64 slots (empty ones hold 0) instead of one per match.
                if bits == 0 || slots.iter().filter(|&&score| score > threshold).count() == 0 {
                    *slots = [0.0; 64];
                    continue;
                }
                while bits != 0 {
                    let bit = bits.trailing_zeros();
                    bits &= bits - 1;
                    let score = std::mem::take(&mut slots[bit as usize]);
                    offer(first + bit, score, &mut threshold);
                }
            }
            self.word = WORDS;
            if !self.refill() {
                break;
            }
        }
        self.doc = TERMINATED;
        count
    }
}

impl DocSet for BlendedTermsScorer {
    fn advance(&mut self) -> DocId {
        loop {
            if self.next_in_window() {
                return self.doc;
            }
            if !self.refill() {
                self.doc = TERMINATED;
                return TERMINATED;
            }
        }
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        if target >= self.base.saturating_add(WINDOW) {
            // Past this window: clear what is left of it and move every term to the target.
            while self.next_in_window() {}
            for cursor in &mut self.cursors {
                cursor.seek(target);
            }
            if !self.refill() {
                self.doc = TERMINATED;
                return TERMINATED;
            }
        }
        while self.advance() < target {}
        self.doc
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.cursors.iter().map(|c| c.postings.doc_freq()).sum()
    }
}

impl Scorer for BlendedTermsScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}

#[cfg(test)]
mod tests;
