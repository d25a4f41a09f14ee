//! The context a query is lowered in: the mapping, the analyzer, "now", the nested scope,
//! and the way back to the whole lowering for sub-queries (`lower`), so per-type files lower
//! their children without importing the dispatcher.

use tantivy::query::Query;
use tantivy::tokenizer::TextAnalyzer;

use crate::error::Result;
use crate::query::ast::QueryAst;
use crate::store::mapping::Mapping;

/// tantivy's BM25 keeps Lucene's old `(k1 + 1)` factor that Lucene 8+ (and so ES) dropped:
/// tantivy scores are ES scores x 2.2. Constant-score queries are lowered on the same scale
/// and the search divides every score by this on output, so `_score` matches ES.
pub const ES_SCORE_SCALE: f32 = 2.2;

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
}

impl LowerContext<'_> {
    /// Lowers a sub-query (a compound query's clause) in this context.
    pub fn lower(&mut self, ast: &QueryAst) -> Result<Box<dyn Query>> {
        (self.lower_fn)(ast, self)
    }
}
