//! Exact-value and range queries: how a JSON value becomes a term, or column bounds, by the
//! field's type (dates and doubles have no inverted index and match through their column).

use std::ops::Bound;

use serde_json::Value;
use tantivy::query::{ConstScoreQuery, EmptyQuery, ExistsQuery, Query, RangeQuery, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::Term;

use super::context::LowerContext;
use crate::date::bound::{parse_date_bound, parse_date_bound_in_zone};
use crate::date::zone::DateZone;
use crate::date::{parse_date_value, parse_format_list};
use crate::error::{EngineError, Result, ShardCause};
use crate::json_source::coerce_f64;
use crate::query::ast::RangeAst;
use crate::query::tantivy::column_range::ColumnRangeQuery;
use crate::query::tantivy::double_range::DoubleRangeQuery;
use crate::store::mapping::{FieldMapping, FieldType};

/// The query for one exact value: a term query, except on a date or a double, which have no
/// inverted index (`store/mapping.rs`) and match through their column with ES's constant score. On a
/// date, as in ES (`DateFieldMapper.termQuery` is a range from the value to the value rounded
/// up), `2024-01-01` covers the whole day and date math works.
pub(crate) fn exact_query(fm: &FieldMapping, value: &Value, ctx: &LowerContext) -> Result<Box<dyn Query>> {
    if fm.field_type == FieldType::Date {
        let lo = parse_range_date(value, fm, None, ctx.now_ms, false, None)?;
        let hi = parse_range_date(value, fm, None, ctx.now_ms, true, None)?;
        let column = ctx.mapping.schema.get_field_name(fm.field).to_string();
        let day = ColumnRangeQuery::new(fm.field, column, lo, hi);
        return Ok(Box::new(ConstScoreQuery::new(Box::new(day), ctx.scale)));
    }
    if fm.field_type == FieldType::Ip {
        return Ok(crate::ip::query::block_query(fm.field, Some(crate::ip::query::term_block(value)?), ctx.scale));
    }
    if let FieldType::Range(kind) = fm.field_type {
        return crate::query::lower::range_field::lower_term(fm, kind, value, ctx);
    }
    let term = exact_term(fm, value)?;
    if matches!(fm.field_type, FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat) {
        // Column-only as well (`store/mapping.rs`): the one-point range reads the fast field.
        let point = RangeQuery::new(Bound::Included(term.clone()), Bound::Included(term));
        return Ok(Box::new(ConstScoreQuery::new(Box::new(point), ctx.scale)));
    }
    if matches!(fm.field_type, FieldType::Keyword | FieldType::Text) {
        return Ok(ctx.scored_term(term));
    }
    if fm.field_type == FieldType::Boolean {
        // ES indexes booleans as terms and scores them by BM25, as a keyword.
        return Ok(Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs)));
    }
    // Integers are points in ES: an exact match scores a constant 1, whatever the frequency.
    Ok(Box::new(ConstScoreQuery::new(Box::new(TermQuery::new(term, IndexRecordOption::Basic)), ctx.scale)))
}

/// The term an exact-value query (term, terms, match on non-text) looks up.
pub(crate) fn exact_term(fm: &FieldMapping, value: &Value) -> Result<Term> {
    crate::query::lower::geo::refuse_exact(fm)?;
    let bad = |what: &str| {
        EngineError::shard(
            ShardCause::QueryShard,
            format!(
                "failed to create query: {what} for field [{}] of type [{}]: [{value}]",
                fm.name,
                fm.field_type.name()
            ),
        )
    };
    Ok(match fm.field_type {
        FieldType::Keyword | FieldType::Text => Term::from_field_text(fm.field, &value_as_text(value)),
        FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte => {
            let f = coerce_f64(value).ok_or_else(|| bad("not a number"))?;
            check_integer_range(fm, value, f)?;
            if f.fract() != 0.0 {
                return Err(bad("Value has a decimal part"));
            }
            let n = match value {
                Value::Number(n) if n.is_i64() => n.as_i64().unwrap(),
                Value::String(s) => s.trim().parse::<i64>().unwrap_or(f as i64),
                _ => f as i64,
            };
            Term::from_field_i64(fm.field, n)
        }
        FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
            Term::from_field_f64(fm.field, stored_f64(fm, coerce_f64(value).ok_or_else(|| bad("not a number"))?))
        }
        FieldType::GeoPoint => unreachable!("refused above"),
        FieldType::Range(_) => {
            return Err(EngineError::shard(
                ShardCause::QueryShard,
                format!("failed to create query: [terms] queries are not supported on range field [{}]", fm.name),
            ))
        }
        FieldType::Binary => return Err(not_searchable()),
        FieldType::Date => Term::from_field_i64(
            fm.field,
            parse_date_value(value, &fm.date_formats)
                .map_err(|e| EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {e}")))?,
        ),
        FieldType::Boolean => {
            let b = match value {
                Value::Bool(b) => *b,
                Value::String(s) if s == "true" => true,
                Value::String(s) if s == "false" => false,
                _ => return Err(bad("Can't parse boolean value, expected [true] or [false]")),
            };
            Term::from_field_bool(fm.field, b)
        }
        FieldType::Ip => Term::from_field_text(fm.field, &crate::ip::to_key(crate::ip::query::parse_value(value)?)),
    })
}

