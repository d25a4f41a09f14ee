//! BM25 over the documents that have the field, as Lucene counts them.
//!
//! Lucene's BM25 takes a field's own document count (`CollectionStatistics.docCount`: the
//! documents with at least one term in the field) for the idf and for the average field length.
//! tantivy takes every document of the index. The two differ as soon as some documents lack the
//! field or hold an empty string (17 of the 6,046 mails have an empty body): scores a few 0.01%
//! apart, and so close hits in another order than Elasticsearch's. `FieldStatistics` wraps the
//! scored query of one field and answers that count instead: for text, the documents whose field
//! length is not zero (its norms); for a keyword, which keeps no norms, the documents with a value
//! in its column. Deleted documents count until a merge drops them, as in Lucene.
//!
//! A segment never changes once written, so its count is computed once and cached; a query then
//! pays one cache lookup per segment when its weight is built, nothing per document.

use std::cell::OnceCell;
use std::sync::Arc;

use tantivy::columnar::ColumnIndex;
use tantivy::query::{Bm25StatisticsProvider, EnableScoring, Query, Weight};
use tantivy::schema::Field;
use tantivy::{Searcher, SegmentReader, Term};

use crate::columns::segment_cache::SegmentCache;

/// Counts held before the cache starts over (one per segment and scored field).
const CACHE_ENTRIES: usize = 100_000;

/// `inner` (a term, phrase, fuzzy or prefix query on `field`) scored with `field`'s own
/// document count.
#[derive(Debug)]
pub struct FieldStatistics {
    field: Field,
    inner: Box<dyn Query>,
}

impl Clone for FieldStatistics {
    fn clone(&self) -> FieldStatistics {
        FieldStatistics { field: self.field, inner: self.inner.box_clone() }
    }
}

impl FieldStatistics {
    pub fn wrap(field: Field, inner: Box<dyn Query>) -> Box<dyn Query> {
        Box::new(FieldStatistics { field, inner })
    }
}

impl Query for FieldStatistics {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        match scoring {
            EnableScoring::Enabled { searcher, statistics_provider } => {
                let scoped =
                    FieldScoped { base: statistics_provider, searcher, field: self.field, docs: OnceCell::new() };
                self.inner.weight(EnableScoring::enabled_from_statistics_provider(&scoped, searcher))
            }
            EnableScoring::Disabled { .. } => self.inner.weight(scoring),
        }
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

/// The statistics of the search, with the document count of one field.
struct FieldScoped<'a> {
    base: &'a dyn Bm25StatisticsProvider,
    searcher: &'a Searcher,
    field: Field,
    /// The field's document count, once asked.
    docs: OnceCell<u64>,
}

impl FieldScoped<'_> {
    fn count(&self) -> tantivy::Result<u64> {
        if let Some(n) = self.docs.get() {
            return Ok(*n);
        }
        let mut total = 0u64;
        for reader in self.searcher.segment_readers() {
            match docs_with_field(reader, self.field)? {
                Some(n) => total += n,
                // A field with neither norms nor a column: the whole index, as before.
                None => {
                    total = self.base.total_num_docs()?;
                    break;
                }
            }
        }
        // An empty field matches nothing; one keeps the average length finite.
        Ok(*self.docs.get_or_init(|| total.max(1)))
    }
}

impl Bm25StatisticsProvider for FieldScoped<'_> {
    fn total_num_tokens(&self, field: Field) -> tantivy::Result<u64> {
        self.base.total_num_tokens(field)
    }

    fn total_num_docs(&self) -> tantivy::Result<u64> {
        self.count()
    }

    fn doc_freq(&self, term: &Term) -> tantivy::Result<u64> {
        // Never above the count (tantivy asserts it): a term's documents all have the field.
        Ok(self.base.doc_freq(term)?.min(self.count()?))
    }
}

/// The documents of a segment with at least one term in `field` (deleted ones included).
pub(crate) fn docs_with_field(reader: &SegmentReader, field: Field) -> tantivy::Result<Option<u64>> {
    static CACHE: SegmentCache<Option<u64>> = SegmentCache::new(CACHE_ENTRIES, |_| 1);
    let key = format!("#docs-with-field:{}", field.field_id());
    if let Some(found) = CACHE.get(reader.segment_id(), &key) {
        return Ok(*found);
    }
    let counted = count_docs_with_field(reader, field)?;
    Ok(CACHE.get_or_build(reader.segment_id(), &key, || counted).map_or(counted, |c| *Arc::as_ref(&c)))
}

