//! `match_phrase_prefix` scored as ES scores it (its `MultiPhrasePrefixQuery`): the last token's
//! prefix expands to at most `max_expansions` of the index's terms (segment by segment, each
//! segment's terms in order, until there are enough), and the query becomes a phrase with those
//! terms as alternatives at its last position, scored as Lucene's `MultiPhraseQuery`: BM25 of how
//! often the whole phrase occurs, with the idf summed over every term of the phrase, expansions
//! included. A single token is ES's rewrite of a one-position phrase: a disjunction of the
//! expanded terms, each scored as its own term query.
//!
//! tantivy's own `PhrasePrefixQuery` matches the same documents but scores the phrase without its
//! last position (and a single token as a constant), and its scorer is private: it only serves
//! here where nothing is scored (a filter built without a searcher).

use std::collections::BTreeSet;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::Postings;
use tantivy::postings::SegmentPostings;
use tantivy::query::{
    Bm25Weight, BooleanQuery, EmptyScorer, EmptyWeight, EnableScoring, Explanation, Occur, PhrasePrefixQuery, Query,
    Scorer, TermQuery, Weight,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, Term, TERMINATED};

#[derive(Debug, Clone)]
pub struct ScoredPhrasePrefixQuery {
    pub field: Field,
    /// The phrase's analyzed tokens with their positions; the last one is the prefix.
    pub terms: Vec<(usize, Term)>,
    pub max_expansions: u32,
}

impl ScoredPhrasePrefixQuery {
    fn prefix(&self) -> &(usize, Term) {
        self.terms.last().expect("a phrase prefix has at least one token")
    }

    fn phrase(&self) -> &[(usize, Term)] {
        &self.terms[..self.terms.len() - 1]
    }

    /// ES's expansion: every segment in turn, its terms that start with the prefix in order,
    /// until `max_expansions` distinct terms are found.
    fn expand(&self, searcher: &Searcher) -> tantivy::Result<Vec<Term>> {
        let prefix = self.prefix().1.serialized_value_bytes();
        let cap = self.max_expansions as usize;
        let mut found: BTreeSet<Vec<u8>> = BTreeSet::new();
        'segments: for reader in searcher.segment_readers() {
            let index = reader.inverted_index(self.field)?;
            let mut stream = index.terms().range().ge(prefix).into_stream()?;
            while stream.advance() {
                if !stream.key().starts_with(prefix) {
                    break;
                }
                found.insert(stream.key().to_vec());
                if found.len() >= cap {
                    break 'segments;
                }
            }
        }
        Ok(found.into_iter().map(|key| Term::from_field_bytes(self.field, &key)).collect())
    }

    /// Without a searcher (an aggregation's filter): tantivy's query, which matches the same
    /// documents with each segment's own expansions.
    fn unscored(&self) -> PhrasePrefixQuery {
        let mut query = PhrasePrefixQuery::new_with_offset(self.terms.clone());
        query.set_max_expansions(self.max_expansions);
        query
    }
}

impl Query for ScoredPhrasePrefixQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let Some(searcher) = scoring.searcher() else { return self.unscored().weight(scoring) };
        let expansions = self.expand(searcher)?;
        if expansions.is_empty() {
            return Ok(Box::new(EmptyWeight));
        }
        if self.phrase().is_empty() {
            let clauses = expansions
                .into_iter()
                .map(|term| {
                    (Occur::Should, Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)) as Box<dyn Query>)
                })
                .collect();
            return BooleanQuery::new(clauses).weight(scoring);
        }
        let bm25 = match scoring {
            EnableScoring::Enabled { statistics_provider, .. } => {
                // Lucene leaves terms no document has out of the idf sum.
                let mut all = Vec::new();
                for term in self.phrase().iter().map(|(_, t)| t).chain(&expansions) {
                    if statistics_provider.doc_freq(term)? > 0 {
                        all.push(term.clone());
                    }
                }
                if all.is_empty() {
                    return Ok(Box::new(EmptyWeight));
                }
                Some(Bm25Weight::for_terms(statistics_provider, &all)?)
            }
            EnableScoring::Disabled { .. } => None,
        };
        Ok(Box::new(ScoredPhrasePrefixWeight {
            field: self.field,
            phrase: self.phrase().to_vec(),
            suffix_pos: self.prefix().0,
            expansions,
            bm25,
        }))
    }
}

struct ScoredPhrasePrefixWeight {
    field: Field,
    phrase: Vec<(usize, Term)>,
    suffix_pos: usize,
    expansions: Vec<Term>,
    bm25: Option<Bm25Weight>,
}

