//! `intervals` rules -> an `IntervalsSource` over the field's terms, as ES's
//! `IntervalsSourceProvider`s build Lucene sources: `match` analyzes its text (one term, or
//! its terms combined as `all_of` combines: a phrase when ordered with no gaps), `any_of` is a
//! disjunction, `prefix`/`wildcard`/`fuzzy` normalize their text and expand per segment, and a
//! filter relates the rule's intervals to another rule's.

use tantivy::query::{EmptyQuery, Query};
use tantivy::schema::Field;
use tantivy::Term;

use super::context::LowerContext;
use super::text::analyzed_terms;
use crate::error::{EngineError, Result, ShardCause};
use crate::query::intervals_ast::{IntervalsExpansion, IntervalsFilter, IntervalsRule};
use crate::query::tantivy::intervals::{Expansion, IntervalsQuery, IntervalsSource};
use crate::query::tantivy::regex_cache;
use crate::store::mapping::FieldType;

pub fn lower_intervals(field: &str, rule: &IntervalsRule, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    // ES matches nothing on an unmapped field.
    let Some(text) = text_field(field, ctx)? else { return Ok(Box::new(EmptyQuery)) };
    let source = source(text, rule, ctx)?;
    Ok(Box::new(IntervalsQuery::new(source, ctx.scale)))
}

/// The field's tantivy field, if mapped; positions exist on text fields only.
fn text_field(name: &str, ctx: &LowerContext) -> Result<Option<Field>> {
    match ctx.mapping.get(name) {
        None => Ok(None),
        Some(fm) if fm.field_type == FieldType::Text => Ok(Some(fm.field)),
        Some(fm) => Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!(
                "Can only use interval queries on text fields - not on [{}] which is of type [{}]",
                fm.name,
                fm.field_type.name()
            ),
        )),
    }
}

/// The field a rule reads: its `use_field`, else the query's.
fn rule_field(field: Field, use_field: Option<&str>, ctx: &LowerContext) -> Result<Option<Field>> {
    match use_field {
        None => Ok(Some(field)),
        Some(name) => text_field(name, ctx),
    }
}

fn source(field: Field, rule: &IntervalsRule, ctx: &mut LowerContext) -> Result<IntervalsSource> {
    let (built, filter) = match rule {
        IntervalsRule::Match { query, max_gaps, ordered, use_field, filter } => {
            let Some(field) = rule_field(field, use_field.as_deref(), ctx)? else {
                return Ok(IntervalsSource::Nothing);
            };
            let terms: Vec<IntervalsSource> =
                analyzed_terms(field, query, ctx).into_iter().map(IntervalsSource::Term).collect();
            let built = match terms.len() {
                0 => IntervalsSource::Nothing,
                _ => combine(terms, *max_gaps, *ordered),
            };
            (built, filter)
        }
        IntervalsRule::AllOf { rules, max_gaps, ordered, filter } => {
            let sources = rules.iter().map(|r| source(field, r, ctx)).collect::<Result<Vec<_>>>()?;
            (combine(sources, *max_gaps, *ordered), filter)
        }
        IntervalsRule::AnyOf { rules, filter } => {
            let sources = rules.iter().map(|r| source(field, r, ctx)).collect::<Result<Vec<_>>>()?;
            (IntervalsSource::or(sources), filter)
        }
        IntervalsRule::Expanded { expansion, use_field } => {
            let Some(field) = rule_field(field, use_field.as_deref(), ctx)? else {
                return Ok(IntervalsSource::Nothing);
            };
            return expanded(field, expansion);
        }
    };
    match filter.as_deref() {
        None => Ok(built),
        Some(IntervalsFilter { relation, rule }) => Ok(IntervalsSource::Filter {
            relation: *relation,
            source: Box::new(built),
            filter: Box::new(source(field, rule, ctx)?),
        }),
    }
}

/// ES's `IntervalBuilder.combineSources`: a phrase when ordered without gaps, else ordered or
/// unordered, limited to `max_gaps` when given.
fn combine(sources: Vec<IntervalsSource>, max_gaps: Option<u32>, ordered: bool) -> IntervalsSource {
    if sources.len() == 1 {
        return sources.into_iter().next().expect("one source");
    }
    if ordered && max_gaps == Some(0) {
        return IntervalsSource::Phrase(sources);
    }
    let inner = if ordered { IntervalsSource::ordered(sources) } else { IntervalsSource::unordered(sources) };
    match max_gaps {
        Some(gaps) => IntervalsSource::MaxGaps(Box::new(inner), gaps),
        None => inner,
    }
}

/// The standard analyzer's normalization of a multi-term rule's text: lower case.
fn expanded(field: Field, expansion: &IntervalsExpansion) -> Result<IntervalsSource> {
    let (expansion, label) = match expansion {
        IntervalsExpansion::Prefix(prefix) => {
            let prefix = prefix.to_lowercase();
            (Expansion::Prefix(prefix.clone()), format!("{prefix}*"))
        }
        IntervalsExpansion::Wildcard(pattern) => {
            let pattern = pattern.to_lowercase();
            let regex = regex_cache::compile("wildcard", &crate::query::dsl::wildcard::to_regex(&pattern))?;
            (Expansion::Regex(regex), pattern)
        }
        IntervalsExpansion::Fuzzy { term, fuzziness, prefix_length, transpositions } => {
            let term = term.to_lowercase();
            let max_edits = fuzziness.edits(term.chars().count());
            if max_edits == 0 {
                return Ok(IntervalsSource::Term(Term::from_field_text(field, &term)));
            }
            let at = term.char_indices().nth(*prefix_length).map_or(term.len(), |(i, _)| i);
            let (prefix, rest) = term.split_at(at);
            let expansion = Expansion::Fuzzy {
                prefix: prefix.to_string(),
                rest: rest.to_string(),
                max_edits,
                transpositions: *transpositions,
            };
            (expansion, format!("{term}~{max_edits}"))
        }
    };
    Ok(IntervalsSource::Expanded { field, expansion, label })
}
