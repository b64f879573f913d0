// Container java with #[reverse] on an integer: the field keeps its natural reversed encoding
// (this compiles); a field-level java + reverse conflicts.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(java)]
struct J {
    id: u8,
    #[reverse]
    n: i32,
    #[rowkey(java)]
    #[reverse]
    m: i32,
}

fn main() {}
