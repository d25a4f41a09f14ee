//! A sort key's direction and, for a field with several values, which value it sorts by: shared
//! by field sorts (`sort`) and distance sorts (`geo_sort`).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Asc,
    Desc,
}

/// Which of a document's values a field sort uses; `None` in `SortOpts` means ES's default
/// (the smallest ascending, the largest descending).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortMode {
    Min,
    Max,
    Sum,
    Avg,
    Median,
}
