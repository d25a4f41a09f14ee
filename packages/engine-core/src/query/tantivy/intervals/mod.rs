//! The `intervals` query over tantivy's positions, as Lucene's `IntervalQuery`: a document
//! matches when its source yields an interval, and scores by the saturation of its "sloppy
//! frequency": `boost * S / (S + 1)`, where each interval adds `1 / max(length - minExtent + 1, 1)`
//! (short intervals count most). Each segment opens the source's postings (`source.rs`), lists
//! the documents that may match, and computes intervals only there (`algebra.rs`).

mod algebra;
pub mod source;

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

use source::SegmentSource;
pub use source::{Expansion, IntervalsSource};

#[derive(Debug, Clone)]
pub struct IntervalsQuery {
    source: IntervalsSource,
    /// ES's boost times the engine's internal score scale.
    weight: f32,
}

impl IntervalsQuery {
    pub fn new(source: IntervalsSource, weight: f32) -> Self {
        IntervalsQuery { source, weight }
    }
}

impl Query for IntervalsQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(IntervalsWeight { source: self.source.clone(), weight: self.weight }))
    }
}

struct IntervalsWeight {
    source: IntervalsSource,
    weight: f32,
}

impl Weight for IntervalsWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let root = self.source.open(reader)?;
        let candidates = root.candidates();
        let mut scorer = IntervalsScorer {
            root,
            candidates,
            next: 0,
            doc: TERMINATED,
            score: 0.0,
            weight: self.weight * boost,
            min_extent: self.source.min_extent(),
        };
        scorer.settle();
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(tantivy::TantivyError::InvalidArgument(format!("document {doc} does not match")));
        }
        Ok(Explanation::new("intervals, saturation of the sloppy frequency (w * S / (S + 1))", scorer.score()))
    }
}

struct IntervalsScorer {
    root: SegmentSource,
    candidates: Vec<DocId>,
    /// The next candidate to look at.
    next: usize,
    doc: DocId,
    score: Score,
    weight: f32,
    min_extent: i32,
}

impl IntervalsScorer {
    /// Moves to the first candidate from `next` on where the source has intervals.
    fn settle(&mut self) -> DocId {
        while let Some(&doc) = self.candidates.get(self.next) {
            self.next += 1;
            let intervals = self.root.intervals(doc);
            if !intervals.is_empty() {
                let sloppy: f32 =
                    intervals.iter().map(|iv| 1.0 / (iv.end - iv.start + 1 - self.min_extent + 1).max(1) as f32).sum();
                self.score = self.weight * (1.0 - 1.0 / (1.0 + sloppy));
                self.doc = doc;
                return doc;
            }
        }
        self.doc = TERMINATED;
        TERMINATED
    }
}

impl DocSet for IntervalsScorer {
    fn advance(&mut self) -> DocId {
        self.settle()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc != TERMINATED && self.doc >= target {
            return self.doc;
        }
        self.next += self.candidates[self.next..].partition_point(|&d| d < target);
        self.settle()
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.candidates.len() as u32
    }
}

impl Scorer for IntervalsScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}
