//! `workcount`: replays the harness's request streams against an index in process, so that
//! `valgrind --tool=callgrind` can count the instructions each read row costs the engine.
//!
//! The harness (`packages/harness/src/workcount/`) writes every row's requests to one NDJSON
//! file (deterministic from the seed), loads the corpus into a data directory through the
//! candidate's own service, and starts this binary under callgrind with collection off except
//! inside [`measured::everycell_workcount_request`] (`--toggle-collect`) and a dump after every
//! row (`--dump-after=everycell_workcount_row_done`): each dump then holds one row's timed
//! requests and nothing else (no start-up, no index open, no warm-up, no other thread).
//!
//! Usage: `workcount --data-dir DIR --requests FILE [--epoch-ms MS]` (one JSON object per row on
//! stdout). `determinism.rs` and `heap.rs` say why the counted thread's clock, random bytes and
//! allocator are its own.
//! Outside valgrind the same run reports each row's on-CPU time per request, the engine's own
//! cost without the HTTP service around it.

mod determinism;
mod heap;
mod measured;
mod plan;
mod plant;
mod serve;

use std::path::PathBuf;
use std::process::ExitCode;

use engine_core::Engine;
use serde_json::json;

use crate::plan::{Phase, Row};
use crate::serve::Outcome;

/// Requests allocate from a heap whose calls cost the same whatever came before (`heap.rs`).
#[global_allocator]
static HEAP: heap::CountedHeap = heap::CountedHeap;

const USAGE: &str = "--data-dir DIR --requests FILE [--epoch-ms MS]";

struct Args {
    data_dir: PathBuf,
    requests: PathBuf,
    /// The pinned clock's wall time at the start (date math's `now`), in ms since the epoch.
    epoch_ms: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut data_dir = None;
    let mut requests = None;
    let mut epoch_ms = None;
    let mut argv = std::env::args().skip(1);
    while let Some(flag) = argv.next() {
        let mut value = || argv.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--data-dir" => data_dir = Some(PathBuf::from(value()?)),
            "--requests" => requests = Some(PathBuf::from(value()?)),
            "--epoch-ms" => epoch_ms = Some(value()?.parse().map_err(|_| "--epoch-ms takes milliseconds since 1970")?),
            other => return Err(format!("unknown flag {other} (flags: {USAGE})")),
        }
    }
    Ok(Args {
        data_dir: data_dir.ok_or("--data-dir DIR is required")?,
        requests: requests.ok_or("--requests FILE is required")?,
        // Without --epoch-ms the run starts at the real time: date math then follows the day.
        epoch_ms: epoch_ms.unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
        }),
    })
}

/// What one row did: its requests' outcomes and their on-CPU time on this thread.
fn run_row(engine: &Engine, row: &Row, plant: u64) -> serde_json::Value {
    for request in row.requests.iter().filter(|r| r.phase == Phase::Warmup) {
        serve::serve(engine, request);
    }
    let (mut ok, mut errors, mut first_error, mut reply_bytes, mut cpu_ns) = (0u64, 0u64, None, 0u64, 0u64);
    for request in row.requests.iter().filter(|r| r.phase == Phase::Timed) {
        let before = determinism::thread_cpu_ns();
        let outcome: Outcome = measured::everycell_workcount_request(engine, request, plant);
        cpu_ns += determinism::thread_cpu_ns().saturating_sub(before);
        reply_bytes += outcome.bytes as u64;
        if outcome.status < 300 {
            ok += 1;
        } else {
            errors += 1;
            first_error.get_or_insert(outcome.summary);
        }
    }
    measured::everycell_workcount_row_done();
    json!({
        "row": row.id,
        "timed": ok + errors,
        "ok": ok,
        "errors": errors,
        "firstError": first_error,
        "replyBytes": reply_bytes,
        "cpuNs": cpu_ns,
        "plantIterations": plant,
    })
}

/// Stack of the counting thread: the main thread's 8 MiB, as any request may recurse as deep there.
const COUNTING_STACK_BYTES: usize = 8 << 20;

fn run() -> Result<(), String> {
    let args = parse_args()?;
    // Parsed before the counted heap takes over: the plan's text differs between a planted run and
    // a plain one, and allocations of other sizes there would leave the counted heap in another
    // state and move rows the plant never touched.
    let plants = plant::from_env()?;
    // Every search pass on the calling thread: the pool (on machines of 4 cores or more) would
    // run part of a request on threads whose instructions the toggle does not collect.
    std::env::set_var("EVERYCELL_SEARCH_THREADS", "1");
    // The requests run on a thread of their own: the main thread's stack starts below the
    // environment and the arguments, so its alignment followed their length (a planted run's
    // longer environment, another runner path) and moved rows by up to 0.008% (memcpy and memset
    // take other paths on other alignments). A new thread's stack is mapped fresh, the same in
    // every run.
    std::thread::Builder::new()
        .name("workcount".into())
        .stack_size(COUNTING_STACK_BYTES)
        .spawn(move || count_rows(&args, &plants))
        .map_err(|e| format!("starting the counting thread: {e}"))?
        .join()
        .map_err(|_| "the counting thread panicked".to_string())?
}

/// Opens the index and replays every row, on the thread whose instructions are counted.
fn count_rows(args: &Args, plants: &plant::Plants) -> Result<(), String> {
    determinism::pin_this_thread(args.epoch_ms);
    heap::use_on_this_thread()?;
    let rows = plan::read(&args.requests)?;
    let engine = Engine::open(&args.data_dir).map_err(|e| format!("opening {}: {e}", args.data_dir.display()))?;
    for row in &rows {
        println!("{}", run_row(&engine, row, plants.iterations_for(&row.id)));
    }
    engine.close().map_err(|e| format!("closing the engine: {e}"))?;
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("workcount: {message}");
            ExitCode::from(2)
        }
    }
}
