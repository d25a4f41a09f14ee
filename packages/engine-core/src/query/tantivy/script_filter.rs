//! The `script` query: each document of the segment (or the nested scope) run through the
//! script, kept when it answers true, scoring a constant. A script that fails on a document
//! (a missing value, a non-boolean answer) fails the search, as in ES.

use std::sync::Arc;

use tantivy::query::{ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED};

use crate::query::script_doc_values::{DocFields, SegmentDocValues};
use crate::script::{Script, Val};

#[derive(Clone, Debug)]
pub struct ScriptQuery {
    pub script: Arc<Script>,
    pub fields: DocFields,
    pub score: Score,
}

impl Query for ScriptQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for ScriptQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let values = SegmentDocValues::open(&self.fields, reader)?;
        let mut matches = Vec::new();
        for doc in 0..reader.max_doc() {
            match values.run(&self.script, doc) {
                Ok(Val::Bool(true)) => matches.push(doc),
                Ok(Val::Bool(false)) => {}
                Ok(other) => {
                    return Err(tantivy::TantivyError::InvalidArgument(format!(
                        "script query must return a boolean, got [{other:?}]"
                    )))
                }
                Err(e) => return Err(tantivy::TantivyError::InvalidArgument(e.to_string())),
            }
        }
        Ok(Box::new(ConstScorer::new(DocList { docs: matches, pos: 0 }, self.score * boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) == doc {
            return Ok(Explanation::new("script query", scorer.score()));
        }
        Err(tantivy::TantivyError::InvalidArgument(format!("document #({doc}) does not match")))
    }
}

struct DocList {
    docs: Vec<DocId>,
    pos: usize,
}

impl DocSet for DocList {
    fn advance(&mut self) -> DocId {
        self.pos += 1;
        self.doc()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        let rest = &self.docs[self.pos.min(self.docs.len())..];
        self.pos += rest.partition_point(|d| *d < target);
        self.doc()
    }

    fn doc(&self) -> DocId {
        self.docs.get(self.pos).copied().unwrap_or(TERMINATED)
    }

    fn size_hint(&self) -> u32 {
        self.docs.len() as u32
    }
}
