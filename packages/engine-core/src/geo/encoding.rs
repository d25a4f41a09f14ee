//! Lucene's `GeoEncodingUtils`: a latitude or longitude quantized to 32 bits. ES stores, compares
//! and measures the decoded (quantized) coordinates, so every test here runs on them: a point that
//! sits exactly on a box edge or a distance circle answers as it does in ES.

/// Degrees per encoded step: 180 / 2^32 and 360 / 2^32 (exact in binary).
const LAT_DECODE: f64 = 180.0 / 4_294_967_296.0;
const LON_DECODE: f64 = 360.0 / 4_294_967_296.0;

/// 90 and 180 have no encoding of their own (they would overflow): they take the value below.
fn below(v: f64, max: f64) -> f64 {
    if v == max {
        v.next_down()
    } else {
        v
    }
}

pub fn encode_lat(lat: f64) -> i32 {
    (below(lat, 90.0) / LAT_DECODE).floor() as i32
}

/// The smallest encoding at or above `lat` (a box's lower edge).
pub fn encode_lat_ceil(lat: f64) -> i32 {
    (below(lat, 90.0) / LAT_DECODE).ceil() as i32
}

pub fn encode_lon(lon: f64) -> i32 {
    (below(lon, 180.0) / LON_DECODE).floor() as i32
}

pub fn encode_lon_ceil(lon: f64) -> i32 {
    (below(lon, 180.0) / LON_DECODE).ceil() as i32
}

pub fn decode_lat(encoded: i32) -> f64 {
    encoded as f64 * LAT_DECODE
}

pub fn decode_lon(encoded: i32) -> f64 {
    encoded as f64 * LON_DECODE
}

/// One column value per point: the encoded latitude in the high half, the longitude in the low.
pub fn pack(lat: f64, lon: f64) -> u64 {
    ((encode_lat(lat) as u32 as u64) << 32) | encode_lon(lon) as u32 as u64
}

pub fn unpack(packed: u64) -> (i32, i32) {
    ((packed >> 32) as u32 as i32, packed as u32 as i32)
}

/// The decoded (lat, lon) of a column value.
pub fn decode(packed: u64) -> (f64, f64) {
    let (lat, lon) = unpack(packed);
    (decode_lat(lat), decode_lon(lon))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_lucene_quantization() {
        assert_eq!(encode_lat(0.0), 0);
        assert_eq!(encode_lat(90.0), i32::MAX);
        assert_eq!(encode_lat(-90.0), i32::MIN);
        assert_eq!(encode_lon(180.0), i32::MAX);
        assert_eq!(encode_lon(-180.0), i32::MIN);
        assert_eq!(encode_lat_ceil(90.0), i32::MAX, "saturates like Java's (int) cast");
        // One step is 180 / 2^32 degrees: floor rounds toward -inf, ceil toward +inf.
        assert_eq!(encode_lat(-1e-9), -1);
        assert_eq!(encode_lat_ceil(-1e-9), 0);
        assert_eq!(decode_lat(1), 180.0 / 4_294_967_296.0);
        // Known Lucene value: 52.5200066 quantizes to 52.52000658586621.
        let lat = decode_lat(encode_lat(52.5200066));
        assert!((lat - 52.5200066).abs() < 4.2e-8 && lat <= 52.5200066);
        assert_eq!(decode_lat(encode_lat(lat)), lat, "decoded values re-encode to themselves");
    }

    #[test]
    fn packs_both_halves() {
        for (lat, lon) in [(0.0, 0.0), (-90.0, -180.0), (90.0, 180.0), (48.85, 2.35), (-33.9, -70.6)] {
            let (la, lo) = unpack(pack(lat, lon));
            assert_eq!((la, lo), (encode_lat(lat), encode_lon(lon)));
            let (dlat, dlon) = decode(pack(lat, lon));
            assert!((dlat - lat).abs() < 1e-7 && (dlon - lon).abs() < 1e-7);
        }
    }
}
