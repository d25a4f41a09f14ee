//! "At least `minimum` of these should clauses", evaluated clause-at-a-time.
//!
//! tantivy answers a boolean with `minimum_should_match > 1` through a binary heap over all the
//! clause scorers: every posting of every clause costs a heap operation and virtual calls. When
//! a query is nothing but should clauses (more_like_this is), every posting has to be visited
//! anyway with exact totals, so it is far cheaper to walk each clause once, counting matches
//! (and summing scores) per document in flat per-segment arrays, and keep the documents whose
//! count reaches `minimum`. Memory is a byte (plus a float when scoring) per document of the
//! segment, freed with the scorer. Scores are the same sum of clause scores the boolean gives.
//!
//! `terms_set` takes its minimum per document from a numeric column (`minimum_should_match_field`,
//! Lucene's `CoveringQuery`): a document without a value there never matches.

use std::fmt;

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyError, TERMINATED};

pub struct CountingDisjunction {
    clauses: Vec<Box<dyn Query>>,
    minimum: usize,
    /// The i64 column holding each document's own minimum, instead of `minimum`.
    per_doc: Option<String>,
}

impl CountingDisjunction {
    /// `minimum` is at least 1 and at most the clause count (the caller resolved it).
    pub fn new(clauses: Vec<Box<dyn Query>>, minimum: usize) -> Self {
        CountingDisjunction { clauses, minimum: minimum.max(1), per_doc: None }
    }

    /// Each document needs as many clauses as its value in `column` says (at least one).
    pub fn per_document(clauses: Vec<Box<dyn Query>>, column: String) -> Self {
        CountingDisjunction { clauses, minimum: 1, per_doc: Some(column) }
    }
}

impl Clone for CountingDisjunction {
    fn clone(&self) -> Self {
        CountingDisjunction {
            clauses: self.clauses.iter().map(|q| q.box_clone()).collect(),
            minimum: self.minimum,
            per_doc: self.per_doc.clone(),
        }
    }
}

impl fmt::Debug for CountingDisjunction {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "CountingDisjunction(minimum={}, clauses={:?})", self.minimum, self.clauses)
    }
}

impl Query for CountingDisjunction {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let weights = self.clauses.iter().map(|q| q.weight(enable_scoring)).collect::<tantivy::Result<Vec<_>>>()?;
        Ok(Box::new(CountingWeight {
            weights,
            minimum: self.minimum,
            per_doc: self.per_doc.clone(),
            scoring: enable_scoring.is_scoring_enabled(),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a tantivy::Term, bool)) {
        for clause in &self.clauses {
            clause.query_terms(visitor);
        }
    }
}

struct CountingWeight {
    weights: Vec<Box<dyn Weight>>,
    minimum: usize,
    per_doc: Option<String>,
    scoring: bool,
}

impl Weight for CountingWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let max_doc = reader.max_doc() as usize;
        // u16 counts: more_like_this allows more than 255 query terms.
        let mut counts = vec![0u16; max_doc];
        let mut scores = if self.scoring { vec![0f32; max_doc] } else { Vec::new() };
        for weight in &self.weights {
            let mut scorer = weight.scorer(reader, boost)?;
            let mut doc = scorer.doc();
            while doc != TERMINATED {
                counts[doc as usize] += 1;
                if self.scoring {
                    scores[doc as usize] += scorer.score();
                }
                doc = scorer.advance();
            }
        }
        let column = match &self.per_doc {
            Some(name) => Some(reader.fast_fields().column_opt::<i64>(name)?),
            None => None,
        };
        let minimum = self.minimum as u16;
        let mut hits = Vec::new();
        for (doc, &count) in counts.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let needed = match &column {
                None => minimum,
                Some(None) => continue,
                Some(Some(values)) => match values.first(doc as DocId) {
                    Some(n) => n.clamp(1, u16::MAX as i64) as u16,
                    None => continue,
                },
            };
            if count >= needed {
                hits.push((doc as DocId, if self.scoring { scores[doc] } else { 0.0 }));
            }
        }
        Ok(Box::new(ListScorer { hits, pos: 0 }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut matched = Vec::new();
        for weight in &self.weights {
            if let Ok(e) = weight.explain(reader, doc) {
                matched.push(e);
            }
        }
        if matched.len() < self.minimum {
            return Err(TantivyError::InvalidArgument(format!(
                "document #({doc}) matches {} of the {} should clauses required",
                matched.len(),
                self.minimum
            )));
        }
        let mut explanation = Explanation::new("sum of:", matched.iter().map(|e| e.value()).sum());
        for e in matched {
            explanation.add_detail(e);
        }
        Ok(explanation)
    }
}

