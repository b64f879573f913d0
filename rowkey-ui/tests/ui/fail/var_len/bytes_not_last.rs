use rowkey::RowKey;

#[derive(RowKey)]
struct BlobKey {
    tenant: u32,
    digest: Vec<u8>,
    part: u16,
}

fn main() {}
