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

/// The bytes ES indexes for document `id` (its `Uid.encodeId`): digits packed two to a byte
/// after a `0xfe` marker; URL-safe base64 without padding decoded (with a `0xfd` escape when
/// the first byte would read as a marker); anything else as UTF-8 after a `0xff` marker.
pub fn lucene_id_bytes(id: &str) -> Vec<u8> {
    let bytes = id.as_bytes();
    if !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit) {
        let mut out = Vec::with_capacity(1 + bytes.len().div_ceil(2));
        out.push(0xfe);
        for pair in bytes.chunks(2) {
            let low = pair.get(1).map_or(0x0f, |d| d - b'0');
            out.push(((pair[0] - b'0') << 4) | low);
        }
        return out;
    }
    if let Some(mut decoded) = url_base64_without_padding(bytes) {
        if decoded.first().is_some_and(|b| *b >= 0xfd) {
            decoded.insert(0, 0xfd);
        }
        return decoded;
    }
    let mut out = Vec::with_capacity(1 + bytes.len());
    out.push(0xff);
    out.extend_from_slice(bytes);
    out
}

/// `id` decoded as URL-safe base64 without padding, when it is that in canonical form (the
/// unused low bits of the last symbol zero), as ES tells base64 ids apart.
fn url_base64_without_padding(id: &[u8]) -> Option<Vec<u8>> {
    let value = |c: u8| ALPHABET.iter().position(|a| *a == c).map(|v| v as u32);
    let last = value(*id.last()?)?;
    match id.len() % 4 {
        1 => return None,
        2 if last & 0x0f != 0 => return None,
        3 if last & 0x03 != 0 => return None,
        _ => {}
    }
    let mut out = Vec::with_capacity(id.len() * 3 / 4);
    let (mut bits, mut held) = (0u32, 0);
    for c in id {
        bits = (bits << 6) | value(*c)?;
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
            bits &= (1 << held) - 1;
        }
    }
    Some(out)
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

    #[test]
    fn ids_encode_as_es_indexes_them() {
        assert_eq!(lucene_id_bytes("1"), vec![0xfe, 0x1f]);
        assert_eq!(lucene_id_bytes("123"), vec![0xfe, 0x12, 0x3f]);
        assert_eq!(lucene_id_bytes("abc"), vec![0x69, 0xb7]);
        assert_eq!(lucene_id_bytes("_w"), vec![0xfd, 0xff]);
        // Not canonical base64 (`b` leaves low bits set), or not base64 at all: UTF-8.
        assert_eq!(lucene_id_bytes("ab"), vec![0xff, b'a', b'b']);
        assert_eq!(lucene_id_bytes("a b"), vec![0xff, b'a', b' ', b'b']);
    }
}
