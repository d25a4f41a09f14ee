//! An 8-bit copy of a segment's vectors for the kNN scan's first pass, with a proven bound on
//! its error, so the top k it hands to the exact pass are the exact top k.
//!
//! A scan of every float row reads 4 bytes per dimension per row: 12.8 MB for 50k vectors of
//! 64 dims, and after the pause between two requests most of it comes from memory, not cache.
//! The codes are a quarter of that. Each dimension is quantized on its own range within the
//! segment, `x ≈ min_d + step_d * code` (code 0..=255, off by at most `step_d / 2`); the query's
//! weights `q_d * step_d` are rounded to i16 on one scale `s`, so a row's dot product is about
//! `Σ q_d min_d + s * Σ ŵ_d code_d`: integer multiply-adds, 16 dimensions per AVX2 step. Its
//! error is at most `Σ |q_d| step_d / 2 + (s / 2) * 255 * dims` (twice that for the l2 key,
//! which is `|q|² + |x|² - 2 q·x` with `|x|²` exact). A row can only be among the k nearest if
//! its approximate key is within twice that bound of the k-th smallest approximate key; the
//! scan keeps those and scores them with the float kernel.

/// Code range: 8 bits.
const LEVELS: f32 = 255.0;
/// Rows are padded to a multiple of this many codes (one AVX2 step).
const STEP: usize = 16;

pub struct QuantizedRows {
    dim: usize,
    stride: usize,
    min: Vec<f32>,
    step: Vec<f32>,
    /// `rows * stride` codes; padding codes are 0.
    codes: Vec<u8>,
    /// Exact `|x|²` of each row (the l2 key's row term).
    norms: Vec<f32>,
    max_norm: f32,
}

impl QuantizedRows {
    /// Quantizes `data` (rows of `dim` floats, all finite).
    pub fn build(data: &[f32], dim: usize) -> QuantizedRows {
        let stride = dim.div_ceil(STEP) * STEP;
        let rows = data.len().checked_div(dim).unwrap_or(0);
        let mut min = vec![f32::INFINITY; dim];
        let mut max = vec![f32::NEG_INFINITY; dim];
        for row in data.chunks_exact(dim.max(1)) {
            for (d, &x) in row.iter().enumerate() {
                min[d] = min[d].min(x);
                max[d] = max[d].max(x);
            }
        }
        let step: Vec<f32> =
            min.iter().zip(&max).map(|(lo, hi)| if hi > lo { (hi - lo) / LEVELS } else { 0.0 }).collect();
        let mut codes = vec![0u8; rows * stride];
        let mut norms = Vec::with_capacity(rows);
        for (row, out) in data.chunks_exact(dim.max(1)).zip(codes.chunks_exact_mut(stride.max(1))) {
            for d in 0..dim {
                if step[d] > 0.0 {
                    out[d] = ((row[d] - min[d]) / step[d]).round().clamp(0.0, LEVELS) as u8;
                }
            }
            norms.push(super::distance::dot(row, row));
        }
        let max_norm = norms.iter().copied().fold(0.0, f32::max);
        QuantizedRows { dim, stride, min, step, codes, norms, max_norm }
    }

    /// The query's side of the approximate keys. `uses_dot`: the key is `-q·x` (else the
    /// squared l2 distance).
    pub fn query(&self, query: &[f32], uses_dot: bool) -> QuantizedQuery {
        debug_assert_eq!(query.len(), self.dim);
        let weights: Vec<f32> = query.iter().zip(&self.step).map(|(q, s)| q * s).collect();
        let largest = weights.iter().fold(0f32, |m, w| m.max(w.abs()));
        // No i32 lane may overflow: |ŵ| * 255 * stride stays below 2^31.
        let limit = (i32::MAX as f32 / (LEVELS * self.stride.max(1) as f32)).min(i16::MAX as f32).floor();
        let scale = if largest > 0.0 { largest / limit } else { 1.0 };
        let mut rounded = vec![0i16; self.stride];
        for (slot, w) in rounded.iter_mut().zip(&weights) {
            *slot = (w / scale).round().clamp(-limit, limit) as i16;
        }
        let offset: f32 = query.iter().zip(&self.min).map(|(q, m)| q * m).sum();
        let code_error: f32 = query.iter().zip(&self.step).map(|(q, s)| q.abs() * s / 2.0).sum();
        let weight_error = scale / 2.0 * LEVELS * self.dim as f32;
        let q_norm = super::distance::dot(query, query);
        // Float rounding in either kernel, far above f32's: a margin on the magnitudes involved.
        let magnitude = q_norm + self.max_norm + 2.0 * (q_norm * self.max_norm).sqrt() + offset.abs();
        let rounding = magnitude * (self.dim as f32 + 16.0) * 4.0 * f32::EPSILON;
        let dot_error = code_error + weight_error;
        let key_error = if uses_dot { dot_error } else { 2.0 * dot_error } + rounding;
        QuantizedQuery { weights: rounded, scale, offset, q_norm, key_error, uses_dot }
    }

    pub fn rows(&self) -> usize {
        self.norms.len()
    }
}

pub struct QuantizedQuery {
    weights: Vec<i16>,
    scale: f32,
    offset: f32,
    q_norm: f32,
    /// The most any row's approximate key can differ from its exact one.
    pub key_error: f32,
    uses_dot: bool,
}

