//! `*` patterns over names (indices, aliases, fields, settings keys, `_source` paths): a `*`
//! matches any run of characters, dots included, every other character itself.
//!
//! Matched byte by byte, which is character by character for UTF-8: a literal character's
//! first byte is never a continuation byte, so a literal can only match at a character
//! boundary, and no string is ever sliced (a name like `index-中文` cannot land a slice inside a
//! character). One pass with backtracking only to the last `*`: linear-time in practice, so a
//! pattern such as `*a*a*a*a*b` cannot explode on a long name.

/// Whether `text` matches `pattern`.
pub fn glob(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    // After a `*`: where the pattern resumes, and how much of the text the `*` has taken so far.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if p.get(pi) == Some(&b'*') {
            pi += 1;
            star = Some((pi, ti));
        } else if p.get(pi) == Some(&t[ti]) {
            pi += 1;
            ti += 1;
        } else if let Some((resume, taken)) = star {
            pi = resume;
            ti = taken + 1;
            star = Some((resume, taken + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&b| b == b'*')
}

/// ES's simple patterns (`*` anywhere) over a list.
pub fn matches_any(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| glob(p, name))
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn stars_and_literals() {
        assert!(glob("*", "") && glob("*", "anything") && glob("", ""));
        assert!(glob("a*", "a1") && !glob("a*", "b1") && glob("a*b", "axxb") && !glob("a*b", "axxbc"));
        assert!(glob("*.raw", "title.raw") && glob("t*.raw", "title.raw") && !glob("ti*", "status"));
        assert!(glob("a**b", "ab") && glob("*a*", "bab") && !glob("abc", "ab"));
    }

    #[test]
    fn multibyte_names_never_split_a_character() {
        let name = "test-weird-index-中文";
        assert!(glob("*", name) && glob("test*", name) && glob("*中文", name) && glob("*中*", name));
        assert!(glob("test-weird-index-中文", name) && !glob("*文中", name) && !glob("test-weird-index-中", name));
        assert!(glob("*文", "中文") && !glob("*\u{e6}", "中文"));
    }

    #[test]
    fn many_stars_stay_fast() {
        let name = "a".repeat(5_000);
        let pattern = format!("{}b", "*a".repeat(40));
        let started = std::time::Instant::now();
        assert!(!glob(&pattern, &name));
        // A recursive matcher takes astronomically long here; allow any machine's noise.
        assert!(started.elapsed().as_secs() < 5);
    }
}
