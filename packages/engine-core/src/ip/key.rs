//! The indexed form of an address: its 16 bytes as 32 lowercase hex digits. Fixed width and
//! one digit order means the terms sort exactly as the bytes do (unsigned, big-endian), which
//! is what ES's term, range, sort and aggregation order is.

use std::fmt::Write;
use std::net::Ipv6Addr;

use super::addr::format_ip;

pub const KEY_LEN: usize = 32;

pub fn to_key(addr: Ipv6Addr) -> String {
    let mut out = String::with_capacity(KEY_LEN);
    for b in addr.octets() {
        let _ = write!(out, "{b:02x}");
    }
    out
}

pub fn from_key(key: &str) -> Option<Ipv6Addr> {
    if key.len() != KEY_LEN {
        return None;
    }
    u128::from_str_radix(key, 16).ok().map(Ipv6Addr::from)
}

/// How a stored term is shown to clients (sort values, aggregation keys); a term that is not a
/// key (it cannot happen for an ip field) is shown as it is rather than dropped.
pub fn display_key(key: &str) -> String {
    from_key(key).map(format_ip).unwrap_or_else(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ip::parse_ip;

    #[test]
    fn keys_round_trip_and_sort_like_the_bytes() {
        let addrs = ["::", "::1", "10.0.0.1", "10.0.0.200", "10.1.2.3", "192.168.1.5", "2001:db8::1", "ffff::"];
        let keys: Vec<String> = addrs.iter().map(|a| to_key(parse_ip(a).unwrap())).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        for (a, k) in addrs.iter().zip(&keys) {
            assert_eq!(k.len(), KEY_LEN);
            assert_eq!(display_key(k), *a);
        }
        assert_eq!(to_key(parse_ip("1.2.3.4").unwrap()), "00000000000000000000ffff01020304");
        assert_eq!(from_key("xyz"), None);
    }
}
