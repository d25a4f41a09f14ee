//! The `ip` field type. Every address is 16 bytes, IPv4 mapped into IPv6 (`::ffff:a.b.c.d`),
//! ordered as unsigned bytes, like Lucene's `InetAddressPoint`. The index keeps those bytes as
//! a fixed-width lowercase hex term (`key.rs`): the term dictionary and the string column then
//! order addresses exactly by their bytes, so term, CIDR, range, sort and aggregations reuse
//! the keyword machinery and only parse and render at the edges.
//!
//! Layer: value types, below `store/`. Uses only the leaves (ARCHITECTURE.md).

pub mod addr;
pub mod cidr;
pub mod key;
pub mod params;
pub mod query;

pub use addr::{format_ip, parse_ip};
pub use cidr::parse_cidr;
pub use key::{display_key, from_key, to_key};
pub use params::IpParams;
