//! Our own query AST: what the ES DSL parsers produce and the tantivy lowering consumes.
//! Values stay JSON until lowering, where the field's mapping decides how to read them.

pub use crate::query::fuzziness::Fuzziness;
use serde_json::Value;

pub use super::minimum_should_match::MinimumShouldMatch;

#[derive(Debug, Clone, PartialEq)]
pub enum QueryAst {
    MatchAll,
    MatchNone,
    Term {
        field: String,
        value: Value,
    },
    Terms {
        field: String,
        values: Vec<Value>,
    },
    Range(RangeAst),
    Match {
        field: String,
        text: String,
        operator: Operator,
        minimum_should_match: Option<MinimumShouldMatch>,
        /// `fuzziness` and its options: each analyzed term stands for the index's terms
        /// within its edit distance (`query/tantivy/fuzzy_expansion.rs`).
        fuzzy: Option<FuzzyExpansion>,
        /// `zero_terms_query: all`: text that analyzes to no term matches every document.
        zero_terms_all: bool,
    },
    Bool(BoolAst),
    Boost {
        query: Box<QueryAst>,
        boost: f32,
    },
    MatchPhrase {
        field: String,
        text: String,
        slop: u32,
    },
    MatchPhrasePrefix {
        field: String,
        text: String,
        max_expansions: u32,
    },
    /// Term-level multi-term queries: the value is not analyzed.
    Prefix {
        field: String,
        value: String,
    },
    Wildcard {
        field: String,
        pattern: String,
    },
    Regexp {
        field: String,
        pattern: String,
    },
    Fuzzy {
        field: String,
        value: String,
        max_edits: u8,
        prefix_length: usize,
        transpositions: bool,
        /// How many of the closest terms are kept and scored (ES's default 50).
        max_expansions: usize,
    },
    Exists {
        field: String,
    },
    Ids {
        values: Vec<String>,
    },
    /// Every match scores exactly `boost`.
    ConstantScore {
        filter: Box<QueryAst>,
        boost: f32,
    },
    DisMax {
        queries: Vec<QueryAst>,
        tie_breaker: f32,
    },
    /// The k nearest neighbours of a vector (OpenSearch `knn`).
    Knn(KnnAst),
    /// `positive`'s matches and scores, times `negative_boost` where `negative` also matches.
    Boosting {
        positive: Box<QueryAst>,
        negative: Box<QueryAst>,
        negative_boost: f32,
    },
    FunctionScore(FunctionScoreAst),
    /// `pinned`: `ids` first, in the given order, then `organic`'s hits.
    Pinned {
        ids: Vec<String>,
        organic: Box<QueryAst>,
    },
    /// `match_bool_prefix`: analysed terms as should/must clauses, the last one a prefix.
    MatchBoolPrefix {
        field: String,
        text: String,
        operator: Operator,
        minimum_should_match: Option<MinimumShouldMatch>,
        /// `fuzziness` and its options, for every term but the last (the prefix).
        fuzzy: Option<FuzzyExpansion>,
        /// `fuzzy_rewrite: constant_score`: each fuzzy term scores its boost alone.
        fuzzy_constant: bool,
        /// `analyzer`: a built-in analyzer the text is analyzed with instead of the field's.
        analyzer: Option<String>,
    },
    /// `combined_fields`: the text fields scored as if they were one (BM25F).
    CombinedFields {
        fields: Vec<(String, f32)>,
        text: String,
        operator: Operator,
        minimum_should_match: Option<MinimumShouldMatch>,
    },
    /// `query_string` / `simple_query_string`, fields resolved at lowering.
    QueryString(Box<QueryStringAst>),
    /// `more_like_this` with like texts; terms are picked from index statistics.
    MoreLikeThis(Box<MltAst>),
    /// `nested`: the documents (or enclosing objects) with an object at `path` matching `query`.
    Nested(Box<NestedAst>),
    /// Every hidden nested-object document: what top-level queries exclude (`query::root_only`).
    NestedObjects,
    /// A query given a `_name`: it matches as `query` does, and each hit lists the names of
    /// the named queries it matches (`matched_queries`).
    Named {
        name: String,
        query: Box<QueryAst>,
    },
    /// `terms_set`: documents holding at least the required number of `values` in `field`.
    TermsSet(Box<TermsSetAst>),
    /// `multi_match` of type `cross_fields`: term-centric over the fields of each analyzer.
    CrossFields(Box<CrossFieldsAst>),
    /// `script`: the documents the script answers true for (`script/`'s Painless subset).
    Script(Box<crate::script::Script>),
    /// `geo_distance` / `geo_bounding_box` (`geo_ast.rs`).
    Geo(Box<crate::query::geo_ast::GeoQuery>),
    /// `intervals`: documents where the rule matches in the positions of `field`.
    Intervals {
        field: String,
        rule: Box<super::intervals_ast::IntervalsRule>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct CrossFieldsAst {
    pub fields: Vec<(String, f32)>,
    pub text: String,
    pub operator: Operator,
    pub minimum_should_match: Option<MinimumShouldMatch>,
    pub tie_breaker: f32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FuzzyExpansion {
    pub fuzziness: Fuzziness,
    /// Leading characters that must match exactly.
    pub prefix_length: usize,
    /// Most expanded terms per analyzed term (the closest ones).
    pub max_expansions: usize,
    pub transpositions: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TermsSetAst {
    pub field: String,
    pub values: Vec<Value>,
    pub required: TermsSetRequired,
}

/// How many of a `terms_set`'s values a document must hold.
#[derive(Debug, Clone, PartialEq)]
pub enum TermsSetRequired {
    /// A numeric field of the document holds the number (`minimum_should_match_field`).
    Field(String),
    /// A fixed number (a script whose source is a number, or ES 8.10's `minimum_should_match`).
    Count(usize),
    /// `params.num_terms`-based scripts such as `Math.min(params.num_terms, 2)` resolve to this.
    Script(crate::script::Script),
}

#[derive(Debug, Clone, PartialEq)]
pub struct NestedAst {
    pub path: String,
    pub query: QueryAst,
    pub score_mode: NestedScoreMode,
    pub ignore_unmapped: bool,
}

impl QueryAst {
    /// Wraps in a boost unless the boost is the neutral 1.0.
    pub fn boosted(self, boost: Option<f32>) -> QueryAst {
        match boost {
            Some(b) if b != 1.0 => QueryAst::Boost { query: Box::new(self), boost: b },
            _ => self,
        }
    }
}

/// `function_score` (ES FunctionScoreQuery): `query`'s matches rescored by `functions`.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionScoreAst {
    pub query: Box<QueryAst>,
    pub functions: Vec<ScoreFunctionAst>,
    pub score_mode: ScoreMode,
    pub boost_mode: BoostMode,
    pub max_boost: f64,
    pub min_score: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ScoreFunctionAst {
    pub filter: Option<QueryAst>,
    pub weight: Option<f64>,
    pub kind: ScoreFunctionKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ScoreFunctionKind {
    /// Only a `weight`: the function scores 1 (times the weight).
    One,
    FieldValueFactor {
        field: String,
        factor: f64,
        modifier: Modifier,
        missing: Option<f64>,
    },
    Decay(DecayAst),
}

#[derive(Debug, Clone, PartialEq)]
pub struct DecayAst {
    pub curve: DecayCurve,
    pub field: String,
    /// JSON until lowering: numbers for numeric fields, dates / date math for date fields.
    pub origin: Option<Value>,
    pub scale: Value,
    pub offset: Option<Value>,
    pub decay: f64,
    pub multi_value_mode: MultiValueMode,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecayCurve {
    Gauss,
    Exp,
    Linear,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiValueMode {
    Min,
    Max,
    Avg,
    Sum,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modifier {
    None,
    Log,
    Log1p,
    Log2p,
    Ln,
    Ln1p,
    Ln2p,
    Square,
    Sqrt,
    Reciprocal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreMode {
    Multiply,
    Sum,
    Avg,
    First,
    Max,
    Min,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoostMode {
    Multiply,
    Replace,
    Sum,
    Avg,
    Max,
    Min,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct RangeAst {
    pub field: String,
    pub gt: Option<Value>,
    pub gte: Option<Value>,
    pub lt: Option<Value>,
    pub lte: Option<Value>,
    pub format: Option<String>,
    /// Dates without an offset (and date math rounding) are read in this zone; ES ignores it
    /// on other field types.
    pub time_zone: Option<crate::date::zone::DateZone>,
    /// How a range field's intervals must relate to the query's (`None`: `intersects`).
    pub relation: Option<RangeRelation>,
}

/// `relation` of a `range` query on a range field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeRelation {
    Intersects,
    Contains,
    Within,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct BoolAst {
    pub must: Vec<QueryAst>,
    pub filter: Vec<QueryAst>,
    pub should: Vec<QueryAst>,
    pub must_not: Vec<QueryAst>,
    pub minimum_should_match: Option<MinimumShouldMatch>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Operator {
    #[default]
    Or,
    And,
}

/// The k nearest neighbours of a vector; both dialects share it (`knn/`).
#[derive(Debug, Clone, PartialEq)]
pub struct KnnAst {
    pub field: String,
    pub vector: Vec<f32>,
    pub k: usize,
    /// Restricts the candidates before the k nearest are chosen (OpenSearch's efficient
    /// filtering, ES's pre-filter), so up to k matching documents come back.
    pub filter: Option<Box<QueryAst>>,
    /// ES `similarity`: the least similarity a neighbour must have (a distance for l2_norm).
    pub similarity: Option<f32>,
    /// Which engine's checks and error texts apply when the query is lowered.
    pub dialect: KnnDialect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KnnDialect {
    OpenSearch,
    Elasticsearch,
}

/// `more_like_this` with like texts; terms are picked from index statistics at lowering.
#[derive(Debug, Clone, PartialEq)]
pub struct MltAst {
    /// None: every text and keyword field.
    pub fields: Option<Vec<String>>,
    pub like: Vec<String>,
    pub min_term_freq: u32,
    pub min_doc_freq: u64,
    pub max_doc_freq: u64,
    pub max_query_terms: usize,
    pub min_word_length: usize,
    pub max_word_length: usize,
    pub stop_words: Vec<String>,
    pub minimum_should_match: MinimumShouldMatch,
    /// `boost_terms` > 0: each term boosted by its tf-idf relative to the weakest kept term.
    pub boost_terms: Option<f32>,
    pub fail_on_unsupported_field: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// How a `nested` query scores a parent from its matching objects.
pub enum NestedScoreMode {
    Avg,
    Sum,
    Max,
    Min,
    /// The parent scores 0.
    None,
}

impl NestedScoreMode {
    pub fn parse(name: &str) -> Option<NestedScoreMode> {
        Some(match name {
            "avg" => NestedScoreMode::Avg,
            "sum" | "total" => NestedScoreMode::Sum,
            "max" => NestedScoreMode::Max,
            "min" => NestedScoreMode::Min,
            "none" => NestedScoreMode::None,
            _ => return None,
        })
    }
}

// `query_string` / `simple_query_string`: fields stay names (or patterns) here; which fields
// `*` covers is only known at lowering, from the mapping.

/// A leaf's text query, before it is applied to one field.
#[derive(Debug, Clone, PartialEq)]
pub enum QsLeaf {
    /// Analysed text: several tokens combine with the default operator.
    Text(String),
    Phrase {
        text: String,
        slop: u32,
    },
    Prefix(String),
    Wildcard(String),
    /// `/pattern/`: a regular expression over the field's terms.
    Regexp(String),
    Fuzzy {
        text: String,
        edits: u8,
    },
    /// Bounds as written; `None` is `*` (open).
    Range {
        lower: Option<String>,
        upper: Option<String>,
        include_lower: bool,
        include_upper: bool,
    },
    /// `_exists_:field`.
    Exists,
}

#[derive(Debug, Clone, PartialEq)]
pub enum QsNode {
    /// `field` None means the query's default fields.
    Leaf {
        field: Option<String>,
        leaf: QsLeaf,
    },
    Bool {
        must: Vec<QsNode>,
        should: Vec<QsNode>,
        must_not: Vec<QsNode>,
    },
    Boost(Box<QsNode>, f32),
    MatchAll,
}

impl QsNode {
    pub fn boosted(self, boost: Option<f32>) -> QsNode {
        match boost {
            Some(b) if b != 1.0 => QsNode::Boost(Box::new(self), b),
            _ => self,
        }
    }
}

/// How a parsed query string becomes a query: its tree plus the options applied to leaves.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryStringAst {
    pub tree: QsNode,
    /// `(name or pattern, boost)`; `*` means every text and keyword field.
    pub default_fields: Vec<(String, f32)>,
    pub and_operator: bool,
    /// dis_max tie breaker across fields (simple_query_string sums: 1.0).
    pub tie_breaker: f32,
    pub analyze_wildcard: bool,
    pub lenient: bool,
    /// Applies to the top-level boolean's optional clauses, as in ES.
    pub minimum_should_match: Option<crate::query::ast::MinimumShouldMatch>,
}
