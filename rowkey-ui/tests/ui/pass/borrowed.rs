// A key with a lifetime: `&'a str` / `&'a [u8]` fields are encoded from borrowed data and
// decoded by borrowing from the input bytes (no copy).
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
struct Borrowed<'a> {
    #[sep]
    host: &'a str,
    #[pad(4)]
    dc: &'a [u8],
    #[desc]
    ts: u64,
    tail: &'a [u8],
}

// Two lifetimes, one bounded by the other.
#[derive(RowKey, Debug, PartialEq)]
struct TwoLifetimes<'a, 'b: 'a> {
    #[sep]
    a: &'a str,
    b: &'b str,
}

fn in_buf(buf: &[u8], part: &[u8]) -> bool {
    let r = buf.as_ptr_range();
    let p = part.as_ptr_range();
    part.is_empty() || (r.start <= p.start && p.end <= r.end)
}

fn main() {
    // Content without 0x00/0x01 is stored verbatim by #[sep]: decode borrows it from the input.
    let k = Borrowed {
        host: "web1",
        dc: b"ams",
        ts: 7,
        tail: &[0x00, 0xFF, 0x01],
    };
    let bytes = k.to_row_key().unwrap();
    assert_eq!(bytes.len(), k.encoded_len());
    let back: Borrowed<'_> = Borrowed::from_row_key(&bytes).unwrap();
    assert_eq!(back, k);
    assert!(in_buf(&bytes, back.host.as_bytes()));
    assert!(in_buf(&bytes, back.dc));
    assert!(in_buf(&bytes, back.tail));

    // Escaped content encodes from a borrow, but cannot be decoded into one: a clean error
    // naming the field, not a panic and not a wrong value.
    let host = String::from("web\u{0}1");
    let k = Borrowed {
        host: &host,
        ..back
    };
    let bytes = k.to_row_key().unwrap();
    let err = Borrowed::from_row_key(&bytes).unwrap_err();
    assert_eq!(err.field(), "host");
    assert_eq!(err.kind(), &rowkey::DecodeErrorKind::NeedsOwned);

    let owned_b = String::from("b");
    let t = TwoLifetimes {
        a: "a",
        b: &owned_b,
    };
    let tb = t.to_row_key().unwrap();
    assert_eq!(TwoLifetimes::from_row_key(&tb).unwrap(), t);
}
