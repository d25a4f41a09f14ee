//! ES 8's checks on a `dense_vector` value, shared by documents and query vectors: element
//! bounds (byte vectors hold integers in [-128, 127]), unit length for float `dot_product`,
//! non-zero magnitude for `cosine`; and the normalisation cosine vectors get before storage
//! or search. The texts are ES's, "Preview of invalid vector" included.

use super::space::{java_float, ElementType, SpaceType};
use super::spec::VectorField;

/// ES's `DenseVectorFieldMapper.EPS` for "is this a unit vector".
const UNIT_EPS: f32 = 1e-3;

/// `" Preview of invalid vector: [a, b, c, d, e, ...]"`: the first five elements.
pub fn preview(element: ElementType, v: &[f32]) -> String {
    let shown: Vec<String> = v
        .iter()
        .take(5)
        .map(|x| match element {
            ElementType::Byte => (*x as i32).to_string(),
            ElementType::Float => java_float(*x),
        })
        .collect();
    let more = if v.len() >= 5 { ", ..." } else { "" };
    format!(" Preview of invalid vector: [{}{more}]", shown.join(", "))
}

/// The first element ES refuses for `element`, as ES words it (without the preview).
pub fn element_error(element: ElementType, v: &[f32]) -> Option<String> {
    let name = element.es_name();
    for (dim, x) in v.iter().enumerate() {
        if x.is_nan() {
            return Some(format!(
                "element_type [{name}] vectors do not support NaN values but found [NaN] at dim [{dim}];"
            ));
        }
        if x.is_infinite() {
            return Some(format!(
                "element_type [{name}] vectors do not support infinite values but found [{}] at dim [{dim}];",
                java_float(*x)
            ));
        }
        if element == ElementType::Byte {
            if x.fract() != 0.0 {
                return Some(format!(
                    "element_type [byte] vectors only support non-decimal values but found decimal value [{}] at dim [{dim}];",
                    java_float(*x)
                ));
            }
            if !(-128.0..=127.0).contains(x) {
                return Some(format!(
                    "element_type [byte] vectors only support integers between [-128, 127] but found [{}] at dim [{dim}];",
                    *x as i64
                ));
            }
        }
    }
    None
}

/// Unit length for float `dot_product`, non-zero magnitude for `cosine` (preview included).
pub fn magnitude_error(vf: &VectorField, v: &[f32]) -> Option<String> {
    let squared: f32 = v.iter().map(|x| x * x).sum();
    let why = match (vf.element, vf.space) {
        (ElementType::Float, _) if !squared.is_finite() => {
            "NaN or Infinite magnitude detected, this usually means the vector values are too extreme to fit within a float."
                .to_string()
        }
        (ElementType::Float, SpaceType::DotProduct) if (squared - 1.0).abs() > UNIT_EPS => {
            "The [dot_product] similarity can only be used with unit-length vectors.".to_string()
        }
        (_, SpaceType::Cosine) if squared.sqrt() == 0.0 => {
            "The [cosine] similarity does not support vectors with zero magnitude.".to_string()
        }
        _ => return None,
    };
    Some(format!("{why}{}", preview(vf.element, v)))
}

/// Scales `v` to unit length where the field compares by cosine (a no-op elsewhere).
pub fn normalize(vf: &VectorField, v: &mut [f32]) {
    if !vf.normalizes() {
        return;
    }
    let length = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if length > 0.0 {
        v.iter_mut().for_each(|x| *x /= length);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_show_five_elements() {
        assert_eq!(preview(ElementType::Float, &[1.0, 0.5]), " Preview of invalid vector: [1.0, 0.5]");
        assert_eq!(
            preview(ElementType::Byte, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
            " Preview of invalid vector: [1, 2, 3, 4, 5, ...]"
        );
    }

    #[test]
    fn byte_bounds_are_checked() {
        assert!(element_error(ElementType::Byte, &[1.0, 2.5]).unwrap().contains("decimal value [2.5] at dim [1]"));
        assert!(element_error(ElementType::Byte, &[300.0]).unwrap().contains("between [-128, 127] but found [300]"));
        assert_eq!(element_error(ElementType::Float, &[2.5, 300.0]), None);
    }
}
