//! `GET|POST [/{index}]/_analyze`: the request is run by `analysis::analyze` against the index's
//! analysis settings and field mappings, or against ES's built-in components alone.

use serde_json::Value;

use crate::analysis::analyze::{analyze, AnalyzeRequest, IndexAnalysis, DEFAULT_MAX_TOKEN_COUNT};
use crate::analysis::registry::{AnalysisSettings, Analyzer};
use crate::error::{EngineError, Result};
use crate::store::mapping::FieldType;

use super::Engine;

impl Engine {
    pub fn analyze(&self, index: Option<&str>, body: &[u8]) -> Result<String> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Err(EngineError::RequestBodyRequired);
        }
        let body: Value = crate::strict_json::from_slice(body).map_err(|e| crate::error::content_to_map_error(&e))?;
        let request = AnalyzeRequest::parse(&body)?;
        let Some(name) = index else {
            let settings = AnalysisSettings::default();
            let no_fields = |_: &str| None;
            let ctx = IndexAnalysis {
                settings: &settings,
                max_token_count: DEFAULT_MAX_TOKEN_COUNT,
                field_analyzer: &no_fields,
                has_index: false,
            };
            return Ok(analyze(&request, &ctx)?.to_string());
        };
        let handle = self.get(name)?;
        let settings = &handle.settings.analysis.parsed;
        // Text fields are indexed with the standard analyzer, keyword fields whole.
        let field_analyzer = |field: &str| -> Option<(String, Analyzer)> {
            let analyzer_name = match handle.mapping.get(field)?.field_type {
                FieldType::Text => "standard",
                _ => "keyword",
            };
            let mut analyzer = settings.analyzer(analyzer_name)?;
            // A text field's values are this many positions apart (ES's default for fields).
            analyzer.position_increment_gap = 100;
            Some((analyzer_name.to_string(), analyzer))
        };
        let ctx = IndexAnalysis {
            settings,
            max_token_count: handle.settings.limits.analyze_max_token_count,
            field_analyzer: &field_analyzer,
            has_index: true,
        };
        Ok(analyze(&request, &ctx)?.to_string())
    }
}
