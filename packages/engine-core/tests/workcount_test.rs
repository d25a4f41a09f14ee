//! The count runner (`src/bin/workcount/`) under callgrind counts the requests and nothing else:
//! a row with no timed request counts zero instructions (start-up, index open and warm-up are
//! not collected), ten identical requests count ten times one, two runs count the same to the
//! instruction, and a planted loop is counted on its row and leaves the rows after it alone.
//! Skipped, loudly, without valgrind.

use std::path::Path;
use std::process::Command;

use engine_core::engine::RefreshPolicy;
use engine_core::Engine;
use serde_json::{json, Value};

const INDEX: &str = "wc";
const PLANT_ITERATIONS: u64 = 100_000;

fn valgrind_present() -> bool {
    Command::new("valgrind").arg("--version").output().is_ok_and(|o| o.status.success())
}

/// A small index at rest in `dir`.
fn build_index(dir: &Path) {
    let engine = Engine::open(dir).unwrap();
    engine
        .create_index(INDEX, br#"{"mappings":{"properties":{"status":{"type":"keyword"},"bytes":{"type":"long"},"msg":{"type":"text"}}}}"#)
        .unwrap();
    let mut body = String::new();
    for i in 0..300 {
        body.push_str(&json!({"index": {"_id": i.to_string()}}).to_string());
        body.push('\n');
        let status = ["ok", "error", "slow"][i % 3];
        let doc = json!({"status": status, "bytes": i * 7, "msg": format!("request {i} took a while")});
        body.push_str(&doc.to_string());
        body.push('\n');
    }
    engine.bulk(Some(INDEX), body.as_bytes(), RefreshPolicy::Immediate).unwrap();
    engine.close().unwrap();
}

fn line(row: &str, phase: &str, body: &Value) -> String {
    let request = json!({"row": row, "phase": phase, "endpoint": "_search", "index": INDEX,
        "params": r#"{"request_cache":"false"}"#, "body": body.to_string()});
    format!("{request}\n")
}

/// Rows: `empty` (warm-up only), `one` (one timed search), `planted` (ten copies, the row the
/// plant names) and `ten` (ten copies again, after it).
fn write_plan(path: &Path) {
    let search = json!({"query": {"term": {"status": "ok"}}, "aggs": {"b": {"avg": {"field": "bytes"}}}, "track_total_hits": true});
    let mut plan = String::new();
    for (row, timed) in [("empty", 0), ("one", 1), ("planted", 10), ("ten", 10)] {
        for _ in 0..3 {
            plan.push_str(&line(row, "warmup", &search));
        }
        for _ in 0..timed {
            plan.push_str(&line(row, "timed", &search));
        }
    }
    std::fs::write(path, plan).unwrap();
}

/// One run under callgrind, the plant on or off: each row's instruction count, in row order.
fn count(data: &Path, plan: &Path, out: &Path, plant: bool) -> Vec<(String, u64)> {
    std::fs::create_dir_all(out).unwrap();
    let output = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=everycell_workcount_request",
            "--dump-after=everycell_workcount_row_done",
            "--dump-instr=no",
            &format!("--callgrind-out-file={}", out.join("cg.out").display()),
            env!("CARGO_BIN_EXE_workcount"),
            "--data-dir",
            data.to_str().unwrap(),
            "--requests",
            plan.to_str().unwrap(),
            "--epoch-ms",
            "1790000000000",
        ])
        .env("EVERYCELL_WORKCOUNT_PLANT", if plant { format!("planted={PLANT_ITERATIONS}") } else { String::new() })
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows: Vec<Value> =
        String::from_utf8(output.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            assert_eq!(row["errors"], 0, "{row}");
            let dump = std::fs::read_to_string(out.join(format!("cg.out.{}", i + 1))).unwrap();
            let summary = dump.lines().find_map(|l| l.strip_prefix("summary:")).expect("a summary line");
            (row["row"].as_str().unwrap().to_string(), summary.trim().parse().unwrap())
        })
        .collect()
}

#[test]
fn counts_the_requests_and_nothing_else() {
    if !valgrind_present() {
        eprintln!(
            "SKIPPED counts_the_requests_and_nothing_else: valgrind is not installed (apt-get install -y valgrind)"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("index");
    build_index(&index);
    let plan = dir.path().join("plan.ndjson");
    write_plan(&plan);
    let run = |name: &str, plant: bool| {
        let data = dir.path().join(name).join("data");
        copy_dir(&index, &data);
        count(&data, &plan, &dir.path().join(name).join("dumps"), plant)
    };
    let first = run("a", true);
    let of = |counts: &[(String, u64)], row: &str| counts.iter().find(|(r, _)| r == row).unwrap().1 as f64;
    let by_row = |row: &str| of(&first, row);
    assert_eq!(first.iter().map(|(r, _)| r.as_str()).collect::<Vec<_>>(), ["empty", "one", "planted", "ten"]);
    assert_eq!(by_row("empty"), 0.0, "start-up, the index open and the warm-up are not counted");
    assert!(by_row("one") > 10_000.0, "a search costs instructions: {}", by_row("one"));
    let ratio = by_row("ten") / by_row("one");
    assert!((9.8..=10.2).contains(&ratio), "ten identical requests count ten times one: {ratio:.3}");
    assert_eq!(run("b", true), first, "two runs on copies of one index count the same to the instruction");
    let unplanted = run("c", false);
    let per_iteration = (by_row("planted") - of(&unplanted, "planted")) / (10 * PLANT_ITERATIONS) as f64;
    assert!((1.0..=10.0).contains(&per_iteration), "the plant is counted on its row: {per_iteration:.2} per iteration");
    for row in ["empty", "one", "ten"] {
        assert_eq!(by_row(row), of(&unplanted, row), "the plant leaves {row} alone, to the instruction");
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else if entry.file_name() != "engine.lock" {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
