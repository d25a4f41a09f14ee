//! The tantivy side of `function_score` (tantivy has none): a Query/Weight/Scorer wrapping the
//! inner query. Per segment the scorer walks the inner matches once, computes each score with
//! ES's FunctionScoreQuery formulas (score_mode over the matching functions, then boost_mode
//! against the query score, capped by max_boost) and keeps the (doc, score) pairs. Computing
//! eagerly lets `min_score` drop documents and lets invalid scores (ES refuses negative or NaN
//! results) fail the request instead of producing a wrong ranking.

use std::fmt;

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyError, Term, TERMINATED};

use super::score_values::{LoweredFunction, SegmentFunction};
use crate::query::ast::{BoostMode, ScoreMode};

pub struct FunctionScoreQuery {
    pub inner: Box<dyn Query>,
    pub functions: Vec<LoweredFunction>,
    pub score_mode: ScoreMode,
    pub boost_mode: BoostMode,
    pub max_boost: f64,
    pub min_score: Option<f64>,
    /// The search's internal score scale (`LowerContext::scale`): functions combine on the shown one.
    pub scale: f32,
}

impl Clone for FunctionScoreQuery {
    fn clone(&self) -> Self {
        FunctionScoreQuery {
            inner: self.inner.box_clone(),
            functions: self.functions.clone(),
            score_mode: self.score_mode,
            boost_mode: self.boost_mode,
            max_boost: self.max_boost,
            min_score: self.min_score,
            scale: self.scale,
        }
    }
}

impl fmt::Debug for FunctionScoreQuery {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "FunctionScore(query={:?}, functions={}, score_mode={:?}, boost_mode={:?})",
            self.inner,
            self.functions.len(),
            self.score_mode,
            self.boost_mode
        )
    }
}

impl Query for FunctionScoreQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        if !enable_scoring.is_scoring_enabled() && self.min_score.is_none() {
            // Matching alone (filters, counts): the functions change scores, never the matches.
            return self.inner.weight(enable_scoring);
        }
        // `min_score` decides matches from scores, so the inner query scores even in a filter.
        let scoring = match enable_scoring.searcher() {
            Some(searcher) if !enable_scoring.is_scoring_enabled() => EnableScoring::enabled_from_searcher(searcher),
            _ => enable_scoring,
        };
        let filters = EnableScoring::disabled_from_schema(scoring.schema());
        let functions = self
            .functions
            .iter()
            .map(|f| {
                let filter = f.filter.as_ref().map(|q| q.weight(filters)).transpose()?;
                Ok((filter, f.clone()))
            })
            .collect::<tantivy::Result<Vec<_>>>()?;
        Ok(Box::new(FunctionScoreWeight {
            inner: self.inner.weight(scoring)?,
            functions,
            score_mode: self.score_mode,
            boost_mode: self.boost_mode,
            max_boost: self.max_boost,
            min_score: self.min_score,
            scale: self.scale,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor)
    }
}

/// Matches scored together: each function reads its column once per block.
const BLOCK: usize = 256;

struct FunctionScoreWeight {
    inner: Box<dyn Weight>,
    functions: Vec<(Option<Box<dyn Weight>>, LoweredFunction)>,
    score_mode: ScoreMode,
    boost_mode: BoostMode,
    max_boost: f64,
    min_score: Option<f64>,
    scale: f32,
}

