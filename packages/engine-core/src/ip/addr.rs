//! Parsing and rendering one address the way ES does (`InetAddresses.forString`,
//! `NetworkAddress.format`): an IPv4-mapped IPv6 address is the IPv4 address.

use std::net::{IpAddr, Ipv6Addr};

/// Parses an address literal into its 16-byte IPv6 form. Like ES (and unlike `inet_aton`),
/// only a full dotted quad or an IPv6 literal is accepted: `10.1`, `010.0.0.1`, scope ids
/// and surrounding brackets are not addresses.
pub fn parse_ip(text: &str) -> Option<Ipv6Addr> {
    match text.parse::<IpAddr>().ok()? {
        IpAddr::V4(v4) => Some(v4.to_ipv6_mapped()),
        IpAddr::V6(v6) => Some(v6),
    }
}

/// ES's rendering: a dotted quad for IPv4 (mapped) addresses, the compressed lowercase
/// RFC 5952 form otherwise (what `std` prints for non-mapped addresses).
pub fn format_ip(addr: Ipv6Addr) -> String {
    match addr.to_ipv4_mapped() {
        Some(v4) => v4.to_string(),
        None => addr.to_string(),
    }
}

/// A mapped address as Java prints an `Inet6Address` literal (`::ffff:10.0.0.0`), for error texts.
pub(crate) fn format_v6_literal(addr: Ipv6Addr) -> String {
    addr.to_string()
}

/// The error text ES gives for a value that is not an address.
pub fn not_an_ip(text: &str) -> String {
    format!("'{text}' is not an IP string literal.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        format_ip(parse_ip(text).unwrap())
    }

    #[test]
    fn v4_is_mapped_and_rendered_as_a_dotted_quad() {
        assert_eq!(parse_ip("1.2.3.4").unwrap().octets()[10..], [0xff, 0xff, 1, 2, 3, 4]);
        assert_eq!(round_trip("10.0.0.200"), "10.0.0.200");
        assert_eq!(round_trip("::ffff:1.2.3.4"), "1.2.3.4");
        assert_eq!(parse_ip("::ffff:1.2.3.4"), parse_ip("1.2.3.4"));
    }

    #[test]
    fn v6_is_rendered_compressed_and_lowercase() {
        assert_eq!(round_trip("2001:DB8:0:0:0:0:0:1"), "2001:db8::1");
        assert_eq!(round_trip("2001:db8:0:0:1:0:0:1"), "2001:db8::1:0:0:1");
        assert_eq!(round_trip("::"), "::");
        assert_eq!(round_trip("::1"), "::1");
        assert_eq!(round_trip("2001:0:0:1:0:0:0:1"), "2001:0:0:1::1");
    }

    #[test]
    fn refuses_what_is_not_an_address() {
        for bad in ["not-an-ip", "", "10.1", "256.0.0.1", "010.0.0.1", "1.2.3.4/8", "[::1]", "fe80::1%eth0", " 1.2.3.4"]
        {
            assert_eq!(parse_ip(bad), None, "{bad}");
        }
        assert_eq!(not_an_ip("nope"), "'nope' is not an IP string literal.");
    }
}