/// A number as the field stores it (`float` as 32 bits, `half_float` as 16, `scaled_float` in
/// steps of its factor), so a query value matches what ES would match.
pub(crate) fn stored_f64(fm: &FieldMapping, f: f64) -> f64 {
    match fm.field_type {
        FieldType::Float => f as f32 as f64,
        FieldType::HalfFloat => crate::number::round_to_half(f),
        FieldType::ScaledFloat => crate::number::round_to_scale(f, fm.params.scaling_factor),
        _ => f,
    }
}

/// ES's answer to any query on a `binary` field.
fn not_searchable() -> EngineError {
    EngineError::shard(ShardCause::QueryShard, "failed to create query: Binary fields do not support searching")
}

/// A query value outside a long's or an integer's range is refused, as ES does: clamping it
/// would quietly match documents (a term at the type's maximum) the client never asked for.
fn check_integer_range(fm: &FieldMapping, value: &Value, f: f64) -> Result<()> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    let (fits, type_name) = match fm.field_type {
        // ES queries `short` and `byte` fields as `integer` ones (`NumberType.SHORT.termQuery`
        // delegates to INTEGER): only values past an integer's range are refused.
        FieldType::Integer | FieldType::Short | FieldType::Byte => {
            (f >= i32::MIN as f64 && f <= i32::MAX as f64, "an integer")
        }
        FieldType::Long => {
            let fits = match value {
                Value::Number(n) if n.is_i64() => true,
                Value::Number(n) if n.is_u64() => false,
                Value::String(s) => match s.trim().parse::<i128>() {
                    Ok(n) => i64::try_from(n).is_ok(),
                    Err(_) => (-TWO_63..TWO_63).contains(&f),
                },
                _ => (-TWO_63..TWO_63).contains(&f),
            };
            (fits, "a long")
        }
        _ => return Ok(()),
    };
    if fits {
        return Ok(());
    }
    Err(EngineError::shard(
        ShardCause::QueryShard,
        format!("failed to create query: Value [{}] is out of range for {type_name}", value_as_text(value)),
    ))
}

