//! One analyzed term of a `match` (or `multi_match`) with `fuzziness`, as Lucene's
//! `FuzzyQuery` under ES's rewrite for it (`top_terms_blended_freqs_{max_expansions}`):
//! - the index's terms within the edit distance are found with a Levenshtein automaton over
//!   each segment's term dictionary (the first `prefix_length` characters must be equal);
//! - the `max_expansions` best are kept, best meaning the fewest edits for their length
//!   (boost `1 - edits / min(term length, text length)`), ties broken by term order;
//! - each scores as a BM25 term query boosted by that similarity, all with the largest
//!   document frequency among them ("blended"), so a rare misspelling does not outrank the
//!   common word it resembles.
//!
//! Expansion needs the whole index's terms, so it happens when the weight is built; a weight
//! built without a searcher (an aggregation's filter) falls back to every term within the
//! distance, which only differs when more than `max_expansions` terms qualify.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::OnceLock;

use levenshtein_automata::{Distance, LevenshteinAutomatonBuilder, DFA, SINK_STATE};
use tantivy::index::SegmentId;
use tantivy::postings::TermInfo;
use tantivy::query::{
    Bm25StatisticsProvider, Bm25Weight, BooleanQuery, EnableScoring, FuzzyTermQuery, Occur, Query, TermSetQuery, Weight,
};
use tantivy::schema::Field;
use tantivy::{Searcher, Term};
use tantivy_fst::Automaton;

use super::blended_terms::{BlendedTerm, BlendedTermsWeight};

#[derive(Debug, Clone)]
pub struct FuzzyExpansionQuery {
    pub field: Field,
    pub text: String,
    pub max_edits: u8,
    /// Leading characters that must match exactly.
    pub prefix_chars: usize,
    pub transpositions: bool,
    pub max_expansions: usize,
}

/// Building a Levenshtein automaton builder costs far more than a query: one per (edits,
/// transpositions), made on first use.
pub(crate) fn builder(edits: u8, transpositions: bool) -> &'static LevenshteinAutomatonBuilder {
    static BUILDERS: [[OnceLock<LevenshteinAutomatonBuilder>; 2]; 3] = [const { [const { OnceLock::new() }; 2] }; 3];
    BUILDERS[edits.min(2) as usize][transpositions as usize]
        .get_or_init(|| LevenshteinAutomatonBuilder::new(edits.min(2), transpositions))
}

/// The exact prefix, then the Levenshtein automaton of the rest.
pub(crate) struct Prefixed<'a> {
    pub prefix: &'a [u8],
    pub dfa: &'a DFA,
}

#[derive(Clone, Copy)]
pub(crate) enum State {
    InPrefix(usize),
    Rest(u32),
    Dead,
}

impl Automaton for Prefixed<'_> {
    type State = State;

    fn start(&self) -> State {
        if self.prefix.is_empty() {
            State::Rest(self.dfa.initial_state())
        } else {
            State::InPrefix(0)
        }
    }

    fn is_match(&self, state: &State) -> bool {
        matches!(state, State::Rest(s) if matches!(self.dfa.distance(*s), Distance::Exact(_)))
    }

    fn can_match(&self, state: &State) -> bool {
        match state {
            State::InPrefix(_) => true,
            State::Rest(s) => *s != SINK_STATE,
            State::Dead => false,
        }
    }

    fn accept(&self, state: &State, byte: u8) -> State {
        match *state {
            State::InPrefix(i) if self.prefix[i] == byte => {
                if i + 1 == self.prefix.len() {
                    State::Rest(self.dfa.initial_state())
                } else {
                    State::InPrefix(i + 1)
                }
            }
            State::Rest(s) => State::Rest(self.dfa.transition(s, byte)),
            _ => State::Dead,
        }
    }
}

/// Document frequencies blended to the largest of the expanded terms'.
struct Blended<'a> {
    inner: &'a dyn Bm25StatisticsProvider,
    max_doc_freq: u64,
}

impl Bm25StatisticsProvider for Blended<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        self.inner.total_num_tokens(field)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        self.inner.total_num_docs()
    }

    fn doc_freq(&self, _term: &Term) -> tantivy::Result<u64> {
        Ok(self.max_doc_freq)
    }
}

impl FuzzyExpansionQuery {
    fn split_prefix(&self) -> (&str, &str) {
        let at = self.text.char_indices().nth(self.prefix_chars).map_or(self.text.len(), |(i, _)| i);
        self.text.split_at(at)
    }

