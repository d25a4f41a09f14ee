use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, BoostQuery, EnableScoring, Occur, Query, TermQuery};
use tantivy::schema::{IndexRecordOption, SchemaBuilder, INDEXED, TEXT};
use tantivy::{doc, DocSet, Index, IndexWriter, Searcher, TERMINATED};

use super::*;
use crate::query::tantivy::fuzzy_expansion::FuzzyExpansionQuery;

/// 30,000 short texts over three segments (each several windows long), words within one edit of
/// "chart" mixed with others, some repeated in a text, a tenth of the texts deleted.
fn corpus() -> (Index, Field) {
    let words = ["chart", "charts", "cart", "chat", "chard", "hart", "smart", "the", "of", "graph"];
    let mut schema = SchemaBuilder::new();
    let text = schema.add_text_field("t", TEXT);
    let n = schema.add_u64_field("n", INDEXED);
    let index = Index::create_in_ram(schema.build());
    let mut writer: IndexWriter = index.writer_with_num_threads(1, 30_000_000).unwrap();
    let mut state = 7u64;
    let mut next = |m: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    for i in 0..30_000u64 {
        let len = 1 + next(12);
        let body: Vec<&str> = (0..len).map(|_| words[next(words.len() as u64) as usize]).collect();
        writer.add_document(doc!(text => body.join(" "), n => i)).unwrap();
        if i % 10_000 == 9_999 {
            writer.commit().unwrap();
        }
    }
    for i in (0..30_000u64).step_by(10) {
        writer.delete_term(Term::from_field_u64(n, i));
    }
    writer.commit().unwrap();
    (index, text)
}

fn fuzzy(field: Field) -> FuzzyExpansionQuery {
    FuzzyExpansionQuery {
        field,
        text: "chart".into(),
        max_edits: 1,
        prefix_chars: 0,
        transpositions: true,
        max_expansions: 50,
    }
}

/// What the expansion scored as before: tantivy's boolean union of boosted term queries.
fn reference(searcher: &Searcher, field: Field) -> Box<dyn Weight> {
    // "chart" itself, then one edit away in term order: 1 - 1 / min(length, 5).
    let boosts = [("chart", 1.0f32), ("chard", 0.8), ("charts", 0.8), ("cart", 0.75), ("chat", 0.75), ("hart", 0.75)];
    let max_doc_freq = boosts.iter().map(|(w, _)| searcher.doc_freq(&Term::from_field_text(field, w)).unwrap()).max();
    let clauses = boosts
        .iter()
        .map(|(w, b)| {
            let q: Box<dyn Query> =
                Box::new(TermQuery::new(Term::from_field_text(field, w), IndexRecordOption::WithFreqs));
            let q: Box<dyn Query> = if *b == 1.0 { q } else { Box::new(BoostQuery::new(q, *b)) };
            (Occur::Should, q)
        })
        .collect();
    struct Blended<'a>(&'a Searcher, u64);
    impl tantivy::query::Bm25StatisticsProvider for Blended<'_> {
        fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
            self.0.total_num_tokens(field)
        }
        fn total_num_docs(&self) -> tantivy::Result<u64> {
            self.0.total_num_docs()
        }
        fn doc_freq(&self, _: &Term) -> tantivy::Result<u64> {
            Ok(self.1)
        }
    }
    let blended = Blended(searcher, max_doc_freq.unwrap());
    BooleanQuery::new(clauses).weight(EnableScoring::Enabled { searcher, statistics_provider: &blended }).unwrap()
}

#[test]
fn scores_every_match_as_the_boolean_union_does() {
    let (index, field) = corpus();
    let searcher = index.reader().unwrap().searcher();
    assert_eq!(searcher.segment_readers().len(), 3);
    let ours = fuzzy(field).weight(EnableScoring::enabled_from_searcher(&searcher)).unwrap();
    let theirs = reference(&searcher, field);
    let mut matched = 0;
    for reader in searcher.segment_readers() {
        let (mut a, mut b) = (ours.scorer(reader, 1.5).unwrap(), theirs.scorer(reader, 1.5).unwrap());
        loop {
            assert_eq!(a.doc(), b.doc());
            if a.doc() == TERMINATED {
                break;
            }
            assert!((a.score() - b.score()).abs() <= 1e-6 * b.score(), "{} vs {}", a.score(), b.score());
            matched += 1;
            a.advance();
            b.advance();
        }
    }
    assert!(matched > 15_000, "most texts hold an expansion: {matched}");
}

#[test]
fn seeks_within_and_past_a_window() {
    let (index, field) = corpus();
    let searcher = index.reader().unwrap().searcher();
    let ours = fuzzy(field).weight(EnableScoring::enabled_from_searcher(&searcher)).unwrap();
    let theirs = reference(&searcher, field);
    let reader = &searcher.segment_readers()[0];
    let (mut a, mut b) = (ours.scorer(reader, 1.0).unwrap(), theirs.scorer(reader, 1.0).unwrap());
    // Short hops inside a window, long ones past several, and one past the end.
    for target in [3, 40, 41, 4_000, 4_100, 9_000, 9_001, 9_999, 20_000] {
        assert_eq!(a.seek(target), b.seek(target), "seek({target})");
        if a.doc() != TERMINATED {
            assert!((a.score() - b.score()).abs() <= 1e-6 * b.score());
            assert_eq!(a.advance(), b.advance());
        }
    }
    assert_eq!(a.doc(), TERMINATED);
}

#[test]
fn drains_every_live_match_into_the_top_and_explains_them() {
    let (index, field) = corpus();
    let searcher = index.reader().unwrap().searcher();
    let ours = fuzzy(field).weight(EnableScoring::enabled_from_searcher(&searcher)).unwrap();
    let reader = &searcher.segment_readers()[1];
    let alive = reader.alive_bitset().expect("a tenth of the texts are deleted");
    let mut stepped = Vec::new();
    let mut a = ours.scorer(reader, 1.0).unwrap();
    while a.doc() != TERMINATED {
        if alive.is_alive(a.doc()) {
            stepped.push((a.score(), DocAddress::new(1, a.doc())));
        }
        a.advance();
    }
    // Room for every match: the top is all of them, best first, ties in index order.
    let mut top = TopNComputer::new_with_comparator(stepped.len(), NaturalComparator);
    let mut b = ours.scorer(reader, 1.0).unwrap();
    let count = b.downcast_mut::<BlendedTermsScorer>().unwrap().drain_top(Some(alive), 1, &mut top);
    assert_eq!(count, stepped.len() as u64);
    stepped.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    let drained: Vec<_> = top.into_sorted_vec().into_iter().map(|d| (d.sort_key, d.doc)).collect();
    assert_eq!(drained, stepped);
    let (score, address) = stepped[17];
    let explained = ours.explain(reader, address.doc_id).unwrap();
    assert_eq!(explained.value(), score);
    assert!(ours.explain(reader, TERMINATED - 1).is_err());
}

#[test]
fn top_hits_and_total_match_tantivys_collectors() {
    let (index, field) = corpus();
    let searcher = index.reader().unwrap().searcher();
    let query = fuzzy(field);
    let (top, total) = searcher.search(&query, &(TopDocs::with_limit(25).order_by_score(), Count)).unwrap();
    let (ours, our_total) = crate::search::score_top::drain_top_for_test(&searcher, &query, 25);
    assert_eq!(our_total, total as u64);
    assert_eq!(ours, top);
}
