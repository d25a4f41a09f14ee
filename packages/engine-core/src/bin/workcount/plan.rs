//! The request streams the harness wrote: one JSON object per line, each row's lines together.

use std::path::Path;

use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Sent before the row's timed requests and never counted (caches, lazily opened columns).
    Warmup,
    /// Counted.
    Timed,
}

/// One request as the HTTP service would hand it to the engine.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Request {
    pub row: String,
    pub phase: Phase,
    /// `_search`, `_count`, `_mget` or `_msearch`.
    pub endpoint: String,
    pub index: String,
    /// The URL parameters as the service passes them to the addon: a JSON object of strings, or
    /// "" for none.
    pub params: String,
    pub body: String,
}

/// A read row: its requests in file order.
#[derive(Debug)]
pub struct Row {
    pub id: String,
    pub requests: Vec<Request>,
}

/// Groups consecutive lines by row; a row that comes back after another is an error (the
/// harness writes each row's lines together, and a dump per row depends on it).
pub fn group(requests: Vec<Request>) -> Result<Vec<Row>, String> {
    let mut rows: Vec<Row> = Vec::new();
    for request in requests {
        match rows.last_mut() {
            Some(row) if row.id == request.row => row.requests.push(request),
            _ => {
                if rows.iter().any(|r| r.id == request.row) {
                    return Err(format!("row {} appears twice, apart: its lines must be together", request.row));
                }
                rows.push(Row { id: request.row.clone(), requests: vec![request] });
            }
        }
    }
    Ok(rows)
}

pub fn read(path: &Path) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let requests = text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1)))
        .collect::<Result<Vec<Request>, String>>()?;
    group(requests)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(row: &str) -> Request {
        Request {
            row: row.into(),
            phase: Phase::Timed,
            endpoint: "_search".into(),
            index: "i".into(),
            params: String::new(),
            body: "{}".into(),
        }
    }

    #[test]
    fn groups_consecutive_lines_and_refuses_a_row_split_apart() {
        let rows = group(vec![request("a"), request("a"), request("b")]).unwrap();
        assert_eq!(rows.iter().map(|r| (r.id.as_str(), r.requests.len())).collect::<Vec<_>>(), [("a", 2), ("b", 1)]);
        assert!(group(vec![request("a"), request("b"), request("a")]).is_err());
    }
}
