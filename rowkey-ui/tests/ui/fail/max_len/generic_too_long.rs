use rowkey::RowKey;

// A generic key's width is known once its type parameter is: `K<u64>` is 16 bytes, over the
// budget, and fails where it is first encoded (`K<u16>`, 10 bytes, would be fine).
#[derive(RowKey)]
#[rowkey(max_len = 12)]
struct K<T> {
    a: u64,
    b: T,
}

fn main() {
    let _ = K { a: 1, b: 2u16 }.to_row_key();
    let _ = K { a: 1, b: 2u64 }.to_row_key();
}
