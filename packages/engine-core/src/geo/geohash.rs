//! Geohashes as ES computes them: the encoded (quantized) longitude and latitude bits,
//! interleaved longitude first, five bits per base-32 character.

use super::encoding::unpack;

const BASE32: &[u8; 32] = b"0123456789bcdefghjkmnpqrstuvwxyz";
pub const MAX_PRECISION: u8 = 12;

/// The cell of a packed column value at `precision` characters, as its interleaved bits.
pub fn cell(packed: u64, precision: u8) -> u64 {
    let (lat, lon) = unpack(packed);
    // Flipping the sign bit turns [-180, 180) into an unsigned bisection of the range.
    let (lat, lon) = ((lat as u32) ^ 0x8000_0000, (lon as u32) ^ 0x8000_0000);
    let bits = 5 * precision as u32;
    let mut out = 0u64;
    for i in 0..bits {
        let source = if i % 2 == 0 { lon } else { lat };
        let bit = (source >> (31 - i / 2)) & 1;
        out = (out << 1) | bit as u64;
    }
    out
}

/// The text of a cell (`cell`'s bits) of `precision` characters.
pub fn cell_text(bits: u64, precision: u8) -> String {
    (0..precision).map(|i| BASE32[((bits >> (5 * (precision - 1 - i) as u32)) & 31) as usize] as char).collect()
}

/// The (lat, lon) bounds of a geohash: (min_lat, max_lat, min_lon, max_lon); None if not one.
#[cfg(test)]
pub fn bounds(hash: &str) -> Option<(f64, f64, f64, f64)> {
    if hash.is_empty() || hash.len() > 24 {
        return None;
    }
    let (mut lat, mut lon) = ((-90.0, 90.0), (-180.0, 180.0));
    let mut even = true;
    for c in hash.bytes() {
        let v = BASE32.iter().position(|b| *b == c.to_ascii_lowercase())?;
        for shift in (0..5).rev() {
            let bit = (v >> shift) & 1 == 1;
            let range: &mut (f64, f64) = if even { &mut lon } else { &mut lat };
            let mid = (range.0 + range.1) / 2.0;
            if bit {
                range.0 = mid;
            } else {
                range.1 = mid;
            }
            even = !even;
        }
    }
    Some((lat.0, lat.1, lon.0, lon.1))
}

/// The point ES reads a geohash as: the cell's south-west corner, computed as ES's `Geohash`
/// does (the bits scaled back by 2^32 / 180 and 2^32 / 360), so it quantizes to the same step.
pub fn corner(hash: &str) -> Option<(f64, f64)> {
    if hash.is_empty() {
        return None;
    }
    let (mut lat, mut lon, mut bit) = (0u64, 0u64, 0u32);
    // ES reads at most 12 characters; each must still be a geohash character.
    for (i, c) in hash.bytes().enumerate() {
        let v = BASE32.iter().position(|b| *b == c)? as u64;
        if i >= MAX_PRECISION as usize {
            continue;
        }
        for shift in (0..5).rev() {
            let b = (v >> shift) & 1;
            if bit % 2 == 0 {
                lon = (lon << 1) | b;
            } else {
                lat = (lat << 1) | b;
            }
            bit += 1;
        }
    }
    let (lon_bits, lat_bits) = (bit.div_ceil(2), bit / 2);
    let lat = (lat << (32 - lat_bits)) as f64;
    let lon = (lon << (32 - lon_bits)) as f64;
    let lat_scale = 4_294_967_296.0 / 180.0;
    let lon_scale = 4_294_967_296.0 / 360.0;
    Some((lat / lat_scale - 90.0, lon / lon_scale - 180.0))
}

#[cfg(test)]
mod tests {
    use super::super::encoding::pack;
    use super::*;

    #[test]
    fn encodes_known_cells() {
        // The classic example: 57.64911, 10.40744 is u4pruydqqvj.
        let p = pack(57.64911, 10.40744);
        assert_eq!(cell_text(cell(p, 11), 11), "u4pruydqqvj");
        assert_eq!(cell_text(cell(p, 2), 2), "u4");
        // Paris and the origin's corners.
        assert_eq!(cell_text(cell(pack(48.8566, 2.3522), 5), 5), "u09tv");
        assert_eq!(cell_text(cell(pack(0.0, 0.0), 1), 1), "s");
        assert_eq!(cell_text(cell(pack(-0.0001, -0.0001), 1), 1), "7");
        assert_eq!(cell_text(cell(pack(90.0, 180.0), 12), 12), "zzzzzzzzzzzz");
    }

    #[test]
    fn decodes_bounds() {
        let (min_lat, max_lat, min_lon, max_lon) = bounds("u4pruydqqvj").unwrap();
        assert!(min_lat <= 57.64911 && 57.64911 <= max_lat && min_lon <= 10.40744 && 10.40744 <= max_lon);
        assert_eq!(bounds("s"), Some((0.0, 45.0, 0.0, 45.0)));
        assert!(bounds("abc").is_none(), "a is not a geohash character");
        assert_eq!(corner("s"), Some((0.0, 0.0)));
        assert_eq!(corner("0"), Some((-90.0, -180.0)));
        let (lat, lon) = corner("u4pruydqqvj").unwrap();
        let (min_lat, _, min_lon, _) = bounds("u4pruydqqvj").unwrap();
        assert!((lat - min_lat).abs() < 1e-9 && (lon - min_lon).abs() < 1e-9);
    }
}
