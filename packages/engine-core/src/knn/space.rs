//! How vectors are compared and how a comparison becomes `_score`, for both dialects:
//! OpenSearch's `l2` space and Elasticsearch 8's `dense_vector` similarities.
//!
//! The scan always keeps the k smallest *keys*: the squared distance for l2, the negated dot
//! product for the others (cosine vectors are stored and queried unit-length, so their dot
//! product is the cosine). Every score below rises as the key falls, so the k smallest keys
//! are the k best scores.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpaceType {
    /// Euclidean: OpenSearch's `l2`, ES's `l2_norm`. Both score `1 / (1 + d²)`.
    L2,
    /// ES `cosine`: `(1 + cos) / 2`.
    Cosine,
    /// ES `dot_product` on unit-length vectors: `(1 + dot) / 2` (bytes: `0.5 + dot / (dims * 2^15)`).
    DotProduct,
    /// ES `max_inner_product`: `dot + 1`, or `1 / (1 - dot)` below zero, so scores stay positive.
    MaxInnerProduct,
}

/// ES `element_type`. Byte vectors are stored as f32 like float ones (their values are small
/// integers, exact in f32); only validation and the byte `dot_product` score differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementType {
    Float,
    Byte,
}

impl ElementType {
    pub fn es_name(self) -> &'static str {
        match self {
            ElementType::Float => "float",
            ElementType::Byte => "byte",
        }
    }
}

impl SpaceType {
    pub fn from_es_name(name: &str) -> Option<SpaceType> {
        Some(match name {
            "l2_norm" => SpaceType::L2,
            "cosine" => SpaceType::Cosine,
            "dot_product" => SpaceType::DotProduct,
            "max_inner_product" => SpaceType::MaxInnerProduct,
            _ => return None,
        })
    }

    pub fn es_name(self) -> &'static str {
        match self {
            SpaceType::L2 => "l2_norm",
            SpaceType::Cosine => "cosine",
            SpaceType::DotProduct => "dot_product",
            SpaceType::MaxInnerProduct => "max_inner_product",
        }
    }

    /// Whether the scan key is the negated dot product (else the squared l2 distance).
    pub fn uses_dot(self) -> bool {
        self != SpaceType::L2
    }

    /// The ES score of a scan key (see the module comment for what the key is).
    pub fn score(self, key: f32, element: ElementType, dims: usize) -> f32 {
        match self {
            SpaceType::L2 => 1.0 / (1.0 + key),
            _ => self.score_of_similarity(-key, element, dims),
        }
    }

    /// The score of a raw similarity as ES's `similarity` threshold means it: the distance
    /// for l2_norm, the cosine or dot product for the others.
    pub fn score_of_similarity(self, similarity: f32, element: ElementType, dims: usize) -> f32 {
        match (self, element) {
            (SpaceType::L2, _) => 1.0 / (1.0 + similarity * similarity),
            (SpaceType::Cosine, _) | (SpaceType::DotProduct, ElementType::Float) => (1.0 + similarity) / 2.0,
            (SpaceType::DotProduct, ElementType::Byte) => 0.5 + similarity / (dims as f32 * 32768.0),
            (SpaceType::MaxInnerProduct, _) if similarity < 0.0 => 1.0 / (1.0 - similarity),
            (SpaceType::MaxInnerProduct, _) => similarity + 1.0,
        }
    }
}

/// A float as Java's `Float.toString` prints it, for ES's "Preview of invalid vector" texts.
pub fn java_float(f: f32) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    let abs = f.abs();
    if abs == 0.0 || (1e-3..1e7).contains(&abs) {
        let s = f.to_string();
        return if s.contains('.') { s } else { format!("{s}.0") };
    }
    // Java switches to computerized scientific notation, always with a fraction: 1.0E-4.
    let s = format!("{f:E}");
    match s.split_once('E') {
        Some((mantissa, exp)) if !mantissa.contains('.') => format!("{mantissa}.0E{exp}"),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn scores_follow_es_formulas() {
        // l2: the key is the squared distance 4 (distance 2): 1 / (1 + 4).
        assert!(close(SpaceType::L2.score(4.0, ElementType::Float, 3), 0.2));
        // cosine 0.6 (key -0.6): (1 + 0.6) / 2.
        assert!(close(SpaceType::Cosine.score(-0.6, ElementType::Float, 3), 0.8));
        assert!(close(SpaceType::DotProduct.score(0.5, ElementType::Float, 3), 0.25));
        // byte dot product 1000 over 4 dims: 0.5 + 1000 / (4 * 32768).
        assert!(close(SpaceType::DotProduct.score(-1000.0, ElementType::Byte, 4), 0.5 + 1000.0 / 131072.0));
        assert!(close(SpaceType::MaxInnerProduct.score(-3.0, ElementType::Float, 3), 4.0));
        assert!(close(SpaceType::MaxInnerProduct.score(3.0, ElementType::Float, 3), 0.25));
        // The threshold of l2_norm is a distance, not a squared one.
        assert!(close(SpaceType::L2.score_of_similarity(2.0, ElementType::Float, 3), 0.2));
    }

    #[test]
    fn floats_print_like_java() {
        assert_eq!(java_float(1.0), "1.0");
        assert_eq!(java_float(0.5), "0.5");
        assert_eq!(java_float(-3.25), "-3.25");
        assert_eq!(java_float(0.0001), "1.0E-4");
        assert_eq!(java_float(0.0), "0.0");
    }
}
