//! `filter` and `filters`: buckets defined by queries instead of field values.
//! Each filter query is lowered once per search into a tantivy `Weight` (no scoring); per
//! segment a scorer per filter walks forward with the collected docs (which arrive in
//! ascending order). Membership is read from bits: each filter fills the 1,024-doc window
//! starting at the first collected doc past the last window in bulk (`fill_bitset_block`: a
//! column range filters the window's values in one call), so a collected doc costs one bit
//! test per filter instead of a `seek` (perf of adjacency_matrix over 75k docs: 35% of its
//! time was in the filters' `seek` and `doc`). `other_bucket` adds one more bucket, after the
//! filters', for the docs that matched none of them.

use std::cell::RefCell;

use serde_json::{json, Map, Value};
use tantivy::query::{EnableScoring, Query, Scorer, Weight};
use tantivy::schema::Schema;
use tantivy::{DocId, DocSet, SegmentReader};
use tantivy_common::TinySet;

use super::adjacency_matrix::adjacency_keys;
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::bucket_budget;
use crate::aggs::intermediate::{AggFruit, BucketKey};
use crate::aggs::render::single_bucket;
use crate::aggs::request::{needs_scores, AggKind, AggRequest};
use crate::error::{EngineError, Result};
use crate::query::ast::QueryAst;
use crate::query::dsl::parse_query;

pub struct Filters;

impl Aggregation for Filters {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        Ok((parse_filters(def.kind_name, def.body)?, FieldRef::Unresolved(String::new())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        let (AggKind::Filters { buckets: specs, keyed, single, other }, AggFruit::Buckets(b)) = (&req.kind, fruit)
        else {
            unreachable!("fruit shape follows the request")
        };
        // The other bucket is collected under the index one past the last filter.
        let names = specs.iter().map(|(name, _)| name).chain(other);
        let rendered = names
            .enumerate()
            .map(|(i, name)| {
                if !single {
                    bucket_budget::consume();
                }
                (name.clone(), single_bucket(req, b.get(&BucketKey::Num(i as u64))))
            })
            .collect();
        render_filters(req, rendered, *keyed, *single)
    }
}

/// `filter: {<query>}` or `filters: {"filters": {name: query} | [query, ...]}`.
fn parse_filters(kind_name: &str, body: &Map<String, Value>) -> Result<AggKind> {
    if kind_name == "filter" {
        let query = parse_query(&Value::Object(body.clone()))?;
        return Ok(AggKind::Filters { buckets: vec![(String::new(), query)], keyed: false, single: true, other: None });
    }
    let mut buckets = Vec::new();
    let mut keyed = false;
    let mut other_bucket = None;
    let mut other_key = None;
    for (key, value) in body {
        match (key.as_str(), value) {
            ("other_bucket", Value::Bool(on)) => other_bucket = Some(*on),
            ("other_bucket_key", Value::String(name)) => other_key = Some(name.clone()),
            ("filters", Value::Object(named)) => {
                keyed = true;
                for (name, q) in named {
                    buckets.push((name.clone(), parse_query(q)?));
                }
            }
            ("filters", Value::Array(list)) => {
                for q in list {
                    buckets.push((String::new(), parse_query(q)?));
                }
            }
            _ => return Err(EngineError::XContentParse(format!("[filters] unknown field [{key}]"))),
        }
    }
    if buckets.is_empty() {
        return Err(EngineError::IllegalArgument("[filters] cannot be empty.".into()));
    }
    if keyed {
        // ES renders keyed filters sorted by name.
        buckets.sort_by(|a, b| a.0.cmp(&b.0));
    }
    // ES: a key alone switches the other bucket on; an explicit `other_bucket: false` wins.
    let other = match (other_bucket, other_key) {
        (Some(false), _) | (None, None) => None,
        (_, key) => Some(key.unwrap_or_else(|| "_other_".to_string())),
    };
    Ok(AggKind::Filters { buckets, keyed, single: false, other })
}

/// A `filter` aggregation whose own query can run as `main AND filter` instead of being
/// checked against every main match (`search/filter_by_filter.rs`): the single-filter kind
/// (no other bucket), with no sub-aggregation that needs scores. Returns its filter.
pub fn lone_filter(req: &AggRequest) -> Option<&QueryAst> {
    match &req.kind {
        AggKind::Filters { buckets, single: true, other: None, .. } if !needs_scores(&req.subs) => {
            buckets.first().map(|(_, query)| query)
        }
        _ => None,
    }
}

/// The named queries of `filter(s)` and `adjacency_matrix`.
fn queries_of(kind: &AggKind) -> Option<&[(String, QueryAst)]> {
    match kind {
        AggKind::Filters { buckets, .. } => Some(buckets),
        AggKind::AdjacencyMatrix { filters, .. } => Some(filters),
        _ => None,
    }
}

/// Every filter query in `reqs` (pre-order), lowered to a non-scoring weight.
pub fn filter_weights(
    reqs: &[AggRequest],
    schema: &Schema,
    lower: &mut dyn FnMut(&QueryAst) -> Result<Box<dyn Query>>,
) -> Result<Vec<Box<dyn Weight>>> {
    let mut out = Vec::new();
    for req in reqs {
        if let Some(buckets) = queries_of(&req.kind) {
            for (_, query) in buckets {
                out.push(lower(query)?.weight(EnableScoring::disabled_from_schema(schema))?);
            }
        }
        out.extend(filter_weights(&req.subs, schema, lower)?);
    }
    Ok(out)
}

/// One segment's scorers for one `filters` aggregation, their bits over the current window,
/// and whether it has an other bucket.
pub(crate) struct SegFilters {
    scorers: Vec<RefCell<Box<dyn Scorer>>>,
    window: RefCell<Window>,
    pub(crate) other: bool,
}

/// Docs per window: tantivy's `fill_bitset_block` block.
const WINDOW: DocId = 16 * 64;

/// The filters' matches in `[start, start + WINDOW)`, one mask per filter.
struct Window {
    start: DocId,
    /// False until the first doc is collected.
    filled: bool,
    masks: Vec<[TinySet; 16]>,
}

impl SegFilters {
    /// Takes this aggregation's weights from `weights[*next..]` (same pre-order as above).
    pub(crate) fn open(
        kind: &AggKind,
        weights: &[Box<dyn Weight>],
        next: &mut usize,
        reader: &SegmentReader,
    ) -> tantivy::Result<Option<SegFilters>> {
        let Some(buckets) = queries_of(kind) else { return Ok(None) };
        let mut scorers = Vec::with_capacity(buckets.len());
        for weight in &weights[*next..*next + buckets.len()] {
            scorers.push(RefCell::new(weight.scorer(reader, 1.0)?));
        }
        *next += buckets.len();
        let other = matches!(kind, AggKind::Filters { other: Some(_), .. });
        let window = Window { start: 0, filled: false, masks: vec![[TinySet::empty(); 16]; scorers.len()] };
        Ok(Some(SegFilters { scorers, window: RefCell::new(window), other }))
    }

