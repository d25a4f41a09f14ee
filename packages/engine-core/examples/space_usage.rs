//! Prints the on-disk bytes of an index directory per file kind and field (tantivy's
//! `space_usage`): where a disk-size change should aim. `cargo run --release --example
//! space_usage -- <tantivy index dir>`.
fn main() -> tantivy::Result<()> {
    let dir = std::env::args().nth(1).expect("usage: space_usage <tantivy index dir>");
    let index = tantivy::Index::open_in_dir(dir)?;
    let searcher = index.reader()?.searcher();
    let usage = searcher.space_usage()?;
    let mib = |b: u64| b as f64 / 1_048_576.0;
    println!("total {:.1} MiB in {} segments", mib(usage.total().get_bytes()), usage.segments().len());
    let mut per_field: std::collections::BTreeMap<(String, &str), u64> = Default::default();
    let mut store = 0;
    for seg in usage.segments() {
        store += seg.store().total().get_bytes();
        for (kind, part) in [
            ("postings", seg.postings()),
            ("positions", seg.positions()),
            ("termdict", seg.termdict()),
            ("fast", seg.fast_fields()),
            ("fieldnorms", seg.fieldnorms()),
        ] {
            for u in part.fields() {
                *per_field.entry((u.field_name().to_string(), kind)).or_default() += u.total().get_bytes();
            }
        }
    }
    println!("store {:.1} MiB", mib(store));
    for ((field, kind), bytes) in per_field {
        if bytes > 100_000 {
            println!("{field:12} {kind:10} {:.1} MiB", mib(bytes));
        }
    }
    Ok(())
}
