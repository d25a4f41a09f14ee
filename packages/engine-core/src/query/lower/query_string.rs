//! `query_string` / `simple_query_string` trees -> ordinary `QueryAst`, now that the mapping
//! says which fields `*` and `ti*` cover. Each leaf becomes one query per field (a `match`,
//! `match_phrase`, `prefix`, ...) joined by a dis_max with the query's tie breaker.

use serde_json::Value;

use super::context::LowerContext;
use super::exact::exact_term;
use crate::error::Result;
use crate::query::ast::{BoolAst, Operator, QueryAst, RangeAst};
use crate::query::ast::{QsLeaf, QsNode, QueryStringAst};
use crate::store::mapping::FieldType;
use crate::wildcard::glob;

pub fn to_ast(qs: &QueryStringAst, ctx: &mut LowerContext) -> Result<QueryAst> {
    let mut ast = node(&qs.tree, qs, ctx)?;
    if let (QueryAst::Bool(b), Some(m)) = (&mut ast, qs.minimum_should_match.clone()) {
        b.minimum_should_match = Some(m);
    }
    Ok(ast)
}

fn node(n: &QsNode, qs: &QueryStringAst, ctx: &mut LowerContext) -> Result<QueryAst> {
    Ok(match n {
        QsNode::MatchAll => QueryAst::MatchAll,
        QsNode::Boost(inner, b) => node(inner, qs, ctx)?.boosted(Some(*b)),
        QsNode::Bool { must, should, must_not } => {
            let list =
                |v: &[QsNode], ctx: &mut LowerContext| v.iter().map(|c| node(c, qs, ctx)).collect::<Result<Vec<_>>>();
            QueryAst::Bool(BoolAst {
                must: list(must, ctx)?,
                should: list(should, ctx)?,
                must_not: list(must_not, ctx)?,
                ..Default::default()
            })
        }
        QsNode::Leaf { field, leaf } => {
            let fields = match field {
                Some(f) => resolve(&[(f.clone(), 1.0)], ctx),
                None => resolve(&qs.default_fields, ctx),
            };
            let mut queries = Vec::with_capacity(fields.len());
            for (f, boost, expanded) in fields {
                queries.push(leaf_query(&f, leaf, qs.lenient || expanded, qs, ctx)?.boosted(Some(boost)));
            }
            match queries.len() {
                0 => QueryAst::MatchNone,
                1 => queries.pop().unwrap(),
                _ => QueryAst::DisMax { queries, tie_breaker: qs.tie_breaker },
            }
        }
    })
}

/// Field names and patterns -> mapped field names, each with `true` when it came from a
/// pattern: ES queries pattern-expanded fields leniently (a value that cannot apply to a
/// field's type skips that field instead of failing).
fn resolve(fields: &[(String, f32)], ctx: &LowerContext) -> Vec<(String, f32, bool)> {
    let mut out: Vec<(String, f32, bool)> = Vec::new();
    for (pattern, boost) in fields {
        if !pattern.contains('*') {
            out.push((pattern.clone(), *boost, false));
            continue;
        }
        for name in ctx.mapping.fields.keys() {
            if glob(pattern, name) && !out.iter().any(|(n, _, _)| n == name) {
                out.push((name.clone(), *boost, true));
            }
        }
    }
    out
}