fn count_docs_with_field(reader: &SegmentReader, field: Field) -> tantivy::Result<Option<u64>> {
    let max_doc = reader.max_doc();
    if let Some(norms) = reader.fieldnorms_readers().get_field(field)? {
        return Ok(Some((0..max_doc).filter(|&doc| norms.fieldnorm_id(doc) != 0).count() as u64));
    }
    let name = reader.schema().get_field_name(field);
    let Some(column) = reader.fast_fields().str(name)? else { return Ok(None) };
    let index = &column.ords().index;
    Ok(Some(match index {
        ColumnIndex::Empty { .. } => 0,
        ColumnIndex::Full => u64::from(max_doc),
        ColumnIndex::Optional(optional) => u64::from(optional.num_non_nulls()),
        ColumnIndex::Multivalued(_) => (0..max_doc).filter(|&doc| index.has_value(doc)).count() as u64,
    }))
}

#[cfg(test)]
mod tests {
    use tantivy::collector::TopDocs;
    use tantivy::query::TermQuery;
    use tantivy::schema::{IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, STRING, TEXT};
    use tantivy::{doc, Index, TantivyDocument};

    use super::*;

    /// `(k1 + 1) * idf * tf / (tf + k1 * (1 - b + b * dl / avgdl))`: Lucene's BM25 on tantivy's
    /// scale, with Lucene's statistics.
    fn lucene(doc_count: f32, doc_freq: f32, tf: f32, dl: f32, avgdl: f32) -> f32 {
        let idf = (1.0 + (doc_count - doc_freq + 0.5) / (doc_freq + 0.5)).ln();
        2.2 * idf * tf / (tf + 1.2 * (1.0 - 0.75 + 0.75 * dl / avgdl))
    }

    fn top_score(index: &Index, query: &dyn Query) -> f32 {
        let searcher = index.reader().unwrap().searcher();
        searcher.search(query, &TopDocs::with_limit(1).order_by_score()).unwrap()[0].0
    }

    #[test]
    fn text_scores_count_only_documents_with_a_term_in_the_field() {
        let mut schema = Schema::builder();
        let body = schema.add_text_field("body", TEXT);
        let other = schema.add_text_field("other", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer: tantivy::IndexWriter = index.writer_with_num_threads(1, 15_000_000).unwrap();
        writer.add_document(doc!(body => "apple pie", other => "x")).unwrap();
        writer.add_document(doc!(body => "apple")).unwrap();
        writer.add_document(doc!(body => "", other => "y")).unwrap(); // an empty string: no term
        writer.add_document(doc!(other => "z")).unwrap(); // no body at all
        writer.commit().unwrap();
        // Two segments: counts add up across them.
        writer.add_document(doc!(body => "pear")).unwrap();
        writer.commit().unwrap();

        let term = Term::from_field_text(body, "apple");
        let plain: Box<dyn Query> = Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
        let scoped = FieldStatistics::wrap(body, plain.box_clone());
        // Lucene: 3 documents have a body term, 4 body tokens; "apple" is in 2 of them.
        let want = lucene(3.0, 2.0, 1.0, 1.0, 4.0 / 3.0);
        assert!(
            (top_score(&index, scoped.as_ref()) - want).abs() < 1e-5,
            "{} vs {want}",
            top_score(&index, scoped.as_ref())
        );
        // tantivy alone counts all 5 documents: a different score, so the test sees the wrapper.
        let tantivy_alone = lucene(5.0, 2.0, 1.0, 1.0, 4.0 / 5.0);
        assert!((top_score(&index, plain.as_ref()) - tantivy_alone).abs() < 1e-5);
        assert!((want - tantivy_alone).abs() > 1e-3);
    }

    #[test]
    fn keyword_scores_count_the_documents_with_a_value_in_its_column() {
        let mut schema = Schema::builder();
        let raw = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("raw")
                .set_fieldnorms(false)
                .set_index_option(IndexRecordOption::Basic),
        );
        let tag = schema.add_text_field("tag", raw | FAST);
        let id = schema.add_text_field("id", STRING);
        let index = Index::create_in_ram(schema.build());
        let mut writer: tantivy::IndexWriter = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for (i, value) in [Some("red"), Some("blue"), None, None, Some("red")].into_iter().enumerate() {
            let mut d = TantivyDocument::default();
            d.add_text(id, i.to_string());
            if let Some(v) = value {
                d.add_text(tag, v);
            }
            writer.add_document(d).unwrap();
        }
        writer.commit().unwrap();
        let scoped = FieldStatistics::wrap(
            tag,
            Box::new(TermQuery::new(Term::from_field_text(tag, "blue"), IndexRecordOption::WithFreqs)),
        );
        // No norms: every value has length 1, the average is 3 values over 3 documents.
        let want = lucene(3.0, 1.0, 1.0, 1.0, 1.0);
        assert!(
            (top_score(&index, scoped.as_ref()) - want).abs() < 1e-5,
            "{} vs {want}",
            top_score(&index, scoped.as_ref())
        );
    }
}
