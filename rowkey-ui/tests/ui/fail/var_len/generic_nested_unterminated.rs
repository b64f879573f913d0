use rowkey::RowKey;

#[derive(RowKey)]
struct Name {
    first: String,
}

// Whether `T` marks its own end is known once `T` is: `Pair<u32>` is fine, `Pair<Name>`
// (whose last field is an unterminated string) fails where it is first encoded.
#[derive(RowKey)]
struct Pair<T> {
    a: T,
    b: u64,
}

fn main() {
    let _ = Pair { a: 1u32, b: 2 }.to_row_key();
    let _ = Pair { a: Name { first: "x".into() }, b: 2 }.to_row_key();
}
