//! `significant_terms` (keyword fields) and `significant_text` (text fields re-analyzed from
//! `_source`): the terms that occur more often among the matching documents (foreground)
//! than in the whole index or `background_filter` (background).
//!
//! Collection counts the foreground like `terms` (a doc counts once per term) plus the
//! foreground size under a reserved key. Background counts are read at render time from the
//! inverted index: the term's doc freq and the segments' `max_doc` (ES counts deleted docs in
//! both), or, with a `background_filter`, live docs matching the filter (and the term).
//!
//! On one shard ES still selects twice: the shard keeps the `shard_size` best scores among
//! terms with at least `shard_min_doc_count` docs, and the reduce keeps those with a positive
//! score and `min_doc_count` docs, best `size` first. A rare term with a high score can
//! take a shard slot and then fall to `min_doc_count`, so both cuts are replayed here.
//! Over several indices the foreground counts merge first and the background counts are
//! summed over the indices, so the shard cut is replayed once, over the merged terms.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{json, Map, Value};
use tantivy::collector::Count;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Searcher, Term};
use tantivy_fst::Automaton;

use super::heuristic::{Counts, Heuristic};
use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::intermediate::{BucketKey, FruitBucket};
use crate::aggs::options::{Background, SignificantSpec, TermFilter, TermSelect, TextSource};
use crate::aggs::render::{bucket_json, KeyValue};
use crate::aggs::request::AggKind;
use crate::aggs::request::AggRequest;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::{FieldType, Mapping};

/// The fruit key holding the foreground size (no keyword term is a `Num` key).
pub(crate) const SUBSET_SIZE_KEY: BucketKey = BucketKey::Num(u64::MAX);

impl TermFilter {
    pub(crate) fn parse(kind: &str, key: &str, value: &Value) -> Result<TermFilter> {
        let bad = || EngineError::XContentParse(format!("[{kind}] failed to parse field [{key}]"));
        match value {
            Value::String(p) => {
                crate::query::tantivy::regex_cache::compile(key, p)?;
                Ok(TermFilter::Pattern(p.clone()))
            }
            Value::Array(items) => items
                .iter()
                .map(|v| v.as_str().map(str::to_string).ok_or_else(bad))
                .collect::<Result<Vec<_>>>()
                .map(TermFilter::Exact),
            // `{partition, num_partitions}` splits terms by hash, which only `terms` supports in ES.
            _ => Err(bad()),
        }
    }

    pub(crate) fn accepts(&self, term: &str) -> bool {
        match self {
            TermFilter::Exact(terms) => terms.iter().any(|t| t == term),
            TermFilter::Pattern(p) => crate::query::tantivy::regex_cache::compile("include", p).is_ok_and(|re| {
                let mut state = re.start();
                for b in term.bytes() {
                    state = re.accept(&state, b);
                    if !re.can_match(&state) {
                        return false;
                    }
                }
                re.is_match(&state)
            }),
        }
    }
}

