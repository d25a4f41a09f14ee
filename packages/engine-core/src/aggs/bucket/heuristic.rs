//! Significance heuristics of `significant_terms` / `significant_text`: how much more often a
//! term occurs in the foreground (subset) than in the background (superset). The formulas
//! are Elasticsearch's (JLH, mutual information, chi square, GND, percentage), evaluated in
//! the same floating point order so scores agree to the last bit.

use serde_json::Value;

use crate::error::{EngineError, Result};

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Heuristic {
    Jlh,
    MutualInformation { include_negatives: bool, background_is_superset: bool },
    ChiSquare { include_negatives: bool, background_is_superset: bool },
    Gnd { background_is_superset: bool },
    Percentage,
}

/// Document counts one score is computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Counts {
    pub subset_freq: u64,
    pub subset_size: u64,
    pub superset_freq: u64,
    pub superset_size: u64,
}

impl Heuristic {
    /// The heuristic named `key` with its options, or `None` if `key` names none.
    pub fn parse(kind: &str, key: &str, value: &Value) -> Result<Option<Heuristic>> {
        let allowed: &[&str] = match key {
            "jlh" | "percentage" => &[],
            "gnd" => &["background_is_superset"],
            "mutual_information" | "chi_square" => &["include_negatives", "background_is_superset"],
            _ => return Ok(None),
        };
        let opts = value
            .as_object()
            .ok_or_else(|| EngineError::XContentParse(format!("[{kind}] failed to parse field [{key}]")))?;
        let flag = |name: &str, default: bool| -> Result<bool> {
            match opts.get(name) {
                None => Ok(default),
                Some(v) => v
                    .as_bool()
                    .ok_or_else(|| EngineError::XContentParse(format!("[{key}] failed to parse field [{name}]"))),
            }
        };
        if let Some(unknown) = opts.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(EngineError::XContentParse(format!("[{key}] unknown field [{unknown}]")));
        }
        Ok(Some(match key {
            "jlh" => Heuristic::Jlh,
            "percentage" => Heuristic::Percentage,
            "gnd" => Heuristic::Gnd { background_is_superset: flag("background_is_superset", true)? },
            "mutual_information" => Heuristic::MutualInformation {
                include_negatives: flag("include_negatives", false)?,
                background_is_superset: flag("background_is_superset", true)?,
            },
            _ => Heuristic::ChiSquare {
                include_negatives: flag("include_negatives", false)?,
                background_is_superset: flag("background_is_superset", true)?,
            },
        }))
    }

    pub fn score(&self, c: Counts) -> f64 {
        match *self {
            Heuristic::Jlh => jlh(c),
            Heuristic::Percentage => {
                if c.superset_freq == 0 {
                    0.0
                } else {
                    c.subset_freq as f64 / c.superset_freq as f64
                }
            }
            Heuristic::MutualInformation { include_negatives, background_is_superset } => {
                mutual_information(&Table::new(c, background_is_superset), include_negatives)
            }
            Heuristic::ChiSquare { include_negatives, background_is_superset } => {
                chi_square(&Table::new(c, background_is_superset), include_negatives)
            }
            Heuristic::Gnd { background_is_superset } => gnd(&Table::new(c, background_is_superset)),
        }
    }
}

/// JLH: the absolute change in probability times the relative change; 0 unless the term is
/// more frequent in the foreground. A term absent from the background counts as seen once.
fn jlh(c: Counts) -> f64 {
    if c.subset_size == 0 || c.superset_size == 0 {
        return 0.0;
    }
    let superset_freq = c.superset_freq.max(1);
    let subset_probability = c.subset_freq as f64 / c.subset_size as f64;
    let superset_probability = superset_freq as f64 / c.superset_size as f64;
    let absolute_change = subset_probability - superset_probability;
    if absolute_change <= 0.0 {
        return 0.0;
    }
    absolute_change * (subset_probability / superset_probability)
}

/// The 2x2 contingency table (term present 1 / absent 0, by in class 1 / not 0) of the
/// information-theoretic heuristics. With `background_is_superset` the foreground docs are
/// part of the background and are taken out of its "not in class" cells.
struct Table {
    n00: f64,
    n01: f64,
    n10: f64,
    n11: f64,
    n0_: f64,
    n1_: f64,
    n_0: f64,
    n_1: f64,
    n: f64,
}

impl Table {
    fn new(c: Counts, background_is_superset: bool) -> Table {
        let (sf, ss, bf, bs) =
            (c.subset_freq as f64, c.subset_size as f64, c.superset_freq as f64, c.superset_size as f64);
        if background_is_superset {
            Table {
                n00: bs - bf - (ss - sf),
                n01: ss - sf,
                n10: bf - sf,
                n11: sf,
                n0_: bs - bf,
                n1_: bf,
                n_0: bs - ss,
                n_1: ss,
                n: bs,
            }
        } else {
            Table {
                n00: bs - bf,
                n01: ss - sf,
                n10: bf,
                n11: sf,
                n0_: bs - bf + ss - sf,
                n1_: bf + sf,
                n_0: bs,
                n_1: ss,
                n: bs + ss,
            }
        }
    }

    /// The term is rarer in the class than outside it.
    fn negative(&self) -> bool {
        self.n11 / self.n_1 < self.n10 / self.n_0
    }
}

