//! Lowering of `pinned`, `match_bool_prefix` and `combined_fields`.

use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, EmptyQuery, Occur, Query, TermQuery,
};
use tantivy::schema::IndexRecordOption;
use tantivy::Term;

use super::context::LowerContext;
use super::exact::exact_query;
use super::multi_term::lower_prefix;
use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::{CrossFieldsAst, FuzzyExpansion, MinimumShouldMatch, Operator, QueryAst};
use crate::query::tantivy::fuzzy_expansion::FuzzyExpansionQuery;
use crate::store::mapping::FieldType;

/// Pinned ids score the largest floats, each one step below the previous (ES does the same),
/// so they lead in the given order whatever the organic scores are. `_score` of a pinned hit
/// is therefore huge but not ES's exact number (ours is divided by the BM25 scale on output).
pub fn lower_pinned(ids: &[String], organic: &QueryAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let mut clauses: Vec<Box<dyn Query>> = Vec::with_capacity(ids.len() + 1);
    let mut score = f32::MAX;
    for id in ids {
        let term = Term::from_field_text(ctx.mapping.id_field, id);
        clauses.push(Box::new(ConstScoreQuery::new(Box::new(TermQuery::new(term, IndexRecordOption::Basic)), score)));
        score = f32::from_bits(score.to_bits() - 1);
    }
    clauses.push(ctx.lower(organic)?);
    Ok(Box::new(DisjunctionMaxQuery::new(clauses)))
}

pub(crate) fn analyzed_terms(field: tantivy::schema::Field, text: &str, ctx: &mut LowerContext) -> Vec<Term> {
    let mut terms = Vec::new();
    ctx.analyze(field, text, |token| terms.push(Term::from_field_text(field, &token.text)));
    terms
}

/// Term clauses combined by `operator` / `minimum_should_match` as `match` does.
pub(crate) fn combine(
    clauses: Vec<Box<dyn Query>>,
    operator: Operator,
    msm: Option<&MinimumShouldMatch>,
) -> Result<Box<dyn Query>> {
    let n = clauses.len();
    let occur = if operator == Operator::And { Occur::Must } else { Occur::Should };
    let clauses: Vec<(Occur, Box<dyn Query>)> = clauses.into_iter().map(|q| (occur, q)).collect();
    Ok(match (operator, msm) {
        (Operator::Or, Some(m)) => Box::new(BooleanQuery::with_minimum_required_clauses(clauses, m.resolve(n)?.max(1))),
        _ => Box::new(BooleanQuery::new(clauses)),
    })
}

/// The text of a `match_bool_prefix` and the built-in analyzer that replaces the field's, if any.
pub struct BoolPrefixText<'a> {
    pub text: &'a str,
    pub analyzer: Option<&'a str>,
}

pub fn lower_match_bool_prefix(
    field: &str,
    how: BoolPrefixText<'_>,
    operator: Operator,
    msm: Option<&MinimumShouldMatch>,
    fuzzy: Option<(&FuzzyExpansion, bool)>,
    ctx: &mut LowerContext,
) -> Result<Box<dyn Query>> {
    let text = how.text;
    let Some(fm) = ctx.mapping.get(field) else { return Ok(Box::new(EmptyQuery)) };
    match fm.field_type {
        FieldType::Text => {}
        // The keyword analyzer keeps the whole text as the one (prefix) term.
        FieldType::Keyword => return lower_prefix(field, text, ctx),
        _ => {
            return exact_query(fm, &serde_json::Value::String(text.to_string()), ctx);
        }
    }
    let mut terms = match how.analyzer.and_then(crate::analyzers::builtin) {
        Some(mut analyzer) => {
            let mut terms = Vec::new();
            let mut stream = analyzer.token_stream(text);
            while let Some(token) = stream.next() {
                terms.push(Term::from_field_text(fm.field, &token.text));
            }
            terms
        }
        None => analyzed_terms(fm.field, text, ctx),
    };
    let Some(last) = terms.pop() else { return Ok(Box::new(EmptyQuery)) };
    // Fuzziness applies to every term but the last, which stays a prefix (ES's rule).
    let mut clauses: Vec<Box<dyn Query>> = match fuzzy {
        None => terms.into_iter().map(|t| ctx.scored_term(t)).collect(),
        Some((fuzzy, constant)) => terms
            .into_iter()
            .map(|t| {
                let q = term_query(t, Some(fuzzy), ctx)?;
                Ok(if constant { Box::new(ConstScoreQuery::new(q, ctx.scale)) as Box<dyn Query> } else { q })
            })
            .collect::<Result<_>>()?,
    };
    clauses.push(lower_prefix(field, last.value().as_str().unwrap_or_default(), ctx)?);
    if clauses.len() == 1 {
        return Ok(clauses.pop().unwrap());
    }
    combine(clauses, operator, msm)
}

