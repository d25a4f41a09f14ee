//! What to highlight in one field: the terms, phrases and expanded multi-term patterns of the
//! (highlight) query, as Lucene's unified highlighter extracts them. Only clauses on the field
//! count unless `require_field_match` is false; `must_not` clauses never count, `filter` ones
//! do; terms are analyzed with the analyzer of the field the query names (a keyword field
//! keeps the whole text as one term), exact-value and multi-term queries are not analyzed.

use std::sync::Arc;

use serde_json::Value;
use tantivy_fst::{Automaton, Regex};

use crate::analysis::es_standard_analyzer;
use crate::error::Result;
use crate::query::ast::QueryAst;
use crate::query::intervals_ast::{IntervalsExpansion, IntervalsRule};
use crate::query::lower::context::LowerContext;
use crate::store::mapping::{FieldType, Mapping};

pub enum TermMatcher {
    Exact(String),
    Prefix(String),
    /// `wildcard` and `regexp`, compiled as their queries are.
    Pattern(Arc<Regex>),
    Fuzzy {
        value: Vec<char>,
        max_edits: u8,
        prefix_length: usize,
        transpositions: bool,
    },
}

impl TermMatcher {
    pub fn matches(&self, token: &str) -> bool {
        match self {
            TermMatcher::Exact(t) => t == token,
            TermMatcher::Prefix(p) => token.starts_with(p.as_str()),
            TermMatcher::Pattern(re) => {
                let mut state = re.start();
                for b in token.bytes() {
                    if !re.can_match(&state) {
                        return false;
                    }
                    state = re.accept(&state, b);
                }
                re.is_match(&state)
            }
            TermMatcher::Fuzzy { value, max_edits, prefix_length, transpositions } => {
                let token: Vec<char> = token.chars().collect();
                let p = (*prefix_length).min(value.len());
                token.len() >= p
                    && token[..p] == value[..p]
                    && edit_distance(value, &token, *transpositions) <= *max_edits as usize
            }
        }
    }
}

/// Levenshtein distance; with transpositions, swapping two adjacent chars costs one edit.
fn edit_distance(a: &[char], b: &[char], transpositions: bool) -> usize {
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

/// A phrase: its clauses with their positions relative to the first, and the slop.
pub struct Phrase {
    pub clauses: Vec<(usize, TermMatcher)>,
    pub slop: u32,
}

#[derive(Default)]
pub struct FieldQuery {
    /// Highlighted wherever they occur.
    pub terms: Vec<TermMatcher>,
    /// Highlighted only where the whole phrase occurs.
    pub phrases: Vec<Phrase>,
}

impl FieldQuery {
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty() && self.phrases.is_empty()
    }
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Analyzed tokens with positions relative to the first.
fn analyze(text: &str) -> Vec<(usize, String)> {
    let mut analyzer = es_standard_analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut out = Vec::new();
    while let Some(t) = stream.next() {
        out.push((t.position, t.text.clone()));
    }
    let first = out.first().map_or(0, |t| t.0);
    out.into_iter().map(|(p, t)| (p - first, t)).collect()
}

pub struct Extractor<'a> {
    pub target: &'a str,
    pub require_field_match: bool,
    pub mapping: &'a Mapping,
    pub ctx: LowerContext<'a>,
}

