//! `terms`' `include` and `exclude`: a regular expression over whole terms (strings only), a
//! list of terms (or numbers, on a numeric field), or `{partition, num_partitions}`, which
//! keeps the terms whose hash falls in one partition, hashed as ES's `IncludeExclude` does
//! (Murmur3 x86-32 of the term's UTF-8 with seed 31 for strings, `BitMixer.mix64` for
//! integers), so a client paging partitions sees ES's split.

use serde_json::Value;

use crate::aggs::options::{TermFilter, TermSelect, TermsFilter};
use crate::aggs::render::KeyValue;
use crate::error::{EngineError, Result, ShardCause};
use crate::store::mapping::FieldType;

/// ES's `IncludeExclude.HASH_PARTITIONING_SEED`.
const PARTITION_SEED: u32 = 31;

pub(crate) fn parse_select(name: &str, key: &str, value: &Value, ty: Option<FieldType>) -> Result<TermSelect> {
    let bad = || EngineError::XContentParse(format!("[terms] failed to parse field [{key}]"));
    let numeric = ty.is_some_and(|t| t.is_i64() || t.is_f64());
    if ty == Some(FieldType::Ip) {
        return crate::aggs::ip_terms_select::parse(name, value, bad);
    }
    match value {
        Value::Object(obj) => {
            if key != "include" {
                return Err(EngineError::XContentParse(format!("[terms] [{key}] does not support partitions")));
            }
            if let Some(other) = obj.keys().find(|k| !matches!(k.as_str(), "partition" | "num_partitions")) {
                return Err(EngineError::XContentParse(format!("[terms] unknown field [{other}] in [include]")));
            }
            let of = obj.get("num_partitions").and_then(Value::as_u64).filter(|n| *n > 0).ok_or_else(bad)?;
            let partition = obj.get("partition").and_then(Value::as_u64).filter(|p| *p < of).ok_or_else(bad)?;
            if ty.is_some_and(FieldType::is_f64) {
                // ES hashes a double's bits through a path this engine does not reproduce.
                return Err(EngineError::shard(
                    ShardCause::IllegalArgument,
                    format!("[terms] partitions on the floating point field of [{name}] are not supported"),
                ));
            }
            Ok(TermSelect::Partition { partition: partition as u32, of: of as u32 })
        }
        Value::String(_) if numeric => Err(EngineError::shard(
            ShardCause::IllegalArgument,
            format!(
                "Aggregation [{name}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses"
            ),
        )),
        // Dates as the field's default formats read them (text or epoch millis).
        Value::Array(items) if ty == Some(FieldType::Date) => items
            .iter()
            .map(|v| crate::date::parse_date_value(v, &crate::date::DEFAULT_FORMATS).map(|ms| ms as f64))
            .collect::<std::result::Result<Vec<_>, String>>()
            .map(TermSelect::Numbers)
            .map_err(|_| bad()),
        Value::Array(items) if numeric => items
            .iter()
            .map(|v| v.as_f64().or_else(|| v.as_str().and_then(|s| s.trim().parse().ok())).ok_or_else(bad))
            .collect::<Result<Vec<_>>>()
            .map(TermSelect::Numbers),
        Value::Array(items) => {
            let texts = items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    Value::Number(_) | Value::Bool(_) => Ok(v.to_string()),
                    _ => Err(bad()),
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(TermSelect::Terms(TermFilter::Exact(texts)))
        }
        Value::String(_) => TermFilter::parse("terms", key, value).map(TermSelect::Terms),
        _ => Err(bad()),
    }
}

impl TermsFilter {
    /// Whether a bucket key survives `include` and `exclude`.
    pub(crate) fn keeps(&self, key: &KeyValue) -> bool {
        self.include.as_ref().is_none_or(|s| s.selects(key)) && !self.exclude.as_ref().is_some_and(|s| s.selects(key))
    }
}