    /// The kept terms with their boosts, best first, each with where it is in every segment
    /// that has it; and the segments looked at.
    fn expand(&self, searcher: &Searcher) -> tantivy::Result<(Vec<Expansion>, HashSet<SegmentId>)> {
        let (prefix, rest) = self.split_prefix();
        let dfa = builder(self.max_edits, self.transpositions).build_dfa(rest);
        let automaton = Prefixed { prefix: prefix.as_bytes(), dfa: &dfa };
        let mut found: BTreeMap<Vec<u8>, (u8, HashMap<SegmentId, TermInfo>)> = BTreeMap::new();
        let mut seen = HashSet::new();
        for reader in searcher.segment_readers() {
            let segment = reader.segment_id();
            seen.insert(segment);
            let index = reader.inverted_index(self.field)?;
            let mut stream = index.terms().search(&automaton).into_stream()?;
            while stream.advance() {
                let key = stream.key();
                if let Some((_, infos)) = found.get_mut(key) {
                    infos.insert(segment, stream.value().clone());
                    continue;
                }
                let edits = match dfa.eval(&key[prefix.len()..]) {
                    Distance::Exact(d) => d,
                    Distance::AtLeast(_) => continue,
                };
                found.insert(key.to_vec(), (edits, HashMap::from([(segment, stream.value().clone())])));
            }
        }
        let text_chars = self.text.chars().count();
        let mut scored: Vec<Expansion> = found
            .into_iter()
            .map(|(key, (edits, infos)): (Vec<u8>, _)| {
                let chars = String::from_utf8_lossy(&key).chars().count();
                let boost = if edits == 0 { 1.0 } else { 1.0 - edits as f32 / chars.min(text_chars).max(1) as f32 };
                Expansion { term: Term::from_field_bytes(self.field, key.as_slice()), boost, infos }
            })
            .collect();
        // Highest boost first; the BTreeMap already put equal boosts in term order (stable sort).
        scored.sort_by(|a, b| b.boost.total_cmp(&a.boost));
        scored.truncate(self.max_expansions);
        Ok((scored, seen))
    }

    /// Without a searcher: every term within the distance, the prefix enforced by intersection.
    fn unexpanded(&self) -> Box<dyn Query> {
        let term = Term::from_field_text(self.field, &self.text);
        let fuzzy: Box<dyn Query> = Box::new(FuzzyTermQuery::new(term, self.max_edits, self.transpositions));
        let (prefix, _) = self.split_prefix();
        if prefix.is_empty() {
            return fuzzy;
        }
        let mut starts = tantivy::query::PhrasePrefixQuery::new(vec![Term::from_field_text(self.field, prefix)]);
        starts.set_max_expansions(u32::MAX);
        Box::new(BooleanQuery::new(vec![(Occur::Must, fuzzy), (Occur::Must, Box::new(starts))]))
    }
}

impl Query for FuzzyExpansionQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let Some(searcher) = scoring.searcher() else { return self.unexpanded().weight(scoring) };
        let (terms, seen) = self.expand(searcher)?;
        match scoring {
            EnableScoring::Enabled { statistics_provider, .. } => {
                let mut max_doc_freq = 0;
                for e in &terms {
                    max_doc_freq = max_doc_freq.max(statistics_provider.doc_freq(&e.term)?);
                }
                let blended = Blended { inner: statistics_provider, max_doc_freq };
                let terms = terms
                    .into_iter()
                    .map(|e| {
                        let bm25 = Bm25Weight::for_terms(&blended, std::slice::from_ref(&e.term))?;
                        Ok(BlendedTerm { term: e.term, bm25, boost: e.boost, infos: e.infos })
                    })
                    .collect::<tantivy::Result<Vec<_>>>()?;
                Ok(Box::new(BlendedTermsWeight::new(self.field, terms, seen)))
            }
            EnableScoring::Disabled { .. } => TermSetQuery::new(terms.into_iter().map(|e| e.term)).weight(scoring),
        }
    }
}

/// A kept term: its boost, and its term info in each segment that has it.
struct Expansion {
    term: Term,
    boost: f32,
    infos: HashMap<SegmentId, TermInfo>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::{Count, TopDocs};
    use tantivy::schema::{SchemaBuilder, TEXT};
    use tantivy::{doc, Index};

    fn index(words: &[&str]) -> (Index, Field) {
        let mut schema = SchemaBuilder::new();
        let field = schema.add_text_field("t", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for w in words {
            writer.add_document(doc!(field => *w)).unwrap();
        }
        writer.commit().unwrap();
        (index, field)
    }

    fn query(field: Field, text: &str, edits: u8, prefix: usize, max: usize) -> FuzzyExpansionQuery {
        FuzzyExpansionQuery {
            field,
            text: text.into(),
            max_edits: edits,
            prefix_chars: prefix,
            transpositions: true,
            max_expansions: max,
        }
    }

    #[test]
    fn expands_within_the_distance_honouring_prefix_and_cap() {
        let (index, field) = index(&["fox", "box", "fax", "fast", "fox", "ofx"]);
        let searcher = index.reader().unwrap().searcher();
        let count = |q: &FuzzyExpansionQuery| searcher.search(q, &Count).unwrap();
        assert_eq!(count(&query(field, "fox", 1, 0, 50)), 5, "fox x2, box, fax, ofx (a transposition)");
        assert_eq!(count(&query(field, "fox", 1, 1, 50)), 3, "only terms starting with f: fox x2, fax");
        assert_eq!(count(&query(field, "fox", 1, 0, 1)), 2, "the exact term is the best expansion");
        let mut no_swaps = query(field, "fox", 1, 0, 50);
        no_swaps.transpositions = false;
        assert_eq!(count(&no_swaps), 4);
        assert_eq!(count(&query(field, "fox", 0, 0, 50)), 2);
    }

    #[test]
    fn closer_terms_score_higher_with_blended_frequencies() {
        let (index, field) = index(&["quick", "quick", "quick", "quack"]);
        let searcher = index.reader().unwrap().searcher();
        let top = searcher.search(&query(field, "quikc", 2, 0, 50), &TopDocs::with_limit(4).order_by_score()).unwrap();
        assert_eq!(top.len(), 4);
        // quick: one transposition (boost 0.8); quack: two edits (0.6). Same idf, so the
        // boosts alone order them.
        let (best, worst) = (top[0].0, top[3].0);
        assert!((worst / best - 0.6 / 0.8).abs() < 1e-4, "{best} {worst}");
    }
}
