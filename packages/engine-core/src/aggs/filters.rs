//! `filter` and `filters` aggregations: buckets defined by queries instead of field values.
//! Each filter query is lowered once per search into a tantivy `Weight` (no scoring); per
//! segment a scorer per filter walks forward with the collected docs (which arrive in
//! ascending order), so membership costs one `seek` per doc. `other_bucket` adds one more
//! bucket, after the filters', for the docs that matched none of them.

use std::cell::RefCell;

use serde_json::{json, Map, Value};
use tantivy::query::{EnableScoring, Query, Scorer, Weight};
use tantivy::schema::Schema;
use tantivy::{DocId, DocSet, SegmentReader, TERMINATED};

use super::{AggKind, AggRequest};
use crate::ast::QueryAst;
use crate::dsl::parse_query;
use crate::error::{EngineError, Result};

/// `filter: {<query>}` or `filters: {"filters": {name: query} | [query, ...]}`.
pub(super) fn parse_filters(kind_name: &str, body: &Map<String, Value>) -> Result<AggKind> {
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

/// The named queries of `filter(s)` and `adjacency_matrix`.
fn queries_of(kind: &AggKind) -> Option<&[(String, QueryAst)]> {
    match kind {
        AggKind::Filters { buckets, .. } => Some(buckets),
        AggKind::Extra(x) => match &**x {
            super::ExtraKind::AdjacencyMatrix { filters, .. } => Some(filters),
            _ => None,
        },
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

/// One segment's scorers for one `filters` aggregation, and whether it has an other bucket.
pub(super) struct SegFilters(Vec<RefCell<Box<dyn Scorer>>>, bool);

impl SegFilters {
    /// Takes this aggregation's weights from `weights[*next..]` (same pre-order as above).
    pub(super) fn open(
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
        Ok(Some(SegFilters(scorers, other)))
    }

    /// Indexes of the filters `doc` matches (or the other bucket's, one past the last, when
    /// none does); docs must come in ascending order.
    pub(super) fn matching(&self, doc: DocId, keys: &mut Vec<u64>) {
        let before = keys.len();
        for (i, scorer) in self.0.iter().enumerate() {
            let mut scorer = scorer.borrow_mut();
            if scorer.doc() != TERMINATED && scorer.doc() < doc {
                scorer.seek(doc);
            }
            if scorer.doc() == doc {
                keys.push(i as u64);
            }
        }
        if self.1 && keys.len() == before {
            keys.push(self.0.len() as u64);
        }
    }
}

/// `{"doc_count": n, <subs>}` per filter: one object (`filter`), or a `buckets` list or
/// name-keyed object (`filters`).
pub(super) fn render_filters(req: &AggRequest, rendered: Vec<(String, Value)>, keyed: bool, single: bool) -> Value {
    if single {
        return rendered.into_iter().next().map(|(_, v)| v).unwrap_or(Value::Null);
    }
    if keyed {
        return json!({ "buckets": Value::Object(rendered.into_iter().collect()) });
    }
    let _ = req;
    json!({ "buckets": rendered.into_iter().map(|(_, v)| v).collect::<Vec<_>>() })
}
