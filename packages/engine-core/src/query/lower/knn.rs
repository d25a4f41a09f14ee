//! The tantivy side of `knn`: like Lucene's kNN query, the k nearest are chosen once over the
//! whole index (all segments) when the weight is built, and each segment's scorer then replays
//! its share of them in doc order. Scores follow the field's space (see `space`): OpenSearch's
//! `l2` is `1 / (1 + d²)`, ES's similarities have their own transforms.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tantivy::index::SegmentId;
use tantivy::query::{EmptyQuery, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, Searcher, SegmentReader, TantivyError, TERMINATED};

use crate::error::{EngineError, Result, ShardCause};
use crate::knn::cache::{SegmentVectors, VectorCache};
use crate::knn::distance::{l2_squared_rows, neg_dot_rows, Candidate, TopK};
use crate::knn::graph::GraphMetric;
use crate::knn::quantized::QuantizedQuery;
use crate::knn::space::{ElementType, SpaceType};
use crate::query::ast::{KnnAst, KnnDialect};
use crate::query::lower::context::LowerContext;
use crate::query::lower::knn_es::{self, Prepared};

pub fn lower_knn(ast: &KnnAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let prepared = match ast.dialect {
        KnnDialect::Elasticsearch => match knn_es::prepare(ast, ctx.mapping)? {
            Some(prepared) => prepared,
            None => return Ok(Box::new(EmptyQuery)),
        },
        KnnDialect::OpenSearch => {
            let Some(vf) = ctx.mapping.vectors.get(&ast.field) else {
                return Err(EngineError::shard(
                    ShardCause::QueryShard,
                    format!("failed to create query: Field '{}' is not knn_vector type.", ast.field),
                ));
            };
            let dimension = vf.dimension().unwrap_or_default();
            if ast.vector.len() != dimension {
                return Err(EngineError::shard(
                    ShardCause::QueryShard,
                    format!(
                    "failed to create query: Query vector has invalid dimension: {}. Dimension should be: {dimension}",
                    ast.vector.len(),
                ),
                ));
            }
            Prepared { field: vf, vector: ast.vector.clone(), min_score: None }
        }
    };
    let vf = prepared.field;
    let filter = ast.filter.as_deref().map(|f| ctx.lower(f)).transpose()?.map(Arc::from);
    Ok(Box::new(KnnQuery {
        field: vf.tantivy_name.clone(),
        vector: prepared.vector.into(),
        k: ast.k,
        space: vf.space,
        element: vf.element,
        min_score: prepared.min_score.map(|m| m * ctx.scale),
        scale: ctx.scale,
        filter,
        cache: vf.cache.clone(),
        graph_metric: vf.graph_metric(),
        chosen: Arc::new(Mutex::new(None)),
    }))
}

/// Rows whose distances are computed in one call: small enough to stay in L1 with the query.
const BLOCK_ROWS: usize = 256;

/// The chosen neighbours by segment, each list sorted by doc id, with tantivy-scale scores.
type Chosen = HashMap<SegmentId, Vec<(DocId, Score)>>;

/// The neighbours last chosen and the searcher generation they were chosen on.
type ChosenMemo = Mutex<Option<(u64, Arc<Chosen>)>>;

#[derive(Clone, Debug)]
struct KnnQuery {
    field: String,
    vector: Arc<[f32]>,
    k: usize,
    space: SpaceType,
    element: ElementType,
    /// ES `similarity` as a score (tantivy scale): neighbours below it are dropped.
    min_score: Option<f32>,
    /// The search's internal score scale (`LowerContext::scale`).
    scale: f32,
    filter: Option<Arc<dyn Query>>,
    cache: Arc<VectorCache>,
    /// How the field's graphs rank vectors; `None`: every segment is scanned.
    graph_metric: Option<GraphMetric>,
    /// One search builds this query's weight more than once (a count, then the top hits):
    /// the neighbours are chosen once per searcher generation and reused.
    chosen: Arc<ChosenMemo>,
}

