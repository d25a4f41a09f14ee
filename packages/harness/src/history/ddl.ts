/**
 * The DuckDB history (scorecards/history.duckdb, not committed: rebuilt from the committed
 * scorecard.json files by `npm run history -w packages/harness -- rebuild`).
 * distributions: each side's `hdr` with its latency count; quantiles: each side's `ecdf` as rows,
 * so SQL reads percentiles without decoding HDR. engine is 'candidate' or 'baseline'.
 */
export const HISTORY_SCHEMA_VERSION = 3;
export const HISTORY_DDL = `
CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR);
CREATE TABLE IF NOT EXISTS runs (
  run_id VARCHAR PRIMARY KEY, created_at TIMESTAMP, status VARCHAR, git_revision VARCHAR,
  corpus VARCHAR, docs BIGINT, candidate VARCHAR, baseline VARCHAR,
  wins INTEGER, loses INTEGER, ties INTEGER, na INTEGER, exit_code INTEGER, scorecard JSON,
  comparable_key VARCHAR
);
CREATE TABLE IF NOT EXISTS rows (
  run_id VARCHAR, row_id VARCHAR, grp VARCHAR, family VARCHAR, title VARCHAR, unit VARCHAR,
  verdict VARCHAR, ratio DOUBLE, ci_low DOUBLE, ci_high DOUBLE,
  candidate_p50 DOUBLE, candidate_p99 DOUBLE, baseline_p50 DOUBLE, baseline_p99 DOUBLE,
  candidate_value DOUBLE, baseline_value DOUBLE, reason VARCHAR,
  PRIMARY KEY (run_id, row_id)
);
CREATE TABLE IF NOT EXISTS distributions (
  run_id VARCHAR, row_id VARCHAR, engine VARCHAR, samples BIGINT, hdr VARCHAR,
  PRIMARY KEY (run_id, row_id, engine)
);
CREATE TABLE IF NOT EXISTS quantiles (
  run_id VARCHAR, row_id VARCHAR, engine VARCHAR, q DOUBLE, ms DOUBLE,
  PRIMARY KEY (run_id, row_id, engine, q)
);
`;
