//! Lowering of `more_like_this` (like texts): the texts are analysed with the first field's
//! analyzer into term frequencies at lowering; the terms are picked when the query meets a
//! searcher, as ES's XMoreLikeThis does: per word the field with the largest document
//! frequency, filtered by min/max doc freq, ranked by tf x classic idf, the best
//! `max_query_terms` kept, then a bool of should term queries with `minimum_should_match`.

use std::collections::BTreeMap;
use std::fmt;

use tantivy::query::{BooleanQuery, BoostQuery, EmptyQuery, EnableScoring, Occur, Query, TermQuery, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{TantivyError, Term};

use super::context::LowerContext;
use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::MinimumShouldMatch;
use crate::query::ast::MltAst;
use crate::query::tantivy::counting_disjunction::CountingDisjunction;
use crate::query::tantivy::field_statistics::FieldStatistics;
use crate::store::mapping::FieldType;

pub fn lower_more_like_this(m: &MltAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let mut fields: Vec<(Field, FieldType)> = Vec::new();
    match &m.fields {
        None => fields.extend(
            ctx.mapping
                .fields
                .values()
                .filter(|fm| matches!(fm.field_type, FieldType::Text | FieldType::Keyword))
                .map(|fm| (fm.field, fm.field_type)),
        ),
        Some(names) => {
            for name in names {
                let Some(fm) = ctx.mapping.get(name) else { continue };
                if matches!(fm.field_type, FieldType::Text | FieldType::Keyword) {
                    fields.push((fm.field, fm.field_type));
                } else if m.fail_on_unsupported_field {
                    return Err(EngineError::shard(
                        ShardCause::QueryShard,
                        format!(
                            "more_like_this only supports text/keyword fields: [{name}] is of type [{}]",
                            fm.field_type.name()
                        ),
                    ));
                }
            }
        }
    }
    let Some((first, first_type)) = fields.first().copied() else { return Ok(Box::new(EmptyQuery)) };
    let mut words: BTreeMap<String, u32> = BTreeMap::new();
    for text in &m.like {
        let mut add = |w: &str| {
            let len = w.chars().count();
            let noise = len < m.min_word_length
                || (m.max_word_length > 0 && len > m.max_word_length)
                || m.stop_words.iter().any(|s| s == w);
            if !noise {
                *words.entry(w.to_string()).or_default() += 1;
            }
        };
        if first_type == FieldType::Keyword {
            add(text);
        } else {
            ctx.analyze(first, text, |token| add(&token.text));
        }
    }
    words.retain(|_, tf| m.min_term_freq == 0 || *tf >= m.min_term_freq);
    Ok(Box::new(MoreLikeThisQuery {
        fields: fields.into_iter().map(|(f, _)| f).collect(),
        words: words.into_iter().collect(),
        min_doc_freq: m.min_doc_freq,
        max_doc_freq: m.max_doc_freq,
        max_query_terms: m.max_query_terms,
        minimum_should_match: m.minimum_should_match.clone(),
        boost_terms: m.boost_terms,
    }))
}

#[derive(Clone)]
struct MoreLikeThisQuery {
    fields: Vec<Field>,
    /// (word, frequency in the like texts), already past min_term_freq and noise filters.
    words: Vec<(String, u32)>,
    min_doc_freq: u64,
    max_doc_freq: u64,
    max_query_terms: usize,
    minimum_should_match: MinimumShouldMatch,
    boost_terms: Option<f32>,
}

impl fmt::Debug for MoreLikeThisQuery {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "MoreLikeThis(words={:?})", self.words)
    }
}

/// Lucene ClassicSimilarity idf, which XMoreLikeThis ranks terms with.
fn classic_idf(doc_freq: u64, num_docs: u64) -> f32 {
    (((num_docs + 1) as f64 / (doc_freq + 1) as f64).ln() + 1.0) as f32
}

impl MoreLikeThisQuery {
    fn build(&self, searcher: &tantivy::Searcher) -> tantivy::Result<Box<dyn Query>> {
        let num_docs = searcher.num_docs();
        let mut picked: Vec<(f32, Term)> = Vec::new();
        for (word, tf) in &self.words {
            let (mut top, mut doc_freq) = (Term::from_field_text(self.fields[0], word), 0);
            for field in &self.fields {
                let term = Term::from_field_text(*field, word);
                let df = searcher.doc_freq(&term)?;
                if df > doc_freq {
                    (top, doc_freq) = (term, df);
                }
            }
            if doc_freq == 0 || doc_freq < self.min_doc_freq || doc_freq > self.max_doc_freq {
                continue;
            }
            picked.push((*tf as f32 * classic_idf(doc_freq, num_docs), top));
        }
        // Best scores first; equal scores keep word order so the choice is deterministic.
        picked.sort_by(|a, b| b.0.total_cmp(&a.0));
        picked.truncate(self.max_query_terms);
        if picked.is_empty() {
            return Ok(Box::new(EmptyQuery));
        }
        let weakest = picked.last().map_or(1.0, |p| p.0);
        let clauses: Vec<(Occur, Box<dyn Query>)> = picked
            .into_iter()
            .map(|(score, term)| {
                let field = term.field();
                let q = FieldStatistics::wrap(field, Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)));
                let q: Box<dyn Query> = match self.boost_terms {
                    Some(factor) => Box::new(BoostQuery::new(q, factor * score / weakest)),
                    None => q,
                };
                (Occur::Should, q)
            })
            .collect();
        let required = self
            .minimum_should_match
            .resolve(clauses.len())
            .map_err(|e| tantivy::TantivyError::InvalidArgument(e.to_string()))?
            .max(1);
        if required >= 2 && required < clauses.len() {
            // "k of n" with 1 < k < n: tantivy's heap disjunction costs a heap step per posting;
            // counting clause-at-a-time visits the same postings without one.
            let clauses = clauses.into_iter().map(|(_, q)| q).collect();
            return Ok(Box::new(CountingDisjunction::new(clauses, required)));
        }
        Ok(Box::new(BooleanQuery::with_minimum_required_clauses(clauses, required)))
    }
}

impl Query for MoreLikeThisQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let searcher = enable_scoring.searcher().ok_or_else(|| {
            TantivyError::InvalidArgument("more_like_this needs index statistics to pick its terms".into())
        })?;
        self.build(searcher)?.weight(enable_scoring)
    }
}
