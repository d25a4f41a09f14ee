//! An intervals source as lowered (`IntervalsSource`: terms, expansions and the operators over
//! them, Lucene's `IntervalsSource` builders with their flattening), and its per-segment form
//! (`SegmentSource`): postings with positions for every term, the documents that may match
//! (each term's documents, intersected where every source is needed), and the intervals of one
//! document (`algebra.rs`).

use std::sync::Arc;

use tantivy::postings::{Postings, SegmentPostings};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, SegmentReader, Term, TERMINATED};
use tantivy_fst::Regex;

use super::algebra::{self, Iv};
use crate::query::intervals_ast::IntervalsRelation;
use crate::query::tantivy::fuzzy_expansion::{builder, Prefixed};

/// Lucene's cap on the terms a multi-term rule expands to in one segment.
pub const MAX_EXPANSIONS: usize = 128;

/// The terms a `prefix`, `wildcard` or `fuzzy` rule stands for.
#[derive(Debug, Clone)]
pub enum Expansion {
    Prefix(String),
    Regex(Arc<Regex>),
    Fuzzy { prefix: String, rest: String, max_edits: u8, transpositions: bool },
}

#[derive(Debug, Clone)]
pub enum IntervalsSource {
    Term(Term),
    /// `label` names the rule in errors and tells two expansions apart.
    Expanded {
        field: Field,
        expansion: Expansion,
        label: String,
    },
    /// Text that analyzes to nothing: no intervals anywhere.
    Nothing,
    Or(Vec<IntervalsSource>),
    Ordered(Vec<IntervalsSource>),
    Unordered(Vec<IntervalsSource>),
    Phrase(Vec<IntervalsSource>),
    /// The same source `n` times within an unordered combination.
    Repeat(Box<IntervalsSource>, usize),
    MaxGaps(Box<IntervalsSource>, u32),
    Filter {
        relation: IntervalsRelation,
        source: Box<IntervalsSource>,
        filter: Box<IntervalsSource>,
    },
}

impl PartialEq for IntervalsSource {
    fn eq(&self, other: &Self) -> bool {
        use IntervalsSource as S;
        match (self, other) {
            (S::Term(a), S::Term(b)) => a == b,
            (S::Expanded { field: f, label: a, .. }, S::Expanded { field: g, label: b, .. }) => f == g && a == b,
            (S::Nothing, S::Nothing) => true,
            (S::Or(a), S::Or(b)) | (S::Ordered(a), S::Ordered(b)) => a == b,
            (S::Unordered(a), S::Unordered(b)) | (S::Phrase(a), S::Phrase(b)) => a == b,
            (S::Repeat(a, n), S::Repeat(b, m)) => a == b && n == m,
            (S::MaxGaps(a, n), S::MaxGaps(b, m)) => a == b && n == m,
            (S::Filter { relation: r, source: s, filter: f }, S::Filter { relation: q, source: t, filter: g }) => {
                r == q && s == t && f == g
            }
            _ => false,
        }
    }
}

