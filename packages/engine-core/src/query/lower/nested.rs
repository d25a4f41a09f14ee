//! The `nested` query: Lucene's `ToParentBlockJoinQuery`. The inner query runs over one
//! path's objects; each parent (the next document at the enclosing level, see `levels.rs`)
//! matches when any of its objects does, scored from its objects' scores by `score_mode`.

use std::fmt;

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyError, Term, TERMINATED};

use crate::error::{EngineError, ShardCause};
use crate::query::ast::NestedScoreMode as ScoreMode;
use crate::store::nested_levels::SegLevels;

pub struct NestedQuery {
    /// Already restricted to the path's objects.
    objects: Box<dyn Query>,
    /// The level parents are at: `None` for root documents, else a nested path's index.
    parent_level: Option<usize>,
    score_mode: ScoreMode,
}

impl NestedQuery {
    pub fn new(objects: Box<dyn Query>, parent_level: Option<usize>, score_mode: ScoreMode) -> NestedQuery {
        NestedQuery { objects, parent_level, score_mode }
    }
}

impl Clone for NestedQuery {
    fn clone(&self) -> Self {
        NestedQuery { objects: self.objects.box_clone(), parent_level: self.parent_level, score_mode: self.score_mode }
    }
}

impl fmt::Debug for NestedQuery {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Nested({:?} -> {:?}, {:?})", self.objects, self.parent_level, self.score_mode)
    }
}

impl Query for NestedQuery {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let scoring = enable_scoring.is_scoring_enabled() && self.score_mode != ScoreMode::None;
        Ok(Box::new(NestedWeight {
            objects: self.objects.weight(enable_scoring)?,
            parent_level: self.parent_level,
            score_mode: if scoring { self.score_mode } else { ScoreMode::None },
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.objects.query_terms(visitor)
    }
}

struct NestedWeight {
    objects: Box<dyn Weight>,
    parent_level: Option<usize>,
    score_mode: ScoreMode,
}

impl Weight for NestedWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut scorer = ParentScorer {
            objects: self.objects.scorer(reader, boost)?,
            levels: SegLevels::open(reader)?,
            parent_level: self.parent_level,
            score_mode: self.score_mode,
            doc: 0,
            score: 0.0,
        };
        scorer.join_next();
        Ok(Box::new(scorer))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) != doc {
            return Err(TantivyError::InvalidArgument(format!("document #({doc}) does not match")));
        }
        Ok(Explanation::new("nested: the parent of matching objects", scorer.score()))
    }
}

struct ParentScorer {
    objects: Box<dyn Scorer>,
    levels: SegLevels,
    parent_level: Option<usize>,
    score_mode: ScoreMode,
    doc: DocId,
    score: Score,
}

impl ParentScorer {
    /// Moves to the parent of the object the inner scorer stands on, consuming every matching
    /// object of that parent and folding their scores.
    fn join_next(&mut self) -> DocId {
        let first = self.objects.doc();
        let parent = match first {
            TERMINATED => None,
            object => self.levels.ancestor(object, self.parent_level),
        };
        let Some(parent) = parent else {
            self.doc = TERMINATED;
            return TERMINATED;
        };
        let (mut sum, mut min, mut max, mut n) = (0.0f32, f32::MAX, f32::MIN, 0u32);
        while self.objects.doc() < parent {
            if self.score_mode != ScoreMode::None {
                let s = self.objects.score();
                sum += s;
                min = min.min(s);
                max = max.max(s);
            }
            n += 1;
            self.objects.advance();
        }
        self.score = match self.score_mode {
            ScoreMode::Avg => sum / n as f32,
            ScoreMode::Sum => sum,
            ScoreMode::Max => max,
            ScoreMode::Min => min,
            ScoreMode::None => 0.0,
        };
        self.doc = parent;
        parent
    }
}

impl DocSet for ParentScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        self.join_next()
    }

    /// Skips the inner scorer to the objects of the first parent at or after `target`: those
    /// start right after the last document at the parents' level before `target`.
    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        let mut start = target;
        while start > self.doc + 1 && self.levels.level(start - 1) != self.parent_level {
            start -= 1;
        }
        if self.objects.doc() < start {
            self.objects.seek(start);
        }
        self.join_next()
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.objects.size_hint()
    }
}

impl Scorer for ParentScorer {
    fn score(&mut self) -> Score {
        self.score
    }
}

/// Lowers `nested`: the inner query over `path`'s objects (in that path's scope), joined to
/// the enclosing level. An unknown path is ES's `query_shard_exception` unless `ignore_unmapped`.
pub fn lower_nested(
    ast: &crate::query::ast::NestedAst,
    ctx: &mut crate::query::lower::context::LowerContext,
) -> crate::error::Result<Box<dyn Query>> {
    use tantivy::query::{BooleanQuery, ConstScoreQuery, EmptyQuery, Occur};
    let Some(at) = ctx.mapping.nested.as_ref().and_then(|n| n.find(&ast.path)) else {
        if ast.ignore_unmapped {
            return Ok(Box::new(EmptyQuery));
        }
        let reason = if ctx.mapping.is_object(&ast.path) {
            format!("failed to create query: [nested] nested object under path [{}] is not of nested type", ast.path)
        } else {
            format!("failed to create query: [nested] failed to find nested object under path [{}]", ast.path)
        };
        return Err(EngineError::shard(ShardCause::QueryShard, reason));
    };
    let outer = ctx.nested_scope.replace(at);
    let inner = ctx.lower(&ast.query);
    let of_path = scope_filter(ctx).expect("the scope was just set");
    ctx.nested_scope = outer;
    let objects = BooleanQuery::new(vec![
        (Occur::Must, inner?),
        (Occur::Must, Box::new(ConstScoreQuery::new(of_path, 0.0)) as Box<dyn Query>),
    ]);
    Ok(Box::new(NestedQuery::new(Box::new(objects), outer, ast.score_mode)))
}

/// Inside a `nested` query: the documents of the path in scope (unscored). `None` at the top.
pub fn scope_filter(ctx: &crate::query::lower::context::LowerContext) -> Option<Box<dyn Query>> {
    let (nested, at) = (ctx.mapping.nested.as_ref()?, ctx.nested_scope?);
    let term = Term::from_field_u64(nested.path_field, at as u64);
    Some(Box::new(tantivy::query::TermQuery::new(term, tantivy::schema::IndexRecordOption::Basic)))
}
