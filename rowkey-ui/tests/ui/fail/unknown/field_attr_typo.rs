use rowkey::RowKey;

// A misspelled field attribute is not one of the derive's: rustc rejects it and names the
// derive's attribute it resembles.
#[derive(RowKey)]
struct K {
    #[sepp]
    host: String,
    #[reverse_tss]
    ts: i64,
}

fn main() {}
