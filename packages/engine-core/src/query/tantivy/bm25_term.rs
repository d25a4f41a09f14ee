//! A term scored by BM25 with a similarity's own `k1` and `b` (tantivy fixes 1.2 and 0.75):
//! `factor * idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))`, with tantivy's statistics
//! (idf over all documents, the average field length over all documents, field lengths
//! from its norms), so the default parameters give exactly tantivy's term scores divided by
//! `1 + k1`. `store/similarity.rs` picks it; the factor puts the score on the search's scale.

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};

#[derive(Debug, Clone)]
pub struct Bm25TermQuery {
    pub term: Term,
    pub k1: f32,
    pub b: f32,
    pub factor: f32,
}

impl Query for Bm25TermQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let (idf, avgdl) = match scoring {
            EnableScoring::Enabled { statistics_provider, .. } => {
                let docs = statistics_provider.total_num_docs()?.max(1);
                let freq = statistics_provider.doc_freq(&self.term)?;
                let tokens = statistics_provider.total_num_tokens(self.term.field())?;
                let idf = (1.0 + (docs as f32 - freq as f32 + 0.5) / (freq as f32 + 0.5)).ln();
                (idf, tokens as f32 / docs as f32)
            }
            EnableScoring::Disabled { .. } => (0.0, 1.0),
        };
        let norm = |dl: f32| self.k1 * (1.0 - self.b + self.b * dl / avgdl.max(f32::MIN_POSITIVE));
        // tantivy's field lengths are a byte code per document: the norm per code, computed once.
        let cache: Vec<f32> = (0..=255u8).map(|id| norm(FieldNormReader::id_to_fieldnorm(id) as f32)).collect();
        let record = if scoring.is_scoring_enabled() { IndexRecordOption::WithFreqs } else { IndexRecordOption::Basic };
        Ok(Box::new(Bm25TermWeight { term: self.term.clone(), weight: self.factor * idf, cache, record }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        visitor(&self.term, false);
    }
}

struct Bm25TermWeight {
    term: Term,
    weight: f32,
    cache: Vec<f32>,
    record: IndexRecordOption,
}

impl Bm25TermWeight {
    fn open(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Option<Bm25TermScorer>> {
        let index = reader.inverted_index(self.term.field())?;
        let Some(postings) = index.read_postings(&self.term, self.record)? else { return Ok(None) };
        let norms = reader
            .fieldnorms_readers()
            .get_field(self.term.field())?
            .unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1));
        Ok(Some(Bm25TermScorer { postings, norms, weight: self.weight * boost, cache: self.cache.clone() }))
    }
}

impl Weight for Bm25TermWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(match self.open(reader, boost)? {
            Some(scorer) => Box::new(scorer),
            None => Box::new(EmptyScorer),
        })
    }

    /// Without deletions the term's document frequency, as tantivy's own term weight counts:
    /// a sorted page's total (`sort_zone.rs`) then costs a dictionary lookup, not a walk.
    fn count(&self, reader: &SegmentReader) -> tantivy::Result<u32> {
        if let Some(alive) = reader.alive_bitset() {
            return Ok(self.scorer(reader, 1.0)?.count(alive));
        }
        let info = reader.inverted_index(self.term.field())?.get_term_info(&self.term)?;
        Ok(info.map_or(0, |info| info.doc_freq))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        if let Some(mut s) = self.open(reader, 1.0)? {
            if s.seek(doc) == doc {
                return Ok(Explanation::new("BM25 term score", s.score()));
            }
        }
        Err(tantivy::TantivyError::InvalidArgument(format!("document #({doc}) does not match")))
    }
}

struct Bm25TermScorer {
    postings: SegmentPostings,
    norms: FieldNormReader,
    weight: f32,
    cache: Vec<f32>,
}

impl DocSet for Bm25TermScorer {
    fn advance(&mut self) -> DocId {
        self.postings.advance()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        self.postings.seek(target)
    }

    fn doc(&self) -> DocId {
        self.postings.doc()
    }

    fn size_hint(&self) -> u32 {
        self.postings.size_hint()
    }
}

impl Scorer for Bm25TermScorer {
    fn score(&mut self) -> Score {
        let doc = self.postings.doc();
        if doc == TERMINATED {
            return 0.0;
        }
        let tf = self.postings.term_freq() as f32;
        self.weight * tf / (tf + self.cache[self.norms.fieldnorm_id(doc) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::TopDocs;
    use tantivy::query::TermQuery;
    use tantivy::schema::{SchemaBuilder, TEXT};
    use tantivy::{doc, Index};

    #[test]
    fn default_parameters_give_tantivys_scores_without_the_k1_factor() {
        let mut schema = SchemaBuilder::new();
        let body = schema.add_text_field("body", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for text in ["fox", "the quick fox", "fox fox jumps over a lazy dog", "dog"] {
            writer.add_document(doc!(body => text)).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let term = Term::from_field_text(body, "fox");
        let top = |q: &dyn Query| searcher.search(q, &TopDocs::with_limit(10).order_by_score()).unwrap();
        let theirs = top(&TermQuery::new(term.clone(), IndexRecordOption::WithFreqs));
        let ours = top(&Bm25TermQuery { term: term.clone(), k1: 1.2, b: 0.75, factor: 1.0 });
        assert_eq!(theirs.len(), ours.len());
        for ((a, da), (b, db)) in theirs.iter().zip(&ours) {
            assert_eq!(da, db);
            assert!((a / 2.2 - b).abs() < 1e-5, "{a} / 2.2 vs {b}");
        }
        // Other parameters rank differently: b = 0 ignores length, so more occurrences win.
        let flat = top(&Bm25TermQuery { term, k1: 1.2, b: 0.0, factor: 1.0 });
        assert_eq!(flat[0].1.doc_id, 2);
    }

    #[test]
    fn counts_as_many_as_it_matches_with_and_without_deletions() {
        let mut schema = SchemaBuilder::new();
        let body = schema.add_text_field("body", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for text in ["fox", "the quick fox", "fox fox jumps", "dog", "fox and dog"] {
            writer.add_document(doc!(body => text)).unwrap();
        }
        writer.commit().unwrap();
        let fox = Bm25TermQuery { term: Term::from_field_text(body, "fox"), k1: 1.2, b: 0.75, factor: 1.0 };
        let count = |searcher: &tantivy::Searcher| {
            let weight = fox.weight(EnableScoring::disabled_from_searcher(searcher)).unwrap();
            let counted: u32 = searcher.segment_readers().iter().map(|r| weight.count(r).unwrap()).sum();
            assert_eq!(
                counted as usize,
                searcher.search(&fox, &TopDocs::with_limit(100).order_by_score()).unwrap().len()
            );
            counted
        };
        assert_eq!(count(&index.reader().unwrap().searcher()), 4);
        writer.delete_term(Term::from_field_text(body, "quick"));
        writer.commit().unwrap();
        assert_eq!(count(&index.reader().unwrap().searcher()), 3);
    }
}