/// Each analysed term must be found in one of the fields; per term the fields' scores add up
/// (boosted), which equals ES's BM25F for a single field and approximates it for several.
pub fn lower_combined_fields(
    fields: &[(String, f32)],
    text: &str,
    operator: Operator,
    msm: Option<&MinimumShouldMatch>,
    ctx: &mut LowerContext,
) -> Result<Box<dyn Query>> {
    let mut mapped = Vec::new();
    for (name, boost) in fields {
        let Some(fm) = ctx.mapping.get(name) else { continue };
        if fm.field_type != FieldType::Text {
            return Err(EngineError::shard(
                ShardCause::QueryShard,
                format!(
                    "failed to create query: Field [{name}] of type [{}] does not support [combined_fields] queries",
                    fm.field_type.name()
                ),
            ));
        }
        mapped.push((fm.field, *boost));
    }
    let Some((first, _)) = mapped.first().copied() else { return Ok(Box::new(EmptyQuery)) };
    // All fields share the standard analyzer, so the terms are the same for each field.
    let words: Vec<String> =
        analyzed_terms(first, text, ctx).iter().map(|t| t.value().as_str().unwrap_or_default().to_string()).collect();
    if words.is_empty() {
        return Ok(Box::new(EmptyQuery));
    }
    let per_term = words
        .iter()
        .map(|word| {
            let per_field: Vec<(Occur, Box<dyn Query>)> = mapped
                .iter()
                .map(|(field, boost)| {
                    let q: Box<dyn Query> = ctx.scored_term(Term::from_field_text(*field, word));
                    let q = if *boost != 1.0 { Box::new(BoostQuery::new(q, *boost)) } else { q };
                    (Occur::Should, q)
                })
                .collect();
            Box::new(BooleanQuery::new(per_field)) as Box<dyn Query>
        })
        .collect::<Vec<_>>();
    combine(per_term, operator, msm)
}

/// `multi_match` `cross_fields`, as ES groups it: the text fields (one analyzer here) are
/// searched as one field, each analyzed term in any of them (the best field's score, plus
/// `tie_breaker` times the others'), terms combined by `operator`/`minimum_should_match`;
/// every other field is a group of its own matching the whole text as one value (its
/// analyzer keeps it whole); the groups then compete as `dis_max`. ES also blends each term's
/// document frequency across the fields; scores here use each field's own.
pub fn lower_cross_fields(cf: &CrossFieldsAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let boosted = |q: Box<dyn Query>, boost: f32| -> Box<dyn Query> {
        if boost == 1.0 {
            q
        } else {
            Box::new(BoostQuery::new(q, boost))
        }
    };
    let mut text_fields = Vec::new();
    let mut groups: Vec<Box<dyn Query>> = Vec::new();
    for (name, boost) in &cf.fields {
        let Some(fm) = ctx.mapping.get(name) else { continue };
        if fm.field_type == FieldType::Text {
            text_fields.push((fm.field, *boost));
            continue;
        }
        let whole = exact_query(fm, &serde_json::Value::String(cf.text.clone()), ctx);
        // A value the field cannot hold (text into a number) is a group that matches nothing,
        // as ES's lenient cross-field grouping treats it.
        if let Ok(q) = whole {
            groups.push(boosted(q, *boost));
        }
    }
    if let Some((first, _)) = text_fields.first().copied() {
        let terms = analyzed_terms(first, &cf.text, ctx);
        if !terms.is_empty() {
            crate::query::limits::check_expansion(terms.len())?;
            let per_term = terms
                .iter()
                .map(|t| {
                    let word = t.value().as_str().unwrap_or_default().to_string();
                    let per_field = text_fields
                        .iter()
                        .map(|(field, boost)| boosted(ctx.scored_term(Term::from_field_text(*field, &word)), *boost))
                        .collect();
                    Box::new(DisjunctionMaxQuery::with_tie_breaker(per_field, cf.tie_breaker)) as Box<dyn Query>
                })
                .collect();
            groups.push(combine(per_term, cf.operator, cf.minimum_should_match.as_ref())?);
        }
    }
    Ok(match groups.len() {
        0 => Box::new(EmptyQuery),
        1 => groups.pop().unwrap(),
        _ => Box::new(DisjunctionMaxQuery::with_tie_breaker(groups, cf.tie_breaker)),
    })
}

/// One analyzed term: a BM25 term query, or with `fuzziness` its expansion. Zero edits (a
/// short term under `AUTO`), or a prefix covering the whole term, leave the term itself, as
/// Lucene's `FuzzyQuery` does.
pub(crate) fn term_query(term: Term, fuzzy: Option<&FuzzyExpansion>, ctx: &LowerContext) -> Result<Box<dyn Query>> {
    let text = term.value().as_str().unwrap_or_default().to_string();
    let chars = text.chars().count();
    match fuzzy {
        Some(f) if f.fuzziness.edits(chars) > 0 && f.prefix_length < chars => {
            let field = term.field();
            let expansion = Box::new(FuzzyExpansionQuery {
                field,
                max_edits: f.fuzziness.edits(chars),
                text,
                prefix_chars: f.prefix_length,
                transpositions: f.transpositions,
                max_expansions: f.max_expansions,
            });
            ctx.scored_by_tantivy(field, expansion, "fuzzy")
        }
        _ => Ok(ctx.scored_term(term)),
    }
}
