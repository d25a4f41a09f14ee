//! The `term` suggester: each token of the analyzed text gets the index's terms within
//! `max_edits` (Lucene's `DirectSpellChecker`: a Levenshtein automaton with transpositions over
//! each segment's term dictionary, the first `prefix_length` characters fixed), filtered by
//! `suggest_mode`, `min_doc_freq`, `max_term_freq` and `accuracy`, scored by `string_distance`.

use std::collections::BTreeMap;

use levenshtein_automata::Distance;
use serde_json::{json, Map, Value};
use tantivy::schema::Field;
use tantivy::{Searcher, Term};

use crate::analysis::registry::AnalysisSettings;
use crate::analysis::token::Utf16Offsets;
use crate::error::{EngineError, Result, ShardCause};
use crate::query::tantivy::fuzzy_expansion::{builder, Prefixed};
use crate::store::index::IndexHandle;
use crate::store::mapping::FieldType;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SuggestMode {
    Missing,
    Popular,
    Always,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StringDistance {
    Internal,
    DamerauLevenshtein,
    Levenshtein,
}

#[derive(Debug, Clone)]
pub struct TermOptions {
    pub field: String,
    pub analyzer: Option<String>,
    pub size: usize,
    pub by_frequency: bool,
    pub mode: SuggestMode,
    pub max_edits: u8,
    pub prefix_length: usize,
    pub min_word_length: usize,
    pub min_doc_freq: f32,
    pub max_term_freq: f32,
    pub accuracy: f32,
    pub distance: StringDistance,
    pub lowercase_terms: bool,
}

fn illegal(reason: String) -> EngineError {
    EngineError::IllegalArgument(reason)
}

fn number(key: &str, value: &Value) -> Result<f64> {
    value
        .as_f64()
        .or_else(|| value.as_str().and_then(|s| s.parse().ok()))
        .ok_or_else(|| illegal(format!("[{key}] must be a number")))
}

impl TermOptions {
    pub fn defaults(field: String) -> TermOptions {
        TermOptions {
            field,
            analyzer: None,
            size: 5,
            by_frequency: false,
            mode: SuggestMode::Missing,
            max_edits: 2,
            prefix_length: 1,
            min_word_length: 4,
            min_doc_freq: 0.0,
            max_term_freq: 0.01,
            accuracy: 0.5,
            distance: StringDistance::Internal,
            lowercase_terms: false,
        }
    }

    /// Sets one of the options the term suggester and the phrase suggester's generators share;
    /// false when `key` is not one of them.
    pub fn set(&mut self, key: &str, value: &Value) -> Result<bool> {
        match key {
            "field" => self.field = value.as_str().unwrap_or_default().to_string(),
            "analyzer" => self.analyzer = Some(value.as_str().unwrap_or_default().to_string()),
            "size" => self.size = number(key, value)?.max(1.0) as usize,
            // One shard: the shard's own size changes nothing.
            "shard_size" | "max_inspections" => {
                number(key, value)?;
            }
            "sort" => {
                self.by_frequency = match value.as_str() {
                    Some("score") => false,
                    Some("frequency") => true,
                    _ => return Err(illegal(format!("Illegal suggest sort [{value}]"))),
                }
            }
            "suggest_mode" => {
                self.mode = match value.as_str() {
                    Some("missing") => SuggestMode::Missing,
                    Some("popular") => SuggestMode::Popular,
                    Some("always") => SuggestMode::Always,
                    _ => return Err(illegal(format!("Illegal suggest mode [{value}]"))),
                }
            }
            "max_edits" => {
                let edits = number(key, value)?;
                if !(1.0..=2.0).contains(&edits) {
                    return Err(illegal(format!("Illegal max_edits value: {edits}")));
                }
                self.max_edits = edits as u8;
            }
            "prefix_length" | "prefix_len" => self.prefix_length = number(key, value)? as usize,
            "min_word_length" | "min_word_len" => self.min_word_length = number(key, value)? as usize,
            "min_doc_freq" => self.min_doc_freq = number(key, value)? as f32,
            "max_term_freq" => self.max_term_freq = number(key, value)? as f32,
            "accuracy" => self.accuracy = number(key, value)? as f32,
            "lowercase_terms" => self.lowercase_terms = value.as_bool().unwrap_or(false),
            "string_distance" => {
                self.distance = match value.as_str() {
                    Some("internal") => StringDistance::Internal,
                    Some("damerau_levenshtein") => StringDistance::DamerauLevenshtein,
                    Some("levenshtein") | Some("levenstein") => StringDistance::Levenshtein,
                    Some(other @ ("jaro_winkler" | "ngram")) => {
                        return Err(illegal(format!("string_distance [{other}] is not supported")))
                    }
                    _ => return Err(illegal(format!("Illegal distance option {value}"))),
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub fn parse(body: &Map<String, Value>) -> Result<TermOptions> {
        let mut out = TermOptions::defaults(String::new());
        for (key, value) in body {
            if !out.set(key, value)? {
                return Err(EngineError::Parsing(format!("suggester[term] doesn't support field [{key}]")));
            }
        }
        if out.field.is_empty() {
            return Err(illegal("The required field option [field] is missing".into()));
        }
        Ok(out)
    }
}

/// A token of the text with its offsets (UTF-16) and the field's corrections.
pub struct Corrections {
    pub text: String,
    pub offset: usize,
    pub length: usize,
    /// (term, score, doc frequency), best first.
    pub options: Vec<(String, f32, u64)>,
}

/// The field a suggester reads, and the analyzer of its text.
pub fn field_and_analyzer(handle: &IndexHandle, opts: &TermOptions) -> Result<(Field, String)> {
    let fm = handle.mapping.get(&opts.field).ok_or_else(|| {
        EngineError::shard(ShardCause::IllegalArgument, format!("no mapping found for field [{}]", opts.field))
    })?;
    let default = match fm.field_type {
        FieldType::Text => "standard",
        FieldType::Keyword => "keyword",
        other => {
            return Err(EngineError::shard(
                ShardCause::IllegalArgument,
                format!("field [{}] of type [{}] has no terms to suggest from", opts.field, other.name()),
            ))
        }
    };
    Ok((fm.field, opts.analyzer.clone().unwrap_or_else(|| default.to_string())))
}

/// The tokens of `text` (UTF-16 offsets) by `analyzer`.
pub fn tokens(handle: &IndexHandle, analyzer: &str, text: &str) -> Result<Vec<(String, usize, usize)>> {
    let settings: &AnalysisSettings = &handle.settings.analysis.parsed;
    let analyzer = settings
        .analyzer(analyzer)
        .ok_or_else(|| EngineError::IllegalArgument(format!("analyzer [{analyzer}] doesn't exists")))?;
    let units = Utf16Offsets::new(text);
    Ok(analyzer.chain.analyze(text).into_iter().map(|t| (t.term, units.at(t.start), units.at(t.end))).collect())
}

pub fn doc_freq(searcher: &Searcher, field: Field, term: &str) -> Result<u64> {
    searcher.doc_freq(&Term::from_field_text(field, term)).map_err(|e| EngineError::Internal(e.to_string()))
}

pub fn suggest(handle: &IndexHandle, searcher: &Searcher, opts: &TermOptions, text: &str) -> Result<Vec<Corrections>> {
    let (field, analyzer) = field_and_analyzer(handle, opts)?;
    let mut out = Vec::new();
    for (term, start, end) in tokens(handle, &analyzer, text)? {
        let term = if opts.lowercase_terms { term.to_lowercase() } else { term };
        let options = candidates(searcher, field, opts, &term)?;
        out.push(Corrections { text: term, offset: start, length: end - start, options });
    }
    Ok(out)
}

/// Lucene's `DirectSpellChecker.suggestSimilar` for one term.
pub fn candidates(
    searcher: &Searcher,
    field: Field,
    opts: &TermOptions,
    term: &str,
) -> Result<Vec<(String, f32, u64)>> {
    let chars = term.chars().count();
    if chars < opts.min_word_length {
        return Ok(Vec::new());
    }
    let freq = doc_freq(searcher, field, term)?;
    if opts.mode == SuggestMode::Missing && freq > 0 {
        return Ok(Vec::new());
    }
    let max_doc = searcher.num_docs() as f32;
    let too_frequent = if opts.max_term_freq >= 1.0 {
        freq as f32 > opts.max_term_freq
    } else {
        freq as f32 > (opts.max_term_freq * max_doc).ceil()
    };
    if too_frequent {
        return Ok(Vec::new());
    }
    let mut threshold = if opts.mode == SuggestMode::Popular { freq } else { 0 };
    if opts.min_doc_freq >= 1.0 {
        threshold = threshold.max(opts.min_doc_freq as u64);
    } else if opts.min_doc_freq > 0.0 {
        threshold = threshold.max(((opts.min_doc_freq * max_doc) as u64).saturating_sub(1));
    }
    let prefix_at = term.char_indices().nth(opts.prefix_length).map_or(term.len(), |(i, _)| i);
    let (prefix, rest) = term.split_at(prefix_at);
    let dfa = builder(opts.max_edits, true).build_dfa(rest);
    let automaton = Prefixed { prefix: prefix.as_bytes(), dfa: &dfa };
    let mut found: BTreeMap<String, (u8, u64)> = BTreeMap::new();
    for reader in searcher.segment_readers() {
        let index = reader.inverted_index(field).map_err(|e| EngineError::Internal(e.to_string()))?;
        let mut stream =
            index.terms().search(&automaton).into_stream().map_err(|e| EngineError::Internal(e.to_string()))?;
        while stream.advance() {
            let key = stream.key();
            let Ok(candidate) = std::str::from_utf8(key) else { continue };
            let edits = match dfa.eval(&key[prefix.len()..]) {
                Distance::Exact(d) => d,
                Distance::AtLeast(_) => continue,
            };
            let entry = found.entry(candidate.to_string()).or_insert((edits, 0));
            entry.1 += u64::from(stream.value().doc_freq);
        }
    }
    let mut options: Vec<(String, f32, u64)> = found
        .into_iter()
        .filter(|(candidate, (_, df))| candidate != term && *df > threshold)
        .map(|(candidate, (edits, df))| {
            let score = score(opts.distance, term, &candidate, edits);
            (candidate, score, df)
        })
        .filter(|(_, score, _)| *score >= opts.accuracy)
        .collect();
    sort_options(&mut options, opts.by_frequency);
    options.truncate(opts.size);
    Ok(options)
}

pub fn sort_options(options: &mut [(String, f32, u64)], by_frequency: bool) {
    options.sort_by(|a, b| {
        let by_score = b.1.total_cmp(&a.1);
        let by_freq = b.2.cmp(&a.2);
        let (first, second) = if by_frequency { (by_freq, by_score) } else { (by_score, by_freq) };
        first.then(second).then_with(|| a.0.cmp(&b.0))
    });
}

fn score(distance: StringDistance, term: &str, candidate: &str, edits: u8) -> f32 {
    let (a, b): (Vec<char>, Vec<char>) = (term.chars().collect(), candidate.chars().collect());
    match distance {
        StringDistance::Internal => 1.0 - f32::from(edits) / a.len().min(b.len()).max(1) as f32,
        StringDistance::DamerauLevenshtein => {
            1.0 - edit_distance(&a, &b, true) as f32 / a.len().max(b.len()).max(1) as f32
        }
        StringDistance::Levenshtein => 1.0 - edit_distance(&a, &b, false) as f32 / a.len().max(b.len()).max(1) as f32,
    }
}

/// Levenshtein distance, with adjacent transpositions counted as one edit when asked.
fn edit_distance(a: &[char], b: &[char], transpositions: bool) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

pub fn render(entries: &[Corrections]) -> Value {
    Value::Array(
        entries
            .iter()
            .map(|e| {
                let options: Vec<Value> = e
                    .options
                    .iter()
                    .map(|(text, score, freq)| json!({"text": text, "score": score, "freq": freq}))
                    .collect();
                json!({"text": e.text, "offset": e.offset, "length": e.length, "options": options})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        let a: Vec<char> = "meetpu".chars().collect();
        let b: Vec<char> = "meetup".chars().collect();
        assert_eq!(edit_distance(&a, &b, true), 1);
        assert_eq!(edit_distance(&a, &b, false), 2);
        assert!((score(StringDistance::Internal, "amsterdma", "amsterdam", 1) - 0.8888889).abs() < 1e-6);
    }

    #[test]
    fn options_sort_by_score_then_frequency() {
        let mut options = vec![("b".to_string(), 0.5, 9), ("a".to_string(), 0.8, 1), ("c".to_string(), 0.5, 10)];
        sort_options(&mut options, false);
        assert_eq!(options.iter().map(|o| o.0.as_str()).collect::<Vec<_>>(), ["a", "c", "b"]);
        sort_options(&mut options, true);
        assert_eq!(options[0].0, "c");
    }
}
