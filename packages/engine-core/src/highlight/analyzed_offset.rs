//! ES's `index.highlight.max_analyzed_offset`: a highlighter that has to re-analyze a field
//! (the plain one always; the unified one when the field's offsets are not indexed) refuses a
//! value longer than the limit, failing the search, rather than analyze unbounded text.

use serde_json::Value;

use super::{source_values, Highlighter};
use crate::error::{EngineError, Result, ShardCause};

impl Highlighter {
    /// Checks the hit `id` of index `index` (its `_source` bytes) against `limit` characters.
    pub fn check_analyzed_length(&self, source: &[u8], limit: usize, index: &str, id: &str) -> Result<()> {
        if !self.fields.iter().any(|f| f.reanalyzes) {
            return Ok(());
        }
        let Ok(source) = serde_json::from_slice::<Value>(source) else { return Ok(()) };
        for field in self.fields.iter().filter(|f| f.reanalyzes) {
            let mut values = Vec::new();
            source_values(&source, &field.source_path, &mut values);
            // The values as the highlighter joins them, one separator between each two.
            let length = values.iter().map(|v| v.chars().count()).sum::<usize>() + values.len().saturating_sub(1);
            if length > limit {
                return Err(EngineError::shard(ShardCause::IllegalArgument, format!(
                    "The length of [{}] field of [{id}] doc of [{index}] index has exceeded [{limit}] - maximum allowed to be analyzed for highlighting. This maximum can be set by changing the [index.highlight.max_analyzed_offset] index level setting. For large texts, indexing with offsets or term vectors is recommended!",
                    field.name
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::highlight::HighlightRequest;
    use crate::query::ast::QueryAst;
    use crate::store::mapping::Mapping;

    #[test]
    fn long_values_fail_unless_offsets_spare_the_analysis() {
        let mapping = Mapping::from_mappings_json(&json!({"properties": {
            "plain": {"type": "text"},
            "with_offsets": {"type": "text", "index_options": "offsets"}
        }}))
        .unwrap();
        let query = QueryAst::Match {
            field: "plain".into(),
            text: "fox".into(),
            operator: crate::query::ast::Operator::Or,
            minimum_should_match: None,
            fuzzy: None,
            zero_terms_all: false,
        };
        let source = br#"{"plain": "The quick brown fox", "with_offsets": "The quick brown fox"}"#;
        let prepare =
            |body: serde_json::Value| HighlightRequest::parse(&body).unwrap().prepare(&query, &mapping, 0).unwrap();
        let unified = prepare(json!({"fields": {"plain": {}}}));
        let err = unified.check_analyzed_length(source, 10, "idx", "1").unwrap_err().to_string();
        assert!(err.contains("The length of [plain] field of [1] doc of [idx] index has exceeded [10]"), "{err}");
        assert!(unified.check_analyzed_length(source, 100, "idx", "1").is_ok());
        let offsets = prepare(json!({"fields": {"with_offsets": {}}}));
        assert!(offsets.check_analyzed_length(source, 10, "idx", "1").is_ok());
        let plain = prepare(json!({"type": "plain", "fields": {"with_offsets": {}}}));
        assert!(plain.check_analyzed_length(source, 10, "idx", "1").is_err());
    }
}
