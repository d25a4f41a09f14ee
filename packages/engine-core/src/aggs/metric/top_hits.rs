//! `top_hits`: the best documents of each bucket, rendered like a search response's hits.
//! Collection reuses the search's own top-k collector (one per bucket per segment), so sort
//! semantics, missing values and tie-breaks are those of `sort` on `_search`. Rendering
//! needs the stored documents: `render_aggs` installs the searcher for the duration of one
//! render (thread-local, like the bucket budget, because `render_one` recurses through
//! every bucket module and only `top_hits` needs it).

use std::cell::RefCell;

use serde_json::{json, Map, Value};
use tantivy::schema::{Field, Value as _};
use tantivy::{DocAddress, Searcher, TantivyDocument};

use crate::aggs::aggregation::{AggDef, Aggregation, FieldRef};
use crate::aggs::intermediate::AggFruit;
use crate::aggs::options::TopHitsSpec;
use crate::aggs::request::{AggKind, AggRequest};
use crate::error::{EngineError, Result, ShardCause};
use crate::hits::sort::{parse_sort, Order, SortSpec, SortTarget};
use crate::hits::top_hits::{sort_values_json, TopHitsCollector, TopHitsFruit};
use crate::store::mapping::Mapping;
use crate::store::similarity::ES_SCORE_SCALE;
use crate::store::source_filter::SourceFilter;
use tantivy::collector::Collector;

/// ES's `index.max_inner_result_window` default: `from + size` above it is rejected.
const MAX_INNER_RESULT_WINDOW: usize = 100;

/// What rendering needs to turn doc addresses into hits.
#[derive(Clone)]
pub struct HitsContext {
    pub searcher: Searcher,
    pub index: String,
    pub id_field: Field,
    pub source_field: Field,
    pub routing_field: Option<Field>,
    /// Internal scores are this times the shown ones (the index's similarity).
    pub scale: f32,
    /// Hits of this index carry segment ordinals shifted by this much: a render over several
    /// indices numbers their segments one after another (`aggs::multi_index`).
    pub segment_offset: u32,
}

impl HitsContext {
    pub fn new(searcher: &Searcher, index: &str, mapping: &Mapping, scale: f32) -> HitsContext {
        HitsContext {
            searcher: searcher.clone(),
            index: index.to_string(),
            id_field: mapping.id_field,
            source_field: mapping.source_field,
            routing_field: mapping.routing_field,
            scale,
            segment_offset: 0,
        }
    }
}

thread_local! {
    /// One context per index rendered, by ascending `segment_offset` (one for a plain search;
    /// the list keeps its capacity between renders, so installing allocates nothing).
    static CONTEXT: RefCell<Vec<HitsContext>> = const { RefCell::new(Vec::new()) };
}

/// Installs (or clears) the hits contexts for the renders that follow on this thread.
pub(crate) fn install(contexts: impl IntoIterator<Item = HitsContext>) {
    CONTEXT.with(|c| {
        let mut installed = c.borrow_mut();
        installed.clear();
        installed.extend(contexts);
    });
}

/// Runs `f` on the installed searchers, one per index rendered (`significant_*` read their
/// background counts from them).
pub(crate) fn with_searchers<R>(f: impl FnOnce(&[&Searcher]) -> R) -> R {
    CONTEXT.with(|c| {
        let contexts = c.borrow();
        let searchers: Vec<&Searcher> = contexts.iter().map(|ctx| &ctx.searcher).collect();
        f(&searchers)
    })
}

/// The context whose segments hold `address`, and the address within its own searcher.
fn context_of(contexts: &[HitsContext], address: DocAddress) -> Option<(&HitsContext, DocAddress)> {
    let ctx = contexts.iter().rev().find(|ctx| ctx.segment_offset <= address.segment_ord)?;
    Some((ctx, DocAddress::new(address.segment_ord - ctx.segment_offset, address.doc_id)))
}

pub struct TopHits;

impl Aggregation for TopHits {
    fn parse(def: &AggDef) -> Result<(AggKind, FieldRef)> {
        let spec = TopHitsSpec::parse(def.name, def.body, def.mapping, def.has_subs())?;
        Ok((AggKind::TopHits(Box::new(spec)), FieldRef::Field(def.field_name())))
    }

    fn render(&self, req: &AggRequest, fruit: &AggFruit) -> Value {
        match (&req.kind, fruit) {
            (AggKind::TopHits(spec), AggFruit::TopHits(hits)) => render_top_hits(spec, hits),
            _ => Value::Null,
        }
    }
}

