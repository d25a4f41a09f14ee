//! CIDR blocks (`10.0.0.0/8`, `2001:db8::/32`) as the inclusive range of addresses they hold.
//! An IPv4 prefix counts within the mapped form, so `/8` on IPv4 is `/104` of the 128 bits.

use std::net::{IpAddr, Ipv6Addr};

/// An inclusive address range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IpBlock {
    pub first: Ipv6Addr,
    pub last: Ipv6Addr,
}

/// Parses `address/prefix`. The bits after the prefix are ignored, as in ES
/// (`10.1.2.3/8` is `10.0.0.0/8`). The error is ES's wording.
pub fn parse_cidr(text: &str) -> Result<IpBlock, String> {
    let expected = || format!("Expected [ip/prefix] but was [{text}]");
    let (addr, prefix) = text.split_once('/').ok_or_else(expected)?;
    if prefix.contains('/') {
        return Err(expected());
    }
    let addr: IpAddr = addr.parse().map_err(|_| super::addr::not_an_ip(addr))?;
    let prefix: u32 = prefix.parse().map_err(|_| expected())?;
    let (bits, max) = match addr {
        IpAddr::V4(v4) => (v4.to_ipv6_mapped(), 32),
        // ES's wording, unclosed bracket included.
        IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some() => {
            return Err(format!(
                "CIDR notation is not allowed with IPv6-mapped IPv4 address [{} as it introduces ambiguity as to whether the prefix length should be interpreted as a v4 prefix length or a v6 prefix length",
                super::addr::format_v6_literal(v6)
            ))
        }
        IpAddr::V6(v6) => (v6, 128),
    };
    if prefix > max {
        return Err(format!(
            "Illegal prefix length [{prefix}] in [{text}]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges"
        ));
    }
    let prefix = prefix + (128 - max);
    let host_bits = 128 - prefix;
    let host_mask: u128 = if host_bits == 128 { u128::MAX } else { (1u128 << host_bits) - 1 };
    let base = u128::from(bits) & !host_mask;
    Ok(IpBlock { first: Ipv6Addr::from(base), last: Ipv6Addr::from(base | host_mask) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ip::format_ip;

    fn block(text: &str) -> (String, String) {
        let b = parse_cidr(text).unwrap();
        (format_ip(b.first), format_ip(b.last))
    }

    #[test]
    fn v4_and_v6_blocks() {
        assert_eq!(block("10.0.0.0/24"), ("10.0.0.0".into(), "10.0.0.255".into()));
        assert_eq!(block("10.1.2.3/8"), ("10.0.0.0".into(), "10.255.255.255".into()));
        assert_eq!(block("1.2.3.4/32"), ("1.2.3.4".into(), "1.2.3.4".into()));
        assert_eq!(block("0.0.0.0/0"), ("0.0.0.0".into(), "255.255.255.255".into()));
        assert_eq!(block("2001:db8::/32"), ("2001:db8::".into(), "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff".into()));
        assert_eq!(block("::/0"), ("::".into(), "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff".into()));
    }

    #[test]
    fn refuses_bad_blocks() {
        assert_eq!(parse_cidr("10.0.0.0").unwrap_err(), "Expected [ip/prefix] but was [10.0.0.0]");
        assert_eq!(parse_cidr("10.0.0.0/x").unwrap_err(), "Expected [ip/prefix] but was [10.0.0.0/x]");
        assert!(parse_cidr("10.0.0.0/33").unwrap_err().contains("Illegal prefix length [33]"));
        assert!(parse_cidr("::/129").is_err());
        assert_eq!(parse_cidr("nope/8").unwrap_err(), "'nope' is not an IP string literal.");
        assert!(parse_cidr("::ffff:10.0.0.0/104").unwrap_err().starts_with(
            "CIDR notation is not allowed with IPv6-mapped IPv4 address [::ffff:10.0.0.0 as it introduces"
        ));
    }
}
