//! Auto-generated document ids shaped like Elasticsearch's: 20 URL-safe base64 characters
//! from 15 bytes (time-ordered prefix, per-process random, sequence), so ids sort roughly
//! by creation and never collide within a process.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static SEQUENCE: AtomicU64 = AtomicU64::new(0);
static NODE: OnceLock<[u8; 3]> = OnceLock::new();

fn node_bytes() -> [u8; 3] {
    *NODE.get_or_init(|| {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
        h.write_u32(std::process::id());
        let v = h.finish().to_le_bytes();
        [v[0], v[1], v[2]]
    })
}

pub fn auto_id() -> String {
    let millis = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
    let seq = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    let mut bytes = [0u8; 15];
    bytes[..6].copy_from_slice(&millis.to_be_bytes()[2..]);
    bytes[6..9].copy_from_slice(&node_bytes());
    bytes[9..].copy_from_slice(&seq.to_be_bytes()[2..]);
    let mut out = String::with_capacity(20);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16) | (u32::from(chunk[1]) << 8) | u32::from(chunk[2]);
        for shift in [18, 12, 6, 0] {
            out.push(ALPHABET[((n >> shift) & 63) as usize] as char);
        }
    }
    out
}

/// A random identifier shaped like ES's index and node UUIDs: 16 random bytes as 22 URL-safe
/// base64 characters (`UUIDs.randomBase64UUID`).
pub fn random_uuid() -> String {
    let mut bytes = [0u8; 16];
    for (i, half) in bytes.chunks_mut(8).enumerate() {
        // A fresh `RandomState` carries fresh random keys: its hash of anything is random.
        let mut h = RandomState::new().build_hasher();
        h.write_u64(SEQUENCE.fetch_add(1, Ordering::Relaxed));
        h.write_usize(i);
        h.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0));
        half.copy_from_slice(&h.finish().to_le_bytes());
    }
    let mut out = String::with_capacity(22);
    let mut bits = 0u32;
    let mut held = 0;
    for byte in bytes {
        bits = (bits << 8) | u32::from(byte);
        held += 8;
        while held >= 6 {
            held -= 6;
            out.push(ALPHABET[((bits >> held) & 63) as usize] as char);
        }
    }
    if held > 0 {
        out.push(ALPHABET[((bits << (6 - held)) & 63) as usize] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_22_url_safe_chars_and_unique() {
        let a = random_uuid();
        assert_eq!(a.len(), 22);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(a, random_uuid());
    }

    #[test]
    fn twenty_url_safe_chars_and_unique() {
        let a = auto_id();
        let b = auto_id();
        assert_eq!(a.len(), 20);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(a, b);
    }
}
