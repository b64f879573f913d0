use rowkey::RowKey;

#[derive(RowKey)]
struct Inner {
    a: u64,
    b: u64,
}

// The derive cannot see `Inner`'s width in the syntax; a const assert catches it.
#[derive(RowKey)]
#[rowkey(max_len = 8)]
struct Outer {
    inner: Inner,
}

fn main() {}
