//! `collapse`: one hit per value of a keyword or numeric field (the best by the search's
//! sort), each showing the value in `fields`, with optional `inner_hits` per group (a search
//! of the group's own documents). Totals count every match, as ES's do. The page is found
//! from every match in sort order, so collapsing costs a full sort of the matches.

use serde_json::{json, Map, Value};
use tantivy::{DocAddress, Searcher};

use crate::error::{EngineError, Result, ShardCause};
use crate::hits::top_hits::Hit;
use crate::query::ast::{BoolAst, QueryAst};
use crate::store::mapping::{FieldType, Mapping};

#[derive(Debug, Clone, PartialEq)]
pub struct Collapse {
    pub field: String,
    column: String,
    field_type: FieldType,
    pub inner_hits: Vec<InnerHits>,
}

/// One `inner_hits` of a collapse: a named search within each group.
#[derive(Debug, Clone, PartialEq)]
pub struct InnerHits {
    pub name: String,
    /// The search body's own options (`size`, `from`, `sort`, `_source`).
    body: Map<String, Value>,
}

impl Collapse {
    pub fn parse(value: &Value, mapping: &Mapping) -> Result<Collapse> {
        let obj = value.as_object().ok_or_else(|| EngineError::Parsing("[collapse] must be an object".into()))?;
        if let Some(other) =
            obj.keys().find(|k| !matches!(k.as_str(), "field" | "inner_hits" | "max_concurrent_group_searches"))
        {
            return Err(EngineError::XContentParse(format!("[collapse] unknown field [{other}]")));
        }
        let field = obj
            .get("field")
            .and_then(Value::as_str)
            .ok_or_else(|| EngineError::Parsing("[collapse] requires [field]".into()))?;
        let fm = mapping.get(field).ok_or_else(|| {
            EngineError::shard(
                ShardCause::IllegalArgument,
                format!("no mapping found for `{field}` in order to collapse on"),
            )
        })?;
        if !(fm.field_type == FieldType::Keyword || fm.field_type.is_i64() || fm.field_type.is_f64()) {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!(
                    "collapse field `{field}` must be of type keyword or numeric but was [{}]",
                    fm.field_type.name()
                ),
            ));
        }
        let inner_hits = match obj.get("inner_hits") {
            None => Vec::new(),
            Some(Value::Array(items)) => items.iter().map(|i| InnerHits::parse(i, field)).collect::<Result<_>>()?,
            Some(one) => vec![InnerHits::parse(one, field)?],
        };
        Ok(Collapse {
            field: field.to_string(),
            column: mapping.schema.get_field_name(fm.field).to_string(),
            field_type: fm.field_type,
            inner_hits,
        })
    }

    /// The group key of a hit: the field's (first) value, `null` when it has none.
    pub fn key(&self, searcher: &Searcher, address: DocAddress) -> Value {
        let ff = searcher.segment_reader(address.segment_ord).fast_fields();
        let doc = address.doc_id;
        match self.field_type {
            FieldType::Keyword => ff.str(&self.column).ok().flatten().and_then(|c| {
                let ord = c.term_ords(doc).next()?;
                let mut text = String::new();
                c.ord_to_str(ord, &mut text).ok()?;
                Some(Value::String(text))
            }),
            FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
                ff.column_opt::<f64>(&self.column).ok().flatten().and_then(|c| c.first(doc)).map(Value::from)
            }
            _ => ff.column_opt::<i64>(&self.column).ok().flatten().and_then(|c| c.first(doc)).map(Value::from),
        }
        .unwrap_or(Value::Null)
    }

    /// The best hit of each group, in order, from the sorted matches, with its key.
    pub fn page(&self, searcher: &Searcher, hits: Vec<Hit>, from: usize, size: usize) -> Vec<(Hit, Value)> {
        let mut seen: Vec<Value> = Vec::new();
        let mut out = Vec::new();
        for hit in hits {
            if out.len() >= from + size {
                break;
            }
            let key = self.key(searcher, hit.address);
            if seen.contains(&key) {
                continue;
            }
            seen.push(key.clone());
            out.push((hit, key));
        }
        out.into_iter().skip(from).collect()
    }

    /// The search body of one group's inner hits: the search's query within the group.
    pub fn inner_body(&self, inner: &InnerHits, query: &QueryAst, key: &Value) -> (QueryAst, Map<String, Value>) {
        let in_group = match key {
            Value::Null => QueryAst::Bool(BoolAst {
                must_not: vec![QueryAst::Exists { field: self.field.clone() }],
                ..Default::default()
            }),
            value => QueryAst::Term { field: self.field.clone(), value: value.clone() },
        };
        let group = QueryAst::Bool(BoolAst { must: vec![query.clone()], filter: vec![in_group], ..Default::default() });
        (group, inner.body.clone())
    }
}

impl InnerHits {
    /// Named after the collapse field unless given a `name`.
    fn parse(value: &Value, field: &str) -> Result<InnerHits> {
        let obj = value.as_object().ok_or_else(|| EngineError::Parsing("[inner_hits] must be an object".into()))?;
        let mut body = Map::new();
        let mut name = None;
        for (key, v) in obj {
            match key.as_str() {
                "name" => {
                    name = Some(v.as_str().ok_or_else(|| EngineError::Parsing("[inner_hits] bad [name]".into()))?)
                }
                // Each group's hits are a search of their own, which reads these as `_search` does
                // (a `collapse` here collapses the group's hits again).
                "size"
                | "from"
                | "sort"
                | "_source"
                | "version"
                | "seq_no_primary_term"
                | "track_scores"
                | "fields"
                | "docvalue_fields"
                | "stored_fields"
                | "explain"
                | "highlight"
                | "script_fields"
                | "collapse" => {
                    // A group's own collapse takes only its field (ES's inner collapse parser).
                    if let Some(other) = (key == "collapse")
                        .then(|| v.as_object().and_then(|o| o.keys().find(|k| *k != "field")))
                        .flatten()
                    {
                        return Err(EngineError::XContentParse(format!("[collapse] unknown field [{other}]")));
                    }
                    body.insert(key.clone(), v.clone());
                }
                other => return Err(EngineError::XContentParse(format!("[inner_hits] unknown field [{other}]"))),
            }
        }
        body.entry("size").or_insert(json!(3));
        Ok(InnerHits { name: name.unwrap_or(field).to_string(), body })
    }
}
