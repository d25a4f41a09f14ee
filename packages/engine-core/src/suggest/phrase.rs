//! The `phrase` suggester over a field without shingles (`gram_size` 1): ES's noisy-channel
//! model. Each token's candidates are the token itself (channel probability
//! `real_word_error_likelihood`) and the direct generators' corrections (channel probability
//! their string similarity); a word scores `channel * (freq + 1) / (tokens + terms)`, a phrase
//! the sum of its words' log10 scores. Phrases with at most `max_errors` corrections that
//! score above the input's score plus log10(`confidence`) are kept, best first.
//!
//! Shingle language models (`gram_size` > 1), `smoothing` and `collate` are refused.

use serde_json::{json, Map, Value};
use tantivy::Searcher;

use super::term::{self, SuggestMode, TermOptions};
use crate::error::{EngineError, Result};
use crate::store::index::IndexHandle;

#[derive(Debug, Clone)]
pub struct PhraseOptions {
    pub field: String,
    pub analyzer: Option<String>,
    pub size: usize,
    pub real_word_error_likelihood: f64,
    pub confidence: f64,
    pub max_errors: f64,
    pub separator: String,
    pub highlight: Option<(String, String)>,
    pub generators: Vec<TermOptions>,
    /// `token_limit`: a text of more tokens gets no corrections, as in ES.
    pub token_limit: usize,
}

/// Corrections per phrase this engine enumerates exhaustively (ES prunes a search instead):
/// more is refused rather than cut short.
const MAX_CORRECTIONS: f64 = 4.0;

fn illegal(reason: String) -> EngineError {
    EngineError::IllegalArgument(reason)
}

fn number(key: &str, value: &Value) -> Result<f64> {
    value
        .as_f64()
        .or_else(|| value.as_str().and_then(|s| s.parse().ok()))
        .ok_or_else(|| illegal(format!("[{key}] must be a number")))
}

impl PhraseOptions {
    pub fn parse(body: &Map<String, Value>) -> Result<PhraseOptions> {
        let mut out = PhraseOptions {
            field: String::new(),
            analyzer: None,
            size: 5,
            real_word_error_likelihood: 0.95,
            confidence: 1.0,
            max_errors: 1.0,
            separator: " ".into(),
            highlight: None,
            generators: Vec::new(),
            token_limit: 10,
        };
        for (key, value) in body {
            match key.as_str() {
                "field" => out.field = value.as_str().unwrap_or_default().to_string(),
                "analyzer" => out.analyzer = value.as_str().map(str::to_string),
                "size" => out.size = number(key, value)?.max(1.0) as usize,
                "shard_size" => {
                    number(key, value)?;
                }
                "token_limit" => out.token_limit = number(key, value)?.max(1.0) as usize,
                "real_word_error_likelihood" => out.real_word_error_likelihood = number(key, value)?,
                "confidence" => out.confidence = number(key, value)?,
                "max_errors" => {
                    out.max_errors = number(key, value)?;
                    if out.max_errors > MAX_CORRECTIONS {
                        return Err(illegal(format!("[max_errors] above [{MAX_CORRECTIONS}] is not supported")));
                    }
                }
                "separator" => out.separator = value.as_str().unwrap_or(" ").to_string(),
                "gram_size" if number(key, value)? == 1.0 => {}
                "force_unigrams" if value.as_bool().is_some() => {}
                "highlight" => {
                    let pre = value.get("pre_tag").and_then(Value::as_str);
                    let post = value.get("post_tag").and_then(Value::as_str);
                    match (pre, post) {
                        (Some(pre), Some(post)) => out.highlight = Some((pre.into(), post.into())),
                        _ => return Err(illegal("Pre and post tag must both be null or both not be null.".into())),
                    }
                }
                "direct_generator" => {
                    for def in value.as_array().into_iter().flatten() {
                        let def = def
                            .as_object()
                            .ok_or_else(|| illegal("[direct_generator] entries must be objects".into()))?;
                        let mut generator = TermOptions::defaults(String::new());
                        for (k, v) in def {
                            if matches!(k.as_str(), "pre_filter" | "post_filter") || !generator.set(k, v)? {
                                return Err(illegal(format!("[direct_generator] option [{k}] is not supported")));
                            }
                        }
                        if generator.field.is_empty() {
                            return Err(illegal("[direct_generator] requires [field]".into()));
                        }
                        out.generators.push(generator);
                    }
                }
                other @ ("gram_size" | "smoothing" | "collate" | "force_unigrams") => {
                    return Err(illegal(format!(
                        "[phrase] option [{other}] is not supported: only unigram models are built"
                    )))
                }
                other => {
                    return Err(EngineError::Parsing(format!("suggester[phrase] doesn't support field [{other}]")))
                }
            }
        }
        if out.field.is_empty() {
            return Err(illegal("The required field option [field] is missing".into()));
        }
        if out.generators.is_empty() {
            let mut generator = TermOptions::defaults(out.field.clone());
            generator.mode = SuggestMode::Always;
            out.generators.push(generator);
        }
        Ok(out)
    }
}