impl ScoredPhrasePrefixWeight {
    fn phrase_scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Option<PhraseCountScorer>> {
        let index = reader.inverted_index(self.field)?;
        let last = self.phrase.iter().map(|(p, _)| *p).chain([self.suffix_pos]).max().unwrap_or(0);
        // Each position shifted so that every term of one occurrence lands on the same number.
        let shift = |position: usize| (last - position) as u32;
        let mut phrase = Vec::with_capacity(self.phrase.len());
        for (position, term) in &self.phrase {
            match index.read_postings(term, IndexRecordOption::WithFreqsAndPositions)? {
                Some(postings) => phrase.push((shift(*position), postings)),
                None => return Ok(None),
            }
        }
        let mut suffixes = Vec::with_capacity(self.expansions.len());
        for term in &self.expansions {
            if let Some(postings) = index.read_postings(term, IndexRecordOption::WithFreqsAndPositions)? {
                suffixes.push(postings);
            }
        }
        if suffixes.is_empty() {
            return Ok(None);
        }
        let fieldnorms = match reader.fieldnorms_readers().get_field(self.field)? {
            Some(reader) => reader,
            None => FieldNormReader::constant(reader.max_doc(), 1),
        };
        let bm25 = self.bm25.as_ref().map(|w| w.boost_by(boost));
        Ok(Some(PhraseCountScorer::new(phrase, suffixes, shift(self.suffix_pos), bm25, fieldnorms)))
    }
}

impl Weight for ScoredPhrasePrefixWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(match self.phrase_scorer(reader, boost)? {
            Some(scorer) => Box::new(scorer),
            None => Box::new(EmptyScorer),
        })
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let not_matching = || tantivy::TantivyError::InvalidArgument(format!("Document #({doc}) does not match"));
        let mut scorer = self.phrase_scorer(reader, 1.0)?.ok_or_else(not_matching)?;
        if scorer.seek(doc) != doc {
            return Err(not_matching());
        }
        let mut explanation = Explanation::new("phrase prefix, BM25 of the whole phrase's frequency", scorer.score());
        if let Some(bm25) = &scorer.bm25 {
            explanation.add_detail(bm25.explain(scorer.fieldnorms.fieldnorm_id(doc), scorer.count));
        }
        Ok(explanation)
    }
}

/// The documents where the phrase occurs with one of the expansions right after it, and how
/// often: the phrase's terms are intersected by document, then by (shifted) position, and each
/// expansion's positions counted against the phrase's.
struct PhraseCountScorer {
    /// (shift, postings) for every phrase term but the last position; never empty.
    phrase: Vec<(u32, SegmentPostings)>,
    suffixes: Vec<SegmentPostings>,
    suffix_shift: u32,
    doc: DocId,
    /// Occurrences of the whole phrase in `doc`.
    count: u32,
    bm25: Option<Bm25Weight>,
    fieldnorms: FieldNormReader,
    starts: Vec<u32>,
    scratch: Vec<u32>,
}

impl PhraseCountScorer {
    fn new(
        phrase: Vec<(u32, SegmentPostings)>,
        suffixes: Vec<SegmentPostings>,
        suffix_shift: u32,
        bm25: Option<Bm25Weight>,
        fieldnorms: FieldNormReader,
    ) -> Self {
        let mut scorer = PhraseCountScorer {
            phrase,
            suffixes,
            suffix_shift,
            doc: 0,
            count: 0,
            bm25,
            fieldnorms,
            starts: Vec::new(),
            scratch: Vec::new(),
        };
        let first = scorer.phrase[0].1.doc();
        scorer.doc = scorer.settle(first);
        scorer
    }

    /// The first document at or after `candidate` (where the first phrase term now stands)
    /// holding the whole phrase.
    fn settle(&mut self, mut candidate: DocId) -> DocId {
        loop {
            'align: loop {
                if candidate == TERMINATED {
                    return TERMINATED;
                }
                for (_, postings) in &mut self.phrase {
                    let doc = if postings.doc() < candidate { postings.seek(candidate) } else { postings.doc() };
                    if doc > candidate {
                        candidate = doc;
                        continue 'align;
                    }
                }
                break;
            }
            self.count = self.count_in(candidate);
            if self.count > 0 {
                return candidate;
            }
            candidate = self.phrase[0].1.advance();
        }
    }

    /// Occurrences of the whole phrase in `doc`, where every phrase term is known to occur.
    fn count_in(&mut self, doc: DocId) -> u32 {
        let (first_shift, first) = &mut self.phrase[0];
        first.positions_with_offset(*first_shift, &mut self.starts);
        for (shift, postings) in &mut self.phrase[1..] {
            postings.positions_with_offset(*shift, &mut self.scratch);
            let other = &self.scratch;
            let mut j = 0;
            self.starts.retain(|start| {
                while j < other.len() && other[j] < *start {
                    j += 1;
                }
                j < other.len() && other[j] == *start
            });
            if self.starts.is_empty() {
                return 0;
            }
        }
        let mut count = 0;
        for suffix in &mut self.suffixes {
            if suffix.doc() < doc {
                suffix.seek(doc);
            }
            if suffix.doc() != doc {
                continue;
            }
            suffix.positions_with_offset(self.suffix_shift, &mut self.scratch);
            let (mut i, mut j) = (0, 0);
            while i < self.starts.len() && j < self.scratch.len() {
                match self.starts[i].cmp(&self.scratch[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        count += 1;
                        i += 1;
                        j += 1;
                    }
                }
            }
        }
        count
    }
}