/// "now" for date math in `background_filter`.
fn now_ms() -> i64 {
    let since_epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    since_epoch.map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// ES's `suggestShardSideQueueSize`, doubled: significance needs more candidates per shard.
fn default_shard_size(size: usize) -> usize {
    2 * ((size as f64 * 1.5 + 10.0) as usize)
}

pub struct Significant;

impl Aggregation for Significant {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let spec = parse(def.name, def.kind_name, def.body, def.mapping)?;
        Ok((AggKind::Significant(Box::new(spec)), FieldRef::Field(def.field_name())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match (&req.kind, fruit) {
            (AggKind::Significant(spec), AggFruit::Buckets(b)) => render(req, spec, b),
            _ => Value::Null,
        }
    }
}

fn parse(name: &str, kind_name: &str, body: &Map<String, Value>, mapping: &Mapping) -> Result<SignificantSpec> {
    let text = kind_name == "significant_text";
    let mut spec = SignificantSpec {
        size: 10,
        shard_size: 0,
        min_doc_count: 3,
        shard_min_doc_count: 0,
        heuristic: Heuristic::Jlh,
        background: None,
        include: None,
        exclude: None,
        text: None,
    };
    let mut shard_size = None;
    let mut source_paths = None;
    let mut filter_duplicate_text = false;
    let field_type = body.get("field").and_then(Value::as_str).and_then(|f| mapping.get(f)).map(|fm| fm.field_type);
    for (key, value) in body {
        let bad = || EngineError::XContentParse(format!("[{kind_name}] failed to parse field [{key}]"));
        if let Some(h) = Heuristic::parse(kind_name, key, value)? {
            spec.heuristic = h;
            continue;
        }
        match (key.as_str(), text) {
            ("field", _) => {
                value.as_str().ok_or_else(bad)?;
            }
            ("size", _) => spec.size = value.as_u64().filter(|s| *s > 0).ok_or_else(bad)? as usize,
            ("shard_size", _) => shard_size = Some(value.as_u64().filter(|s| *s > 0).ok_or_else(bad)? as usize),
            ("min_doc_count", _) => spec.min_doc_count = value.as_u64().ok_or_else(bad)?,
            ("shard_min_doc_count", _) => spec.shard_min_doc_count = value.as_u64().ok_or_else(bad)?,
            ("include", _) => spec.include = Some(term_filter(name, kind_name, key, value, field_type)?),
            ("exclude", _) => spec.exclude = Some(term_filter(name, kind_name, key, value, field_type)?),
            ("background_filter", _) => {
                let ast = crate::query::dsl::parse_query(value)?;
                let mut ctx = crate::query::lower::context::LowerContext::new(mapping, now_ms());
                let query: Box<dyn Query> = crate::query::lower::lower(&ast, &mut ctx)?;
                spec.background = Some(Background { ast, query: Arc::from(query) });
            }
            // How ES picks its collector; one strategy here.
            ("execution_hint", false) => {
                value.as_str().ok_or_else(bad)?;
            }
            ("filter_duplicate_text", true) => filter_duplicate_text = value.as_bool().ok_or_else(bad)?,
            ("source_fields", true) => {
                let paths: Vec<String> = match value {
                    Value::String(s) => vec![s.clone()],
                    Value::Array(a) => {
                        a.iter().map(|v| v.as_str().map(str::to_string).ok_or_else(bad)).collect::<Result<_>>()?
                    }
                    _ => return Err(bad()),
                };
                source_paths = Some(paths);
            }
            _ => {
                const KNOWN: [&str; 17] = [
                    "field",
                    "size",
                    "shard_size",
                    "min_doc_count",
                    "shard_min_doc_count",
                    "include",
                    "exclude",
                    "background_filter",
                    "execution_hint",
                    "filter_duplicate_text",
                    "source_fields",
                    "jlh",
                    "mutual_information",
                    "chi_square",
                    "gnd",
                    "percentage",
                    "scripted_heuristic",
                ];
                let hint = crate::aggs::aggregation::did_you_mean(key, KNOWN.into_iter());
                return Err(EngineError::XContentParse(format!("[{kind_name}] unknown field [{key}]{hint}")));
            }
        }
    }
    let field = body.get("field").and_then(Value::as_str).unwrap_or_default().to_string();
    if field.is_empty() {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!("Required one of fields [field, script], but none were specified. ({name})"),
        ));
    }
    spec.shard_size = shard_size.unwrap_or_else(|| default_shard_size(spec.size)).max(spec.size);
    spec.shard_min_doc_count = spec.shard_min_doc_count.min(spec.min_doc_count);
    let ty = mapping.get(&field).map(|fm| fm.field_type);
    if text {
        if ty.is_some_and(|t| t != FieldType::Text) {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("[significant_text] supports text fields only, [{field}] is not one"),
            ));
        }
        spec.text = Some(TextSource {
            source_paths: source_paths.unwrap_or(vec![field]),
            source_field: mapping.source_field,
            filter_duplicate_text,
        });
    } else if ty.is_some_and(|t| !matches!(t, FieldType::Keyword | FieldType::Text | FieldType::Ip)) {
        return Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!(
                "[significant_terms] on [{}] fields is not supported by this engine, only keyword and ip: [{name}]",
                ty.map_or("", |t| t.name())
            ),
        ));
    }
    Ok(spec)
}

