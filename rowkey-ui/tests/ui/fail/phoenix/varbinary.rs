// VARBINARY is allowed only as the last primary-key column, and only ascending.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Blob {
    payload: Vec<u8>,
    id: i64,
}

#[derive(RowKey)]
#[rowkey(phoenix)]
struct BlobDesc {
    id: i64,
    #[desc]
    payload: Vec<u8>,
}

fn main() {}