    /// The window holding `doc`, filled first when `doc` is past the current one.
    fn window_of(&self, doc: DocId) -> std::cell::RefMut<'_, Window> {
        let mut window = self.window.borrow_mut();
        if !window.filled || doc >= window.start.saturating_add(WINDOW) {
            window.start = doc;
            window.filled = true;
            let end = doc.saturating_add(WINDOW);
            for (scorer, mask) in self.scorers.iter().zip(window.masks.iter_mut()) {
                *mask = [TinySet::empty(); 16];
                let mut scorer = scorer.borrow_mut();
                let mut next = scorer.doc();
                if next <= doc {
                    scorer.fill_bitset_block(doc, mask);
                    continue;
                }
                // Already inside the window (a doc set must never seek backwards, which
                // `fill_bitset_block` would), or past it, or done (TERMINATED).
                while next < end {
                    let offset = next - doc;
                    mask[(offset / 64) as usize].insert_mut(offset % 64);
                    next = scorer.advance();
                }
            }
        }
        window
    }

    /// Indexes of the filters `doc` matches (or the other bucket's, one past the last, when
    /// none does); docs must come in ascending order.
    pub(crate) fn matching(&self, doc: DocId, keys: &mut Vec<u64>) {
        let window = self.window_of(doc);
        let offset = doc - window.start;
        let before = keys.len();
        for (i, mask) in window.masks.iter().enumerate() {
            if mask[(offset / 64) as usize].contains(offset % 64) {
                keys.push(i as u64);
            }
        }
        if self.other && keys.len() == before {
            keys.push(self.scorers.len() as u64);
        }
    }

    /// The filters `doc` matches as bits (filter i is bit i); at most `MASK_FILTERS` filters.
    pub(crate) fn mask(&self, doc: DocId) -> usize {
        let window = self.window_of(doc);
        let offset = doc - window.start;
        let (word, bit) = ((offset / 64) as usize, offset % 64);
        window.masks.iter().enumerate().fold(0, |acc, (i, mask)| acc | (usize::from(mask[word].contains(bit)) << i))
    }

    pub(crate) fn len(&self) -> usize {
        self.scorers.len()
    }
}

/// Filter aggregations without sub-aggregations and with at most this many filters count
/// docs by the set of filters they match (2^n counters): one bit test per filter and one
/// increment per doc, instead of a key per matched filter (and per matched pair, for
/// adjacency_matrix) looked up in a map. `mask_keys` expands a set into its buckets' keys.
pub(crate) const MASK_FILTERS: usize = 12;

/// The bucket keys of the docs whose matched filters are `mask`, as `matching` (and
/// `adjacency_keys`) give them for one doc.
pub(crate) fn mask_keys(kind: &AggKind, filters: usize, other: bool, mask: usize, keys: &mut Vec<u64>) {
    keys.clear();
    keys.extend((0..filters).filter(|i| mask & (1 << i) != 0).map(|i| i as u64));
    if other && mask == 0 {
        keys.push(filters as u64);
    }
    adjacency_keys(kind, keys);
}

/// `{"doc_count": n, <subs>}` per filter: one object (`filter`), or a `buckets` list or
/// name-keyed object (`filters`).
fn render_filters(req: &AggRequest, rendered: Vec<(String, Value)>, keyed: bool, single: bool) -> Value {
    if single {
        return rendered.into_iter().next().map(|(_, v)| v).unwrap_or(Value::Null);
    }
    if keyed {
        return json!({ "buckets": Value::Object(rendered.into_iter().collect()) });
    }
    let _ = req;
    json!({ "buckets": rendered.into_iter().map(|(_, v)| v).collect::<Vec<_>>() })
}