/// One word choice: its text, whether it is a correction, and its log10 score.
struct Choice {
    text: String,
    corrected: bool,
    score: f64,
}

pub fn suggest(handle: &IndexHandle, searcher: &Searcher, opts: &PhraseOptions, text: &str) -> Result<Value> {
    let mut base = TermOptions::defaults(opts.field.clone());
    base.analyzer = opts.analyzer.clone();
    let (field, analyzer) = term::field_and_analyzer(handle, &base)?;
    let tokens = term::tokens(handle, &analyzer, text)?;
    // The language model's denominator: the field's tokens plus its distinct terms.
    let mut total = 0u64;
    for reader in searcher.segment_readers() {
        let index = reader.inverted_index(field).map_err(|e| EngineError::Internal(e.to_string()))?;
        total += index.total_num_tokens() + index.terms().num_terms() as u64;
    }
    let word = |channel: f64, freq: u64| (channel * (freq as f64 + 1.0) / (total as f64 + 1.0)).log10();
    let mut slots: Vec<Vec<Choice>> = Vec::new();
    for (token, _, _) in &tokens {
        let freq = term::doc_freq(searcher, field, token)?;
        let mut choices =
            vec![Choice { text: token.clone(), corrected: false, score: word(opts.real_word_error_likelihood, freq) }];
        for generator in &opts.generators {
            let (gen_field, _) = term::field_and_analyzer(handle, generator)?;
            for (candidate, similarity, freq) in term::candidates(searcher, gen_field, generator, token)? {
                if choices.iter().all(|c| c.text != candidate) {
                    choices.push(Choice { text: candidate, corrected: true, score: word(f64::from(similarity), freq) });
                }
            }
        }
        slots.push(choices);
    }
    if tokens.len() > opts.token_limit {
        slots.iter_mut().for_each(|c| c.truncate(1));
    }
    let input_score: f64 = slots.iter().map(|c| c[0].score).sum();
    let max_errors = if opts.max_errors >= 1.0 {
        opts.max_errors as usize
    } else {
        ((opts.max_errors * tokens.len() as f64) as usize).max(1)
    };
    let cutoff = input_score + opts.confidence.log10();
    let mut phrases: Vec<(Vec<usize>, f64)> = Vec::new();
    let mut picks = vec![0usize; slots.len()];
    enumerate(&slots, 0, max_errors, &mut picks, &mut phrases);
    let mut options: Vec<(String, Option<String>, f64)> = phrases
        .into_iter()
        .filter_map(|(picks, _)| {
            let score: f64 = picks.iter().enumerate().map(|(i, &p)| slots[i][p].score).sum();
            if score <= cutoff || picks.iter().all(|&p| p == 0) {
                return None;
            }
            let words: Vec<&str> = picks.iter().enumerate().map(|(i, &p)| slots[i][p].text.as_str()).collect();
            let highlighted = opts.highlight.as_ref().map(|(pre, post)| {
                picks
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| {
                        let choice = &slots[i][p];
                        if choice.corrected {
                            format!("{pre}{}{post}", choice.text)
                        } else {
                            choice.text.clone()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(&opts.separator)
            });
            Some((words.join(&opts.separator), highlighted, score))
        })
        .collect();
    options.sort_by(|a, b| b.2.total_cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
    options.truncate(opts.size);
    let options: Vec<Value> = options
        .into_iter()
        .map(|(text, highlighted, score)| {
            let mut o = json!({"text": text, "score": 10f64.powf(score) as f32});
            if let Some(h) = highlighted {
                o["highlighted"] = json!(h);
            }
            o
        })
        .collect();
    let length = crate::analysis::token::Utf16Offsets::new(text).len();
    Ok(json!([{"text": text, "offset": 0, "length": length, "options": options}]))
}

/// Every choice of one word per slot with at most `errors_left` corrections.
fn enumerate(
    slots: &[Vec<Choice>],
    at: usize,
    errors_left: usize,
    picks: &mut Vec<usize>,
    out: &mut Vec<(Vec<usize>, f64)>,
) {
    if at == slots.len() {
        out.push((picks.clone(), 0.0));
        return;
    }
    for (i, choice) in slots[at].iter().enumerate() {
        if choice.corrected && errors_left == 0 {
            continue;
        }
        picks[at] = i;
        enumerate(slots, at + 1, errors_left - usize::from(choice.corrected), picks, out);
    }
    picks[at] = 0;
}
