//! Lowering of `terms_set`: one exact-value clause per term, counted per document
//! (`query/tantivy/counting_disjunction.rs`) against the required number, which is fixed, a
//! script of `params.num_terms`, or a numeric field of the document (Lucene's `CoveringQuery`).
//! A document scores the sum of its matching clauses, as there.

use tantivy::query::{EmptyQuery, Query};

use super::context::LowerContext;
use super::exact::exact_query;
use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::{TermsSetAst, TermsSetRequired};
use crate::query::tantivy::counting_disjunction::CountingDisjunction;

pub fn lower_terms_set(ts: &TermsSetAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    crate::query::limits::check_terms_count(ts.values.len(), ctx.max_terms_count)?;
    let Some(fm) = ctx.mapping.get(&ts.field) else { return Ok(Box::new(EmptyQuery)) };
    let clauses = ts.values.iter().map(|v| exact_query(fm, v, ctx)).collect::<Result<Vec<_>>>()?;
    let n = clauses.len();
    let required = match &ts.required {
        TermsSetRequired::Count(required) => *required,
        TermsSetRequired::Script(script) => {
            let value = script.run(&[("num_terms".to_string(), n as f64)], None)?;
            let required = value.as_f64().filter(|v| v.is_finite()).ok_or_else(|| {
                EngineError::shard(ShardCause::Script, format!("[terms_set] script returned [{value:?}], not a number"))
            })?;
            required.max(0.0) as usize
        }
        TermsSetRequired::Field(name) => {
            let column = match ctx.mapping.get(name) {
                Some(m) if matches!(m.field_type, crate::store::mapping::FieldType::Long | crate::store::mapping::FieldType::Integer | crate::store::mapping::FieldType::Short | crate::store::mapping::FieldType::Byte) => {
                    ctx.mapping.schema.get_field_name(m.field).to_string()
                }
                Some(m) => {
                    return Err(EngineError::shard(
                        ShardCause::QueryShard,
                        format!(
                            "failed to create query: [terms_set] minimum_should_match_field [{name}] must be a numeric field, not [{}]",
                            m.field_type.name()
                        ),
                    ))
                }
                // No field, no values: no document has its minimum.
                None => return Ok(Box::new(EmptyQuery)),
            };
            if n == 0 {
                return Ok(Box::new(EmptyQuery));
            }
            return Ok(Box::new(CountingDisjunction::per_document(clauses, column)));
        }
    };
    if n == 0 || required > n {
        return Ok(Box::new(EmptyQuery));
    }
    Ok(Box::new(CountingDisjunction::new(clauses, required)))
}
