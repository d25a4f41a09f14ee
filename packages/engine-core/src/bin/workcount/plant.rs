//! Planted extra work, for calibrating the count check and nothing else: the environment
//! variable `EVERYCELL_WORKCOUNT_PLANT` is read by this binary only (never by the engine or its
//! service), as `ROW=ITERATIONS[,ROW=ITERATIONS...]`, `*` for every row. Each timed request of a
//! named row then spins `ITERATIONS` times inside the counted function: a known, fixed number
//! of instructions per request, which the calibration sizes against the row's own count.

use std::collections::BTreeMap;
use std::hint::black_box;

pub const ENV: &str = "EVERYCELL_WORKCOUNT_PLANT";

#[derive(Debug, Default)]
pub struct Plants {
    by_row: BTreeMap<String, u64>,
    every_row: Option<u64>,
}

impl Plants {
    pub fn parse(spec: &str) -> Result<Plants, String> {
        let mut plants = Plants::default();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (row, n) = part.split_once('=').ok_or_else(|| format!("{ENV}: \"{part}\" is not ROW=ITERATIONS"))?;
            let n: u64 = n.trim().parse().map_err(|_| format!("{ENV}: \"{n}\" is not a whole number of iterations"))?;
            match row.trim() {
                "*" => plants.every_row = Some(n),
                row => {
                    plants.by_row.insert(row.to_string(), n);
                }
            }
        }
        Ok(plants)
    }

    /// A row's own plant, else the one for every row, else none.
    pub fn iterations_for(&self, row: &str) -> u64 {
        self.by_row.get(row).copied().or(self.every_row).unwrap_or(0)
    }
}

pub fn from_env() -> Result<Plants, String> {
    match std::env::var(ENV) {
        Ok(spec) => Plants::parse(&spec),
        Err(_) => Ok(Plants::default()),
    }
}

/// Busy work the optimiser cannot remove: the same few instructions per iteration.
#[inline(never)]
pub fn spin(iterations: u64) {
    let mut i = 0u64;
    while i < iterations {
        i = black_box(i) + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_takes_its_own_plant_before_the_one_for_every_row() {
        let plants = Plants::parse("query.term=100, *=7").unwrap();
        assert_eq!(plants.iterations_for("query.term"), 100);
        assert_eq!(plants.iterations_for("query.match"), 7);
        assert_eq!(Plants::default().iterations_for("query.term"), 0);
        assert!(Plants::parse("query.term").is_err());
        assert!(Plants::parse("query.term=x").is_err());
    }
}
