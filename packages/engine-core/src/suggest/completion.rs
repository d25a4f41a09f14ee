//! The `completion` suggester: the analyzed prefix looked up as one term-dictionary range per
//! context the query accepts (`completion_field.rs` lays the terms out), each live document kept
//! once with its best-scoring input (weight times the context's boost), best first, as Lucene's
//! `TopSuggestGroupDocsCollector` keeps them; `skip_duplicates` drops repeated texts.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::{json, Map, Value};
use tantivy::schema::{IndexRecordOption, Value as _};
use tantivy::{DocAddress, DocSet, Searcher, TantivyDocument, TERMINATED};

use crate::completion::contexts::{describe, query_contexts, QueryContext};
use crate::completion::field::{analyzed, split_term, CompletionField, CONTEXT_END};
use crate::error::{EngineError, Result, ShardCause};
use crate::store::index::IndexHandle;
use crate::store::source_filter::SourceFilter;

#[derive(Debug, Clone)]
pub struct CompletionOptions {
    pub field: String,
    pub size: usize,
    pub skip_duplicates: bool,
    pub contexts: Option<Value>,
}

fn bad(reason: String) -> EngineError {
    EngineError::Parsing(reason)
}

impl CompletionOptions {
    pub fn parse(body: &Map<String, Value>) -> Result<CompletionOptions> {
        let mut out = CompletionOptions { field: String::new(), size: 5, skip_duplicates: false, contexts: None };
        for (key, value) in body {
            match key.as_str() {
                "field" => out.field = value.as_str().unwrap_or_default().to_string(),
                "size" => {
                    out.size = value
                        .as_u64()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| EngineError::IllegalArgument("[size] must be a positive integer".into()))?
                        as usize
                }
                "skip_duplicates" => {
                    out.skip_duplicates =
                        value.as_bool().ok_or_else(|| bad("[skip_duplicates] must be a boolean".into()))?
                }
                "contexts" => out.contexts = Some(value.clone()),
                // These change which suggestions match; refused rather than ignored.
                "fuzzy" | "regex" | "analyzer" | "shard_size" => {
                    return Err(EngineError::IllegalArgument(format!("[completion] option [{key}] is not supported")))
                }
                other => return Err(bad(format!("[completion] unknown field [{other}]"))),
            }
        }
        if out.field.is_empty() {
            return Err(EngineError::IllegalArgument("suggestion requires [field] to be set".into()));
        }
        Ok(out)
    }
}

/// One suggestion found: its document, score, text and the contexts it matched with.
#[derive(Debug, Clone)]
pub struct Found {
    pub score: f32,
    pub text: String,
    pub address: DocAddress,
    pub contexts: BTreeMap<String, BTreeSet<String>>,
}

/// The suggestions of one index for `prefix`, best first (at most `size`, duplicates removed
/// when asked), rendered as ES's options.
pub fn suggest(
    handle: &IndexHandle,
    searcher: &Searcher,
    opts: &CompletionOptions,
    prefix: &str,
    source: &SourceFilter,
) -> Result<Vec<(f32, String, Value)>> {
    let field = handle.mapping.completions.get(&opts.field).ok_or_else(|| {
        let reason = match handle.mapping.get(&opts.field) {
            Some(_) => format!("Field [{}] is not a completion suggest field", opts.field),
            None => format!("no mapping found for field [{}]", opts.field),
        };
        EngineError::shard(ShardCause::IllegalArgument, reason)
    })?;
    let found = find(searcher, field, opts, prefix)?;
    found
        .into_iter()
        .map(|f| {
            let option = render(handle, searcher, &f, source)?;
            Ok((f.score, f.text, option))
        })
        .collect()
}

