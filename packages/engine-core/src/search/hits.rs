//! Rendering the page's hits: `_index`, `_id`, `_score`, then what the request asks each hit
//! to show (`_version`/`_seq_no`, `_explanation`, `_source`, `fields`, `highlight`,
//! `matched_queries`, a collapse group's `inner_hits`). `sort` and the closing brace are the
//! caller's, which owns the sort specs. Everything optional is prepared once per page, only
//! when the request asks for it.

use std::time::Instant;

use serde_json::{json, Map, Value};
use tantivy::query::{EnableScoring, Weight};
use tantivy::schema::Value as _;
use tantivy::{Searcher, TantivyDocument};

use super::collect_page::Page;
use super::named::NamedQueries;
use super::options::StoredFields;
use super::{lower_query, SearchRequest};
use crate::date::now_ms;
use crate::error::Result;
use crate::highlight::Highlighter;
use crate::hits::top_hits::Hit;
use crate::query::script_doc_values::{DocFields, SegmentDocValues};
use crate::script::{Script, Val};
use crate::store::hit_fields::HitFields;
use crate::store::index::IndexHandle;

pub struct HitsRender<'a> {
    handle: &'a IndexHandle,
    searcher: &'a Searcher,
    req: &'a SearchRequest,
    scale: f32,
    index_json: String,
    highlighter: Option<Highlighter>,
    named: Option<NamedQueries>,
    fields: Option<HitFields<'a>>,
    explain: Option<Box<dyn Weight>>,
    /// With `explain` and `rescore`: each rescore query's weight, and the rescorers' windows.
    rescore: Vec<Box<dyn Weight>>,
    rescored: &'a [Vec<tantivy::DocAddress>],
    collapse_keys: Option<&'a [Value]>,
    script_fields: Vec<(&'a str, &'a Script, DocFields)>,
}