impl QuantizedQuery {
    /// Approximate keys of rows `first .. first + out.len()` of `rows`.
    pub fn keys(&self, rows: &QuantizedRows, first: usize, out: &mut [f32]) {
        let codes = &rows.codes[first * rows.stride..(first + out.len()) * rows.stride];
        let mut dots = [0i32; 256];
        for (chunk, (slots, codes)) in out.chunks_mut(256).zip(codes.chunks(256 * rows.stride.max(1))).enumerate() {
            let dots = &mut dots[..slots.len()];
            int_dots(&self.weights, codes, rows.stride, dots);
            for (i, (slot, &dot)) in slots.iter_mut().zip(dots.iter()).enumerate() {
                let approx_dot = self.offset + self.scale * dot as f32;
                *slot = if self.uses_dot {
                    -approx_dot
                } else {
                    self.q_norm + rows.norms[first + chunk * 256 + i] - 2.0 * approx_dot
                };
            }
        }
    }
}

/// `Σ weights[j] * codes[r * stride + j]` for each row r, into `out`.
fn int_dots(weights: &[i16], codes: &[u8], stride: usize, out: &mut [i32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the running CPU supports AVX2; `stride` is a multiple of 16 and both slices
        // hold whole strides (checked by the callers' construction, asserted below).
        return unsafe { int_dots_avx2(weights, codes, stride, out) };
    }
    int_dots_scalar(weights, codes, stride, out)
}

fn int_dots_scalar(weights: &[i16], codes: &[u8], stride: usize, out: &mut [i32]) {
    for (row, slot) in codes.chunks_exact(stride.max(1)).zip(out.iter_mut()) {
        *slot = row.iter().zip(weights).map(|(&c, &w)| c as i32 * w as i32).sum();
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn int_dots_avx2(weights: &[i16], codes: &[u8], stride: usize, out: &mut [i32]) {
    use std::arch::x86_64::*;
    assert!(stride.is_multiple_of(STEP) && weights.len() >= stride && codes.len() >= out.len() * stride);
    for (r, slot) in out.iter_mut().enumerate() {
        let row = codes.as_ptr().add(r * stride);
        let mut acc = _mm256_setzero_si256();
        for j in (0..stride).step_by(STEP) {
            let c = _mm256_cvtepu8_epi16(_mm_loadu_si128(row.add(j) as *const __m128i));
            let w = _mm256_loadu_si256(weights.as_ptr().add(j) as *const __m256i);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(c, w));
        }
        let s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        *slot = _mm_cvtsi128_si32(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knn::distance::{dot, l2_squared};

    /// A small deterministic generator (xorshift), so the test needs no crate.
    fn values(seed: u64, n: usize, spread: f32) -> Vec<f32> {
        let mut x = seed.max(1);
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                ((x >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * spread
            })
            .collect()
    }

    #[test]
    fn approximate_keys_stay_within_the_stated_bound() {
        for (dim, spread) in [(1, 1.0), (3, 10.0), (16, 0.01), (17, 2.0), (64, 1.0), (100, 300.0), (384, 0.2)] {
            let rows = 300;
            let data = values(dim as u64 * 7 + 1, rows * dim, spread);
            let quantized = QuantizedRows::build(&data, dim);
            assert_eq!(quantized.rows(), rows);
            for (q, uses_dot) in [(1u64, false), (2, true)] {
                let query = values(q * 1000 + dim as u64, dim, spread * 1.5);
                let qq = quantized.query(&query, uses_dot);
                let mut keys = vec![0.0; rows];
                qq.keys(&quantized, 0, &mut keys);
                for (r, approx) in keys.iter().enumerate() {
                    let row = &data[r * dim..(r + 1) * dim];
                    let exact = if uses_dot { -dot(&query, row) } else { l2_squared(&query, row) };
                    assert!(
                        (approx - exact).abs() <= qq.key_error,
                        "dim {dim} row {r}: {approx} vs {exact}, bound {}",
                        qq.key_error
                    );
                }
            }
        }
    }

    #[test]
    fn keys_of_a_later_range_match_keys_of_the_whole() {
        let dim = 24;
        let data = values(9, 600 * dim, 4.0);
        let quantized = QuantizedRows::build(&data, dim);
        let qq = quantized.query(&values(5, dim, 4.0), false);
        let mut all = vec![0.0; 600];
        qq.keys(&quantized, 0, &mut all);
        let mut part = vec![0.0; 290];
        qq.keys(&quantized, 300, &mut part);
        assert_eq!(&all[300..590], &part[..]);
    }

    #[test]
    fn the_avx2_kernel_agrees_with_the_scalar_one() {
        let stride = 48;
        let codes: Vec<u8> = (0..stride * 9).map(|i| (i * 37 % 256) as u8).collect();
        let weights: Vec<i16> = (0..stride).map(|i| (i as i16 - 20) * 611).collect();
        let mut want = vec![0; 9];
        int_dots_scalar(&weights, &codes, stride, &mut want);
        let mut got = vec![0; 9];
        int_dots(&weights, &codes, stride, &mut got);
        assert_eq!(got, want);
    }

    #[test]
    fn constant_dimensions_and_empty_segments_quantize() {
        let data = vec![2.0, 5.0, 2.0, -1.0, 2.0, 0.5];
        let quantized = QuantizedRows::build(&data, 2);
        let qq = quantized.query(&[1.0, 1.0], true);
        let mut keys = vec![0.0; 3];
        qq.keys(&quantized, 0, &mut keys);
        for (r, k) in keys.iter().enumerate() {
            assert!((k + (2.0 + data[r * 2 + 1])).abs() <= qq.key_error);
        }
        assert_eq!(QuantizedRows::build(&[], 8).rows(), 0);
    }
}