impl IntervalsSource {
    /// Lucene's `ordered`: one source stands alone, nested ordered sources flatten.
    pub fn ordered(sources: Vec<IntervalsSource>) -> IntervalsSource {
        let mut flat = Vec::with_capacity(sources.len());
        for s in sources {
            match s {
                IntervalsSource::Ordered(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        if flat.len() == 1 {
            return flat.pop().expect("one source");
        }
        IntervalsSource::Ordered(flat)
    }

    /// Lucene's `unordered`: flattened, and a source given twice must match twice.
    pub fn unordered(sources: Vec<IntervalsSource>) -> IntervalsSource {
        let mut flat = Vec::with_capacity(sources.len());
        for s in sources {
            match s {
                IntervalsSource::Unordered(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        let mut counted: Vec<(IntervalsSource, usize)> = Vec::new();
        for s in flat {
            match counted.iter_mut().find(|(seen, _)| *seen == s) {
                Some((_, n)) => *n += 1,
                None => counted.push((s, 1)),
            }
        }
        let mut sources: Vec<IntervalsSource> = counted
            .into_iter()
            .map(|(s, n)| if n == 1 { s } else { IntervalsSource::Repeat(Box::new(s), n) })
            .collect();
        if sources.len() == 1 {
            return sources.pop().expect("one source");
        }
        IntervalsSource::Unordered(sources)
    }

    pub fn or(mut sources: Vec<IntervalsSource>) -> IntervalsSource {
        if sources.len() == 1 {
            return sources.pop().expect("one source");
        }
        IntervalsSource::Or(sources)
    }

    /// The fewest positions one interval can span (Lucene's `minExtent`), which scoring
    /// subtracts from an interval's length.
    pub fn min_extent(&self) -> i32 {
        use IntervalsSource as S;
        match self {
            S::Term(_) | S::Expanded { .. } | S::Nothing => 1,
            S::Or(list) => list.iter().map(S::min_extent).min().unwrap_or(1),
            S::Ordered(list) | S::Unordered(list) | S::Phrase(list) => list.iter().map(S::min_extent).sum(),
            S::Repeat(s, n) => s.min_extent() * *n as i32,
            S::MaxGaps(s, _) | S::Filter { source: s, .. } => s.min_extent(),
        }
    }

    /// This source in one segment: its postings opened, its terms expanded.
    pub fn open(&self, reader: &SegmentReader) -> tantivy::Result<SegmentSource> {
        use IntervalsSource as S;
        let all = |list: &[IntervalsSource]| list.iter().map(|s| s.open(reader)).collect::<tantivy::Result<Vec<_>>>();
        Ok(match self {
            S::Term(term) => SegmentSource::terms(reader, std::slice::from_ref(term))?,
            S::Expanded { field, expansion, label } => {
                let terms = expand(reader, *field, expansion, label)?;
                SegmentSource::terms(reader, &terms)?
            }
            S::Nothing => SegmentSource::Terms { postings: Vec::new(), docs: Vec::new() },
            S::Or(list) => SegmentSource::Or(all(list)?),
            S::Ordered(list) => SegmentSource::Ordered(all(list)?),
            S::Unordered(list) => SegmentSource::Unordered(all(list)?),
            S::Phrase(list) => SegmentSource::Phrase(all(list)?),
            S::Repeat(s, n) => SegmentSource::Repeat(Box::new(s.open(reader)?), *n),
            S::MaxGaps(s, n) => SegmentSource::MaxGaps(Box::new(s.open(reader)?), *n),
            S::Filter { relation, source, filter } => SegmentSource::Filter {
                relation: *relation,
                source: Box::new(source.open(reader)?),
                filter: Box::new(filter.open(reader)?),
            },
        })
    }
}

/// The segment's terms a multi-term rule stands for, at most `MAX_EXPANSIONS` of them.
fn expand(reader: &SegmentReader, field: Field, expansion: &Expansion, label: &str) -> tantivy::Result<Vec<Term>> {
    let index = reader.inverted_index(field)?;
    let mut terms = Vec::new();
    let mut keep = |key: &[u8]| -> tantivy::Result<()> {
        if terms.len() == MAX_EXPANSIONS {
            return Err(tantivy::TantivyError::InvalidArgument(format!(
                "Automaton [{label}] expanded to too many terms (limit {MAX_EXPANSIONS})"
            )));
        }
        terms.push(Term::from_field_bytes(field, key));
        Ok(())
    };
    match expansion {
        Expansion::Prefix(prefix) => {
            let mut stream = index.terms().range().ge(prefix.as_bytes()).into_stream()?;
            while stream.advance() && stream.key().starts_with(prefix.as_bytes()) {
                keep(stream.key())?;
            }
        }
        Expansion::Regex(regex) => {
            let mut stream = index.terms().search(regex.as_ref()).into_stream()?;
            while stream.advance() {
                keep(stream.key())?;
            }
        }
        Expansion::Fuzzy { prefix, rest, max_edits, transpositions } => {
            let dfa = builder(*max_edits, *transpositions).build_dfa(rest);
            let automaton = Prefixed { prefix: prefix.as_bytes(), dfa: &dfa };
            let mut stream = index.terms().search(&automaton).into_stream()?;
            while stream.advance() {
                keep(stream.key())?;
            }
        }
    }
    Ok(terms)
}

/// A source in one segment.
pub enum SegmentSource {
    /// One term, or the terms of an expansion: their positions, and the documents holding any.
    Terms {
        postings: Vec<SegmentPostings>,
        docs: Vec<DocId>,
    },
    Or(Vec<SegmentSource>),
    Ordered(Vec<SegmentSource>),
    Unordered(Vec<SegmentSource>),
    Phrase(Vec<SegmentSource>),
    Repeat(Box<SegmentSource>, usize),
    MaxGaps(Box<SegmentSource>, u32),
    Filter {
        relation: IntervalsRelation,
        source: Box<SegmentSource>,
        filter: Box<SegmentSource>,
    },
}

impl SegmentSource {
    fn terms(reader: &SegmentReader, terms: &[Term]) -> tantivy::Result<SegmentSource> {
        let mut postings = Vec::with_capacity(terms.len());
        let mut docs = Vec::new();
        for term in terms {
            let index = reader.inverted_index(term.field())?;
            let Some(mut listed) = index.read_postings(term, IndexRecordOption::Basic)? else { continue };
            while listed.doc() != TERMINATED {
                docs.push(listed.doc());
                listed.advance();
            }
            if let Some(p) = index.read_postings(term, IndexRecordOption::WithFreqsAndPositions)? {
                postings.push(p);
            }
        }
        if terms.len() > 1 {
            docs.sort_unstable();
            docs.dedup();
        }
        Ok(SegmentSource::Terms { postings, docs })
    }

    /// The documents that may match, ascending: every document a needed source may match in.
    pub fn candidates(&self) -> Vec<DocId> {
        use IntervalsRelation as R;
        match self {
            SegmentSource::Terms { docs, .. } => docs.clone(),
            SegmentSource::Or(list) => {
                let mut all: Vec<DocId> = list.iter().flat_map(SegmentSource::candidates).collect();
                all.sort_unstable();
                all.dedup();
                all
            }
            SegmentSource::Ordered(list) | SegmentSource::Unordered(list) | SegmentSource::Phrase(list) => {
                list.iter().map(SegmentSource::candidates).reduce(|a, b| intersect(&a, &b)).unwrap_or_default()
            }
            SegmentSource::Repeat(s, _) | SegmentSource::MaxGaps(s, _) => s.candidates(),
            SegmentSource::Filter { relation, source, filter } => match relation {
                R::NotContaining | R::NotContainedBy | R::NotOverlapping => source.candidates(),
                _ => intersect(&source.candidates(), &filter.candidates()),
            },
        }
    }

    /// The source's intervals in `doc`; documents are asked in ascending order.
    pub fn intervals(&mut self, doc: DocId) -> Vec<Iv> {
        match self {
            SegmentSource::Terms { postings, .. } => {
                let mut out = Vec::new();
                let mut positions = Vec::new();
                for p in postings.iter_mut() {
                    if p.doc() < doc {
                        p.seek(doc);
                    }
                    if p.doc() == doc {
                        p.positions(&mut positions);
                        out.extend(positions.iter().map(|&pos| Iv::at(pos as i32)));
                    }
                }
                if postings.len() > 1 {
                    out.sort_by_key(|iv| iv.start);
                }
                out
            }
            SegmentSource::Or(list) => algebra::or(&each(list, doc)),
            SegmentSource::Ordered(list) => algebra::ordered(&each(list, doc)),
            SegmentSource::Unordered(list) => algebra::unordered(&each(list, doc)),
            SegmentSource::Phrase(list) => algebra::phrase(&each(list, doc)),
            SegmentSource::Repeat(s, n) => algebra::repeat(&s.intervals(doc), *n),
            SegmentSource::MaxGaps(s, n) => algebra::max_gaps(s.intervals(doc), *n),
            SegmentSource::Filter { relation, source, filter } => {
                let found = source.intervals(doc);
                if found.is_empty() {
                    return found;
                }
                algebra::filter(found, *relation, &filter.intervals(doc))
            }
        }
    }
}

fn each(list: &mut [SegmentSource], doc: DocId) -> Vec<Vec<Iv>> {
    list.iter_mut().map(|s| s.intervals(doc)).collect()
}

fn intersect(a: &[DocId], b: &[DocId]) -> Vec<DocId> {
    let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(a.len().min(b.len())));
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}