impl KnnQuery {
    fn choose(&self, searcher: &Searcher) -> tantivy::Result<Arc<Chosen>> {
        let generation = searcher.generation().generation_id();
        if let Some((g, chosen)) = self.chosen.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
            if *g == generation {
                return Ok(chosen.clone());
            }
        }
        let segments = self.cache.segments(searcher, &self.field, self.vector.len(), self.graph_metric)?;
        let filter = match &self.filter {
            Some(f) => Some(f.weight(EnableScoring::disabled_from_searcher(searcher))?),
            None => None,
        };
        // Each segment's rows in stretches; the stretches are scanned on the search pool when
        // there are enough rows for the hand-off to pay (`parallel.rs`), and their
        // nearest merge into one list (candidates are totally ordered, so the split does not
        // change which k win).
        let mut stretches = Vec::new();
        let mut from_graphs = Vec::new();
        for (ord, (reader, vectors)) in searcher.segment_readers().iter().zip(&segments).enumerate() {
            // A filter can leave few candidates, where a graph walk finds too few of them:
            // filtered searches scan, as Lucene falls back to exact search for selective filters.
            if filter.is_none() {
                if let Some(rows) = self.graph_candidates(reader, vectors) {
                    from_graphs.push((ord as u32, vectors.clone(), rows));
                    continue;
                }
            }
            let allowed = match &filter {
                Some(w) => Some(Arc::new(matching_docs(w.as_ref(), reader)?)),
                None => None,
            };
            let query = Arc::new(vectors.quantized.query(&self.vector, self.space.uses_dot()));
            for start in (0..vectors.docs.len()).step_by(STRETCH_ROWS) {
                let end = (start + STRETCH_ROWS).min(vectors.docs.len());
                stretches.push(Stretch {
                    ord: ord as u32,
                    vectors: vectors.clone(),
                    rows: start..end,
                    alive: reader.alive_bitset().cloned(),
                    allowed: allowed.clone(),
                    query: query.clone(),
                });
            }
        }
        let rows = stretches.iter().map(|s| s.rows.len() as u64).sum::<u64>();
        let parallel = rows >= crate::parallel::threshold(PARALLEL_ROWS);
        let shortlists = crate::parallel::map_if(parallel, stretches, |s| Ok(self.shortlist(s)))?;
        // The k-th smallest upper bound over the whole index: no row whose lower bound lies
        // above it can be among the k nearest, so only the rest are compared exactly.
        let mut upper = TopK::new(self.k);
        for list in &shortlists {
            list.upper.iter().for_each(|c| upper.push(*c));
        }
        let cutoff = upper.bound();
        let mut top = TopK::new(self.k);
        for list in &shortlists {
            self.rescore(list, cutoff, &mut top);
        }
        for (ord, vectors, rows) in &from_graphs {
            for &row in rows {
                top.push(Candidate { distance: self.distance(vectors, row), segment: *ord, doc: vectors.docs[row] });
            }
        }
        let readers = searcher.segment_readers();
        let mut chosen = Chosen::new();
        let dim = self.vector.len();
        for c in top.into_sorted() {
            let score = self.scale * self.space.score(c.distance, self.element, dim);
            // The nearest come first, so the first one under the threshold ends the list.
            if self.min_score.is_some_and(|least| score < least) {
                break;
            }
            chosen.entry(readers[c.segment as usize].segment_id()).or_default().push((c.doc, score));
        }
        for hits in chosen.values_mut() {
            hits.sort_unstable_by_key(|(doc, _)| *doc);
        }
        let chosen = Arc::new(chosen);
        *self.chosen.lock().unwrap_or_else(|p| p.into_inner()) = Some((generation, chosen.clone()));
        Ok(chosen)
    }
}

/// Rows scanned per task, and the fewest rows (all segments) worth scanning on the pool: the
/// harness's 50k x 64-dim vectors (12.8 MB as floats, 3.2 MB as codes) took ~0.4 ms on one
/// core as floats.
const STRETCH_ROWS: usize = 16 * BLOCK_ROWS;
const PARALLEL_ROWS: u64 = 16_384;

/// Rows `rows` of one segment's vectors, with what excludes a doc (deleted, filtered out) and
/// the query's side of the segment's 8-bit keys.
struct Stretch {
    ord: u32,
    vectors: Arc<SegmentVectors>,
    rows: std::ops::Range<usize>,
    alive: Option<tantivy::fastfield::AliveBitSet>,
    allowed: Option<Arc<Vec<bool>>>,
    query: Arc<QuantizedQuery>,
}

/// What the 8-bit pass over one stretch leaves for the exact pass: the k smallest upper
/// bounds of its keys, and every allowed row whose lower bound was at most the k-th smallest
/// upper bound seen so far (a superset of those the index-wide cutoff keeps).
struct Shortlist {
    ord: u32,
    vectors: Arc<SegmentVectors>,
    upper: TopK,
    rows: Vec<(f32, usize)>,
}

