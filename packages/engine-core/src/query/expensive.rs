//! ES's `search.allow_expensive_queries` (a cluster setting, on by default): when it is off,
//! the queries ES calls expensive fail on the shard with its texts. The engine sets the flag
//! for the search running on a thread (`with_allowed`); a search checks its query once before
//! lowering it, and only when the flag is off, so the default costs one thread-local read.

use std::cell::Cell;

use crate::error::{EngineError, Result, ShardCause};
use crate::query::ast::QueryAst;
use crate::store::mapping::{FieldType, Mapping};

thread_local! {
    static ALLOWED: Cell<bool> = const { Cell::new(true) };
}

/// Runs `f` with expensive queries allowed or not, then restores the previous state.
pub fn with_allowed<T>(allowed: bool, f: impl FnOnce() -> T) -> T {
    let previous = ALLOWED.with(|a| a.replace(allowed));
    let out = f();
    ALLOWED.with(|a| a.set(previous));
    out
}

/// Refuses `ast` if it holds an expensive query while they are disallowed on this thread.
pub fn check(ast: &QueryAst, mapping: &Mapping) -> Result<()> {
    if ALLOWED.with(Cell::get) {
        return Ok(());
    }
    walk(ast, mapping)
}

fn refused(what: &str, tail: &str) -> EngineError {
    EngineError::shard(
        ShardCause::Exception,
        format!("[{what}] queries cannot be executed when 'search.allow_expensive_queries' is set to false.{tail}"),
    )
}

fn walk(ast: &QueryAst, mapping: &Mapping) -> Result<()> {
    match ast {
        QueryAst::Prefix { .. } => {
            Err(refused("prefix", " For optimised prefix queries on text fields please enable [index_prefixes]."))
        }
        QueryAst::Wildcard { .. } => Err(refused("wildcard", "")),
        QueryAst::Regexp { .. } => Err(refused("regexp", "")),
        QueryAst::Fuzzy { .. } => Err(refused("fuzzy", "")),
        QueryAst::Script(_) => Err(refused("script", "")),
        QueryAst::Nested(_) => Err(refused("joining", "")),
        QueryAst::Range(range) => {
            let textual =
                mapping.get(&range.field).is_some_and(|f| matches!(f.field_type, FieldType::Text | FieldType::Keyword));
            if textual {
                return Err(EngineError::shard(
                    ShardCause::Exception,
                    "[range] queries on [text] or [keyword] fields cannot be executed when 'search.allow_expensive_queries' is set to false.",
                ));
            }
            Ok(())
        }
        QueryAst::Bool(b) => {
            for q in b.must.iter().chain(&b.filter).chain(&b.should).chain(&b.must_not) {
                walk(q, mapping)?;
            }
            Ok(())
        }
        QueryAst::Boost { query, .. } | QueryAst::Named { query, .. } => walk(query, mapping),
        QueryAst::ConstantScore { filter, .. } => walk(filter, mapping),
        QueryAst::DisMax { queries, .. } => queries.iter().try_for_each(|q| walk(q, mapping)),
        QueryAst::Boosting { positive, negative, .. } => {
            walk(positive, mapping)?;
            walk(negative, mapping)
        }
        QueryAst::FunctionScore(fs) => walk(&fs.query, mapping),
        QueryAst::Pinned { organic, .. } => walk(organic, mapping),
        _ => Ok(()),
    }
}
