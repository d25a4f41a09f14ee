//! Score functions once lowered (field resolved to a fast column, origin/scale in numbers) and
//! their per-segment evaluation, following ES's FieldValueFactorFunction and
//! DecayFunctionBuilder formulas.

use tantivy::columnar::{Cardinality, Column};
use tantivy::query::{Query, Scorer};
use tantivy::{DocId, DocSet, SegmentReader};

use crate::query::ast::{DecayCurve, Modifier, MultiValueMode};

/// A numeric fast column by tantivy field name; i64 covers long, integer and date (millis).
#[derive(Debug, Clone)]
pub struct ColumnRef {
    pub name: String,
    pub is_f64: bool,
}

#[derive(Debug, Clone)]
pub enum LoweredKind {
    One,
    FieldValue {
        field: String,
        column: Option<ColumnRef>,
        factor: f64,
        modifier: Modifier,
        missing: Option<f64>,
    },
    /// `scale` is already processed for the curve (ES `processScale`).
    Decay {
        column: ColumnRef,
        curve: DecayCurve,
        origin: f64,
        scale: f64,
        offset: f64,
        mode: MultiValueMode,
    },
}

pub struct LoweredFunction {
    pub filter: Option<Box<dyn Query>>,
    pub weight: Option<f64>,
    pub kind: LoweredKind,
}

impl Clone for LoweredFunction {
    fn clone(&self) -> Self {
        LoweredFunction {
            filter: self.filter.as_ref().map(|q| q.box_clone()),
            weight: self.weight,
            kind: self.kind.clone(),
        }
    }
}

/// ES DecayFunctionBuilder's per-curve scale processing: the curve value at distance `scale`
/// equals `decay`.
pub fn process_scale(curve: DecayCurve, scale: f64, decay: f64) -> f64 {
    match curve {
        DecayCurve::Gauss => 0.5 * scale.powi(2) / decay.ln(),
        DecayCurve::Exp => decay.ln() / scale,
        DecayCurve::Linear => scale / (1.0 - decay),
    }
}

fn evaluate(curve: DecayCurve, distance: f64, scale: f64) -> f64 {
    match curve {
        DecayCurve::Gauss => (0.5 * distance.powi(2) / scale).exp(),
        DecayCurve::Exp => (scale * distance).exp(),
        DecayCurve::Linear => ((scale - distance) / scale).max(0.0),
    }
}

fn apply_modifier(modifier: Modifier, v: f64) -> f64 {
    match modifier {
        Modifier::None => v,
        Modifier::Log => v.log10(),
        Modifier::Log1p => (v + 1.0).log10(),
        Modifier::Log2p => (v + 2.0).log10(),
        Modifier::Ln => v.ln(),
        Modifier::Ln1p => v.ln_1p(),
        Modifier::Ln2p => (v + 1.0).ln_1p(),
        Modifier::Square => v * v,
        Modifier::Sqrt => v.sqrt(),
        Modifier::Reciprocal => 1.0 / v,
    }
}

enum Values {
    I64(Column<i64>),
    F64(Column<f64>),
}

impl Values {
    fn open(column: &ColumnRef, reader: &SegmentReader) -> tantivy::Result<Values> {
        let fast = reader.fast_fields();
        Ok(if column.is_f64 { Values::F64(fast.f64(&column.name)?) } else { Values::I64(fast.i64(&column.name)?) })
    }

    /// Calls `f` on each value of the doc (several for multi-valued fields).
    fn for_each(&self, doc: DocId, mut f: impl FnMut(f64)) {
        match self {
            Values::I64(c) => c.values_for_doc(doc).for_each(|v| f(v as f64)),
            Values::F64(c) => c.values_for_doc(doc).for_each(f),
        }
    }

    /// Each doc's value through one bulk column read; false (nothing read) when a doc may hold
    /// several values.
    fn read_block(&self, docs: &[DocId], ints: &mut Vec<Option<i64>>, out: &mut Vec<Option<f64>>) -> bool {
        out.clear();
        match self {
            Values::I64(c) if c.get_cardinality() != Cardinality::Multivalued => {
                ints.clear();
                ints.resize(docs.len(), None);
                c.first_vals(docs, ints);
                out.extend(ints.iter().map(|v| v.map(|v| v as f64)));
                true
            }
            Values::F64(c) if c.get_cardinality() != Cardinality::Multivalued => {
                out.resize(docs.len(), None);
                c.first_vals(docs, out);
                true
            }
            _ => false,
        }
    }
}

pub struct SegmentFunction {
    filter: Option<Box<dyn Scorer>>,
    pub weight: Option<f64>,
    kind: LoweredKind,
    values: Option<Values>,
    /// The current block's values (`read_block`), when its column has one value per doc.
    block: Vec<Option<f64>>,
    block_read: bool,
    ints: Vec<Option<i64>>,
}

