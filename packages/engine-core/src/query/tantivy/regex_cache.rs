//! Compiled regular expressions for `regexp` and `wildcard`, cached by pattern. Compiling
//! builds a DFA, which costs more than running a selective pattern over a term dictionary,
//! and dashboards send the same few patterns over and over. The compiled automaton does not
//! depend on the field, so one entry serves every field. Pathological patterns hit the
//! automaton's state/size limits and come back as ES's `query_shard_exception` (a 400).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tantivy_fst::Regex;

use crate::error::{EngineError, Result, ShardCause};

/// Patterns kept; a handful of dashboards' worth, a few KB to a few MB of DFAs.
const CAPACITY: usize = 256;

struct Lru {
    tick: u64,
    entries: HashMap<String, (Arc<Regex>, u64)>,
}

fn cache() -> &'static Mutex<Lru> {
    static CACHE: OnceLock<Mutex<Lru>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Lru { tick: 0, entries: HashMap::new() }))
}

/// Lucene's default `max_determinized_states`. Patterns whose repetitions expand past it
/// are refused before compiling: the compiler's own size check comes only after it has
/// already spent seconds expanding nested counted repetitions such as `((a{0,50}){0,50}){0,50}`.
const MAX_EXPANDED_SIZE: u64 = 1_000;

/// An estimate of the automaton work once counted repetitions are unrolled: an atom is 1, a
/// group is the sum of its parts, `x{n}` multiplies `x` by n. Optional parts (`?`, `*`, `+`,
/// `{n,m}` with n < m) count double, since every optional copy multiplies the NFA state sets
/// the determinizer walks: `(a?){0,999}` costs far more than `a{999}`. Only the order of
/// magnitude matters; it saturates instead of overflowing.
fn expanded_size(pattern: &str) -> u64 {
    let chars: Vec<char> = pattern.chars().collect();
    // Per open group: (size so far, size of the last atom, so a quantifier can scale it).
    let mut stack: Vec<(u64, u64)> = vec![(0, 0)];
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        let atom = match c {
            '\\' => {
                i += 1;
                1
            }
            '[' => {
                // A class is one position; `]` right after `[` or `[^` is a literal.
                if i < chars.len() && chars[i] == '^' {
                    i += 1;
                }
                if i < chars.len() && chars[i] == ']' {
                    i += 1;
                }
                while i < chars.len() && chars[i] != ']' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                1
            }
            '(' => {
                stack.push((0, 0));
                continue;
            }
            ')' => {
                let (inner, _) = stack.pop().unwrap_or((0, 0));
                if stack.is_empty() {
                    stack.push((0, 0));
                }
                inner.max(1)
            }
            '{' => {
                let close = chars[i..].iter().position(|c| *c == '}').map(|p| i + p);
                let Some(close) = close else { continue };
                let body: String = chars[i..close].iter().collect();
                i = close + 1;
                let bounds: Vec<u64> = body.split(',').filter_map(|n| n.trim().parse::<u64>().ok()).collect();
                let most = bounds.iter().copied().max().unwrap_or(1).max(1);
                let exact = bounds.len() == 1 && !body.contains(',');
                let factor = if exact { most } else { most.saturating_mul(2) };
                let top = stack.last_mut().unwrap();
                top.0 = top.0.saturating_sub(top.1).saturating_add(top.1.saturating_mul(factor));
                top.1 = top.1.saturating_mul(factor);
                continue;
            }
            '*' | '+' | '?' => {
                let top = stack.last_mut().unwrap();
                top.0 = top.0.saturating_add(top.1);
                top.1 = top.1.saturating_mul(2);
                continue;
            }
            '|' => continue,
            _ => 1,
        };
        let top = stack.last_mut().unwrap();
        top.0 = top.0.saturating_add(atom);
        top.1 = atom;
    }
    stack.iter().map(|(size, _)| *size).fold(0, u64::saturating_add)
}

/// The compiled automaton for `pattern` (`kind` names the query in error messages).
pub fn compile(kind: &str, pattern: &str) -> Result<Arc<Regex>> {
    if expanded_size(pattern) > MAX_EXPANDED_SIZE {
        return Err(compile_error(
            kind,
            pattern,
            format!("it expands to more than {MAX_EXPANDED_SIZE} positions (index.max_determinized_states)"),
        ));
    }
    if let Ok(mut lru) = cache().lock() {
        lru.tick += 1;
        let tick = lru.tick;
        if let Some((re, used)) = lru.entries.get_mut(pattern) {
            *used = tick;
            return Ok(Arc::clone(re));
        }
    }
    let re = Arc::new(Regex::new(pattern).map_err(|e| compile_error(kind, pattern, e.to_string()))?);
    if let Ok(mut lru) = cache().lock() {
        if lru.entries.len() >= CAPACITY {
            // Evict the least recently used entry: a linear scan over 256 is cheaper than a compile.
            if let Some(oldest) = lru.entries.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| k.clone()) {
                lru.entries.remove(&oldest);
            }
        }
        let tick = lru.tick;
        lru.entries.insert(pattern.to_string(), (Arc::clone(&re), tick));
    }
    Ok(re)
}

fn compile_error(kind: &str, pattern: &str, text: String) -> crate::error::EngineError {
    if text.contains("exceeds size limit") || text.contains("max_determinized_states") {
        // Lucene's TooComplexToDeterminizeException, which ES reports the same way.
        return EngineError::shard(ShardCause::QueryShard, format!(
            "failed to create query: Determinizing automaton for {kind} [{pattern}] would require too much effort: {text}"
        ));
    }
    EngineError::shard(
        ShardCause::QueryShard,
        format!("failed to create query: invalid {kind} pattern [{pattern}]: {text}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_expansion_of_counted_repetitions() {
        assert_eq!(expanded_size("host-0[1-3]"), 7);
        assert_eq!(expanded_size("a{3}b"), 4);
        assert_eq!(expanded_size("((a{0,50}){0,50}){0,50}"), 1_000_000);
        assert_eq!(expanded_size("a?b"), 3);
        assert_eq!(expanded_size(r"\{x[\]a]{2}"), 4);
        assert_eq!(expanded_size("(a|aa)*"), 6);
    }

    #[test]
    fn caches_and_reports_pathological_patterns() {
        let a = compile("regexp", "host-0[1-3]").unwrap();
        let b = compile("regexp", "host-0[1-3]").unwrap();
        assert!(Arc::ptr_eq(&a, &b), "second compile is served from the cache");
        let err = compile("regexp", "(a|aa)*(b|bb)*.{0,200}[a-z]{0,200}").unwrap_err();
        assert_eq!(err.es_type_and_status(), ("search_phase_execution_exception", 400));
        assert!(err.to_string().contains("Determinizing"), "{err}");
    }
}