fn leaf_query(
    field: &str,
    leaf: &QsLeaf,
    lenient: bool,
    qs: &QueryStringAst,
    ctx: &mut LowerContext,
) -> Result<QueryAst> {
    let ftype = ctx.mapping.get(field).map(|fm| fm.field_type);
    let is_text = ftype == Some(FieldType::Text);
    let is_string = matches!(ftype, Some(FieldType::Text | FieldType::Keyword));
    // Multi-term queries on text see normalised (lowercased) text, as ES's analyzer normalises.
    let norm = |s: &str| if is_text { s.to_lowercase() } else { s.to_string() };
    let field_s = field.to_string();
    // Leniently, a number range with a bound that is no number matches nothing there.
    if let (true, QsLeaf::Range { lower, upper, .. }, Some(fm)) = (lenient, leaf, ctx.mapping.get(field)) {
        let numeric = matches!(
            fm.field_type,
            FieldType::Long
                | FieldType::Integer
                | FieldType::Short
                | FieldType::Byte
                | FieldType::Double
                | FieldType::Float
        );
        let bad = |b: &Option<String>| b.as_ref().is_some_and(|b| exact_term(fm, &Value::String(b.clone())).is_err());
        if numeric && (bad(lower) || bad(upper)) {
            return Ok(QueryAst::MatchNone);
        }
    }
    Ok(match leaf {
        QsLeaf::Text(t) => {
            if lenient {
                if let Some(fm) = ctx.mapping.get(field).filter(|fm| !is_string_type(fm.field_type)) {
                    let value = Value::String(t.clone());
                    let bad = match fm.field_type {
                        FieldType::Ip => crate::ip::query::term_block(&value).is_err(),
                        _ => exact_term(fm, &value).is_err(),
                    };
                    if bad {
                        return Ok(QueryAst::MatchNone);
                    }
                }
            }
            let operator = if qs.and_operator { Operator::And } else { Operator::Or };
            QueryAst::Match {
                field: field_s,
                text: t.clone(),
                operator,
                minimum_should_match: None,
                fuzzy: None,
                zero_terms_all: false,
            }
        }
        // A phrase on an ip field is its address or CIDR block, as ES's term query.
        QsLeaf::Phrase { text, .. } if ftype == Some(FieldType::Ip) => {
            let value = Value::String(text.clone());
            if lenient && crate::ip::query::term_block(&value).is_err() {
                return Ok(QueryAst::MatchNone);
            }
            QueryAst::Term { field: field_s, value }
        }
        _ if lenient && ftype.is_some() && !is_string && !matches!(leaf, QsLeaf::Range { .. } | QsLeaf::Exists) => {
            QueryAst::MatchNone
        }
        QsLeaf::Phrase { text, slop } => QueryAst::MatchPhrase { field: field_s, text: text.clone(), slop: *slop },
        QsLeaf::Prefix(p) if qs.analyze_wildcard && is_text => {
            let mut tokens = Vec::new();
            match ctx.mapping.get(&field_s).map(|fm| fm.field) {
                Some(field) => ctx.analyze(field, p, |t| tokens.push(t.text.clone())),
                None => {
                    let mut stream = ctx.analyzer.token_stream(p);
                    while let Some(t) = stream.next() {
                        tokens.push(t.text.clone());
                    }
                }
            }
            let Some(last) = tokens.pop() else { return Ok(QueryAst::MatchNone) };
            let prefix = QueryAst::Prefix { field: field_s.clone(), value: last };
            if tokens.is_empty() {
                return Ok(prefix);
            }
            let mut must: Vec<QueryAst> = tokens
                .into_iter()
                .map(|t| QueryAst::Term { field: field_s.clone(), value: Value::String(t) })
                .collect();
            must.push(prefix);
            QueryAst::Bool(BoolAst { must, ..Default::default() })
        }
        QsLeaf::Prefix(p) => QueryAst::Prefix { field: field_s, value: norm(p) },
        QsLeaf::Wildcard(w) => QueryAst::Wildcard { field: field_s, pattern: norm(w) },
        QsLeaf::Regexp(pattern) => QueryAst::Regexp { field: field_s, pattern: pattern.clone() },
        QsLeaf::Fuzzy { text, edits } => QueryAst::Fuzzy {
            field: field_s,
            value: norm(text),
            max_edits: *edits,
            prefix_length: 0,
            transpositions: true,
            // ES's `fuzzy_max_expansions` default.
            max_expansions: crate::query::dsl::fuzziness::DEFAULT_MAX_EXPANSIONS,
        },
        QsLeaf::Range { lower, upper, include_lower, include_upper } => {
            let v = |s: &Option<String>| s.as_ref().map(|s| Value::String(s.clone()));
            let mut r = RangeAst { field: field_s, ..Default::default() };
            if *include_lower {
                r.gte = v(lower);
            } else {
                r.gt = v(lower);
            }
            if *include_upper {
                r.lte = v(upper);
            } else {
                r.lt = v(upper);
            }
            QueryAst::Range(r)
        }
        QsLeaf::Exists => QueryAst::Exists { field: field_s },
    })
}

fn is_string_type(t: FieldType) -> bool {
    matches!(t, FieldType::Text | FieldType::Keyword)
}

#[cfg(test)]
mod tests {
    use crate::wildcard::glob;

    #[test]
    fn field_patterns() {
        assert!(glob("*", "title"));
        assert!(glob("ti*", "title.raw"));
        assert!(glob("*.raw", "title.raw"));
        assert!(!glob("ti*", "status"));
    }
}
