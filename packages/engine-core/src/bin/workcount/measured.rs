//! The only code callgrind counts. `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect=everycell_workcount_request --dump-after=everycell_workcount_row_done`
//! collects inside `everycell_workcount_request` (on the thread that calls it) and writes one
//! dump per row. Both keep their symbol names (`no_mangle`) and are never inlined, so the
//! patterns match exactly one function each.

use std::hint::black_box;

use engine_core::Engine;

use crate::plan::Request;
use crate::plant;
use crate::serve::{self, Outcome};

/// One timed request: the engine's whole work for it, the reply dropped inside (freeing it is
/// part of serving it), then the planted extra work, if any (calibration only).
#[no_mangle]
#[inline(never)]
pub fn everycell_workcount_request(engine: &Engine, request: &Request, plant_iterations: u64) -> Outcome {
    let outcome = serve::serve(engine, black_box(request));
    plant::spin(plant_iterations);
    outcome
}

/// Marks the end of a row: callgrind dumps (and zeroes) its counters when this returns.
#[no_mangle]
#[inline(never)]
pub extern "C" fn everycell_workcount_row_done() {
    black_box(());
}
