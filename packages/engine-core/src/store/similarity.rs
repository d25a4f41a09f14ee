//! Similarities: how text and keyword matches score, set per index
//! (`index.similarity.default`), named (`index.similarity.<name>`, referenced by a field's
//! `similarity` mapping parameter) or built in (`BM25`, `boolean`, and `LegacyBM25`).
//!
//! - `BM25` is Elasticsearch 8's (Lucene's `BM25Similarity`), with `k1` and `b`.
//! - `LegacyBM25` is the scale OpenSearch 2.x scores its own `BM25` on (Lucene's
//!   `LegacyBM25Similarity`): the same ranking, every score `k1 + 1` times higher. OpenSearch
//!   3 names it so; OpenSearch 2.19 refuses the name and gives it to every index by default,
//!   so an index created here with `LegacyBM25` scores like an OpenSearch 2.19 index with
//!   `BM25` (or no similarity setting at all).
//! - `boolean`: a match scores its query boost (1 per matching term), nothing else.
//!
//! tantivy's term and phrase scorers compute the legacy scale with `k1 = 1.2`, `b = 0.75`.
//! Scores travel through a search on an internal scale, `scale()` times what is shown; the
//! index's default similarity picks the scale so that its plain terms need no rescaling
//! (2.2 for ES 8's BM25, 1 for the legacy one). A field whose similarity differs gets a
//! boost, a constant, or our own BM25 scorer for other `k1`/`b` (`tantivy/bm25_term.rs`).

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::error::{EngineError, Result};
use crate::store::mapping::Mapping;

/// Lucene's defaults.
const K1: f32 = 1.2;
const B: f32 = 0.75;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SimilarityKind {
    Bm25,
    LegacyBm25,
    Boolean,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Similarity {
    pub kind: SimilarityKind,
    pub k1: f32,
    pub b: f32,
}

impl Similarity {
    const BM25: Similarity = Similarity { kind: SimilarityKind::Bm25, k1: K1, b: B };

    fn builtin(name: &str) -> Option<Similarity> {
        let kind = match name {
            "BM25" => SimilarityKind::Bm25,
            "LegacyBM25" => SimilarityKind::LegacyBm25,
            "boolean" => SimilarityKind::Boolean,
            _ => return None,
        };
        Some(Similarity { kind, k1: K1, b: B })
    }
}

/// How a term (or phrase) query on a field scores, given the search's internal scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TermScoring {
    /// tantivy's own scorer, as it is.
    Native,
    /// tantivy's scorer times this factor (a boost keeps tantivy's block-max pruning).
    Boosted(f32),
    /// Every match scores this (times the query boost).
    Constant(f32),
    /// BM25 with these parameters, times `factor`.
    Custom { k1: f32, b: f32, factor: f32 },
}

/// `index.similarity.*` as given (`settings` keeps them for `GET _settings`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Similarities {
    raw: BTreeMap<String, Map<String, Value>>,
    named: BTreeMap<String, Similarity>,
}

impl Similarities {
    /// One flattened setting below `index.similarity.`, e.g. `default.type` -> `BM25`.
    pub fn set(&mut self, key: &str, value: &Value) -> Result<()> {
        let (name, option) = key.split_once('.').ok_or_else(|| {
            EngineError::IllegalArgument(format!("Similarity [{key}] must have a type: index.similarity.{key}.type"))
        })?;
        self.raw.entry(name.to_string()).or_default().insert(option.to_string(), value.clone());
        Ok(())
    }

