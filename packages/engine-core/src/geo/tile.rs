//! Web-mercator map tiles as ES's `GeoTileUtils` numbers them: at zoom `z` the world is
//! `2^z x 2^z` tiles, `x` from longitude -180, `y` from latitude +85.05 (the poles clamp to the
//! edge rows). A tile is one u64, `z << 58 | x << 29 | y`, which sorts as ES sorts tile keys,
//! and shows as `"z/x/y"`.

/// ES's maximum zoom.
pub const MAX_PRECISION: u32 = 29;

/// The tile holding the point at zoom `precision` (at most `MAX_PRECISION`).
pub fn tile_key(lat: f64, lon: f64, precision: u32) -> u64 {
    let tiles = 1i64 << precision;
    let clamp = |t: f64| (t.floor() as i64).clamp(0, tiles - 1) as u64;
    let x = clamp((lon + 180.0) / 360.0 * tiles as f64);
    let sin = lat.to_radians().sin();
    let y = clamp((0.5 - ((1.0 + sin) / (1.0 - sin)).ln() / (4.0 * std::f64::consts::PI)) * tiles as f64);
    ((precision as u64) << 58) | (x << 29) | y
}

/// `"z/x/y"`.
pub fn tile_text(key: u64) -> String {
    format!("{}/{}/{}", key >> 58, (key >> 29) & ((1 << 29) - 1), key & ((1 << 29) - 1))
}

/// A `"z/x/y"` key back to its number (`None` when malformed or out of range).
pub fn parse_tile(text: &str) -> Option<u64> {
    let mut parts = text.split('/').map(|p| p.trim().parse::<u64>().ok());
    let (z, x, y) = (parts.next()??, parts.next()??, parts.next()??);
    if parts.next().is_some() || z > MAX_PRECISION as u64 || x >= 1 << z || y >= 1 << z {
        return None;
    }
    Some((z << 58) | (x << 29) | y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_as_es_numbers_them() {
        assert_eq!(tile_text(tile_key(37.2343, -115.8067, 12)), "12/730/1590");
        assert_eq!(tile_text(tile_key(41.12, -71.34, 12)), "12/1236/1533");
        // The pole clamps to the top row.
        assert_eq!(tile_text(tile_key(90.0, 0.0, 12)), "12/2048/0");
        assert_eq!(parse_tile("12/730/1590"), Some(tile_key(37.2343, -115.8067, 12)));
        assert!(tile_key(37.2343, -115.8067, 12) < tile_key(41.12, -71.34, 12));
        assert_eq!(parse_tile("2/4/0"), None);
    }
}
