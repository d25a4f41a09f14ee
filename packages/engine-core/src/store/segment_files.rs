//! A tantivy segment's files on disk, by component, the way ES's segment statistics describe
//! Lucene's (`segments.file_sizes`, `size_in_bytes` of `_segments`, a merge's bytes).

use std::path::Path;

use tantivy::index::{SegmentComponent, SegmentMeta};

/// Every component a segment may have on disk, with the name ES-style statistics give it and
/// what it holds (ES describes each Lucene file extension the same way).
pub const COMPONENTS: [(&str, &str); 7] = [
    ("idx", "Postings (document lists of each term)"),
    ("pos", "Term positions"),
    ("term", "Term dictionary"),
    ("store", "Stored documents (_source)"),
    ("fast", "Columnar field values (doc values)"),
    ("fieldnorm", "Field lengths (norms)"),
    ("del", "Live documents"),
];

fn component(name: &str) -> SegmentComponent {
    SegmentComponent::try_from(name).unwrap_or(SegmentComponent::Custom(name.to_string()))
}

/// The size of each of the segment's component files (absent ones are left out).
pub fn component_sizes(tantivy_dir: &Path, meta: &SegmentMeta) -> Vec<(&'static str, u64)> {
    COMPONENTS
        .iter()
        .filter(|(name, _)| *name != "del" || meta.has_deletes())
        .filter_map(|(name, _)| {
            let path = tantivy_dir.join(meta.relative_path(component(name)));
            std::fs::metadata(path).ok().map(|m| (*name, m.len()))
        })
        .collect()
}

/// The segment's bytes on disk.
pub fn segment_bytes(tantivy_dir: &Path, meta: &SegmentMeta) -> u64 {
    component_sizes(tantivy_dir, meta).iter().map(|(_, n)| n).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_component_maps_to_a_known_tantivy_extension() {
        for (name, _) in COMPONENTS {
            assert!(!matches!(component(name), SegmentComponent::Custom(_)), "{name}");
        }
    }
}