pub(crate) fn value_as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub(super) fn lower_range(r: &RangeAst, ctx: &mut LowerContext) -> Result<Box<dyn Query>> {
    let Some(fm) = ctx.mapping.get(&r.field) else { return Ok(Box::new(EmptyQuery)) };
    let field = fm.field;
    crate::query::lower::geo::refuse_range(fm)?;
    if r.relation.is_some_and(|rel| rel != crate::query::ast::RangeRelation::Intersects)
        && !matches!(fm.field_type, FieldType::Range(_) | FieldType::Date)
    {
        return Err(EngineError::shard(
            ShardCause::QueryShard,
            format!(
                "failed to create query: [range] query does not support relation on field [{}] of type [{}]",
                fm.name,
                fm.field_type.name()
            ),
        ));
    }
    let (lower, upper): (Bound<Term>, Bound<Term>) = match fm.field_type {
        FieldType::Range(kind) => return crate::query::lower::range_field::lower_range(fm, kind, r, ctx),
        FieldType::Ip => {
            let block = crate::ip::query::range_block(r.gt.as_ref(), r.gte.as_ref(), r.lt.as_ref(), r.lte.as_ref())?;
            return Ok(crate::ip::query::block_query(field, block, ctx.scale));
        }
        FieldType::Long | FieldType::Integer | FieldType::Short | FieldType::Byte | FieldType::Date => {
            // Date bounds that round up (`gt`, `lte`) cover the whole unit the text names.
            let read = |v: &Value, round_up: bool| -> Result<f64> {
                if fm.field_type == FieldType::Date {
                    parse_range_date(v, fm, r.format.as_deref(), ctx.now_ms, round_up, r.time_zone.as_ref())
                        .map(|ms| ms as f64)
                } else {
                    let f = coerce_f64(v).ok_or_else(|| {
                        EngineError::shard(
                            ShardCause::QueryShard,
                            format!("failed to create query: For input string: \"{}\"", value_as_text(v)),
                        )
                    })?;
                    check_integer_range(fm, v, f)?;
                    Ok(f)
                }
            };
            // Integer fields: fractional bounds round inwards, as ES does for long ranges.
            let lo = match (&r.gt, &r.gte) {
                (Some(v), _) => Some(read(v, true)?.floor() as i64 + 1),
                (None, Some(v)) => Some(read(v, false)?.ceil() as i64),
                _ => None,
            };
            let hi = match (&r.lt, &r.lte) {
                (Some(v), _) => Some(read(v, false)?.ceil() as i64 - 1),
                (None, Some(v)) => Some(read(v, true)?.floor() as i64),
                _ => None,
            };
            let column = ctx.mapping.schema.get_field_name(field).to_string();
            let query = ColumnRangeQuery::new(field, column, lo.unwrap_or(i64::MIN), hi.unwrap_or(i64::MAX));
            return Ok(Box::new(ConstScoreQuery::new(Box::new(query), ctx.scale)));
        }
        FieldType::Double | FieldType::Float | FieldType::HalfFloat | FieldType::ScaledFloat => {
            // A scaled float's bound is compared unrounded (ES takes the ceiling or floor of the
            // scaled bound, which is the same test); float and half_float round it as stored.
            let as_bound = |f: f64| if fm.field_type == FieldType::ScaledFloat { f } else { stored_f64(fm, f) };
            let read = |v: &Value| {
                coerce_f64(v).map(as_bound).ok_or_else(|| {
                    EngineError::shard(
                        ShardCause::QueryShard,
                        format!("failed to create query: For input string: \"{}\"", value_as_text(v)),
                    )
                })
            };
            let lower = match (&r.gt, &r.gte) {
                (Some(v), _) => Bound::Excluded(read(v)?),
                (None, Some(v)) => Bound::Included(read(v)?),
                _ => Bound::Included(f64::NEG_INFINITY),
            };
            let upper = match (&r.lt, &r.lte) {
                (Some(v), _) => Bound::Excluded(read(v)?),
                (None, Some(v)) => Bound::Included(read(v)?),
                _ => Bound::Included(f64::INFINITY),
            };
            let column = ctx.mapping.schema.get_field_name(field).to_string();
            let query = DoubleRangeQuery::new(field, column, lower, upper);
            return Ok(Box::new(ConstScoreQuery::new(Box::new(query), ctx.scale)));
        }
        FieldType::Keyword => {
            let term = |v: &Value| Term::from_field_text(field, &value_as_text(v));
            let lower = match (&r.gt, &r.gte) {
                (Some(v), _) => Bound::Excluded(term(v)),
                (None, Some(v)) => Bound::Included(term(v)),
                _ => Bound::Unbounded,
            };
            let upper = match (&r.lt, &r.lte) {
                (Some(v), _) => Bound::Excluded(term(v)),
                (None, Some(v)) => Bound::Included(term(v)),
                _ => Bound::Unbounded,
            };
            if matches!((&lower, &upper), (Bound::Unbounded, Bound::Unbounded)) {
                let name = ctx.mapping.schema.get_field_name(field).to_string();
                return Ok(Box::new(ConstScoreQuery::new(Box::new(ExistsQuery::new(name, false)), ctx.scale)));
            }
            (lower, upper)
        }
        FieldType::Binary => return Err(not_searchable()),
        FieldType::Text | FieldType::Boolean | FieldType::GeoPoint => {
            return Err(EngineError::shard(
                ShardCause::QueryShard,
                format!("failed to create query: range queries on [{}] fields are not supported", fm.field_type.name()),
            ))
        }
    };
    Ok(Box::new(ConstScoreQuery::new(Box::new(RangeQuery::new(lower, upper)), ctx.scale)))
}

/// A date range bound: a date in the query's or the field's format, epoch millis, or date
/// math anchored at `now` or `<date>||`, in the query's `time_zone` (UTC by default); see
/// `date::bound`.
fn parse_range_date(
    v: &Value,
    fm: &FieldMapping,
    format: Option<&str>,
    now_ms: i64,
    round_up: bool,
    zone: Option<&DateZone>,
) -> Result<i64> {
    let formats = match format {
        Some(f) => parse_format_list(f)
            .map_err(|e| EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {e}")))?,
        None => fm.date_formats.clone(),
    };
    let parse = |v: &Value| match zone {
        Some(zone) => parse_date_bound_in_zone(v, &formats, now_ms, round_up, zone),
        None => parse_date_bound(v, &formats, now_ms, round_up),
    };
    // ES reads a whole-number bound as its decimal text through the formats, so under
    // `strict_date_optional_time||epoch_millis` the number 2019 is the year 2019; a number no
    // format reads stays epoch milliseconds.
    if let Value::Number(n) = v {
        if n.is_i64() || n.is_u64() {
            if let Ok(ms) = parse(&Value::String(n.to_string())) {
                return Ok(ms);
            }
        }
    }
    parse(v).map_err(|e| EngineError::shard(ShardCause::QueryShard, format!("failed to create query: {e}")))
}