impl DocSet for PhraseCountScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        let next = self.phrase[0].1.advance();
        self.doc = self.settle(next);
        self.doc
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        let first = &mut self.phrase[0].1;
        let next = if first.doc() < target { first.seek(target) } else { first.doc() };
        self.doc = self.settle(next);
        self.doc
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.phrase.iter().map(|(_, p)| p.size_hint()).min().unwrap_or(0)
    }
}

impl Scorer for PhraseCountScorer {
    fn score(&mut self) -> Score {
        match &self.bm25 {
            Some(bm25) => bm25.score(self.fieldnorms.fieldnorm_id(self.doc), self.count),
            None => 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::{Count, TopDocs};
    use tantivy::schema::{SchemaBuilder, TEXT};
    use tantivy::{doc, Index};

    fn index(texts: &[&str]) -> (Index, Field) {
        let mut schema = SchemaBuilder::new();
        let field = schema.add_text_field("t", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for t in texts {
            writer.add_document(doc!(field => *t)).unwrap();
        }
        writer.commit().unwrap();
        (index, field)
    }

    fn query(field: Field, words: &[&str], max: u32) -> ScoredPhrasePrefixQuery {
        let terms = words.iter().enumerate().map(|(i, w)| (i, Term::from_field_text(field, w))).collect();
        ScoredPhrasePrefixQuery { field, terms, max_expansions: max }
    }

    #[test]
    fn matches_like_tantivy_and_caps_the_expansions() {
        let (index, field) = index(&["connection refused", "connection reset", "connection was reset", "refused"]);
        let searcher = index.reader().unwrap().searcher();
        let count = |q: &ScoredPhrasePrefixQuery| searcher.search(q, &Count).unwrap();
        assert_eq!(count(&query(field, &["connection", "re"], 50)), 2);
        assert_eq!(count(&query(field, &["connection", "re"], 1)), 1, "only refused, the first term in order");
        assert_eq!(count(&query(field, &["connection", "zz"], 50)), 0);
        assert_eq!(count(&query(field, &["re"], 50)), 4);
    }

    #[test]
    fn scores_the_whole_phrase_with_the_idf_of_every_term() {
        let (index, field) = index(&["a b c", "a b c a b c", "a x", "b c"]);
        let searcher = index.reader().unwrap().searcher();
        let top = searcher.search(&query(field, &["a", "b"], 50), &TopDocs::with_limit(4).order_by_score()).unwrap();
        assert_eq!(top.len(), 2);
        // Twice the phrase in the second document: a higher score despite its length.
        assert_eq!(top[0].1.doc_id, 1);
        // The expected score: BM25 with idf(a) + idf(b) and the phrase's frequency.
        let expected =
            Bm25Weight::for_terms(&searcher, &[Term::from_field_text(field, "a"), Term::from_field_text(field, "b")])
                .unwrap();
        let norms = searcher.segment_reader(0).get_fieldnorms_reader(field).unwrap();
        let want = expected.score(norms.fieldnorm_id(1), 2);
        assert!((top[0].0 - want).abs() < 1e-6, "{} vs {want}", top[0].0);
    }

    #[test]
    fn a_single_token_sums_its_expansions_term_scores() {
        let (index, field) = index(&["refused", "reset reset", "other"]);
        let searcher = index.reader().unwrap().searcher();
        let top = searcher.search(&query(field, &["re"], 50), &TopDocs::with_limit(3).order_by_score()).unwrap();
        let terms = TermQuery::new(Term::from_field_text(field, "reset"), IndexRecordOption::WithFreqs);
        let reset = searcher.search(&terms, &TopDocs::with_limit(1).order_by_score()).unwrap();
        assert_eq!(top.len(), 2);
        assert_eq!((top[0].1, top[0].0), (reset[0].1, reset[0].0));
    }
}
