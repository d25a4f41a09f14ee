//! The distance kernel and the running top-k, the two things every query spends its time in.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use tantivy::DocId;

/// Lanes summed independently so the compiler can keep them in SIMD registers: a single
/// running sum would force strict left-to-right float addition and defeat vectorisation.
const LANES: usize = 16;

/// Squared euclidean distance from `query` to each `query.len()`-wide row of `rows`, into `out`
/// (one slot per row). On CPUs with AVX2 the same loop is compiled for 8-wide registers, chosen
/// at run time because the release build targets baseline x86-64 (SSE2, 4-wide).
pub fn l2_squared_rows(query: &[f32], rows: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the running CPU supports AVX2, the only feature `rows_avx2` is compiled for.
        return unsafe { rows_avx2(query, rows, out) };
    }
    rows_generic(query, rows, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rows_avx2(query: &[f32], rows: &[f32], out: &mut [f32]) {
    rows_generic(query, rows, out)
}

#[inline(always)]
fn rows_generic(query: &[f32], rows: &[f32], out: &mut [f32]) {
    for (row, slot) in rows.chunks_exact(query.len()).zip(out.iter_mut()) {
        *slot = l2_squared(query, row);
    }
}

/// The negated dot product of `query` with each row, into `out`: the scan key of the dot-based
/// similarities (nearest = smallest, like the l2 key). Same run-time AVX2 dispatch as above.
pub fn neg_dot_rows(query: &[f32], rows: &[f32], out: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the running CPU supports AVX2, the only feature `dot_rows_avx2` is compiled for.
        return unsafe { dot_rows_avx2(query, rows, out) };
    }
    dot_rows_generic(query, rows, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_rows_avx2(query: &[f32], rows: &[f32], out: &mut [f32]) {
    dot_rows_generic(query, rows, out)
}

#[inline(always)]
fn dot_rows_generic(query: &[f32], rows: &[f32], out: &mut [f32]) {
    for (row, slot) in rows.chunks_exact(query.len()).zip(out.iter_mut()) {
        *slot = -dot(query, row);
    }
}

/// Dot product, in independent lanes for the same reason as `l2_squared`.
#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..LANES {
            acc[i] += x[i] * y[i];
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        sum += x * y;
    }
    sum
}

/// Squared euclidean distance. `a` and `b` have the same length (checked by the callers).
#[inline(always)]
pub fn l2_squared(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..LANES {
            let d = x[i] - y[i];
            acc[i] += d * d;
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        let d = x - y;
        sum += d * d;
    }
    sum
}

#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub distance: f32,
    pub segment: u32,
    pub doc: DocId,
}

impl Candidate {
    /// Nearer first; equal distances go to the lower (segment, doc), like Lucene's doc order.
    fn rank(&self, other: &Self) -> Ordering {
        self.distance.total_cmp(&other.distance).then((self.segment, self.doc).cmp(&(other.segment, other.doc)))
    }
}

impl PartialEq for Candidate {
    fn eq(&self, other: &Self) -> bool {
        self.rank(other) == Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank(other)
    }
}

/// The k nearest seen so far: a max-heap whose top is the farthest kept candidate.
pub struct TopK {
    k: usize,
    heap: BinaryHeap<Candidate>,
}

impl TopK {
    pub fn new(k: usize) -> TopK {
        TopK { k, heap: BinaryHeap::with_capacity(k + 1) }
    }

    /// The distance a new candidate must beat once the heap is full.
    #[inline]
    pub fn bound(&self) -> f32 {
        if self.heap.len() < self.k {
            f32::INFINITY
        } else {
            self.heap.peek().map_or(f32::INFINITY, |c| c.distance)
        }
    }

    #[inline]
    pub fn push(&mut self, c: Candidate) {
        if self.heap.len() < self.k {
            self.heap.push(c);
        } else if let Some(mut worst) = self.heap.peek_mut() {
            if c < *worst {
                *worst = c;
            }
        }
    }

    /// The kept candidates, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Candidate> {
        self.heap.iter()
    }

    /// Nearest first.
    pub fn into_sorted(self) -> Vec<Candidate> {
        self.heap.into_sorted_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l2_squared_matches_the_definition_for_every_length() {
        for len in [1, 3, 15, 16, 17, 64, 100] {
            let a: Vec<f32> = (0..len).map(|i| i as f32 * 0.5).collect();
            let b: Vec<f32> = (0..len).map(|i| (len - i) as f32).collect();
            let naive: f32 = a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum();
            assert!((l2_squared(&a, &b) - naive).abs() <= naive * 1e-5, "len {len}");
        }
    }

    #[test]
    fn row_distances_match_one_at_a_time() {
        let query: Vec<f32> = (0..20).map(|i| i as f32 / 7.0).collect();
        let rows: Vec<f32> = (0..20 * 5).map(|i| (i % 13) as f32 - 6.0).collect();
        let mut out = vec![0.0; 5];
        l2_squared_rows(&query, &rows, &mut out);
        for (i, d) in out.iter().enumerate() {
            let want = l2_squared(&query, &rows[i * 20..(i + 1) * 20]);
            assert!((d - want).abs() <= want * 1e-6, "row {i}: {d} vs {want}");
        }
    }

    #[test]
    fn negated_dot_rows_match_the_definition() {
        let query: Vec<f32> = (0..19).map(|i| i as f32 / 5.0 - 1.0).collect();
        let rows: Vec<f32> = (0..19 * 3).map(|i| (i % 7) as f32 - 3.0).collect();
        let mut out = vec![0.0; 3];
        neg_dot_rows(&query, &rows, &mut out);
        for (i, got) in out.iter().enumerate() {
            let want: f32 = -query.iter().zip(&rows[i * 19..(i + 1) * 19]).map(|(x, y)| x * y).sum::<f32>();
            assert!((got - want).abs() <= 1e-4 * want.abs().max(1.0), "row {i}: {got} vs {want}");
        }
    }

    #[test]
    fn top_k_keeps_the_nearest_in_order() {
        let mut top = TopK::new(3);
        for (i, d) in [5.0, 1.0, 4.0, 0.5, 3.0, 1.0].into_iter().enumerate() {
            top.push(Candidate { distance: d, segment: 0, doc: i as DocId });
        }
        let kept: Vec<(f32, DocId)> = top.into_sorted().iter().map(|c| (c.distance, c.doc)).collect();
        assert_eq!(kept, vec![(0.5, 3), (1.0, 1), (1.0, 5)]);
    }
}
