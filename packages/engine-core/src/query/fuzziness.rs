//! `fuzziness` as the AST carries it, shared by full-text queries and `intervals` rules.

/// `fuzziness` on full-text queries: `Edits(n)`, or `AUTO` by term length (in characters:
/// none below `low`, one below `high`, else two).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fuzziness {
    Edits(u8),
    Auto { low: usize, high: usize },
}

impl Fuzziness {
    pub fn edits(self, term_chars: usize) -> u8 {
        match self {
            Fuzziness::Edits(n) => n,
            Fuzziness::Auto { low, .. } if term_chars < low => 0,
            Fuzziness::Auto { high, .. } if term_chars < high => 1,
            Fuzziness::Auto { .. } => 2,
        }
    }
}
