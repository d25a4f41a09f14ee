//! `significant_text`'s `filter_duplicate_text`: tokens in a run of at least six that the
//! aggregation has already seen, in an earlier document or earlier in the same text, are
//! dropped before the document's terms are counted, so copied boilerplate (signatures,
//! quoted replies, syndicated paragraphs) stops looking significant. ES does this with a trie
//! of byte hashes of tokens shared by every document its aggregator collects on a shard;
//! here every six-token window of a text is reduced to a 64-bit hash, and the windows seen
//! so far are kept in one set per aggregation and index (`TextDedup`), shared by its
//! segments. A window seen before marks its six tokens as duplicates.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher, Hash, Hasher};
use std::sync::{Arc, Mutex};

/// The shortest run of tokens that counts as a copy (ES's `DuplicateByteSequenceSpotter`
/// tree depth): shorter repeats are common phrases.
pub(crate) const MIN_RUN: usize = 6;

/// The windows of `MIN_RUN` tokens seen so far, by hash.
#[derive(Debug, Default)]
pub(crate) struct DuplicateSpotter {
    seen: HashSet<u64, BuildHasherDefault<IdentityHasher>>,
}

impl DuplicateSpotter {
    /// The tokens of one text that are not part of a run already seen; records the text's
    /// runs, so a later text (or a later part of this one) repeating them loses them.
    pub(crate) fn keep_new(&mut self, tokens: Vec<String>) -> Vec<String> {
        if tokens.len() < MIN_RUN {
            return tokens;
        }
        let hashes: Vec<u64> = tokens.iter().map(|t| stable_hash(t)).collect();
        let mut duplicate = vec![false; tokens.len()];
        for start in 0..=tokens.len() - MIN_RUN {
            let window = window_hash(&hashes[start..start + MIN_RUN]);
            if !self.seen.insert(window) {
                duplicate[start..start + MIN_RUN].iter_mut().for_each(|d| *d = true);
            }
        }
        tokens.into_iter().zip(duplicate).filter(|(_, dup)| !dup).map(|(t, _)| t).collect()
    }
}

/// The spotters of one aggregation collector: one per `significant_text` request (keyed by
/// the request's address in the collector's immutable request tree), shared by the segments
/// of the index it collects.
#[derive(Debug, Default)]
pub struct TextDedup {
    spotters: Mutex<HashMap<usize, Arc<Mutex<DuplicateSpotter>>>>,
}

impl TextDedup {
    pub(crate) fn spotter(&self, req: &crate::aggs::request::AggRequest) -> Arc<Mutex<DuplicateSpotter>> {
        let key = std::ptr::from_ref(req) as usize;
        let mut spotters = self.spotters.lock().unwrap_or_else(|e| e.into_inner());
        spotters.entry(key).or_default().clone()
    }
}

/// Token hashes are already well mixed: the set uses them as they are.
#[derive(Default)]
pub(crate) struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// SipHash with fixed keys: the same token hashes the same in every segment.
fn stable_hash(token: &str) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(token)
}

fn window_hash(hashes: &[u64]) -> u64 {
    let mut h = DefaultHasher::new();
    hashes.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_repeated_run_of_six_tokens_is_dropped() {
        let mut spotter = DuplicateSpotter::default();
        assert_eq!(spotter.keep_new(tokens("bad n3 b1 b2 b3 b4 b5 b6")), tokens("bad n3 b1 b2 b3 b4 b5 b6"));
        assert_eq!(spotter.keep_new(tokens("bad n4 b1 b2 b3 b4 b5 b6")), tokens("bad n4"));
        // Five shared tokens are not a copy.
        assert_eq!(spotter.keep_new(tokens("x b1 b2 b3 b4 b5 y")), tokens("x b1 b2 b3 b4 b5 y"));
    }

    #[test]
    fn repeats_inside_one_text_count_and_short_texts_pass() {
        let mut spotter = DuplicateSpotter::default();
        let text = tokens("a b c d e f z a b c d e f");
        assert_eq!(spotter.keep_new(text), tokens("a b c d e f z"));
        assert_eq!(spotter.keep_new(tokens("a b c")), tokens("a b c"));
    }
}
