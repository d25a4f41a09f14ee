//! Lowering of `function_score`: filters become tantivy queries, fields become fast columns,
//! decay origins/scales/offsets become numbers (dates in epoch millis, time values for scales).

use serde_json::Value;
use tantivy::query::{BooleanQuery, ConstScoreQuery, Occur, Query};

use super::context::LowerContext;
use crate::date::bound::parse_date_bound;
use crate::error::{EngineError, Result, ShardCause};
use crate::json_source::coerce_f64;
use crate::query::ast::{DecayAst, FunctionScoreAst, ScoreFunctionKind};
use crate::query::dsl::score_function::parse_time_value_ms;
use crate::query::tantivy::function_score::FunctionScoreQuery;
use crate::query::tantivy::score_values::{process_scale, ColumnRef, LoweredFunction, LoweredKind};
use crate::store::mapping::{FieldMapping, FieldType};

pub fn lower_function_score(fs: &FunctionScoreAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let mut inner = ctx.lower(&fs.query)?;
    // The functions run over every inner match before any enclosing intersection: inside a
    // `nested` query those must be the path's objects only (their fields, not the root's).
    if let Some(objects) = crate::query::lower::nested::scope_filter(ctx) {
        inner = Box::new(BooleanQuery::new(vec![
            (Occur::Must, inner),
            (Occur::Must, Box::new(ConstScoreQuery::new(objects, 0.0)) as Box<dyn Query>),
        ]));
    }
    let functions = fs
        .functions
        .iter()
        .map(|f| {
            Ok(LoweredFunction {
                filter: f.filter.as_ref().map(|q| ctx.lower(q)).transpose()?,
                weight: f.weight,
                kind: lower_kind(&f.kind, ctx)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Box::new(FunctionScoreQuery {
        inner,
        functions,
        score_mode: fs.score_mode,
        boost_mode: fs.boost_mode,
        max_boost: fs.max_boost,
        min_score: fs.min_score,
        scale: ctx.scale,
    }))
}

fn numeric_column(fm: &FieldMapping, ctx: &LowerContext) -> Option<ColumnRef> {
    let name = ctx.mapping.schema.get_field_name(fm.field).to_string();
    match fm.field_type {
        t if t.is_i64() => Some(ColumnRef { name, is_f64: false }),
        t if t.is_f64() => Some(ColumnRef { name, is_f64: true }),
        _ => None,
    }
}

fn lower_kind(kind: &ScoreFunctionKind, ctx: &mut LowerContext) -> Result<LoweredKind> {
    Ok(match kind {
        ScoreFunctionKind::One => LoweredKind::One,
        ScoreFunctionKind::FieldValueFactor { field, factor, modifier, missing } => {
            let column = match ctx.mapping.get(field) {
                // ES: an unmapped field needs `missing`, which then applies to every document.
                None if missing.is_none() => {
                    return Err(EngineError::shard(
                        ShardCause::QueryShard,
                        format!("Unable to find a field mapper for field [{field}]. No 'missing' value defined."),
                    ))
                }
                None => None,
                Some(fm) => Some(numeric_column(fm, ctx).ok_or_else(|| {
                    EngineError::shard(
                        ShardCause::QueryShard,
                        format!(
                            "field [{field}] of type [{}] is not supported by field_value_factor",
                            fm.field_type.name()
                        ),
                    )
                })?),
            };
            LoweredKind::FieldValue {
                field: field.clone(),
                column,
                factor: *factor,
                modifier: *modifier,
                missing: *missing,
            }
        }
        ScoreFunctionKind::Decay(d) => lower_decay(d, ctx)?,
    })
}

fn lower_decay(d: &DecayAst, ctx: &mut LowerContext) -> Result<LoweredKind> {
    let fm = ctx
        .mapping
        .get(&d.field)
        .ok_or_else(|| EngineError::shard(ShardCause::QueryShard, format!("unknown field [{}]", d.field)))?;
    // OpenSearch reports this one with a parsing_exception root cause.
    let column = numeric_column(fm, ctx).ok_or_else(|| {
        EngineError::shard(
            ShardCause::Parsing,
            format!("field [{}] is of type [{}], but only numeric types are supported.", d.field, fm.field_type.name()),
        )
    })?;
    let bad = |what: &str, v: &Value| {
        EngineError::shard(ShardCause::QueryShard, format!("failed to parse [{what}] value [{v}] of decay function"))
    };
    let (origin, scale, offset) = if fm.field_type == FieldType::Date {
        // Dates: origin is a date or date math (default `now`); scale and offset are time values.
        let origin = match &d.origin {
            None => ctx.now_ms as f64,
            Some(v) => parse_date_bound(v, &fm.date_formats, ctx.now_ms, false).map_err(|_| bad("origin", v))? as f64,
        };
        let scale = parse_time_value_ms(&d.scale).map_err(|_| bad("scale", &d.scale))?;
        let offset = match &d.offset {
            None => 0.0,
            Some(v) => parse_time_value_ms(v).map_err(|_| bad("offset", v))?,
        };
        (origin, scale, offset)
    } else {
        let origin = d
            .origin
            .as_ref()
            .ok_or_else(|| EngineError::shard(ShardCause::QueryShard, "[origin] must be set for numeric fields."))?;
        let origin = coerce_f64(origin).ok_or_else(|| bad("origin", origin))?;
        let scale = coerce_f64(&d.scale).ok_or_else(|| bad("scale", &d.scale))?;
        let offset = match &d.offset {
            None => 0.0,
            Some(v) => coerce_f64(v).ok_or_else(|| bad("offset", v))?,
        };
        (origin, scale, offset)
    };
    if scale <= 0.0 {
        return Err(EngineError::shard(
            ShardCause::QueryShard,
            format!("[scale] must be greater than 0 for decay function, got [{scale}]"),
        ));
    }
    if offset < 0.0 {
        return Err(EngineError::shard(
            ShardCause::QueryShard,
            format!("[offset] must be greater than or equal to 0, got [{offset}]"),
        ));
    }
    Ok(LoweredKind::Decay {
        column,
        curve: d.curve,
        origin,
        scale: process_scale(d.curve, scale, d.decay),
        offset,
        mode: d.multi_value_mode,
    })
}