impl TopHitsSpec {
    fn parse(name: &str, body: &Map<String, Value>, mapping: &Mapping, has_subs: bool) -> Result<Self> {
        if has_subs {
            return Err(EngineError::Parsing(format!(
                "Aggregator [{name}] of type [top_hits] cannot accept sub-aggregations"
            )));
        }
        let mut spec = TopHitsSpec {
            size: 3,
            from: 0,
            sort: None,
            source: SourceFilter::all(),
            track_scores: false,
            meta: Default::default(),
        };
        for (key, value) in body {
            let bad = || EngineError::XContentParse(format!("[top_hits] failed to parse field [{key}]"));
            match key.as_str() {
                "size" => spec.size = value.as_u64().ok_or_else(bad)? as usize,
                "from" => spec.from = value.as_u64().ok_or_else(bad)? as usize,
                "sort" => spec.sort = Some(parse_sort(value, mapping)?),
                "_source" => spec.source = SourceFilter::from_body(value)?,
                "track_scores" => spec.track_scores = value.as_bool().ok_or_else(bad)?,
                "version" => spec.meta.version = value.as_bool().ok_or_else(bad)?,
                "seq_no_primary_term" => spec.meta.seq_no_primary_term = value.as_bool().ok_or_else(bad)?,
                _ => return Err(EngineError::XContentParse(format!("[top_hits] unknown field [{key}]"))),
            }
        }
        let window = spec.from + spec.size;
        if window > MAX_INNER_RESULT_WINDOW {
            return Err(EngineError::shard(ShardCause::IllegalArgument, format!(
                "Top hits result window is too large, the top hits aggregator [{name}]'s from + size must be less than or equal to: [{MAX_INNER_RESULT_WINDOW}] but was [{window}]. This limit can be set by changing the [index.max_inner_result_window] index level setting."
            )));
        }
        Ok(spec)
    }

    fn specs(&self) -> Vec<SortSpec> {
        self.sort.clone().unwrap_or_else(|| vec![SortSpec::new(SortTarget::Score, Order::Desc)])
    }

    fn sorted_by_score(&self) -> bool {
        self.specs().iter().any(|s| s.target == SortTarget::Score)
    }

    pub(crate) fn needs_scores(&self) -> bool {
        self.track_scores || self.sorted_by_score()
    }

    pub(crate) fn collector(&self) -> TopHitsCollector {
        TopHitsCollector {
            specs: self.specs(),
            limit: self.from + self.size,
            scoring: self.needs_scores(),
            after: None,
            // Keys only order hits here (no `search_after`): any positive scale orders alike.
            scale: ES_SCORE_SCALE,
        }
    }
}

fn render_top_hits(spec: &TopHitsSpec, fruit: &TopHitsFruit) -> Value {
    let specs = spec.specs();
    // Same ordering and cut as the search's own merge of per-segment hits.
    let merged = spec.collector().merge_fruits(vec![fruit.clone()]).unwrap_or_else(|_| fruit.clone());
    let scoring = spec.needs_scores();
    let scale = CONTEXT.with(|c| c.borrow().first().map_or(ES_SCORE_SCALE, |ctx| ctx.scale));
    let max_score = match merged.max_score {
        Some(s) if scoring && merged.total > 0 => json!(s / scale),
        _ => Value::Null,
    };
    let hits: Vec<Value> = CONTEXT.with(|c| {
        let contexts = c.borrow();
        merged
            .hits
            .iter()
            .skip(spec.from)
            .filter_map(|hit| context_of(&contexts, hit.address).map(|(ctx, address)| (hit, ctx, address)))
            .map(|(hit, ctx, address)| {
                let doc: Option<TantivyDocument> = ctx.searcher.doc(address).ok();
                let id = doc.as_ref().and_then(|d| d.get_first(ctx.id_field)).and_then(|v| v.as_str()).unwrap_or("");
                let mut obj = Map::new();
                obj.insert("_index".into(), json!(ctx.index));
                obj.insert("_id".into(), json!(id));
                obj.insert("_score".into(), if scoring { json!(hit.score / ctx.scale) } else { Value::Null });
                let routing = ctx.routing_field.and_then(|f| doc.as_ref()?.get_first(f)).and_then(|v| v.as_str());
                if let Some(routing) = routing {
                    obj.insert("_routing".into(), json!(routing));
                }
                let raw = doc
                    .as_ref()
                    .and_then(|d| crate::store::mapping::stored_source_in(d, ctx.source_field))
                    .unwrap_or(b"{}");
                if let Some(source) = spec.source.apply(raw) {
                    obj.insert("_source".into(), serde_json::from_str(&source).unwrap_or(Value::Null));
                }
                if spec.sort.is_some() {
                    obj.insert("sort".into(), Value::Array(sort_values_json(hit, &specs, ctx.scale)));
                }
                if spec.meta.any() {
                    let members = format!("{{{}}}", &spec.meta.render(&ctx.searcher, address)[1..]);
                    if let Ok(Value::Object(meta)) = serde_json::from_str::<Value>(&members) {
                        obj.extend(meta);
                    }
                }
                Value::Object(obj)
            })
            .collect()
    });
    json!({ "hits": { "total": { "value": merged.total, "relation": "eq" }, "max_score": max_score, "hits": hits } })
}
