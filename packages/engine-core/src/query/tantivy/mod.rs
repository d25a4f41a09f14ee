//! Our own tantivy queries and scorers: where tantivy has no equivalent of an ES query
//! (`boosting`, `function_score`), or where a faster path pays (a range over a column with its
//! zone map, a counting disjunction for `more_like_this`, the filter cache, cached regex automata).

pub mod blended_terms;
pub mod bm25_term;
pub mod boosting;
pub mod collect_limits;
pub mod column_docset;
pub mod column_range;
pub mod counting_disjunction;
pub mod double_range;
pub mod field_statistics;
pub mod function_score;
pub mod fuzzy_expansion;
pub mod intervals;
pub mod phrase_prefix;
pub mod query_cache;
pub mod regex_cache;
pub mod score_values;
pub mod script_filter;