impl KnnQuery {
    fn shortlist(&self, s: Stretch) -> Shortlist {
        let mut upper = TopK::new(self.k);
        let mut rows = Vec::new();
        let mut keys = vec![0f32; BLOCK_ROWS];
        let error = s.query.key_error;
        let mut bound = f32::INFINITY;
        for first in s.rows.clone().step_by(BLOCK_ROWS) {
            let docs = &s.vectors.docs[first..(first + BLOCK_ROWS).min(s.rows.end)];
            let keys = &mut keys[..docs.len()];
            s.query.keys(&s.vectors.quantized, first, keys);
            for (i, (&doc, &key)) in docs.iter().zip(keys.iter()).enumerate() {
                if key - error > bound
                    || s.alive.as_ref().is_some_and(|a| !a.is_alive(doc))
                    || s.allowed.as_ref().is_some_and(|a| !a[doc as usize])
                {
                    continue;
                }
                upper.push(Candidate { distance: key + error, segment: s.ord, doc });
                bound = upper.bound();
                rows.push((key - error, first + i));
            }
        }
        Shortlist { ord: s.ord, vectors: s.vectors, upper, rows }
    }

    /// Compares the shortlisted rows whose lower bound is at most `cutoff` exactly.
    fn rescore(&self, list: &Shortlist, cutoff: f32, top: &mut TopK) {
        for &(lower, row) in &list.rows {
            if lower > cutoff {
                continue;
            }
            top.push(Candidate {
                distance: self.distance(&list.vectors, row),
                segment: list.ord,
                doc: list.vectors.docs[row],
            });
        }
    }

    /// The exact scan key of one row (the float kernel both paths score with).
    fn distance(&self, vectors: &SegmentVectors, row: usize) -> f32 {
        let dim = self.vector.len();
        let data = &vectors.data[row * dim..(row + 1) * dim];
        let mut distance = [0f32];
        if self.space.uses_dot() {
            neg_dot_rows(&self.vector, data, &mut distance);
        } else {
            l2_squared_rows(&self.vector, data, &mut distance);
        }
        distance[0]
    }

    /// The segment's k nearest live rows by its graph, when it has one ready and a free
    /// search context; `None`: scan the segment.
    fn graph_candidates(&self, reader: &SegmentReader, vectors: &SegmentVectors) -> Option<Vec<usize>> {
        let graph = vectors.graph.ready()?;
        match reader.alive_bitset() {
            Some(alive) => {
                let live = |row: usize| alive.is_alive(vectors.docs[row]);
                graph.nearest_rows(&self.vector, self.k, Some(&live))
            }
            None => graph.nearest_rows(&self.vector, self.k, None),
        }
    }
}

fn matching_docs(weight: &dyn Weight, reader: &SegmentReader) -> tantivy::Result<Vec<bool>> {
    let mut allowed = vec![false; reader.max_doc() as usize];
    let mut scorer = weight.scorer(reader, 1.0)?;
    let mut doc = scorer.doc();
    while doc != TERMINATED {
        allowed[doc as usize] = true;
        doc = scorer.advance();
    }
    Ok(allowed)
}

impl Query for KnnQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let searcher = scoring
            .searcher()
            .ok_or_else(|| TantivyError::InvalidArgument("a knn query needs a searcher to choose neighbours".into()))?;
        Ok(Box::new(KnnWeight { chosen: self.choose(searcher)? }))
    }
}

struct KnnWeight {
    chosen: Arc<Chosen>,
}

impl Weight for KnnWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let hits = self.chosen.get(&reader.segment_id()).cloned().unwrap_or_default();
        Ok(Box::new(KnnScorer { hits, pos: 0, boost }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let hit = self.chosen.get(&reader.segment_id()).and_then(|hits| hits.iter().find(|(d, _)| *d == doc));
        match hit {
            Some((_, score)) => Ok(Explanation::new("knn score of the vector similarity", *score)),
            None => Err(TantivyError::InvalidArgument(format!("document #({doc}) is not among the k nearest"))),
        }
    }
}

struct KnnScorer {
    hits: Vec<(DocId, Score)>,
    pos: usize,
    boost: Score,
}

impl DocSet for KnnScorer {
    fn advance(&mut self) -> DocId {
        self.pos += 1;
        self.doc()
    }

    fn doc(&self) -> DocId {
        self.hits.get(self.pos).map_or(TERMINATED, |(doc, _)| *doc)
    }

    fn size_hint(&self) -> u32 {
        self.hits.len() as u32
    }
}

impl Scorer for KnnScorer {
    fn score(&mut self) -> Score {
        self.hits.get(self.pos).map_or(0.0, |(_, score)| score * self.boost)
    }
}
