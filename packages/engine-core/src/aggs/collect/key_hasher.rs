//! The hash map type for per-segment bucket keys.

use std::collections::HashMap;

/// A cheap multiplicative hasher for u64 bucket keys (SipHash dominated the profile).
/// The folded 128-bit product mixes low and high bits, so keys that are multiples of an
/// interval (histogram keys) still spread over the table.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let product = u128::from(self.0 ^ n) * 0x9E37_79B9_7F4A_7C15u128;
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }

    // Tuple keys (composite) hash their length and `Option` tags through these: one mix each,
    // not the byte loop of `write`.
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type KeyMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// Per-segment composite buckets, keyed by the tuple of raw source values.
pub(crate) type TupleMap<V> = HashMap<Vec<Option<u64>>, V, std::hash::BuildHasherDefault<KeyHasher>>;