impl SegmentFunction {
    pub fn open(f: &LoweredFunction, filter: Option<Box<dyn Scorer>>, reader: &SegmentReader) -> tantivy::Result<Self> {
        let values = match &f.kind {
            LoweredKind::One | LoweredKind::FieldValue { column: None, .. } => None,
            LoweredKind::FieldValue { column: Some(c), .. } | LoweredKind::Decay { column: c, .. } => {
                Some(Values::open(c, reader)?)
            }
        };
        Ok(SegmentFunction {
            filter,
            weight: f.weight,
            kind: f.kind.clone(),
            values,
            block: Vec::new(),
            block_read: false,
            ints: Vec::new(),
        })
    }

    /// Reads the values of a block of docs at once, for `score_in_block`.
    pub fn read_block(&mut self, docs: &[DocId]) {
        self.block_read = match &self.values {
            Some(values) => values.read_block(docs, &mut self.ints, &mut self.block),
            None => false,
        };
    }

    /// `score(doc)` for the `i`th doc of the block last read: from the block's value when the
    /// column has one value per doc (the same formula as for a doc holding one value).
    pub fn score_in_block(&mut self, doc: DocId, i: usize) -> Result<f64, String> {
        if !self.block_read {
            return self.score(doc, 0.0);
        }
        let value = self.block[i];
        let raw = match &self.kind {
            LoweredKind::One => 1.0,
            LoweredKind::FieldValue { field, factor, modifier, missing, .. } => {
                field_value(field, *factor, *modifier, value.or(*missing))?
            }
            LoweredKind::Decay { curve, origin, scale, offset, .. } => {
                // One value: min, max, sum and avg of its distance are the distance.
                let distance = value.map_or(0.0, |v| ((v - origin).abs() - offset).max(0.0));
                evaluate(*curve, distance, *scale)
            }
        };
        Ok(raw * self.weight.unwrap_or(1.0))
    }

    /// Whether the function's filter matches `doc`; docs are asked in increasing order.
    pub fn matches(&mut self, doc: DocId) -> bool {
        match &mut self.filter {
            None => true,
            Some(filter) => {
                if filter.doc() < doc {
                    filter.seek(doc);
                }
                filter.doc() == doc
            }
        }
    }

    /// The function's value for `doc`, times its weight; errors are ES's refusals.
    pub fn score(&mut self, doc: DocId, _sub: f64) -> Result<f64, String> {
        let raw = match &self.kind {
            LoweredKind::One => 1.0,
            LoweredKind::FieldValue { field, factor, modifier, missing, .. } => {
                // ES reads the smallest value of a multi-valued field.
                let mut value: Option<f64> = None;
                if let Some(values) = &self.values {
                    values.for_each(doc, |v| value = Some(value.map_or(v, |m: f64| m.min(v))));
                }
                field_value(field, *factor, *modifier, value.or(*missing))?
            }
            LoweredKind::Decay { curve, origin, scale, offset, mode, .. } => {
                let (mut n, mut sum, mut min, mut max) = (0u32, 0.0, f64::INFINITY, f64::NEG_INFINITY);
                if let Some(values) = &self.values {
                    values.for_each(doc, |v| {
                        let d = ((v - origin).abs() - offset).max(0.0);
                        n += 1;
                        sum += d;
                        min = min.min(d);
                        max = max.max(d);
                    });
                }
                // A document without a value is at distance 0: the function scores 1 (as ES documents).
                let distance = match (n, mode) {
                    (0, _) => 0.0,
                    (_, MultiValueMode::Min) => min,
                    (_, MultiValueMode::Max) => max,
                    (_, MultiValueMode::Sum) => sum,
                    (_, MultiValueMode::Avg) => sum / n as f64,
                };
                evaluate(*curve, distance, *scale)
            }
        };
        Ok(raw * self.weight.unwrap_or(1.0))
    }
}

/// ES FieldValueFactorFunction of a doc's (least) value, or its refusal.
fn field_value(field: &str, factor: f64, modifier: Modifier, value: Option<f64>) -> Result<f64, String> {
    let value = value.ok_or_else(|| format!("Missing value for field [{field}]"))?;
    let result = apply_modifier(modifier, value * factor);
    if result.is_nan() || result.is_infinite() || result < 0.0 {
        return Err(format!(
            "field value function must not produce negative or non-finite scores, but got: [{result}] for field value: [{value}]"
        ));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_hit_decay_at_scale() {
        for curve in [DecayCurve::Gauss, DecayCurve::Exp, DecayCurve::Linear] {
            let s = process_scale(curve, 10.0, 0.5);
            assert!((evaluate(curve, 10.0, s) - 0.5).abs() < 1e-12, "{curve:?}");
            assert!((evaluate(curve, 0.0, s) - 1.0).abs() < 1e-12, "{curve:?}");
        }
        assert_eq!(evaluate(DecayCurve::Linear, 25.0, process_scale(DecayCurve::Linear, 10.0, 0.5)), 0.0);
    }

    #[test]
    fn modifiers_match_es() {
        assert_eq!(apply_modifier(Modifier::Log1p, 9.0), 1.0);
        assert!((apply_modifier(Modifier::Ln2p, 0.0) - 2f64.ln()).abs() < 1e-12);
        assert_eq!(apply_modifier(Modifier::Reciprocal, 4.0), 0.25);
    }
}
