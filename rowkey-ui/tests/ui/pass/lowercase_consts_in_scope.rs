// Lower-case constants and unit structs in scope whose names match local variables or
// parameters of the generated code: a binding pattern such as `|e| ...`, `let (v, n) = ...`,
// `Some(w) => w` or a parameter `mask: u8` would turn into a constant pattern.
#![allow(non_upper_case_globals, non_camel_case_types, dead_code)]
use rowkey::RowKey;

const e: u8 = 1;
const v: u8 = 2;
const n: u8 = 3;
const w: usize = 4;
const code: u8 = 5;
const mask: u8 = 6;
const buf: u8 = 7;
const input: u8 = 8;
const out: u8 = 9;
const bytes: u8 = 10;
const id: u8 = 11;

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 8), max_len = 40)]
struct Key {
    #[hash_prefix(2)]
    #[sep]
    name: String,
    #[reverse]
    #[pad(3)]
    tag: String,
    #[reverse_ts]
    ts: i64,
    kind: Kind,
}

#[derive(RowKey, Debug, PartialEq)]
enum Kind {
    A,
    B,
}

fn main() {
    let k = Key {
        name: "x".into(),
        tag: "ab".into(),
        ts: 9,
        kind: Kind::B,
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(Key::from_row_key(&b).unwrap(), k);
    let _ = (e, v, n, w, code, mask, buf, input, out, bytes, id);
}