/// `include`/`exclude`: on an ip field a list of addresses, held as the keys the terms are
/// indexed by (a pattern is refused, as ES refuses one on every non-string field).
fn term_filter(name: &str, kind_name: &str, key: &str, value: &Value, ty: Option<FieldType>) -> Result<TermFilter> {
    if ty != Some(FieldType::Ip) {
        return TermFilter::parse(kind_name, key, value);
    }
    let bad = || EngineError::XContentParse(format!("[{kind_name}] failed to parse field [{key}]"));
    match crate::aggs::ip_terms_select::parse(name, value, bad)? {
        TermSelect::Terms(filter) => Ok(filter),
        _ => Err(EngineError::XContentParse(format!("[{kind_name}] failed to parse field [{key}]"))),
    }
}

/// Background statistics: the superset size and each term's doc count in it, summed over
/// the indices searched (as ES sums its shards' at reduce). A `background_filter` is refused
/// over several indices (`multi_index.rs`).
struct BackgroundStats<'a> {
    /// Each index's searcher and its field of the name aggregated.
    indices: Vec<(&'a Searcher, Option<Field>)>,
    filter: Option<&'a Background>,
}

impl BackgroundStats<'_> {
    fn superset_size(&self) -> u64 {
        self.indices
            .iter()
            .map(|(searcher, _)| match self.filter {
                None => searcher.segment_readers().iter().map(|s| u64::from(s.max_doc())).sum(),
                Some(bg) => searcher.search(bg.query.as_ref(), &Count).unwrap_or(0) as u64,
            })
            .sum()
    }

    fn freq(&self, term: &str) -> u64 {
        self.indices
            .iter()
            .filter_map(|(searcher, field)| field.map(|f| (searcher, Term::from_field_text(f, term))))
            .map(|(searcher, term)| match self.filter {
                None => searcher.doc_freq(&term).unwrap_or(0),
                Some(bg) => {
                    let both = BooleanQuery::new(vec![
                        (Occur::Must, Box::new(TermQuery::new(term, IndexRecordOption::Basic)) as Box<dyn Query>),
                        (Occur::Must, bg.query.box_clone()),
                    ]);
                    searcher.search(&both, &Count).unwrap_or(0) as u64
                }
            })
            .sum()
    }
}

/// A candidate bucket: term, foreground count, background count, score.
struct Scored<'a> {
    key: &'a str,
    bucket: &'a FruitBucket,
    bg_count: u64,
    score: f64,
}

fn render(req: &AggRequest, spec: &SignificantSpec, buckets: &HashMap<BucketKey, FruitBucket>) -> Value {
    // ES answers an unmapped field with an empty list and no counts at all.
    let Some((field_name, field_type)) = &req.field.resolved else { return json!({ "buckets": [] }) };
    let subset_size = buckets.get(&SUBSET_SIZE_KEY).map_or(0, |b| b.count);
    let (superset_size, selected) = crate::aggs::metric::top_hits::with_searchers(|searchers| {
        let stats = BackgroundStats {
            indices: searchers.iter().map(|s| (*s, s.schema().get_field(field_name).ok())).collect(),
            filter: spec.background.as_ref(),
        };
        let superset_size = stats.superset_size();
        let candidates: Vec<Scored> = buckets
            .iter()
            .filter_map(|(k, b)| match k {
                BucketKey::Str(s) => Some((s.as_str(), b)),
                BucketKey::Num(_) => None,
            })
            .filter(|(key, b)| b.count >= spec.shard_min_doc_count && spec.accepts(key))
            .map(|(key, bucket)| {
                let bg_count = stats.freq(key);
                let counts = Counts { subset_freq: bucket.count, subset_size, superset_freq: bg_count, superset_size };
                Scored { key, bucket, bg_count, score: spec.heuristic.score(counts) }
            })
            .collect();
        (superset_size, select(candidates, spec))
    });
    let rendered: Vec<Value> = selected
        .iter()
        .map(|s| {
            let mut bucket = bucket_json(req, &KeyValue::Str(s.key.to_string()), Some(s.bucket), Some(*field_type));
            if let Value::Object(obj) = &mut bucket {
                obj.insert("score".into(), json!(s.score));
                obj.insert("bg_count".into(), json!(s.bg_count));
            }
            bucket
        })
        .collect();
    json!({ "doc_count": subset_size, "bg_count": superset_size, "buckets": rendered })
}

