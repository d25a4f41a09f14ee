//! Queries: the ES query DSL parsed with serde (`dsl/`, one query type per file) into our own
//! AST (`ast.rs`), checked against ES's limits (`limits.rs`), then lowered to tantivy queries
//! (`lower/`), some of which are our own query and scorer implementations (`tantivy/`).
//!
//! Layer: queries, beside `hits/` and below `highlight/`. Uses `store/`, the value types and the
//! leaves (ARCHITECTURE.md).

pub mod ast;
pub mod dsl;
pub mod expensive;
pub mod fuzziness;
pub mod geo_ast;
pub mod intervals_ast;
pub mod limits;
pub mod lower;
pub mod minimum_should_match;
pub mod root_only;
pub mod script_doc_values;
pub mod tantivy;
