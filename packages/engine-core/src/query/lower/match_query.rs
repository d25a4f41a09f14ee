//! Lowering of `match`: the text analyzed by the field's analyzer, one clause per term
//! combined by `operator` / `minimum_should_match`; with `fuzziness` each term expands to the
//! index's terms within its edit distance (`query/tantivy/fuzzy_expansion.rs`).

use serde_json::Value;
use tantivy::query::{ConstScoreQuery, EmptyQuery, Query};
use tantivy::Term;

use super::context::LowerContext;
use super::exact::exact_query;
use super::multi_term::not_for_type;
use super::text::{analyzed_terms, combine, term_query};
use crate::error::Result;
use crate::query::ast::{FuzzyExpansion, MinimumShouldMatch, Operator};
use crate::store::mapping::FieldType;

/// How a `match`'s terms become a query (shared with `multi_match`'s per-field matches).
#[derive(Clone, Copy)]
pub struct MatchHow<'a> {
    pub operator: Operator,
    pub msm: Option<&'a MinimumShouldMatch>,
    pub fuzzy: Option<&'a FuzzyExpansion>,
}

pub fn lower_match(
    field: &str,
    text: &str,
    how: &MatchHow,
    zero_terms_all: bool,
    ctx: &mut LowerContext,
) -> Result<Box<dyn Query>> {
    let Some(fm) = ctx.mapping.get(field) else { return Ok(Box::new(EmptyQuery)) };
    match (fm.field_type, how.fuzzy) {
        (FieldType::Text, _) => {}
        // The keyword analyzer keeps the whole text as its one term.
        (FieldType::Keyword, Some(fuzzy)) => {
            return term_query(Term::from_field_text(fm.field, text), Some(fuzzy), ctx)
        }
        (_, Some(_)) => return Err(not_for_type("fuzzy", fm)),
        _ => return exact_query(fm, &Value::String(text.to_string()), ctx),
    }
    let mut terms = analyzed_terms(fm.field, text, ctx);
    if terms.is_empty() {
        // Text of stop characters only: no terms, so nothing matches unless asked otherwise.
        return Ok(if zero_terms_all {
            Box::new(ConstScoreQuery::new(ctx.all_docs(), ctx.scale))
        } else {
            Box::new(EmptyQuery)
        });
    }
    if terms.len() == 1 {
        return term_query(terms.pop().unwrap(), how.fuzzy, ctx);
    }
    crate::query::limits::check_expansion(terms.len())?;
    let clauses = terms.into_iter().map(|t| term_query(t, how.fuzzy, ctx)).collect::<Result<Vec<_>>>()?;
    combine(clauses, how.operator, how.msm)
}
