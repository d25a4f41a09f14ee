//! Named queries: every query given a `_name` is run again, alone, against each hit of the
//! page, and the hit lists the names that match it (`matched_queries`), as ES's fetch phase
//! does. Only the page's hits are checked, one seek per hit and name.

use tantivy::query::{EnableScoring, Weight};
use tantivy::{DocAddress, DocSet, Searcher};

use crate::error::Result;
use crate::query::ast::QueryAst;
use crate::store::index::IndexHandle;

pub struct NamedQueries {
    /// By name (ES lists a hit's names in no particular order; sorted here, so stable).
    weights: Vec<(String, Box<dyn Weight>)>,
}

impl NamedQueries {
    /// `None` when the query names nothing (the usual case: nothing to prepare).
    pub fn prepare(handle: &IndexHandle, searcher: &Searcher, query: &QueryAst) -> Result<Option<NamedQueries>> {
        let mut named = Vec::new();
        collect(query, &mut named);
        if named.is_empty() {
            return Ok(None);
        }
        named.sort_by(|a, b| a.0.cmp(b.0));
        named.dedup_by(|a, b| a.0 == b.0);
        let mut weights = Vec::with_capacity(named.len());
        for (name, ast) in named {
            let lowered = super::lower_query(handle, ast)?;
            weights.push((name.clone(), lowered.weight(EnableScoring::disabled_from_searcher(searcher))?));
        }
        Ok(Some(NamedQueries { weights }))
    }

    /// The names of the queries matching the document at `address`.
    pub fn matched(&self, searcher: &Searcher, address: DocAddress) -> Result<Vec<&str>> {
        let reader = searcher.segment_reader(address.segment_ord);
        let mut out = Vec::new();
        for (name, weight) in &self.weights {
            let mut scorer = weight.scorer(reader, 1.0)?;
            if scorer.doc() <= address.doc_id && scorer.seek(address.doc_id) == address.doc_id {
                out.push(name.as_str());
            }
        }
        Ok(out)
    }
}

/// The named queries of the tree, outer ones first. Queries inside `nested` match nested
/// objects, not the hits, so they are not looked at.
fn collect<'a>(ast: &'a QueryAst, out: &mut Vec<(&'a String, &'a QueryAst)>) {
    match ast {
        QueryAst::Named { name, query } => {
            out.push((name, query));
            collect(query, out);
        }
        QueryAst::Bool(b) => {
            for q in b.must.iter().chain(&b.filter).chain(&b.should).chain(&b.must_not) {
                collect(q, out);
            }
        }
        QueryAst::Boost { query, .. } => collect(query, out),
        QueryAst::ConstantScore { filter, .. } => collect(filter, out),
        QueryAst::DisMax { queries, .. } => queries.iter().for_each(|q| collect(q, out)),
        QueryAst::Boosting { positive, negative, .. } => {
            collect(positive, out);
            collect(negative, out);
        }
        QueryAst::FunctionScore(fs) => {
            collect(&fs.query, out);
            fs.functions.iter().filter_map(|f| f.filter.as_ref()).for_each(|q| collect(q, out));
        }
        QueryAst::Pinned { organic, .. } => collect(organic, out),
        _ => {}
    }
}
