use rowkey::RowKey;

// The only error here is the missing #[sep] on `host`. Code that uses `Broken` (encode, decode,
// describe, layout, nesting it in another key) should not add follow-on errors: the derive emits
// stub impls next to its errors.
#[derive(RowKey, Debug)]
struct Broken {
    host: String,
    id: u32,
}

#[derive(RowKey, Debug)]
struct Outer {
    inner: Broken,
    n: u8,
}

fn main() {
    let b = Broken {
        host: "h".into(),
        id: 1,
    };
    let bytes = b.to_row_key().unwrap();
    let _ = b.encoded_len();
    let _ = Broken::from_row_key(&bytes);
    let _ = Broken::describe(&bytes);
    let _ = <Broken as RowKey>::LAYOUT;
    let o = Outer { inner: b, n: 1 };
    let _ = Outer::from_row_key(&o.to_row_key().unwrap());
}