impl<'a> HitsRender<'a> {
    pub fn prepare(
        handle: &'a IndexHandle,
        searcher: &'a Searcher,
        req: &'a SearchRequest,
        page: &'a Page,
        scale: f32,
    ) -> Result<HitsRender<'a>> {
        // Prepared only when there is a hit to show, as ES's fetch phase (type errors included).
        let any = page.hits().next().is_some();
        let highlighter = match &req.highlight {
            Some(h) if any => Some(h.prepare(&req.query, &handle.mapping, now_ms())?),
            _ => None,
        };
        let named = if any { NamedQueries::prepare(handle, searcher, &req.query)? } else { None };
        let fields = if any {
            HitFields::prepare(&req.opts.docvalue_fields, &req.opts.fields, &handle.mapping, &handle.name)?
        } else {
            None
        };
        let explain = if any && req.opts.explain {
            Some(lower_query(handle, &req.query)?.weight(EnableScoring::enabled_from_searcher(searcher))?)
        } else {
            None
        };
        let rescore = match &explain {
            Some(_) => req
                .opts
                .rescore
                .iter()
                .map(|r| {
                    lower_query(handle, &r.query)?
                        .weight(EnableScoring::enabled_from_searcher(searcher))
                        .map_err(Into::into)
                })
                .collect::<Result<Vec<_>>>()?,
            None => Vec::new(),
        };
        let script_fields = req
            .opts
            .script_fields
            .iter()
            .map(|(name, script)| Ok((name.as_str(), script, DocFields::resolve(script, &handle.mapping)?)))
            .collect::<Result<Vec<_>>>()?;
        Ok(HitsRender {
            handle,
            searcher,
            req,
            scale,
            index_json: serde_json::to_string(&handle.name).unwrap(),
            highlighter,
            named,
            fields,
            explain,
            rescore,
            rescored: &page.rescored,
            collapse_keys: page.collapse_keys.as_deref(),
            script_fields,
        })
    }

    /// Writes the `i`-th hit of the page up to, not including, `sort` and the closing brace.
    pub fn render(&self, out: &mut String, hit: &Hit, i: usize, scoring: bool) -> Result<()> {
        let (handle, req) = (self.handle, self.req);
        let doc: TantivyDocument = self.searcher.doc(hit.address)?;
        let id = doc.get_first(handle.mapping.id_field).and_then(|v| v.as_str()).unwrap_or_default();
        out.push_str(r#"{"_index":"#);
        out.push_str(&self.index_json);
        let stored = req.opts.stored_fields.as_ref();
        if !matches!(stored, Some(StoredFields::None)) {
            out.push_str(r#","_id":"#);
            out.push_str(&serde_json::to_string(id).unwrap());
        }
        out.push_str(r#","_score":"#);
        if scoring {
            out.push_str(&serde_json::to_string(&(hit.score / self.scale)).unwrap());
        } else {
            out.push_str("null");
        }
        out.push_str(&req.opts.meta.render(self.searcher, hit.address));
        if let Some(routing) = handle.mapping.routing_field.and_then(|f| doc.get_first(f)).and_then(|v| v.as_str()) {
            out.push_str(r#","_routing":"#);
            crate::store::index::push_json_str(out, routing);
        }
        crate::store::ignored::push_ignored(&handle.mapping, &doc, out);
        if let Some(weight) = &self.explain {
            let reader = self.searcher.segment_reader(hit.address.segment_ord);
            if let Ok(explanation) = weight.explain(reader, hit.address.doc_id) {
                let mut tree = serde_json::to_value(&explanation).unwrap_or(Value::Null);
                shown_scale(&mut tree, self.scale);
                if !self.rescore.is_empty() {
                    let doc = hit.address.doc_id;
                    let mut second = |i: usize| {
                        let mut explained = serde_json::to_value(self.rescore[i].explain(reader, doc).ok()?).ok()?;
                        shown_scale(&mut explained, self.scale);
                        Some(explained)
                    };
                    tree = super::rescore::explain(&req.opts.rescore, self.rescored, hit.address, tree, &mut second);
                }
                out.push_str(&format!(r#","_shard":"[{}][0]","_node":"everycell","_explanation":{tree}"#, handle.name));
            }
        }
        // The stored bytes are the document exactly as sent (validated JSON at index time).
        let kept = handle.mapping.stored_source(&doc);
        let raw = kept.unwrap_or(b"{}");
        let source_shown = kept.is_some()
            && match stored {
                None => true,
                Some(StoredFields::None) => false,
                Some(StoredFields::List(names)) => names.iter().any(|n| n == "_source"),
            };
        if let Some(source) = req.source.apply(raw).filter(|_| source_shown) {
            out.push_str(r#","_source":"#);
            out.push_str(&source);
        }
        let mut fields = self.fields.as_ref().and_then(|f| f.render(self.searcher, hit.address, raw));
        if let (Some(StoredFields::List(names)), Some(kept)) = (stored, kept) {
            if let Some(Value::Object(values)) = crate::store::hit_fields::stored_fields(&handle.mapping, names, kept) {
                let obj = fields.get_or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(obj) = obj {
                    obj.extend(values);
                }
            }
        }
        if let (Some(keys), Some(collapse)) = (self.collapse_keys, &req.opts.collapse) {
            let obj = fields.get_or_insert_with(|| Value::Object(Map::new()));
            obj[collapse.field.as_str()] = json!([keys[i]]);
        }
        for (name, script, doc_fields) in &self.script_fields {
            let reader = self.searcher.segment_reader(hit.address.segment_ord);
            let values = SegmentDocValues::open(doc_fields, reader)?;
            let value = match values.run(script, hit.address.doc_id)? {
                Val::Int(i) => json!(i),
                Val::Num(n) => json!(n),
                Val::Bool(b) => json!(b),
                Val::Null => Value::Null,
            };
            let obj = fields.get_or_insert_with(|| Value::Object(Map::new()));
            obj[*name] = json!([value]);
        }
        if let Some(fields) = fields {
            out.push_str(r#","fields":"#);
            out.push_str(&fields.to_string());
        }
        if let Some(highlighter) = &self.highlighter {
            let limit = handle.settings.limits.highlight_max_analyzed_offset;
            highlighter.check_analyzed_length(raw, limit, &handle.name, id)?;
        }
        if let Some(fragments) = self.highlighter.as_ref().and_then(|h| h.render(raw)) {
            out.push_str(r#","highlight":"#);
            out.push_str(&fragments);
        }
        if let Some(named) = &self.named {
            let names = named.matched(self.searcher, hit.address)?;
            if !names.is_empty() {
                out.push_str(r#","matched_queries":"#);
                out.push_str(&serde_json::to_string(&names).unwrap());
            }
        }
        if let (Some(keys), Some(collapse)) = (self.collapse_keys, &req.opts.collapse) {
            if !collapse.inner_hits.is_empty() {
                let mut inner = Map::new();
                for spec in &collapse.inner_hits {
                    let (query, body) = collapse.inner_body(spec, &req.query, &keys[i]);
                    let mut sub = SearchRequest::inner(query, &body, handle)?;
                    // Group hits show their total as the outer search shows its own.
                    sub.opts.rest_total_hits_as_int = req.opts.rest_total_hits_as_int;
                    let executed =
                        super::execute(handle, self.searcher, &sub, Instant::now(), &super::Render::default())?;
                    let reply: Value = serde_json::from_str(&executed.body).unwrap_or(Value::Null);
                    inner.insert(spec.name.clone(), json!({ "hits": reply["hits"] }));
                }
                out.push_str(r#","inner_hits":"#);
                out.push_str(&Value::Object(inner).to_string());
            }
        }
        Ok(())
    }
}

/// The explanation's score on the shown scale. Its details are tantivy's own factors
/// (idf, term frequency, field length), on tantivy's scale: they explain how the score was
/// reached, not ES's exact decomposition.
fn shown_scale(node: &mut Value, scale: f32) {
    if let Some(v) = node.get("value").and_then(Value::as_f64) {
        node["value"] = json!(v as f32 / scale);
    }
}
