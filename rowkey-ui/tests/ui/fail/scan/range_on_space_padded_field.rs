// With a fill byte other than 0x00 the byte order is not the value order for content that
// continues below the fill ("\t" is stored "\t " and sorts before "" stored "  "): no exact
// range exists on the field (issue 37). Equality, IN-lists and starts-with stay; so does a
// range on the 0x00-padded field, on a later field, and on an Option of a 0x00 pad.
use rowkey::RowKey;

#[derive(RowKey)]
struct Code {
    #[pad(2, fill = b' ')]
    s: String,
    #[pad(4)]
    z: String,
    n: u32,
}

#[derive(RowKey)]
struct Codes {
    #[desc]
    #[pad(3, fill = b' ')]
    b: Vec<u8>,
    #[pad(3, fill = b'0')]
    o: Option<String>,
}

fn main() {
    let _ = Code::scan().s("a").z("x").n_range(1..3).ranges();
    let _ = Code::scan().s("a").z_range("a".to_string()..).ranges();
    let _ = Code::scan().s_starts_with("\t").ranges();
    let _ = Code::scan().s_in(["", "\t"]).map(|s| s.ranges());
    let _ = Code::scan().s_range(..="\t".to_string());
    let _ = Codes::scan().b_range(b"a".to_vec()..);
    let _ = Codes::scan().b(b"a").o_range(Some("1".to_string())..);
}
