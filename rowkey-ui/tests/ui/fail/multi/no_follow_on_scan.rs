use rowkey::RowKey;

// The only error here is the missing #[sep] on `host`. Scans of `Broken`, and a tagged key enum
// with it as a variant, should not add follow-on errors: the derive's stub has a `scan()` whose
// builder takes the methods of every field.
#[derive(RowKey, Debug)]
struct Broken {
    host: String,
    id: u32,
}

#[derive(RowKey, Debug)]
struct Fine {
    id: u32,
}

#[derive(RowKey, Debug)]
enum Keys {
    #[rowkey(tag = b"b")]
    Broken(Broken),
    #[rowkey(tag = b"f")]
    Fine(Fine),
}

fn main() {
    let _ = Broken::scan().host("web-1").id(7).ranges();
    let _ = Broken::scan().host_starts_with("web").ranges();
    let _ = Broken::scan().host("web-1").id_range(1..9).into_scan();
    let _ = Keys::scan_broken().host("web-1").ranges();
}
