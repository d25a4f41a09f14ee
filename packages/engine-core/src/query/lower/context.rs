//! The context a query is lowered in: the mapping, the analyzer, "now", the nested scope,
//! and the way back to the whole lowering for sub-queries (`lower`), so per-type files lower
//! their children without importing the dispatcher.

use tantivy::query::{BoostQuery, ConstScoreQuery, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::Term;

use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::QueryAst;
use crate::query::tantivy::bm25_term::Bm25TermQuery;
use crate::query::tantivy::field_statistics::FieldStatistics;
use crate::store::mapping::Mapping;
use crate::store::similarity::{Similarities, TermScoring};

/// The whole lowering (`lower::lower`), as the context carries it to per-type files.
pub(super) type LowerFn = fn(&QueryAst, &mut LowerContext) -> Result<Box<dyn Query>>;

pub struct LowerContext<'a> {
    pub mapping: &'a Mapping,
    pub analyzer: TextAnalyzer,
    /// "now" for date math, epoch millis.
    pub now_ms: i64,
    /// Inside a `nested` query: the path whose objects are being matched (`None`: root documents).
    pub nested_scope: Option<usize>,
    pub(super) lower_fn: LowerFn,
    /// The index's similarities, when it configures any (`None`: ES 8's BM25 everywhere).
    pub(super) similarities: Option<&'a Similarities>,
    /// Internal scores are this times the scores shown: constant scores are lowered at it.
    pub scale: f32,
    /// The index searched, for queries on `_index` (`None`: such a query matches nothing).
    pub index_name: Option<&'a str>,
    /// The index's `max_terms_count` and `max_regex_length` (`store/settings_limits.rs`).
    pub max_terms_count: usize,
    pub max_regex_length: usize,
}

impl<'a> LowerContext<'a> {
    /// Lowers a sub-query (a compound query's clause) in this context.
    pub fn lower(&mut self, ast: &QueryAst) -> Result<Box<dyn Query>> {
        (self.lower_fn)(ast, self)
    }

    /// Scores with the index's similarities (only an index that configures some needs this).
    pub fn with_similarities(mut self, similarities: &'a Similarities) -> LowerContext<'a> {
        self.scale = similarities.scale();
        self.similarities = Some(similarities);
        self
    }

    /// Calls `each` with every token queries on `field` analyze `text` into: by the field's
    /// `search_analyzer` (or `analyzer`) when the mapping names one, else the standard analyzer.
    pub fn analyze(
        &mut self,
        field: tantivy::schema::Field,
        text: &str,
        mut each: impl FnMut(&tantivy::tokenizer::Token),
    ) {
        // Only a mapping that names another analyzer pays for the look-up.
        if self.mapping.custom_analyzers {
            let named =
                self.mapping.fields.values().find(|fm| fm.field == field).and_then(|fm| fm.params.query_analyzer());
            if let Some(mut analyzer) = named.and_then(crate::analyzers::builtin) {
                let mut stream = analyzer.token_stream(text);
                while let Some(token) = stream.next() {
                    each(token);
                }
                return;
            }
        }
        let mut stream = self.analyzer.token_stream(text);
        while let Some(token) = stream.next() {
            each(token);
        }
    }

    /// How term and phrase matches on `field` score.
    fn scoring(&self, field: tantivy::schema::Field) -> TermScoring {
        let Some(similarities) = self.similarities else { return TermScoring::Native };
        let named = self.mapping.fields.values().find(|fm| fm.field == field).and_then(|fm| fm.similarity.as_deref());
        similarities.term_scoring(named)
    }

    /// A scored term of a text or keyword field, by the field's similarity, over the documents
    /// that have the field (`FieldStatistics`).
    pub fn scored_term(&self, term: Term) -> Box<dyn Query> {
        let field = term.field();
        match self.scoring(field) {
            TermScoring::Native => {
                FieldStatistics::wrap(field, Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)))
            }
            TermScoring::Boosted(f) => Box::new(BoostQuery::new(
                FieldStatistics::wrap(field, Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs))),
                f,
            )),
            TermScoring::Constant(score) => {
                Box::new(ConstScoreQuery::new(Box::new(TermQuery::new(term, IndexRecordOption::Basic)), score))
            }
            TermScoring::Custom { k1, b, factor } => {
                FieldStatistics::wrap(field, Box::new(Bm25TermQuery { term, k1, b, factor }))
            }
        }
    }

    /// A query tantivy scores with its own BM25 (a phrase, a fuzzy expansion) on `field`,
    /// by the field's similarity; `what` names it in the refusal of other `k1`/`b`.
    pub fn scored_by_tantivy(
        &self,
        field: tantivy::schema::Field,
        query: Box<dyn Query>,
        what: &str,
    ) -> Result<Box<dyn Query>> {
        Ok(match self.scoring(field) {
            TermScoring::Native => FieldStatistics::wrap(field, query),
            TermScoring::Boosted(f) => Box::new(BoostQuery::new(FieldStatistics::wrap(field, query), f)),
            TermScoring::Constant(score) => Box::new(ConstScoreQuery::new(query, score)),
            // Refused rather than scored with the wrong parameters.
            TermScoring::Custom { .. } => {
                return Err(EngineError::shard(
                    ShardCause::QueryShard,
                    format!("failed to create query: {what} queries on a field whose similarity sets its own k1 or b are not supported"),
                ))
            }
        })
    }
}