/// The matching documents of one segment, in doc order, with their summed scores.
struct ListScorer {
    hits: Vec<(DocId, Score)>,
    pos: usize,
}

impl DocSet for ListScorer {
    fn advance(&mut self) -> DocId {
        self.pos += 1;
        self.doc()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        let rest = &self.hits[self.pos.min(self.hits.len())..];
        self.pos += rest.partition_point(|(doc, _)| *doc < target);
        self.doc()
    }

    fn doc(&self) -> DocId {
        self.hits.get(self.pos).map_or(TERMINATED, |(doc, _)| *doc)
    }

    fn size_hint(&self) -> u32 {
        self.hits.len() as u32
    }
}

impl Scorer for ListScorer {
    fn score(&mut self) -> Score {
        self.hits.get(self.pos).map_or(0.0, |(_, score)| *score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::{Count, TopDocs};
    use tantivy::query::{BooleanQuery, Occur, TermQuery};
    use tantivy::schema::{IndexRecordOption, Schema, TEXT};
    use tantivy::{doc, Index, Term};

    fn index() -> (Index, tantivy::schema::Field) {
        let mut schema = Schema::builder();
        let body = schema.add_text_field("body", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer: tantivy::IndexWriter = index.writer(15_000_000).unwrap();
        for text in ["a b c", "a b", "a", "b c d", "c d", "d", "a c", "e"] {
            writer.add_document(doc!(body => text)).unwrap();
        }
        writer.commit().unwrap();
        (index, body)
    }

    fn clauses(field: tantivy::schema::Field, words: &[&str]) -> Vec<Box<dyn Query>> {
        words
            .iter()
            .map(|w| {
                Box::new(TermQuery::new(Term::from_field_text(field, w), IndexRecordOption::WithFreqs))
                    as Box<dyn Query>
            })
            .collect()
    }

    #[test]
    fn same_matches_and_scores_as_the_boolean_with_minimum_should_match() {
        let (index, body) = index();
        let searcher = index.reader().unwrap().searcher();
        for minimum in 1..=4 {
            let words = ["a", "b", "c", "d"];
            let ours = CountingDisjunction::new(clauses(body, &words), minimum);
            let should = clauses(body, &words).into_iter().map(|q| (Occur::Should, q)).collect();
            let theirs = BooleanQuery::with_minimum_required_clauses(should, minimum);
            assert_eq!(searcher.search(&ours, &Count).unwrap(), searcher.search(&theirs, &Count).unwrap());
            let top = |q: &dyn Query| {
                let mut hits = searcher.search(q, &TopDocs::with_limit(10).order_by_score()).unwrap();
                hits.sort_by_key(|(_, addr)| addr.doc_id);
                hits.into_iter().map(|(s, a)| (a.doc_id, (s * 1e4).round() as i64)).collect::<Vec<_>>()
            };
            assert_eq!(top(&ours), top(&theirs), "minimum {minimum}");
        }
    }

    #[test]
    fn seek_lands_on_the_first_match_at_or_after_the_target() {
        let mut scorer = ListScorer { hits: vec![(1, 1.0), (4, 2.0), (9, 3.0)], pos: 0 };
        assert_eq!(scorer.seek(2), 4);
        assert_eq!(scorer.score(), 2.0);
        assert_eq!(scorer.seek(4), 4);
        assert_eq!(scorer.seek(10), TERMINATED);
    }
}