impl SignificantSpec {
    pub(crate) fn accepts(&self, term: &str) -> bool {
        self.include.as_ref().is_none_or(|f| f.accepts(term)) && !self.exclude.as_ref().is_some_and(|f| f.accepts(term))
    }
}

/// The shard cut (best `shard_size` scores), then the reduce's (positive score,
/// `min_doc_count`, best `size`). ES's shard queue lets a later (greater) term displace an
/// equal score; the reduce's order among equal scores is its hash map's, here the key's.
fn select<'a>(mut candidates: Vec<Scored<'a>>, spec: &SignificantSpec) -> Vec<Scored<'a>> {
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| b.key.cmp(a.key)));
    candidates.truncate(spec.shard_size);
    candidates.retain(|c| c.score > 0.0 && c.bucket.count >= spec.min_doc_count);
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.key.cmp(b.key)));
    candidates.truncate(spec.size);
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(size: usize, shard_size: usize, min_doc_count: u64) -> SignificantSpec {
        SignificantSpec {
            size,
            shard_size,
            min_doc_count,
            shard_min_doc_count: 0,
            heuristic: Heuristic::Jlh,
            background: None,
            include: None,
            exclude: None,
            text: None,
        }
    }

    #[test]
    fn shard_size_defaults_to_twice_the_terms_queue() {
        assert_eq!(default_shard_size(10), 50);
        assert_eq!(default_shard_size(5), 34);
        assert_eq!(default_shard_size(1), 22);
    }

    #[test]
    fn selection_replays_the_shard_cut_before_min_doc_count() {
        let b = |count| FruitBucket { count, subs: Vec::new() };
        let (b1, b5, b9) = (b(1), b(5), b(9));
        let cands = || {
            vec![
                Scored { key: "rare", bucket: &b1, bg_count: 1, score: 9.0 },
                Scored { key: "mid", bucket: &b5, bg_count: 10, score: 2.0 },
                Scored { key: "common", bucket: &b9, bg_count: 90, score: 1.0 },
                Scored { key: "flat", bucket: &b9, bg_count: 900, score: 0.0 },
            ]
        };
        let keys = |v: Vec<Scored>| v.iter().map(|s| s.key.to_string()).collect::<Vec<_>>();
        // "rare" is cut by min_doc_count; "flat" by its zero score.
        assert_eq!(keys(select(cands(), &spec(10, 10, 3))), vec!["mid", "common"]);
        // With two shard slots "rare" takes one and then drops out: only "mid" is left.
        assert_eq!(keys(select(cands(), &spec(10, 2, 3))), vec!["mid"]);
        assert_eq!(keys(select(cands(), &spec(1, 10, 1))), vec!["rare"]);
    }

    #[test]
    fn include_exclude_filter_terms() {
        let mut s = spec(10, 10, 1);
        s.include = Some(TermFilter::Pattern("gpt.*".into()));
        s.exclude = Some(TermFilter::Exact(vec!["gpt-4".into()]));
        assert!(s.accepts("gpt-4o"));
        assert!(!s.accepts("gpt-4"));
        assert!(!s.accepts("claude"));
        assert!(!s.accepts("my-gpt"));
    }
}