impl Extractor<'_> {
    /// The mapped string type of a queried field, if the clause counts for the target field.
    fn counts(&self, field: &str) -> Option<FieldType> {
        if self.require_field_match && field != self.target {
            return None;
        }
        self.mapping.get(field).map(|fm| fm.field_type).filter(|t| matches!(t, FieldType::Text | FieldType::Keyword))
    }

    fn analyzed(&self, kind: FieldType, text: &str) -> Vec<(usize, String)> {
        if kind == FieldType::Keyword {
            vec![(0, text.to_string())]
        } else {
            analyze(text)
        }
    }

    /// An `intervals` rule's terms, each highlighted on its own (the positions rules only narrow
    /// which documents match).
    fn interval_terms(&self, kind: FieldType, rule: &IntervalsRule, out: &mut FieldQuery) -> Result<()> {
        let filter = match rule {
            IntervalsRule::Match { query, filter, .. } => {
                out.terms.extend(self.analyzed(kind, query).into_iter().map(|(_, t)| TermMatcher::Exact(t)));
                filter
            }
            IntervalsRule::AnyOf { rules, filter } | IntervalsRule::AllOf { rules, filter, .. } => {
                for r in rules {
                    self.interval_terms(kind, r, out)?;
                }
                filter
            }
            IntervalsRule::Expanded { expansion, .. } => {
                out.terms.push(match expansion {
                    IntervalsExpansion::Prefix(p) => TermMatcher::Prefix(p.to_lowercase()),
                    IntervalsExpansion::Wildcard(w) => {
                        let regex = crate::query::dsl::wildcard::to_regex(&w.to_lowercase());
                        TermMatcher::Pattern(crate::query::tantivy::regex_cache::compile("wildcard", &regex)?)
                    }
                    IntervalsExpansion::Fuzzy { term, fuzziness, prefix_length, transpositions } => {
                        let value: Vec<char> = term.to_lowercase().chars().collect();
                        TermMatcher::Fuzzy {
                            max_edits: fuzziness.edits(value.len()),
                            value,
                            prefix_length: *prefix_length,
                            transpositions: *transpositions,
                        }
                    }
                });
                return Ok(());
            }
        };
        // A filter's terms only decide which intervals count; ES highlights them too.
        if let Some(f) = filter {
            self.interval_terms(kind, &f.rule, out)?;
        }
        Ok(())
    }

    fn phrase(&self, kind: FieldType, text: &str, slop: u32, last_is_prefix: bool, out: &mut FieldQuery) {
        let mut tokens = self.analyzed(kind, text);
        let last = tokens.pop();
        let mut clauses: Vec<(usize, TermMatcher)> =
            tokens.into_iter().map(|(p, t)| (p, TermMatcher::Exact(t))).collect();
        if let Some((p, t)) = last {
            clauses.push((p, if last_is_prefix { TermMatcher::Prefix(t) } else { TermMatcher::Exact(t) }));
        }
        match clauses.len() {
            0 => {}
            1 => out.terms.push(clauses.pop().unwrap().1),
            _ => out.phrases.push(Phrase { clauses, slop }),
        }
    }

    pub fn collect(&mut self, ast: &QueryAst, out: &mut FieldQuery) -> Result<()> {
        match ast {
            QueryAst::Term { field, value } => {
                if self.counts(field).is_some() {
                    out.terms.push(TermMatcher::Exact(text_of(value)));
                }
            }
            QueryAst::Terms { field, values } => {
                if self.counts(field).is_some() {
                    out.terms.extend(values.iter().map(|v| TermMatcher::Exact(text_of(v))));
                }
            }
            QueryAst::Match { field, text, fuzzy, .. } => {
                if let Some(kind) = self.counts(field) {
                    out.terms.extend(self.analyzed(kind, text).into_iter().map(|(_, t)| match fuzzy {
                        // The terms a fuzzy match expands to, as the query finds them.
                        Some(f) => TermMatcher::Fuzzy {
                            max_edits: f.fuzziness.edits(t.chars().count()),
                            value: t.chars().collect(),
                            prefix_length: f.prefix_length,
                            transpositions: f.transpositions,
                        },
                        None => TermMatcher::Exact(t),
                    }));
                }
            }
            QueryAst::TermsSet(ts) => {
                if self.counts(&ts.field).is_some() {
                    out.terms.extend(ts.values.iter().map(|v| TermMatcher::Exact(text_of(v))));
                }
            }
            QueryAst::Named { query, .. } => self.collect(query, out)?,
            // A script matches by document values, not by terms of the text.
            QueryAst::Script(_) => {}
            QueryAst::Intervals { field, rule } => {
                if let Some(kind) = self.counts(field) {
                    self.interval_terms(kind, rule, out)?;
                }
            }
            QueryAst::CrossFields(cf) => {
                for (field, _) in &cf.fields {
                    if let Some(kind) = self.counts(field) {
                        out.terms.extend(self.analyzed(kind, &cf.text).into_iter().map(|(_, t)| TermMatcher::Exact(t)));
                    }
                }
            }
            QueryAst::MatchPhrase { field, text, slop } => {
                if let Some(kind) = self.counts(field) {
                    self.phrase(kind, text, *slop, false, out);
                }
            }
            QueryAst::MatchPhrasePrefix { field, text, .. } => match self.counts(field) {
                Some(FieldType::Keyword) => out.terms.push(TermMatcher::Prefix(text.clone())),
                Some(kind) => self.phrase(kind, text, 0, true, out),
                None => {}
            },
            QueryAst::MatchBoolPrefix { field, text, .. } => {
                if let Some(kind) = self.counts(field) {
                    let mut tokens = self.analyzed(kind, text);
                    if let Some((_, last)) = tokens.pop() {
                        out.terms.push(TermMatcher::Prefix(last));
                    }
                    out.terms.extend(tokens.into_iter().map(|(_, t)| TermMatcher::Exact(t)));
                }
            }
            QueryAst::CombinedFields { fields, text, .. } => {
                for (field, _) in fields {
                    if let Some(kind) = self.counts(field) {
                        out.terms.extend(self.analyzed(kind, text).into_iter().map(|(_, t)| TermMatcher::Exact(t)));
                    }
                }
            }
            QueryAst::Prefix { field, value } => {
                if self.counts(field).is_some() {
                    out.terms.push(TermMatcher::Prefix(value.clone()));
                }
            }
            QueryAst::Wildcard { field, pattern } => {
                if self.counts(field).is_some() {
                    let regex = crate::query::dsl::wildcard::to_regex(pattern);
                    out.terms
                        .push(TermMatcher::Pattern(crate::query::tantivy::regex_cache::compile("wildcard", &regex)?));
                }
            }
            QueryAst::Regexp { field, pattern } => {
                if self.counts(field).is_some() {
                    out.terms
                        .push(TermMatcher::Pattern(crate::query::tantivy::regex_cache::compile("regexp", pattern)?));
                }
            }
            QueryAst::Fuzzy { field, value, max_edits, prefix_length, transpositions, .. } => {
                if self.counts(field).is_some() {
                    out.terms.push(TermMatcher::Fuzzy {
                        value: value.chars().collect(),
                        max_edits: *max_edits,
                        prefix_length: *prefix_length,
                        transpositions: *transpositions,
                    });
                }
            }
            QueryAst::Bool(b) => {
                for q in b.must.iter().chain(&b.filter).chain(&b.should) {
                    self.collect(q, out)?;
                }
            }
            QueryAst::Boost { query, .. } => self.collect(query, out)?,
            QueryAst::ConstantScore { filter, .. } => self.collect(filter, out)?,
            QueryAst::DisMax { queries, .. } => {
                for q in queries {
                    self.collect(q, out)?;
                }
            }
            // ES's boosting query is a function score over `positive`: only it is visited.
            QueryAst::Boosting { positive, .. } => self.collect(positive, out)?,
            QueryAst::FunctionScore(fs) => self.collect(&fs.query, out)?,
            QueryAst::Pinned { organic, .. } => self.collect(organic, out)?,
            QueryAst::QueryString(qs) => {
                let resolved = crate::query::lower::query_string_ast(qs, &mut self.ctx)?;
                self.collect(&resolved, out)?;
            }
            // No terms to show: structural, numeric or vector queries, and more_like_this
            // (whose terms are picked from index statistics at lowering).
            QueryAst::MatchAll
            | QueryAst::MatchNone
            | QueryAst::Range(_)
            | QueryAst::Exists { .. }
            | QueryAst::Geo(_)
            | QueryAst::Ids { .. }
            | QueryAst::Knn(_)
            | QueryAst::MoreLikeThis(_) => {}
            // Nested objects' fields are not in the hit's own document: ES highlights them only
            // in inner hits, which are not served.
            QueryAst::Nested(_) | QueryAst::NestedObjects => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzzy_and_pattern_matchers_expand_like_their_queries() {
        let fuzzy = TermMatcher::Fuzzy {
            value: "quikc".chars().collect(),
            max_edits: 1,
            prefix_length: 1,
            transpositions: true,
        };
        assert!(fuzzy.matches("quick"));
        assert!(!fuzzy.matches("brick"));
        let re =
            crate::query::tantivy::regex_cache::compile("wildcard", &crate::query::dsl::wildcard::to_regex("qu*k"))
                .unwrap();
        assert!(TermMatcher::Pattern(re.clone()).matches("quick"));
        assert!(!TermMatcher::Pattern(re).matches("quickly"));
        assert!(TermMatcher::Prefix("qu".into()).matches("quick"));
    }

    #[test]
    fn edit_distance_counts_transpositions_only_when_asked() {
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(edit_distance(&chars("ab"), &chars("ba"), true), 1);
        assert_eq!(edit_distance(&chars("ab"), &chars("ba"), false), 2);
    }
}
