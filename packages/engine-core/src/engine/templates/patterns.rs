//! Index patterns (`*` wildcards only, as ES's `Regex.simpleMatch`): whether a name matches,
//! and whether two sets of patterns can match a common name (ES intersects their automata to
//! find overlapping templates).

use std::collections::HashMap;

/// Whether `pattern` matches `name`.
pub fn matches(pattern: &str, name: &str) -> bool {
    crate::wildcard::glob(pattern, name)
}

/// ES's match-all pattern: only `*`s.
pub fn is_match_all(pattern: &str) -> bool {
    !pattern.is_empty() && pattern.chars().all(|c| c == '*')
}

/// Whether some name matches both `a` and `b`.
fn intersect(a: &[u8], b: &[u8], memo: &mut HashMap<(usize, usize), bool>) -> bool {
    if let Some(known) = memo.get(&(a.len(), b.len())) {
        return *known;
    }
    let out = match (a.first(), b.first()) {
        (None, None) => true,
        (None, Some(_)) => b.iter().all(|c| *c == b'*'),
        (Some(_), None) => a.iter().all(|c| *c == b'*'),
        // A star matches nothing, or takes the other side's next character (or star).
        (Some(b'*'), _) | (_, Some(b'*')) => {
            let (star, other) = if a[0] == b'*' { (a, b) } else { (b, a) };
            let swap = a[0] != b'*';
            let skip_star = if swap { intersect(a, &star[1..], memo) } else { intersect(&star[1..], b, memo) };
            skip_star || {
                let consumed = &other[1..];
                if swap {
                    intersect(consumed, star, memo)
                } else {
                    intersect(star, consumed, memo)
                }
            }
        }
        (Some(x), Some(y)) => x == y && intersect(&a[1..], &b[1..], memo),
    };
    memo.insert((a.len(), b.len()), out);
    out
}

/// Whether any pattern of `a` and any of `b` can match the same name.
pub fn overlap(a: &[String], b: &[String]) -> bool {
    a.iter().any(|x| b.iter().any(|y| intersect(x.as_bytes(), y.as_bytes(), &mut HashMap::new())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(a: &[&str], b: &[&str]) -> bool {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        overlap(&s(a), &s(b))
    }

    #[test]
    fn overlaps_as_automata_intersect() {
        assert!(o(&["te*"], &["t*", "t1*"]));
        assert!(o(&["*"], &["foo"]));
        assert!(o(&["a*c"], &["ab*"]));
        assert!(o(&["*x"], &["y*"]));
        assert!(!o(&["te*"], &["ta*"]));
        assert!(!o(&["foo"], &["bar-*"]));
        assert!(!o(&["a*b"], &["*c"]));
        assert!(o(&["test-*"], &["test-2*"]));
        assert!(is_match_all("*") && !is_match_all("a*"));
    }
}