fn find(searcher: &Searcher, field: &CompletionField, opts: &CompletionOptions, prefix: &str) -> Result<Vec<Found>> {
    let spec = &field.spec;
    let contexts = if spec.contexts.is_empty() {
        if opts.contexts.is_some() {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                "suggester [completion] doesn't expect any context",
            ));
        }
        vec![QueryContext { mapping: usize::MAX, value: String::new(), prefix: false, boost: 1.0 }]
    } else {
        let found = query_contexts(&spec.contexts, opts.contexts.as_ref())
            .map_err(|e| EngineError::shard(ShardCause::IllegalArgument, e.to_string()))?;
        if found.is_empty() {
            return Err(EngineError::shard(ShardCause::IllegalArgument, "Missing mandatory contexts in context query"));
        }
        found
    };
    let form = analyzed(&spec.search_analyzer, spec.preserve_separators, prefix);
    // Per document: its best suggestion.
    let mut best: HashMap<DocAddress, Found> = HashMap::new();
    for (segment_ord, reader) in searcher.segment_readers().iter().enumerate() {
        let index = reader.inverted_index(field.field).map_err(|e| EngineError::Internal(e.to_string()))?;
        let alive = reader.alive_bitset();
        for ctx in &contexts {
            let tag = if ctx.mapping == usize::MAX {
                String::new()
            } else {
                format!("{}{}", (b'a' + ctx.mapping as u8) as char, ctx.value)
            };
            // An exact context is one range; a prefix context ranges over every context it starts.
            let start = if ctx.prefix { tag.clone() } else { format!("{tag}{CONTEXT_END}{form}") };
            let mut end = start.clone().into_bytes();
            end.push(0xFF);
            let mut stream = index
                .terms()
                .range()
                .ge(start.as_bytes())
                .lt(&end)
                .into_stream()
                .map_err(|e| EngineError::Internal(e.to_string()))?;
            while stream.advance() {
                let Some(term) = split_term(stream.key()) else { continue };
                if ctx.prefix && !term.analyzed.starts_with(&form) {
                    continue;
                }
                let score = term.weight as f32 * ctx.boost;
                let mut postings = index
                    .read_postings_from_terminfo(stream.value(), IndexRecordOption::Basic)
                    .map_err(|e| EngineError::Internal(e.to_string()))?;
                let mut doc = postings.doc();
                while doc != TERMINATED {
                    if alive.is_none_or(|a| a.is_alive(doc)) {
                        let address = DocAddress::new(segment_ord as u32, doc);
                        let entry = best.entry(address).or_insert_with(|| Found {
                            score,
                            text: term.text.to_string(),
                            address,
                            contexts: BTreeMap::new(),
                        });
                        if score > entry.score || (score == entry.score && term.text < entry.text.as_str()) {
                            entry.score = score;
                            entry.text = term.text.to_string();
                        }
                        if let Some((name, value)) = describe(&spec.contexts, term.context) {
                            entry.contexts.entry(name.to_string()).or_default().insert(value.to_string());
                        }
                    }
                    doc = postings.advance();
                }
            }
        }
    }
    let mut found: Vec<Found> = best.into_values().collect();
    found.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.text.cmp(&b.text)).then(a.address.cmp(&b.address)));
    if opts.skip_duplicates {
        let mut seen = BTreeSet::new();
        found.retain(|f| seen.insert(f.text.clone()));
    }
    found.truncate(opts.size);
    Ok(found)
}

fn render(handle: &IndexHandle, searcher: &Searcher, found: &Found, source: &SourceFilter) -> Result<Value> {
    let doc: TantivyDocument = searcher.doc(found.address).map_err(|e| EngineError::Internal(e.to_string()))?;
    let id = doc.get_first(handle.mapping.id_field).and_then(|v| v.as_str()).unwrap_or_default().to_string();
    let mut option = Map::new();
    option.insert("text".into(), json!(found.text));
    option.insert("_index".into(), json!(handle.name));
    option.insert("_id".into(), json!(id));
    option.insert("_score".into(), json!(found.score));
    let raw = handle.mapping.stored_source(&doc).unwrap_or(b"{}");
    if let Some(text) = source.apply(raw) {
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        option.insert("_source".into(), value);
    }
    if !found.contexts.is_empty() {
        option.insert("contexts".into(), json!(found.contexts));
    }
    Ok(Value::Object(option))
}