impl FunctionScoreWeight {
    /// Every live inner match of the segment with its final (tantivy-scale) score.
    fn score_segment(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Vec<(DocId, Score)>> {
        let mut inner = self.inner.scorer(reader, 1.0)?;
        let mut functions = self
            .functions
            .iter()
            .map(|(filter, f)| {
                let filter = filter.as_ref().map(|w| w.scorer(reader, 1.0)).transpose()?;
                SegmentFunction::open(f, filter, reader)
            })
            .collect::<tantivy::Result<Vec<_>>>()?;
        let alive = reader.alive_bitset();
        let mut out = Vec::new();
        let (mut docs, mut subs) = (Vec::with_capacity(BLOCK), Vec::with_capacity(BLOCK));
        let mut doc = inner.doc();
        while doc != TERMINATED {
            // A block of live matches with their query scores, then each function's column
            // values for the block in one bulk read, then the scores in doc order.
            docs.clear();
            subs.clear();
            while doc != TERMINATED && docs.len() < BLOCK {
                if alive.is_none_or(|a| a.is_alive(doc)) {
                    docs.push(doc);
                    // Inner scores are on tantivy's scale (ES x 2.2): combine on ES's scale.
                    subs.push((inner.score() / self.scale) as f64);
                }
                doc = inner.advance();
            }
            functions.iter_mut().for_each(|f| f.read_block(&docs));
            for (i, (&doc, &sub)) in docs.iter().zip(&subs).enumerate() {
                let factor = self.factor(&mut functions, doc, i).map_err(TantivyError::InvalidArgument)?;
                let score = combine(self.boost_mode, sub, factor.min(self.max_boost)) as f32;
                if score < 0.0 || score.is_nan() {
                    return Err(TantivyError::InvalidArgument(format!(
                        "function score query returned an invalid score: {score} for doc: {doc}"
                    )));
                }
                if self.min_score.is_none_or(|m| score as f64 >= m) {
                    out.push((doc, score * self.scale * boost));
                }
            }
        }
        Ok(out)
    }

    /// ES FunctionScoreQuery.computeScore for the `i`th doc of the block the functions last
    /// read: the functions whose filter matches, combined by `score_mode`; 1 when none matches.
    fn factor(&self, functions: &mut [SegmentFunction], doc: DocId, i: usize) -> Result<f64, String> {
        let mut factor = 1.0;
        match self.score_mode {
            ScoreMode::First => {
                for f in functions.iter_mut() {
                    if f.matches(doc) {
                        return f.score_in_block(doc, i);
                    }
                }
            }
            ScoreMode::Multiply => {
                for f in functions.iter_mut() {
                    if f.matches(doc) {
                        factor *= f.score_in_block(doc, i)?;
                    }
                }
            }
            ScoreMode::Max | ScoreMode::Min => {
                let mut best: Option<f64> = None;
                for f in functions.iter_mut() {
                    if f.matches(doc) {
                        let s = f.score_in_block(doc, i)?;
                        best = Some(match (best, self.score_mode) {
                            (None, _) => s,
                            (Some(b), ScoreMode::Max) => b.max(s),
                            (Some(b), _) => b.min(s),
                        });
                    }
                }
                factor = best.unwrap_or(1.0);
            }
            ScoreMode::Sum | ScoreMode::Avg => {
                let (mut total, mut weights) = (0.0, 0.0);
                for f in functions.iter_mut() {
                    if f.matches(doc) {
                        total += f.score_in_block(doc, i)?;
                        // `avg` is weighted: a function's weight counts in the divisor.
                        weights += f.weight.unwrap_or(1.0);
                    }
                }
                if weights != 0.0 {
                    factor = if self.score_mode == ScoreMode::Avg { total / weights } else { total };
                }
            }
        }
        Ok(factor)
    }
}

/// ES CombineFunction; `func` is already capped by max_boost.
fn combine(mode: BoostMode, query: f64, func: f64) -> f64 {
    match mode {
        BoostMode::Multiply => query * func,
        BoostMode::Replace => func,
        BoostMode::Sum => query + func,
        BoostMode::Avg => (query + func) / 2.0,
        BoostMode::Max => query.max(func),
        BoostMode::Min => query.min(func),
    }
}

impl Weight for FunctionScoreWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(Box::new(ScoredDocs { docs: self.score_segment(reader, boost)?, pos: 0 }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let docs = self.score_segment(reader, 1.0)?;
        match docs.binary_search_by_key(&doc, |(d, _)| *d) {
            Ok(i) => Ok(Explanation::new("function score, computed from function values", docs[i].1)),
            Err(_) => Err(TantivyError::InvalidArgument(format!("document {doc} does not match"))),
        }
    }
}

/// Precomputed (doc, score) pairs in doc order.
struct ScoredDocs {
    docs: Vec<(DocId, Score)>,
    pos: usize,
}

impl DocSet for ScoredDocs {
    fn advance(&mut self) -> DocId {
        self.pos += 1;
        self.doc()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc() >= target {
            return self.doc();
        }
        let rest = &self.docs[self.pos..];
        self.pos += rest.partition_point(|(d, _)| *d < target);
        self.doc()
    }

    fn doc(&self) -> DocId {
        self.docs.get(self.pos).map_or(TERMINATED, |(d, _)| *d)
    }

    fn size_hint(&self) -> u32 {
        (self.docs.len() - self.pos.min(self.docs.len())) as u32
    }
}

impl Scorer for ScoredDocs {
    fn score(&mut self) -> Score {
        self.docs.get(self.pos).map_or(0.0, |(_, s)| *s)
    }
}
