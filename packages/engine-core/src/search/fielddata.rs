//! Field data a search loads: a `text` field mapped with `fielddata: true` is sorted and
//! aggregated from a column of its analyzed terms (ES uninverts the postings into memory for
//! the same purpose). When a search sorts or aggregates on such a field, the bytes of that
//! column in the segments the search read are recorded on the index's counters as the field's
//! field data; `_stats` reports them and `_cache/clear?fielddata` drops them, as ES does.
//! Keyword, numeric and date columns are ES's doc values, not field data: they are not counted.

use tantivy::Searcher;

use crate::aggs::request::AggRequest;
use crate::store::index::IndexHandle;
use crate::store::mapping::{FieldType, Mapping};

use crate::hits::sort::{SortSpec, SortTarget};

/// Records the field data `sort` and `aggs` loaded from `searcher`'s segments.
pub fn record_loaded(handle: &IndexHandle, searcher: &Searcher, sort: Option<&[SortSpec]>, aggs: &[AggRequest]) {
    if sort.is_none() && aggs.is_empty() {
        return;
    }
    let mut fields: Vec<&str> = Vec::new();
    for spec in sort.unwrap_or_default() {
        if let SortTarget::Field { name, .. } = &spec.target {
            fields.push(name);
        }
    }
    agg_fields(aggs, &mut fields);
    for name in fields {
        if let Some(column) = fielddata_column(&handle.mapping, name) {
            handle.counters.set_fielddata(name, column_bytes(searcher, &column));
        }
    }
}

fn agg_fields<'a>(aggs: &'a [AggRequest], out: &mut Vec<&'a str>) {
    for agg in aggs {
        // Read from the column (a text field's `significant_text` reads the source instead).
        if matches!(agg.field.resolved, Some((_, FieldType::Keyword))) {
            out.push(&agg.field.name);
        }
        agg_fields(&agg.subs, out);
    }
}

/// The column of `name` when it is a text field read through field data.
fn fielddata_column(mapping: &Mapping, name: &str) -> Option<String> {
    let fm = mapping.get(name)?;
    (fm.field_type == FieldType::Text && fm.params.fielddata)
        .then(|| mapping.schema.get_field_name(fm.field).to_string())
}

/// The bytes of column `column` over the searcher's segments.
pub fn column_bytes(searcher: &Searcher, column: &str) -> u64 {
    searcher
        .segment_readers()
        .iter()
        .filter_map(|reader| reader.fast_fields().column_num_bytes(column).ok())
        .map(|bytes| bytes.get_bytes())
        .sum()
}
