//! Lowering of the phrase and multi-term queries: match_phrase(_prefix), prefix, wildcard,
//! regexp, fuzzy, exists, ids. Multi-term queries score a constant 1.0, like ES's default
//! `constant_score` rewrite, except fuzzy: ES's rewrite for it blends the expanded terms' BM25
//! scores, and so does ours (`query/tantivy/fuzzy_expansion.rs`).

use tantivy::query::{ConstScoreQuery, EmptyQuery, PhrasePrefixQuery, PhraseQuery, Query, RegexQuery, TermSetQuery};
use tantivy::Term;

use super::context::LowerContext;
use super::exact::exact_query;
use crate::error::{EngineError, Result, ShardCause};
use crate::query::dsl::wildcard::to_regex;
use crate::query::tantivy::fuzzy_expansion::FuzzyExpansionQuery;
use crate::query::tantivy::phrase_prefix::ScoredPhrasePrefixQuery;
use crate::store::mapping::{FieldMapping, FieldType};

fn constant(query: Box<dyn Query>, ctx: &LowerContext) -> Box<dyn Query> {
    Box::new(ConstScoreQuery::new(query, ctx.scale))
}

/// Analyzed tokens with their positions (a phrase keeps gaps where tokens were dropped).
fn tokens(fm: &FieldMapping, text: &str, ctx: &mut LowerContext) -> Vec<(usize, Term)> {
    let mut out = Vec::new();
    ctx.analyze(fm.field, text, |token| out.push((token.position, Term::from_field_text(fm.field, &token.text))));
    out
}

pub fn lower_phrase(field: &str, text: &str, slop: u32, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let Some(fm) = ctx.mapping.get(field) else { return Ok(Box::new(EmptyQuery)) };
    if fm.field_type != FieldType::Text {
        return exact_query(fm, &serde_json::Value::String(text.to_string()), ctx);
    }
    let mut terms = tokens(fm, text, ctx);
    match terms.len() {
        0 => Ok(Box::new(EmptyQuery)),
        1 => Ok(ctx.scored_term(terms.pop().unwrap().1)),
        _ => ctx.scored_by_tantivy(fm.field, Box::new(PhraseQuery::new_with_offset_and_slop(terms, slop)), "phrase"),
    }
}

pub fn lower_phrase_prefix(
    field: &str,
    text: &str,
    max_expansions: u32,
    ctx: &mut LowerContext,
) -> Result<Box<dyn Query>> {
    let Some(fm) = ctx.mapping.get(field) else { return Ok(Box::new(EmptyQuery)) };
    if fm.field_type == FieldType::Keyword {
        return lower_prefix(field, text, ctx);
    }
    if fm.field_type != FieldType::Text {
        return Err(not_for_type("match_phrase_prefix", fm));
    }
    let terms = tokens(fm, text, ctx);
    if terms.is_empty() {
        return Ok(Box::new(EmptyQuery));
    }
    let query = ScoredPhrasePrefixQuery { field: fm.field, terms, max_expansions };
    ctx.scored_by_tantivy(fm.field, Box::new(query), "match_phrase_prefix")
}

fn string_field<'a>(kind: &str, field: &str, ctx: &'a LowerContext) -> Result<Option<&'a FieldMapping>> {
    match ctx.mapping.get(field) {
        None => Ok(None),
        Some(fm) if matches!(fm.field_type, FieldType::Keyword | FieldType::Text) => Ok(Some(fm)),
        Some(fm) => Err(not_for_type(kind, fm)),
    }
}

pub(crate) fn not_for_type(kind: &str, fm: &FieldMapping) -> crate::error::EngineError {
    EngineError::shard(
        ShardCause::QueryShard,
        format!(
            "Can only use {kind} queries on keyword and text fields - not on [{}] which is of type [{}]",
            fm.name,
            fm.field_type.name()
        ),
    )
}

pub fn lower_prefix(field: &str, value: &str, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let Some(fm) = string_field("prefix", field, ctx)? else { return Ok(Box::new(EmptyQuery)) };
    let mut query = PhrasePrefixQuery::new(vec![Term::from_field_text(fm.field, value)]);
    // A lone prefix term becomes a term-range scan; ES's prefix query expands without a cap.
    query.set_max_expansions(u32::MAX);
    Ok(constant(Box::new(query), ctx))
}

pub fn lower_regex(kind: &str, field: &str, regex: &str, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    if kind == "regexp" {
        crate::query::limits::check_regex_length(regex, ctx.max_regex_length)?;
    }
    let Some(fm) = string_field(kind, field, ctx)? else { return Ok(Box::new(EmptyQuery)) };
    let query =
        crate::query::tantivy::regex_cache::compile(kind, regex).map(|re| RegexQuery::from_regex(re, fm.field))?;
    Ok(constant(Box::new(query), ctx))
}

pub fn lower_wildcard(field: &str, pattern: &str, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    lower_regex("wildcard", field, &to_regex(pattern), ctx)
}

pub fn lower_fuzzy(
    field: &str,
    value: &str,
    max_edits: u8,
    prefix_length: usize,
    transpositions: bool,
    max_expansions: usize,
    ctx: &mut LowerContext,
) -> Result<Box<dyn Query>> {
    let Some(fm) = string_field("fuzzy", field, ctx)? else { return Ok(Box::new(EmptyQuery)) };
    // No edits, or a prefix covering the whole value, leave the term itself (Lucene's FuzzyQuery).
    if max_edits == 0 || prefix_length >= value.chars().count() {
        return Ok(ctx.scored_term(Term::from_field_text(fm.field, value)));
    }
    let expansion = FuzzyExpansionQuery {
        field: fm.field,
        text: value.to_string(),
        max_edits,
        prefix_chars: prefix_length,
        transpositions,
        max_expansions,
    };
    ctx.scored_by_tantivy(fm.field, Box::new(expansion), "fuzzy")
}

/// `term`/`terms` on `_routing`: the documents written with one of these routing values, at a
/// constant score (ES scores a `term` on it by BM25; the field keeps no frequencies here).
pub fn lower_routing(values: &[serde_json::Value], ctx: &mut LowerContext) -> Box<dyn Query> {
    metadata_terms(ctx.mapping.routing_field, values, ctx)
}

/// `term`/`terms` on `_ignored`: the documents whose named fields had malformed values skipped.
pub fn lower_ignored(values: &[serde_json::Value], ctx: &mut LowerContext) -> Box<dyn Query> {
    metadata_terms(ctx.mapping.ignored_field, values, ctx)
}

fn metadata_terms(
    field: Option<tantivy::schema::Field>,
    values: &[serde_json::Value],
    ctx: &LowerContext,
) -> Box<dyn Query> {
    let Some(field) = field else { return Box::new(EmptyQuery) };
    let text = |v: &serde_json::Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    let terms = values.iter().map(|v| Term::from_field_text(field, &text(v))).collect::<Vec<_>>();
    constant(Box::new(TermSetQuery::new(terms)), ctx)
}

pub fn lower_ids(values: &[String], ctx: &mut LowerContext) -> Box<dyn Query> {
    let terms = values.iter().map(|id| Term::from_field_text(ctx.mapping.id_field, id)).collect::<Vec<_>>();
    constant(Box::new(TermSetQuery::new(terms)), ctx)
}