fn mi_term(nxy: f64, nx_: f64, n_y: f64, n: f64) -> f64 {
    let numerator = (n * nxy).abs();
    let denominator = (nx_ * n_y).abs();
    let factor = (nxy / n).abs();
    if numerator < 1e-7 && factor < 1e-7 {
        0.0
    } else {
        factor * (numerator / denominator).ln()
    }
}

fn mutual_information(t: &Table, include_negatives: bool) -> f64 {
    let mut score = (mi_term(t.n00, t.n0_, t.n_0, t.n)
        + mi_term(t.n01, t.n0_, t.n_1, t.n)
        + mi_term(t.n10, t.n1_, t.n_0, t.n)
        + mi_term(t.n11, t.n1_, t.n_1, t.n))
        / 2f64.ln();
    if score.is_nan() {
        score = f64::NEG_INFINITY;
    }
    if !include_negatives && t.negative() {
        score = f64::NEG_INFINITY;
    }
    score
}

fn chi_square(t: &Table, include_negatives: bool) -> f64 {
    if !include_negatives && t.negative() {
        return f64::NEG_INFINITY;
    }
    t.n * (t.n11 * t.n00 - t.n01 * t.n10).powf(2.0) / (t.n_1 * t.n1_ * t.n0_ * t.n_0)
}

/// Google normalized distance, inverted (`exp(-d)`) so that closer terms score higher.
fn gnd(t: &Table) -> f64 {
    let (fx, fy, fxy) = (t.n1_, t.n_1, t.n11);
    if fxy == 0.0 {
        return 0.0;
    }
    if fx == fy && fx == fxy {
        return 1.0;
    }
    let distance = (fx.ln().max(fy.ln()) - fxy.ln()) / (t.n.ln() - fx.ln().min(fy.ln()));
    (-distance).exp()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn counts(subset_freq: u64, subset_size: u64, superset_freq: u64, superset_size: u64) -> Counts {
        Counts { subset_freq, subset_size, superset_freq, superset_size }
    }

    #[test]
    fn jlh_is_absolute_times_relative_change() {
        // fg 10/100 = 0.1, bg 20/1000 = 0.02: (0.1 - 0.02) * (0.1 / 0.02) = 0.4
        let s = Heuristic::Jlh.score(counts(10, 100, 20, 1000));
        assert!((s - 0.4).abs() < 1e-12, "{s}");
        // Under-represented terms score 0; so does an empty foreground.
        assert_eq!(Heuristic::Jlh.score(counts(1, 100, 500, 1000)), 0.0);
        assert_eq!(Heuristic::Jlh.score(counts(0, 0, 5, 1000)), 0.0);
        // Absent from the background: counted once. 0.5 - 0.001 = 0.499, times 500.
        let s = Heuristic::Jlh.score(counts(1, 2, 0, 1000));
        assert!((s - 0.499 * 500.0).abs() < 1e-9, "{s}");
    }

    #[test]
    fn percentage_is_foreground_share_of_background() {
        assert_eq!(Heuristic::Percentage.score(counts(5, 10, 20, 100)), 0.25);
        assert_eq!(Heuristic::Percentage.score(counts(5, 10, 0, 100)), 0.0);
    }

    #[test]
    fn chi_square_and_mutual_information_reject_negatives_by_default() {
        let chi = Heuristic::parse("significant_terms", "chi_square", &json!({})).unwrap().unwrap();
        // 1/100 in class vs 499/900 outside it: negative.
        assert_eq!(chi.score(counts(1, 100, 500, 1000)), f64::NEG_INFINITY);
        // N = 1000, N11 = 50, N01 = 50, N10 = 50, N00 = 850:
        // 1000 * (50*850 - 50*50)^2 / (100 * 100 * 900 * 900) = 1000 * 40000^2 / 8.1e9
        let s = chi.score(counts(50, 100, 100, 1000));
        assert!((s - 1000.0 * 1.6e9 / 8.1e9).abs() < 1e-9, "{s}");
        let mi = Heuristic::parse("significant_terms", "mutual_information", &json!({})).unwrap().unwrap();
        assert_eq!(mi.score(counts(1, 100, 500, 1000)), f64::NEG_INFINITY);
        assert!(mi.score(counts(50, 100, 100, 1000)) > 0.0);
    }

    #[test]
    fn gnd_is_one_for_perfect_co_occurrence() {
        let gnd = Heuristic::parse("significant_terms", "gnd", &json!({})).unwrap().unwrap();
        assert_eq!(gnd.score(counts(10, 10, 10, 1000)), 1.0);
        assert_eq!(gnd.score(counts(0, 10, 10, 1000)), 0.0);
        // fx = 20, fy = 10, fxy = 10, N = 1000: d = (ln 20 - ln 10) / (ln 1000 - ln 10)
        let d = (20f64.ln() - 10f64.ln()) / (1000f64.ln() - 10f64.ln());
        assert!((gnd.score(counts(10, 10, 20, 1000)) - (-d).exp()).abs() < 1e-12);
    }

    #[test]
    fn unknown_options_are_refused() {
        assert!(Heuristic::parse("significant_terms", "jlh", &json!({"x": 1})).is_err());
        assert_eq!(Heuristic::parse("significant_terms", "size", &json!(3)).unwrap(), None);
    }
}
