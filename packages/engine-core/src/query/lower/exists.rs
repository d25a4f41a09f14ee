//! `exists`: documents holding a value of the field. Columns answer it for most types; text and
//! binary fields record their presence in `_field_names` at index time; an object exists where
//! any field under it does; metadata fields answer as ES's do (`_id`, `_index`, `_seq_no`,
//! `_version` on every document, `_routing` and `_ignored` where written, `_source` refused).

use std::ops::Bound;

use tantivy::query::{BooleanQuery, ConstScoreQuery, EmptyQuery, ExistsQuery, Occur, Query, RangeQuery, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::Term;

use super::context::LowerContext;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldMapping, IGNORED_FIELD, ROUTING_FIELD};

pub fn lower_exists(field: &str, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let query: Box<dyn Query> = match field {
        "_id" | "_index" | "_seq_no" | "_version" | "_primary_term" => ctx.all_docs(),
        "_source" => {
            return Err(EngineError::shard(ShardCause::QueryShard, "The _source field is not searchable"));
        }
        ROUTING_FIELD => match ctx.mapping.routing_field {
            Some(f) => any_term(f),
            None => Box::new(EmptyQuery),
        },
        IGNORED_FIELD => match ctx.mapping.ignored_field {
            Some(f) => Box::new(ExistsQuery::new(ctx.mapping.schema.get_field_name(f).to_string(), false)),
            None => Box::new(EmptyQuery),
        },
        _ => match ctx.mapping.get(field) {
            Some(fm) => field_exists(fm, ctx),
            None => object_exists(field, ctx),
        },
    };
    Ok(Box::new(ConstScoreQuery::new(query, ctx.scale)))
}

fn field_exists(fm: &FieldMapping, ctx: &LowerContext) -> Box<dyn Query> {
    if fm.field_type.presence_in_field_names() {
        let term = Term::from_field_text(ctx.mapping.field_names_field, &fm.name);
        return Box::new(TermQuery::new(term, IndexRecordOption::Basic));
    }
    Box::new(ExistsQuery::new(ctx.mapping.schema.get_field_name(fm.field).to_string(), false))
}

/// An object path: any field under it, in the query's nested scope.
fn object_exists(path: &str, ctx: &LowerContext) -> Box<dyn Query> {
    let prefix = format!("{path}.");
    let under: Vec<(Occur, Box<dyn Query>)> = ctx
        .mapping
        .fields
        .values()
        .filter(|fm| fm.name.starts_with(&prefix) && fm.nested == ctx.nested_scope)
        .map(|fm| (Occur::Should, field_exists(fm, ctx)))
        .collect();
    if under.is_empty() {
        return Box::new(EmptyQuery);
    }
    Box::new(BooleanQuery::new(under))
}

/// Every document with at least one term in `field` (an indexed field without a column).
fn any_term(field: Field) -> Box<dyn Query> {
    Box::new(RangeQuery::new(Bound::Included(Term::from_field_text(field, "")), Bound::Unbounded))
}