impl TermSelect {
    fn selects(&self, key: &KeyValue) -> bool {
        match (self, key) {
            (TermSelect::Terms(filter), KeyValue::Str(s)) => filter.accepts(s),
            (TermSelect::Terms(filter), KeyValue::Int(i)) => filter.accepts(&i.to_string()),
            (TermSelect::Terms(filter), KeyValue::Float(f)) => filter.accepts(&f.to_string()),
            (TermSelect::Numbers(values), KeyValue::Int(i)) => values.contains(&(*i as f64)),
            (TermSelect::Numbers(values), KeyValue::Float(f)) => values.contains(f),
            (TermSelect::Numbers(_), KeyValue::Str(_)) => false,
            (TermSelect::Partition { partition, of }, key) => {
                let hash = match key {
                    KeyValue::Str(s) => murmur3_x86_32(s.as_bytes(), PARTITION_SEED) as i64,
                    KeyValue::Int(i) => mix64(*i),
                    KeyValue::Float(f) => mix64(f.to_bits() as i64),
                };
                hash.rem_euclid(*of as i64) == *partition as i64
            }
        }
    }
}

/// Lucene's `StringHelper.murmurhash3_x86_32`.
fn murmur3_x86_32(data: &[u8], seed: u32) -> i32 {
    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    let mut h1 = seed;
    let mut chunks = data.chunks_exact(4);
    for chunk in &mut chunks {
        let mut k1 = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        k1 = k1.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
        h1 ^= k1;
        h1 = h1.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
    }
    let tail = chunks.remainder();
    if !tail.is_empty() {
        let mut k1 = 0u32;
        for (i, b) in tail.iter().enumerate() {
            k1 ^= (*b as u32) << (8 * i);
        }
        h1 ^= k1.wrapping_mul(C1).rotate_left(15).wrapping_mul(C2);
    }
    h1 ^= data.len() as u32;
    h1 ^= h1 >> 16;
    h1 = h1.wrapping_mul(0x85eb_ca6b);
    h1 ^= h1 >> 13;
    h1 = h1.wrapping_mul(0xc2b2_ae35);
    h1 ^= h1 >> 16;
    h1 as i32
}

/// HPPC's `BitMixer.mix64`.
fn mix64(z: i64) -> i64 {
    let mut z = z as u64;
    z = (z ^ (z >> 32)).wrapping_mul(0x4cd6_944c_5cc2_0b6d);
    z = (z ^ (z >> 29)).wrapping_mul(0xfc12_c5b1_9d32_59e9);
    (z ^ (z >> 32)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn murmur3_matches_the_reference_vectors() {
        // From the reference implementation's test suite (SMHasher's verification values).
        assert_eq!(murmur3_x86_32(b"", 0), 0);
        assert_eq!(murmur3_x86_32(b"", 1) as u32, 0x514e_28b7);
        assert_eq!(murmur3_x86_32(b"hello", 0) as u32, 0x248b_fa47);
        assert_eq!(murmur3_x86_32(b"The quick brown fox jumps over the lazy dog", 0) as u32, 0x2e4f_f723);
    }

    #[test]
    fn selects_by_list_pattern_number_and_partition() {
        let keyword = Some(FieldType::Keyword);
        let list = parse_select("a", "include", &json!(["ok", "warn"]), keyword).unwrap();
        assert!(list.selects(&KeyValue::Str("ok".into())) && !list.selects(&KeyValue::Str("info".into())));
        let pattern = parse_select("a", "include", &json!("host-0.*"), keyword).unwrap();
        assert!(
            pattern.selects(&KeyValue::Str("host-03".into())) && !pattern.selects(&KeyValue::Str("host-10".into()))
        );
        let numbers = parse_select("a", "include", &json!([1, 3]), Some(FieldType::Long)).unwrap();
        assert!(numbers.selects(&KeyValue::Int(3)) && !numbers.selects(&KeyValue::Int(2)));
        assert!(parse_select("a", "include", &json!("1.*"), Some(FieldType::Long)).is_err());
        let halves = |p| parse_select("a", "include", &json!({"partition": p, "num_partitions": 2}), keyword).unwrap();
        let key = KeyValue::Str("host-08".into());
        assert_ne!(halves(0).selects(&key), halves(1).selects(&key), "each term is in exactly one partition");
        assert!(parse_select("a", "exclude", &json!({"partition": 0, "num_partitions": 2}), keyword).is_err());
    }
}