    /// Checks and resolves what `set` collected, as ES does when it creates the index.
    pub fn validate(&mut self) -> Result<()> {
        for (name, options) in &self.raw {
            let type_name = options.get("type").and_then(Value::as_str).ok_or_else(|| {
                EngineError::IllegalArgument(format!("Similarity [{name}] must have an associated type"))
            })?;
            let mut sim = Similarity::builtin(type_name).ok_or_else(|| {
                EngineError::IllegalArgument(format!("Unknown Similarity type [{type_name}] for [{name}]"))
            })?;
            let number = |key: &str, v: &Value| {
                v.as_f64().or_else(|| v.as_str().and_then(|s| s.parse().ok())).map(|f| f as f32).ok_or_else(|| {
                    EngineError::IllegalArgument(format!(
                        "Failed to parse value [{v}] for setting [index.similarity.{name}.{key}]"
                    ))
                })
            };
            for (key, value) in options {
                match (key.as_str(), sim.kind) {
                    ("type", _) => {}
                    ("k1", SimilarityKind::Bm25 | SimilarityKind::LegacyBm25) => sim.k1 = number(key, value)?,
                    ("b", SimilarityKind::Bm25 | SimilarityKind::LegacyBm25) => sim.b = number(key, value)?,
                    // Overlapping tokens (synonyms at one position) do not exist here.
                    ("discount_overlaps", SimilarityKind::Bm25 | SimilarityKind::LegacyBm25)
                        if value == true || value == "true" => {}
                    _ => {
                        return Err(EngineError::IllegalArgument(format!(
                            "Unknown settings for similarity of type [{type_name}]: [{key}]"
                        )))
                    }
                }
            }
            if sim.k1 < 0.0 || !(0.0..=1.0).contains(&sim.b) {
                return Err(EngineError::IllegalArgument(format!(
                    "illegal k1 [{}] or b [{}] for similarity [{name}]: k1 must be >= 0, b in [0, 1]",
                    sim.k1, sim.b
                )));
            }
            self.named.insert(name.clone(), sim);
        }
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// Every field's `similarity` names a built-in or a similarity of this index.
    pub fn check_mapping(&self, mapping: &Mapping) -> Result<()> {
        for fm in mapping.fields.values() {
            if let Some(name) = &fm.similarity {
                if self.lookup(name).is_none() {
                    return Err(EngineError::MapperParsing(format!(
                        "Failed to parse mapping: Unknown Similarity type [{name}] for field [{}]",
                        fm.name
                    )));
                }
            }
        }
        Ok(())
    }

    fn lookup(&self, name: &str) -> Option<Similarity> {
        self.named.get(name).copied().or_else(|| Similarity::builtin(name))
    }

    /// The index's default: `index.similarity.default`, else ES 8's BM25.
    pub fn default_similarity(&self) -> Similarity {
        self.named.get("default").copied().unwrap_or(Similarity::BM25)
    }

    /// Internal scores are this times the scores shown.
    pub fn scale(&self) -> f32 {
        match self.default_similarity().kind {
            SimilarityKind::LegacyBm25 => 1.0,
            _ => ES_SCORE_SCALE,
        }
    }

    /// How a field with this `similarity` mapping parameter (or none) scores a term.
    pub fn term_scoring(&self, field_similarity: Option<&str>) -> TermScoring {
        let sim = field_similarity.and_then(|name| self.lookup(name)).unwrap_or_else(|| self.default_similarity());
        let scale = self.scale();
        match sim.kind {
            SimilarityKind::Boolean => TermScoring::Constant(scale),
            kind if sim.k1 == K1 && sim.b == B => {
                // tantivy's scorer is the legacy scale: ES 8's BM25 is it divided by k1 + 1.
                let factor = if kind == SimilarityKind::Bm25 { scale / (K1 + 1.0) } else { scale };
                if factor == 1.0 {
                    TermScoring::Native
                } else {
                    TermScoring::Boosted(factor)
                }
            }
            SimilarityKind::Bm25 => TermScoring::Custom { k1: sim.k1, b: sim.b, factor: scale },
            SimilarityKind::LegacyBm25 => TermScoring::Custom { k1: sim.k1, b: sim.b, factor: scale * (sim.k1 + 1.0) },
        }
    }

    /// The `similarity` object under `settings.index` (values as strings, as ES shows them).
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        for (name, options) in &self.raw {
            let shown: Map<String, Value> = options
                .iter()
                .map(|(k, v)| (k.clone(), json!(v.as_str().map_or_else(|| v.to_string(), str::to_string))))
                .collect();
            out.insert(name.clone(), Value::Object(shown));
        }
        Value::Object(out)
    }
}

/// tantivy's BM25 keeps Lucene's old `(k1 + 1)` factor that Lucene 8+ (and so ES) dropped:
/// tantivy scores are ES scores x 2.2. Constant-score queries are lowered on the same scale
/// and the search divides every score by this on output, so `_score` matches ES. An index
/// whose default similarity is `LegacyBM25` uses 1 instead (`Similarities::scale`).
pub const ES_SCORE_SCALE: f32 = 2.2;

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(settings: &[(&str, Value)]) -> Result<Similarities> {
        let mut s = Similarities::default();
        for (k, v) in settings {
            s.set(k, v)?;
        }
        s.validate()?;
        Ok(s)
    }

    #[test]
    fn the_default_picks_the_scale_and_plain_terms_stay_native() {
        let es8 = Similarities::default();
        assert_eq!((es8.scale(), es8.term_scoring(None)), (2.2, TermScoring::Native));
        let legacy = parsed(&[("default.type", json!("LegacyBM25"))]).unwrap();
        assert_eq!((legacy.scale(), legacy.term_scoring(None)), (1.0, TermScoring::Native));
        assert_eq!(legacy.term_scoring(Some("BM25")), TermScoring::Boosted(1.0 / 2.2));
        assert_eq!(es8.term_scoring(Some("boolean")), TermScoring::Constant(2.2));
    }

    #[test]
    fn custom_parameters_get_their_own_scorer() {
        let s = parsed(&[("default.type", json!("BM25")), ("default.k1", json!(0.9)), ("default.b", json!("0.4"))])
            .unwrap();
        assert_eq!(s.term_scoring(None), TermScoring::Custom { k1: 0.9, b: 0.4, factor: 2.2 });
        let named = parsed(&[("my.type", json!("LegacyBM25")), ("my.k1", json!(2))]).unwrap();
        assert_eq!(named.term_scoring(Some("my")), TermScoring::Custom { k1: 2.0, b: 0.75, factor: 2.2 * 3.0 });
    }

    #[test]
    fn unknown_types_and_options_are_refused() {
        let err = parsed(&[("default.type", json!("magic"))]).unwrap_err();
        assert_eq!(err.to_string(), "Unknown Similarity type [magic] for [default]");
        assert!(parsed(&[("default.type", json!("boolean")), ("default.k1", json!(1))]).is_err());
        assert!(parsed(&[("my.k1", json!(1))]).is_err(), "a type is required");
        assert!(parsed(&[("default.type", json!("BM25")), ("default.b", json!(2))]).is_err());
    }
}
