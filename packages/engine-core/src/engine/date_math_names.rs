//! Date math in index names, as ES resolves them: `<logstash-{now/M}>` names the index of the
//! current month, `<logs-{now/d-1d{yyyy.MM.dd|+01:00}}>` yesterday's in a zone. Outside braces
//! the text is the name (`\{` and `\}` escape braces); inside, `now` with date math, then an
//! optional `{format|time_zone}` (format `yyyy.MM.dd` by default).

use crate::date::rounding::{KeyFormat, KeyStyle};
use crate::date::zone::DateZone;
use crate::error::{EngineError, Result};

fn invalid(expression: &str, why: &str) -> EngineError {
    EngineError::Parse(format!("invalid date math expression [{expression}]: {why}"))
}

/// The index name `expression` stands for at `now_ms`; names without `<...>` pass unchanged.
pub fn resolve_date_math(expression: &str, now_ms: i64) -> Result<String> {
    let Some(inner) = expression.strip_prefix('<').and_then(|e| e.strip_suffix('>')) else {
        return Ok(expression.to_string());
    };
    let mut out = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            '{' => {
                let mut math = String::new();
                let mut format = None;
                loop {
                    match chars.next() {
                        None => return Err(invalid(expression, "missing closing brace")),
                        Some('}') => break,
                        Some('{') => {
                            let spec: String = chars.by_ref().take_while(|c| *c != '}').collect();
                            format = Some(spec);
                        }
                        Some(c) => math.push(c),
                    }
                }
                let rest = math.strip_prefix("now").ok_or_else(|| invalid(expression, "math must start with [now]"))?;
                let (pattern, zone) = match format.as_deref().map(|f| f.split_once('|').unwrap_or((f, ""))) {
                    None => ("yyyy.MM.dd", ""),
                    Some((pattern, zone)) => (if pattern.is_empty() { "yyyy.MM.dd" } else { pattern }, zone),
                };
                let zone = if zone.is_empty() {
                    DateZone::Utc
                } else {
                    DateZone::parse(zone).ok_or_else(|| invalid(expression, "unknown time zone"))?
                };
                let local = zone.to_local(now_ms);
                let ms = crate::date::math::apply(local, rest, false).map_err(|e| invalid(expression, &e))?;
                let style = KeyStyle::from_format(pattern).map_err(|e| invalid(expression, &e))?;
                out.push_str(&KeyFormat { zone: DateZone::Utc, style }.format(ms));
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_as_es_names_indices() {
        let now = 1_718_000_000_000; // 2024-06-10T06:13:20Z
        assert_eq!(resolve_date_math("<logstash-{now/M}>", now).unwrap(), "logstash-2024.06.01");
        assert_eq!(resolve_date_math("<logs-{now/d-1d{yyyy.MM.dd}}>", now).unwrap(), "logs-2024.06.09");
        assert_eq!(resolve_date_math("<logs-{now{yyyy.MM}}>", now).unwrap(), "logs-2024.06");
        assert_eq!(resolve_date_math("plain", now).unwrap(), "plain");
        assert!(resolve_date_math("<logs-{now>", now).is_err());
        // Without the closing `>` it is no expression, as ES reads it: the name as given.
        assert_eq!(resolve_date_math("<logs-{now", now).unwrap(), "<logs-{now");
    }
}
