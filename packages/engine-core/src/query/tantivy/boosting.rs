//! `boosting`: matches what `positive` matches, scored by `positive`, except that documents
//! also matching `negative` have their score multiplied by `negative_boost` (Lucene's
//! FunctionScoreQuery.boostByQuery, which ES uses). `negative` never changes what matches.

use std::fmt;

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term};

pub struct BoostingQuery {
    positive: Box<dyn Query>,
    negative: Box<dyn Query>,
    negative_boost: Score,
}

impl BoostingQuery {
    pub fn new(positive: Box<dyn Query>, negative: Box<dyn Query>, negative_boost: Score) -> BoostingQuery {
        BoostingQuery { positive, negative, negative_boost }
    }
}

impl Clone for BoostingQuery {
    fn clone(&self) -> Self {
        BoostingQuery {
            positive: self.positive.box_clone(),
            negative: self.negative.box_clone(),
            negative_boost: self.negative_boost,
        }
    }
}

impl fmt::Debug for BoostingQuery {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Boosting(positive={:?}, negative={:?}, x{})", self.positive, self.negative, self.negative_boost)
    }
}

impl Query for BoostingQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let positive = self.positive.weight(enable_scoring)?;
        // Without scoring (filters, counts) only `positive` decides the matches.
        if !enable_scoring.is_scoring_enabled() {
            return Ok(positive);
        }
        let negative = self.negative.weight(enable_scoring)?;
        Ok(Box::new(BoostingWeight { positive, negative, negative_boost: self.negative_boost }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.positive.query_terms(visitor)
    }
}

struct BoostingWeight {
    positive: Box<dyn Weight>,
    negative: Box<dyn Weight>,
    negative_boost: Score,
}

impl Weight for BoostingWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(BoostingScorer {
            positive: self.positive.scorer(reader, boost)?,
            negative: self.negative.scorer(reader, 1.0)?,
            negative_boost: self.negative_boost,
        }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let positive = self.positive.explain(reader, doc)?;
        let mut negative = self.negative.scorer(reader, 1.0)?;
        let demoted = negative.doc() <= doc && negative.seek(doc) == doc;
        let factor = if demoted { self.negative_boost } else { 1.0 };
        let mut out = Explanation::new(
            "boosting: positive score x negative_boost when negative matches",
            positive.value() * factor,
        );
        out.add_detail(positive);
        Ok(out)
    }
}

struct BoostingScorer {
    positive: Box<dyn Scorer>,
    negative: Box<dyn Scorer>,
    negative_boost: Score,
}

impl DocSet for BoostingScorer {
    fn advance(&mut self) -> DocId {
        self.positive.advance()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        self.positive.seek(target)
    }

    fn doc(&self) -> DocId {
        self.positive.doc()
    }

    fn size_hint(&self) -> u32 {
        self.positive.size_hint()
    }
}

impl Scorer for BoostingScorer {
    fn score(&mut self) -> Score {
        let doc = self.positive.doc();
        // Docs are scored in increasing order, so the negative side only ever moves forward.
        if self.negative.doc() < doc {
            self.negative.seek(doc);
        }
        let score = self.positive.score();
        if self.negative.doc() == doc {
            score * self.negative_boost
        } else {
            score
        }
    }
}
