//! The golden corpus: the frozen byte format (README "Format stability").
//!
//! `tests/golden/*.txt` records, for every field type and attribute combination, the exact bytes
//! of a few values each (edge values included), one entry a line:
//!
//! ```text
//! name | value (Rust Debug of the key) | encoded key as hex bytes ("-" when empty)
//! ```
//!
//! This test builds every value below, and for each entry checks that encoding gives exactly the
//! recorded bytes (and that `encoded_len` and `encode_into` agree), that decoding the recorded
//! bytes gives the value back (same `Debug`) and re-encodes to the same bytes (bit-exact, so NaN
//! payloads and signed zeros count). Every difference is collected and reported by entry name.
//!
//! A value with no entry in the corpus is a failure; with `ROWKEY_GOLDEN_BLESS=1` it is appended
//! to its group's file instead. Blessing never rewrites an existing entry: a changed byte is a
//! format break, which by policy is a bug. An entry whose name has no value here is a failure
//! too, so entries cannot silently disappear.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::{Debug, Write as _};
use std::path::{Path, PathBuf};

use rowkey::{Bytes, DecodeError, RowKey};

// ---------------------------------------------------------------------------------------------
// harness

type DecodeFn = fn(&[u8]) -> Result<(String, Vec<u8>), String>;

struct Value {
    group: &'static str,
    name: String,
    debug: String,
    encoded: Result<Vec<u8>, String>,
    decode: DecodeFn,
}

#[derive(Default)]
struct Corpus {
    group: &'static str,
    values: Vec<Value>,
    problems: Vec<String>,
}

impl Corpus {
    fn group(&mut self, g: &'static str) {
        self.group = g;
    }

    fn add<K: RowKey + Debug>(&mut self, prefix: &str, name: &str, k: K, decode: DecodeFn) {
        let name = format!("{prefix}/{name}");
        let debug = format!("{k:?}");
        let encoded = match k.to_row_key() {
            Ok(b) => {
                if k.encoded_len() != b.len() {
                    self.problems.push(format!(
                        "{name}: encoded_len() = {} but the key has {} bytes",
                        k.encoded_len(),
                        b.len()
                    ));
                }
                let mut v = Vec::new();
                match k.encode_into(&mut v) {
                    Ok(()) if v == b => {}
                    Ok(()) => self.problems.push(format!(
                        "{name}: encode_into gives {} but to_row_key gives {}",
                        hex(&v),
                        hex(&b)
                    )),
                    Err(e) => self
                        .problems
                        .push(format!("{name}: encode_into failed: {e}")),
                }
                Ok(b.to_vec())
            }
            Err(e) => Err(e.to_string()),
        };
        self.values.push(Value {
            group: self.group,
            name,
            debug,
            encoded,
            decode,
        });
    }
}

/// Decode result as (Debug of the value, its re-encoding).
fn redo<K: RowKey + Debug>(r: Result<K, DecodeError>) -> Result<(String, Vec<u8>), String> {
    let k = r.map_err(|e| format!("decode failed: {e}"))?;
    let b = k
        .to_row_key()
        .map_err(|e| format!("decoded value {k:?} does not re-encode: {e}"))?;
    Ok((format!("{k:?}"), b.to_vec()))
}

/// `keys!(corpus, "prefix", Type, [("name", value), ...])`: whole key values.
macro_rules! keys {
    ($c:expr, $prefix:expr, $ty:ident, $vals:expr) => {
        for (n, v) in $vals {
            let v: $ty = v;
            $c.add($prefix, n, v, |b: &[u8]| redo($ty::from_row_key(b)));
        }
    };
}

/// `wrap!(corpus, "prefix", Type, [("name", field value), ...])`: one-field tuple-struct keys.
macro_rules! wrap {
    ($c:expr, $prefix:expr, $ty:ident, $vals:expr) => {
        for (n, v) in $vals {
            $c.add($prefix, n, $ty(v), |b: &[u8]| redo($ty::from_row_key(b)));
        }
    };
}

fn hex(b: &[u8]) -> String {
    if b.is_empty() {
        return "-".to_string();
    }
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s == "-" {
        return Some(Vec::new());
    }
    s.split_ascii_whitespace()
        .map(|t| {
            if t.len() == 2 {
                u8::from_str_radix(t, 16).ok()
            } else {
                None
            }
        })
        .collect()
}

struct Entry {
    file: String,
    line: usize,
    value: String,
    hex: String,
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn header(group: &str) -> String {
    format!(
        "# rowkey golden corpus: {group}. Frozen byte format, see README \"Format stability\":\n\
         # an existing entry never changes; new entries are added with ROWKEY_GOLDEN_BLESS=1.\n\
         # name | value (Rust Debug of the key) | encoded key, hex bytes (\"-\" = empty)\n"
    )
}

/// Every entry of every `tests/golden/*.txt`, by name; malformed and duplicate lines go to
/// `problems`.
fn read_corpus(dir: &Path, problems: &mut Vec<String>) -> HashMap<String, Entry> {
    let mut out: HashMap<String, Entry> = HashMap::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut files: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    for path in files {
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (Some((name, rest)), true) = (line.split_once(" | "), line.contains(" | ")) else {
                problems.push(format!("{file}:{line_no}: malformed line {line:?}"));
                continue;
            };
            let Some((value, hex)) = rest.rsplit_once(" | ") else {
                problems.push(format!("{file}:{line_no}: malformed line {line:?}"));
                continue;
            };
            let entry = Entry {
                file: file.clone(),
                line: line_no,
                value: value.to_string(),
                hex: hex.trim().to_string(),
            };
            if let Some(prev) = out.get(name) {
                problems.push(format!(
                    "{name}: duplicate entry ({}:{} and {file}:{line_no})",
                    prev.file, prev.line
                ));
                continue;
            }
            out.insert(name.to_string(), entry);
        }
    }
    out
}

/// Compares the values with the corpus entries. Returns every difference (naming the entry) and,
/// per group, the corpus lines of values that have no entry yet (added by blessing, reported
/// otherwise).
fn compare(
    values: &[Value],
    corpus: &HashMap<String, Entry>,
    bless: bool,
) -> (Vec<String>, BTreeMap<&'static str, String>) {
    let mut problems = Vec::new();
    let mut seen = HashSet::new();
    let mut to_add: BTreeMap<&'static str, String> = BTreeMap::new();
    for v in values {
        if !seen.insert(v.name.as_str()) {
            problems.push(format!("{}: two values in the test have this name", v.name));
            continue;
        }
        let Some(e) = corpus.get(&v.name) else {
            match (&v.encoded, bless) {
                (Ok(b), true) => {
                    let out = to_add.entry(v.group).or_default();
                    let _ = writeln!(out, "{} | {} | {}", v.name, v.debug, hex(b));
                }
                (Ok(_), false) => problems.push(format!(
                    "{}: not in the corpus (run with ROWKEY_GOLDEN_BLESS=1 to add it)",
                    v.name
                )),
                (Err(err), _) => problems.push(format!("{}: does not encode: {err}", v.name)),
            }
            continue;
        };
        let at = format!("{}:{}", e.file, e.line);
        if e.value != v.debug {
            problems.push(format!(
                "{} ({at}): the value changed: corpus {} vs test {}",
                v.name, e.value, v.debug
            ));
        }
        match &v.encoded {
            Ok(b) if hex(b) == e.hex => {}
            Ok(b) => problems.push(format!(
                "{} ({at}): encodes to {} but the corpus has {}",
                v.name,
                hex(b),
                e.hex
            )),
            Err(err) => problems.push(format!(
                "{} ({at}): does not encode ({err}); the corpus has {}",
                v.name, e.hex
            )),
        }
        let Some(bytes) = unhex(&e.hex) else {
            problems.push(format!("{} ({at}): bad hex {:?}", v.name, e.hex));
            continue;
        };
        match (v.decode)(&bytes) {
            Ok((debug, re)) => {
                if debug != v.debug {
                    problems.push(format!(
                        "{} ({at}): the corpus bytes decode to {debug}, not {}",
                        v.name, v.debug
                    ));
                }
                if re != bytes {
                    problems.push(format!(
                        "{} ({at}): the corpus bytes decode to a value that re-encodes as {}",
                        v.name,
                        hex(&re)
                    ));
                }
            }
            Err(err) => problems.push(format!("{} ({at}): corpus bytes: {err}", v.name)),
        }
    }
    let mut stale: Vec<_> = corpus
        .iter()
        .filter(|(name, _)| !seen.contains(name.as_str()))
        .map(|(name, e)| {
            format!(
                "{name} ({}:{}): in the corpus but no value in tests/keys/golden.rs (entries never disappear)",
                e.file, e.line
            )
        })
        .collect();
    stale.sort();
    problems.extend(stale);
    (problems, to_add)
}

#[test]
fn golden_corpus() {
    let mut c = Corpus::default();
    build(&mut c);
    let bless = std::env::var("ROWKEY_GOLDEN_BLESS").is_ok_and(|v| v == "1");
    let dir = golden_dir();
    let mut problems = std::mem::take(&mut c.problems);
    let corpus = read_corpus(&dir, &mut problems);
    let (diffs, to_add) = compare(&c.values, &corpus, bless);
    problems.extend(diffs);

    if bless && !to_add.is_empty() {
        std::fs::create_dir_all(&dir).expect("create tests/golden");
        for (group, lines) in &to_add {
            let path = dir.join(format!("{group}.txt"));
            let mut text = std::fs::read_to_string(&path).unwrap_or_else(|_| header(group));
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(lines);
            std::fs::write(&path, text)
                .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        }
        let added: usize = to_add.values().map(|l| l.lines().count()).sum();
        eprintln!("golden: blessed {added} new entries");
    }
    assert!(
        c.values.len() >= 300,
        "the corpus is meant to hold a few hundred values, not {}",
        c.values.len()
    );
    assert!(
        problems.is_empty(),
        "{} golden corpus difference(s):\n  {}",
        problems.len(),
        problems.join("\n  ")
    );
}

/// The harness itself: a changed byte, a changed value, a lost entry and a new value are each
/// reported under the entry's name, and blessing adds new values but never rewrites an entry.
#[test]
fn golden_harness_reports_every_kind_of_difference() {
    let mut c = Corpus::default();
    build(&mut c);
    let mut problems = Vec::new();
    let mut corpus = read_corpus(&golden_dir(), &mut problems);
    assert!(problems.is_empty(), "{problems:?}");

    // one byte changed in the recorded encoding
    let e = corpus.get_mut("i32/one").expect("i32/one is in the corpus");
    assert_eq!(e.hex, "80 00 00 01");
    e.hex = "80 00 00 02".into();
    // the recorded value changed
    corpus.get_mut("sep_string/host1").expect("entry").value = "SepStr(\"host2\", 255)".into();
    // an entry whose value is gone from the test
    corpus.insert(
        "u8/removed".into(),
        Entry {
            file: "ints.txt".into(),
            line: 0,
            value: "U8(3)".into(),
            hex: "03".into(),
        },
    );
    // a value with no entry
    corpus.remove("f64/nan");

    for bless in [false, true] {
        let (diffs, to_add) = compare(&c.values, &corpus, bless);
        let about = |name: &str| diffs.iter().filter(|d| d.starts_with(name)).count();
        // encodes differently, and the recorded bytes decode to another value
        assert_eq!(about("i32/one "), 2, "{diffs:#?}");
        assert_eq!(about("sep_string/host1 "), 1, "{diffs:#?}");
        assert_eq!(about("u8/removed "), 1, "{diffs:#?}");
        assert_eq!(about("f64/nan:"), usize::from(!bless), "{diffs:#?}");
        assert_eq!(diffs.len(), 5 - usize::from(bless), "{diffs:#?}");
        let added: Vec<&str> = to_add.values().flat_map(|l| l.lines()).collect();
        if bless {
            assert_eq!(added, ["f64/nan | F64(NaN) | ff f8 00 00 00 00 00 00"]);
        } else {
            assert!(added.is_empty());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// key types: integers

#[derive(RowKey, Debug)]
struct U8(u8);
#[derive(RowKey, Debug)]
struct U16(u16);
#[derive(RowKey, Debug)]
struct U32(u32);
#[derive(RowKey, Debug)]
struct U64(u64);
#[derive(RowKey, Debug)]
struct U128(u128);
#[derive(RowKey, Debug)]
struct I8(i8);
#[derive(RowKey, Debug)]
struct I16(i16);
#[derive(RowKey, Debug)]
struct I32(i32);
#[derive(RowKey, Debug)]
struct I64(i64);
#[derive(RowKey, Debug)]
struct I128(i128);

#[derive(RowKey, Debug)]
struct U8Desc(#[desc] u8);
#[derive(RowKey, Debug)]
struct U16Desc(#[desc] u16);
#[derive(RowKey, Debug)]
struct U32Desc(#[desc] u32);
#[derive(RowKey, Debug)]
struct U64Desc(#[desc] u64);
#[derive(RowKey, Debug)]
struct U128Desc(#[desc] u128);
#[derive(RowKey, Debug)]
struct I8Desc(#[desc] i8);
#[derive(RowKey, Debug)]
struct I16Desc(#[desc] i16);
#[derive(RowKey, Debug)]
struct I32Desc(#[desc] i32);
#[derive(RowKey, Debug)]
struct I64Desc(#[desc] i64);
#[derive(RowKey, Debug)]
struct I128Desc(#[desc] i128);

/// Several integer fields in one key: the fields follow each other with no separators.
#[derive(RowKey, Debug)]
struct IntMix {
    a: u8,
    b: i16,
    #[desc]
    c: u32,
    d: i64,
}

/// Every integer width in one key (big-endian, signed ones sign-flipped, no separators).
#[derive(RowKey, Debug)]
struct Ints {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: u128,
    f: i8,
    g: i16,
    h: i32,
    i: i64,
    j: i128,
}

macro_rules! unsigned_vals {
    ($t:ty) => {
        [
            ("zero", 0 as $t),
            ("one", 1),
            ("0x7f", 0x7f),
            ("0x80", 0x80),
            ("0xff", 0xff as $t),
            ("max_minus_1", <$t>::MAX - 1),
            ("max", <$t>::MAX),
        ]
    };
}

macro_rules! signed_vals {
    ($t:ty) => {
        [
            ("min", <$t>::MIN),
            ("min_plus_1", <$t>::MIN + 1),
            ("minus_2", -2 as $t),
            ("minus_1", -1),
            ("zero", 0),
            ("one", 1),
            ("0x7f", 0x7f as $t),
            ("max_minus_1", <$t>::MAX - 1),
            ("max", <$t>::MAX),
        ]
    };
}

macro_rules! unsigned_short {
    ($t:ty) => {
        [
            ("zero", 0 as $t),
            ("one", 1),
            ("0x80", 0x80),
            ("max", <$t>::MAX),
        ]
    };
}

macro_rules! signed_short {
    ($t:ty) => {
        [
            ("min", <$t>::MIN),
            ("minus_1", -1 as $t),
            ("zero", 0),
            ("one", 1),
            ("max", <$t>::MAX),
        ]
    };
}

fn ints(c: &mut Corpus) {
    c.group("ints");
    wrap!(c, "u8", U8, unsigned_vals!(u8));
    wrap!(c, "u16", U16, unsigned_vals!(u16));
    wrap!(c, "u16", U16, [("0x1234", 0x1234u16), ("0x0100", 0x100)]);
    wrap!(c, "u32", U32, unsigned_vals!(u32));
    wrap!(c, "u32", U32, [("0x12345678", 0x1234_5678u32)]);
    wrap!(c, "u64", U64, unsigned_vals!(u64));
    wrap!(
        c,
        "u64",
        U64,
        [
            ("0x0102030405060708", 0x0102_0304_0506_0708u64),
            ("i64_max", i64::MAX as u64),
            ("2pow63", 1 << 63)
        ]
    );
    wrap!(c, "u128", U128, unsigned_vals!(u128));
    wrap!(
        c,
        "u128",
        U128,
        [
            ("0x0102..10", 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10u128),
            ("2pow127", 1 << 127)
        ]
    );
    wrap!(c, "i8", I8, signed_vals!(i8));
    wrap!(c, "i16", I16, signed_vals!(i16));
    wrap!(c, "i32", I32, signed_vals!(i32));
    wrap!(c, "i64", I64, signed_vals!(i64));
    wrap!(c, "i64", I64, [("ms_2023", 1_700_000_000_000i64)]);
    wrap!(c, "i128", I128, signed_vals!(i128));

    wrap!(c, "u8_desc", U8Desc, unsigned_short!(u8));
    wrap!(c, "u16_desc", U16Desc, unsigned_short!(u16));
    wrap!(c, "u32_desc", U32Desc, unsigned_short!(u32));
    wrap!(c, "u64_desc", U64Desc, unsigned_short!(u64));
    wrap!(c, "u128_desc", U128Desc, unsigned_short!(u128));
    wrap!(c, "i8_desc", I8Desc, signed_short!(i8));
    wrap!(c, "i16_desc", I16Desc, signed_short!(i16));
    wrap!(c, "i32_desc", I32Desc, signed_short!(i32));
    wrap!(c, "i64_desc", I64Desc, signed_short!(i64));
    wrap!(c, "i128_desc", I128Desc, signed_short!(i128));

    keys!(
        c,
        "int_mix",
        IntMix,
        [
            (
                "zeros",
                IntMix {
                    a: 0,
                    b: 0,
                    c: 0,
                    d: 0
                }
            ),
            (
                "mins",
                IntMix {
                    a: 0,
                    b: i16::MIN,
                    c: 0,
                    d: i64::MIN
                }
            ),
            (
                "maxs",
                IntMix {
                    a: u8::MAX,
                    b: i16::MAX,
                    c: u32::MAX,
                    d: i64::MAX
                }
            ),
            (
                "mixed",
                IntMix {
                    a: 7,
                    b: -300,
                    c: 0x0102_0304,
                    d: -1
                }
            ),
        ]
    );
    keys!(
        c,
        "ints_every_width",
        Ints,
        [(
            "counting",
            Ints {
                a: 0x12,
                b: 0x1234,
                c: 0x1234_5678,
                d: 0x0102_0304_0506_0708,
                e: 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10,
                f: -1,
                g: -2,
                h: i32::MIN,
                i: 1,
                j: 0
            }
        )]
    );
}

// ---------------------------------------------------------------------------------------------
// bool, char, floats, arrays

#[derive(RowKey, Debug)]
struct Bool(bool);
#[derive(RowKey, Debug)]
struct BoolDesc(#[desc] bool);
#[derive(RowKey, Debug)]
struct Char(char);
#[derive(RowKey, Debug)]
struct CharDesc(#[desc] char);
#[derive(RowKey, Debug)]
struct F32(f32);
#[derive(RowKey, Debug)]
struct F32Desc(#[desc] f32);
#[derive(RowKey, Debug)]
struct F64(f64);
#[derive(RowKey, Debug)]
struct F64Desc(#[desc] f64);
#[derive(RowKey, Debug)]
struct Arr4([u8; 4]);
#[derive(RowKey, Debug)]
struct Arr4Desc(#[desc] [u8; 4]);
#[derive(RowKey, Debug)]
struct Arr1([u8; 1]);
#[derive(RowKey, Debug)]
struct Arr16([u8; 16]);

/// A bool and a char in one key.
#[derive(RowKey, Debug)]
struct BoolChar {
    flag: bool,
    c: char,
}

/// An array followed by a field: fixed width, no terminator.
#[derive(RowKey, Debug)]
struct ArrThen {
    id: [u8; 3],
    n: u8,
}

const CHARS: [(&str, char); 10] = [
    ("nul", '\0'),
    ("A", 'A'),
    ("del", '\u{7f}'),
    ("e_acute", 'é'),
    ("d7ff", '\u{D7FF}'),
    ("e000", '\u{E000}'),
    ("fffd", '\u{FFFD}'),
    ("ffff", '\u{FFFF}'),
    ("emoji", '😀'),
    ("max", char::MAX),
];

fn f64_vals() -> [(&'static str, f64); 19] {
    [
        ("neg_inf", f64::NEG_INFINITY),
        ("min", f64::MIN),
        ("minus_1e300", -1e300),
        ("minus_1_5", -1.5),
        ("minus_1", -1.0),
        ("minus_min_positive", -f64::MIN_POSITIVE),
        (
            "minus_subnormal_max",
            -f64::from_bits(0x000F_FFFF_FFFF_FFFF),
        ),
        ("minus_subnormal_min", -f64::from_bits(1)),
        ("minus_zero", -0.0),
        ("zero", 0.0),
        ("subnormal_min", f64::from_bits(1)),
        ("subnormal_max", f64::from_bits(0x000F_FFFF_FFFF_FFFF)),
        ("min_positive", f64::MIN_POSITIVE),
        ("one", 1.0),
        ("pi", std::f64::consts::PI),
        ("max", f64::MAX),
        ("inf", f64::INFINITY),
        ("nan", f64::NAN),
        ("minus_nan", -f64::NAN),
    ]
}

fn f32_vals() -> [(&'static str, f32); 17] {
    [
        ("neg_inf", f32::NEG_INFINITY),
        ("min", f32::MIN),
        ("minus_1_5", -1.5),
        ("minus_1", -1.0),
        ("minus_min_positive", -f32::MIN_POSITIVE),
        ("minus_subnormal_min", -f32::from_bits(1)),
        ("minus_zero", -0.0),
        ("zero", 0.0),
        ("subnormal_min", f32::from_bits(1)),
        ("subnormal_max", f32::from_bits(0x007F_FFFF)),
        ("min_positive", f32::MIN_POSITIVE),
        ("one", 1.0),
        ("max", f32::MAX),
        ("inf", f32::INFINITY),
        ("nan", f32::NAN),
        ("minus_nan", -f32::NAN),
        ("nan_payload_1", f32::from_bits(0x7F80_0001)),
    ]
}

fn scalars(c: &mut Corpus) {
    c.group("scalars");
    wrap!(c, "bool", Bool, [("false", false), ("true", true)]);
    wrap!(c, "bool_desc", BoolDesc, [("false", false), ("true", true)]);
    wrap!(c, "char", Char, CHARS);
    wrap!(c, "char_desc", CharDesc, CHARS.into_iter().step_by(2));
    wrap!(c, "f32", F32, f32_vals());
    wrap!(c, "f32_desc", F32Desc, f32_vals().into_iter().step_by(2));
    wrap!(c, "f64", F64, f64_vals());
    wrap!(
        c,
        "f64",
        F64,
        [("nan_payload_1", f64::from_bits(0x7FF0_0000_0000_0001))]
    );
    wrap!(c, "f64_desc", F64Desc, f64_vals().into_iter().step_by(2));
    wrap!(c, "f32", F32, [("one_5", 1.5f32)]);
    keys!(
        c,
        "bool_char",
        BoolChar,
        [
            (
                "false_A",
                BoolChar {
                    flag: false,
                    c: 'A'
                }
            ),
            (
                "true_emoji",
                BoolChar {
                    flag: true,
                    c: '😀'
                }
            ),
            (
                "true_max",
                BoolChar {
                    flag: true,
                    c: char::MAX
                }
            ),
        ]
    );

    let arrs: [(&str, [u8; 4]); 6] = [
        ("zeros", [0; 4]),
        ("ones", [1; 4]),
        ("ff", [0xff; 4]),
        ("0001feff", [0x00, 0x01, 0xfe, 0xff]),
        ("abcd", *b"abcd"),
        ("mixed_00", [b'a', 0, b'b', 0]),
    ];
    wrap!(c, "arr4", Arr4, arrs);
    wrap!(c, "arr4_desc", Arr4Desc, arrs);
    wrap!(c, "arr1", Arr1, [("zero", [0u8]), ("ff", [0xff])]);
    wrap!(
        c,
        "arr16",
        Arr16,
        [
            ("zeros", [0u8; 16]),
            (
                "uuid_like",
                *b"\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17\x40\x00"
            )
        ]
    );
    keys!(
        c,
        "arr_then",
        ArrThen,
        [
            ("zeros", ArrThen { id: [0; 3], n: 0 }),
            (
                "abc_ff",
                ArrThen {
                    id: *b"abc",
                    n: 0xff
                }
            ),
            (
                "00ff01_7",
                ArrThen {
                    id: [0x00, 0xff, 0x01],
                    n: 7
                }
            ),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// strings

const STRS: [(&str, &str); 18] = [
    ("empty", ""),
    ("a", "a"),
    ("ab", "ab"),
    ("abc", "abc"),
    ("b", "b"),
    ("host1", "host1"),
    ("host12", "host12"),
    ("only_00", "\0"),
    ("only_01", "\x01"),
    ("a_00", "a\0"),
    ("a_00_00", "a\0\0"),
    ("a_01_b", "a\x01b"),
    ("01_00", "\x01\0"),
    ("del_7f", "\x7f"),
    ("utf8_2byte", "é"),
    ("utf8_3byte", "日本"),
    ("utf8_4byte", "😀"),
    ("max_char", "\u{10FFFF}"),
];

/// Extra strings for fields that accept them (not for `#[pad(8)]`/`#[sep(b'|')]`).
const STRS_MORE: [(&str, &str); 4] = [
    ("trailing_space", "ab "),
    ("pipe", "a|b"),
    ("long_20", "abcdefghijklmnopqrst"),
    ("space_only", " "),
];

/// The adversarial core of [`STRS`], for the less central combinations.
const SHORT: [&str; 10] = [
    "empty",
    "a",
    "ab",
    "host1",
    "host12",
    "only_00",
    "only_01",
    "a_00",
    "a_01_b",
    "utf8_4byte",
];

fn strs_short(filter: impl Fn(&str) -> bool) -> Vec<(&'static str, String)> {
    let mut v = strs(filter);
    v.retain(|(n, _)| SHORT.contains(n) || n.starts_with("full"));
    v
}

fn strs(filter: impl Fn(&str) -> bool) -> Vec<(&'static str, String)> {
    STRS.iter()
        .chain(STRS_MORE.iter())
        .filter(|(_, s)| filter(s))
        .map(|(n, s)| (*n, s.to_string()))
        .collect()
}

#[derive(RowKey, Debug)]
struct StrLast(String);
#[derive(RowKey, Debug)]
struct StrLastDesc(#[desc] String);
/// A string as the last field after a fixed-width one.
#[derive(RowKey, Debug)]
struct IdStr(u8, String);
#[derive(RowKey, Debug)]
struct IdStrDesc(u8, #[desc] String);
#[derive(RowKey, Debug)]
struct BoxStr(Box<str>);
#[derive(RowKey, Debug)]
struct BoxStrDescSep(
    #[desc]
    #[sep]
    Box<str>,
    u8,
);
#[derive(RowKey, Debug)]
struct SepStr(#[sep] String, u8);
#[derive(RowKey, Debug)]
struct SepStrDesc(
    #[desc]
    #[sep]
    String,
    u8,
);
#[derive(RowKey, Debug)]
struct SepStrLast(#[sep] String);
#[derive(RowKey, Debug)]
struct SepPipe(#[sep(b'|')] String, u8);
#[derive(RowKey, Debug)]
struct SepPipeDesc(
    #[desc]
    #[sep(b'|')]
    String,
    u8,
);
#[derive(RowKey, Debug)]
struct PadStr(#[pad(8)] String, u8);
#[derive(RowKey, Debug)]
struct PadStrDesc(
    #[desc]
    #[pad(8)]
    String,
    u8,
);
#[derive(RowKey, Debug)]
struct PadStrSpace(#[pad(8, fill = b' ')] String, u8);
#[derive(RowKey, Debug)]
struct PadStrLast(#[pad(8)] String);

/// Two separated strings: "a" + "bc" and "ab" + "c" must differ.
#[derive(RowKey, Debug)]
struct TwoSep {
    #[sep]
    a: String,
    #[sep]
    b: String,
}

/// A `Box<str>` as the last field after a fixed-width one.
#[derive(RowKey, Debug)]
struct IdBoxStr(u8, Box<str>);

/// Every kind of `#[pad]` in one key: zero-filled string, space-filled string, decimal, bytes.
#[derive(RowKey, Debug)]
struct PadMixed {
    #[pad(6)]
    name: String,
    #[pad(5, fill = b' ')]
    code: String,
    #[pad(6)]
    n: u32,
    #[pad(3)]
    raw: Vec<u8>,
}

/// `#[sep]` strings and bytes and a custom separator in one key.
#[derive(RowKey, Debug)]
struct SepMixed {
    #[sep]
    a: String,
    #[sep(b'|')]
    b: String,
    #[sep]
    raw: Vec<u8>,
    tail: u8,
}

/// `#[desc]` on every kind of field: integers, a separated string, an option, pads, a custom
/// separator, a last string.
#[derive(RowKey, Debug)]
struct DescMixed {
    #[desc]
    a: u16,
    #[desc]
    i: i8,
    #[desc]
    #[sep]
    s: String,
    #[desc]
    o: Option<u8>,
    #[desc]
    #[pad(4)]
    p: String,
    #[desc]
    #[pad(3)]
    d: u32,
    #[desc]
    #[sep(b'|')]
    c: String,
    #[desc]
    last: String,
}

fn strings(c: &mut Corpus) {
    c.group("strings");
    let all = |_: &str| true;
    let no_pipe = |s: &str| !s.contains('|');
    let fits8 = |s: &str| s.len() <= 8 && !s.ends_with('\0');
    let fits8_space = |s: &str| s.len() <= 8 && !s.ends_with(' ');
    wrap!(c, "string_last", StrLast, strs(all));
    wrap!(c, "string_last_desc", StrLastDesc, strs_short(all));
    let it = strs_short(all).into_iter();
    keys!(
        c,
        "id_string_last",
        IdStr,
        it.map(|(n, s)| (n, IdStr(1, s)))
    );
    let it = strs_short(all).into_iter().step_by(2);
    keys!(
        c,
        "id_string_last_desc",
        IdStrDesc,
        it.map(|(n, s)| (n, IdStrDesc(1, s)))
    );
    let it = strs_short(all).into_iter().step_by(2);
    keys!(
        c,
        "box_str_last",
        BoxStr,
        it.map(|(n, s)| (n, BoxStr(s.into())))
    );
    let it = strs_short(all).into_iter().skip(1).step_by(2);
    keys!(
        c,
        "box_str_sep_desc",
        BoxStrDescSep,
        it.map(|(n, s)| (n, BoxStrDescSep(s.into(), 7)))
    );
    let it = strs(all).into_iter();
    keys!(
        c,
        "sep_string",
        SepStr,
        it.map(|(n, s)| (n, SepStr(s, 0xff)))
    );
    let it = strs_short(all).into_iter();
    keys!(
        c,
        "sep_string_desc",
        SepStrDesc,
        it.map(|(n, s)| (n, SepStrDesc(s, 0xff)))
    );
    let it = strs_short(all).into_iter().skip(1).step_by(2);
    wrap!(c, "sep_string_last", SepStrLast, it);
    let it = strs_short(no_pipe).into_iter();
    keys!(
        c,
        "sep_pipe_string",
        SepPipe,
        it.map(|(n, s)| (n, SepPipe(s, 0x00)))
    );
    let it = strs_short(no_pipe).into_iter().take(6);
    keys!(
        c,
        "sep_pipe_string_desc",
        SepPipeDesc,
        it.map(|(n, s)| (n, SepPipeDesc(s, 0x00)))
    );
    let it = strs_short(fits8).into_iter();
    keys!(
        c,
        "pad8_string",
        PadStr,
        it.map(|(n, s)| (n, PadStr(s, 0x01)))
    );
    let it = strs_short(fits8).into_iter();
    keys!(
        c,
        "pad8_string_desc",
        PadStrDesc,
        it.map(|(n, s)| (n, PadStrDesc(s, 0x01)))
    );
    let it = strs_short(fits8_space).into_iter();
    keys!(
        c,
        "pad8_space_string",
        PadStrSpace,
        it.map(|(n, s)| (n, PadStrSpace(s, 0x01)))
    );
    keys!(
        c,
        "pad8_space_string",
        PadStrSpace,
        [("full_8", PadStrSpace("abcdefgh".into(), 2))]
    );
    keys!(
        c,
        "pad8_string",
        PadStr,
        [("full_8", PadStr("abcdefgh".into(), 2))]
    );
    wrap!(
        c,
        "pad8_string_last",
        PadStrLast,
        [
            ("empty", String::new()),
            ("host1", "host1".into()),
            ("full_8", "abcdefgh".into())
        ]
    );
    let two = |a: &str, b: &str| TwoSep {
        a: a.into(),
        b: b.into(),
    };
    keys!(
        c,
        "two_sep",
        TwoSep,
        [
            ("empty_empty", two("", "")),
            ("a_bc", two("a", "bc")),
            ("ab_c", two("ab", "c")),
            ("abc_empty", two("abc", "")),
            ("empty_abc", two("", "abc")),
            ("00_01", two("\0", "\x01")),
        ]
    );
    keys!(
        c,
        "id_string_last",
        IdStr,
        [("h_e_acute_llo_00_01", IdStr(1, "héllo\0\x01".into()))]
    );
    keys!(
        c,
        "id_box_str_last",
        IdBoxStr,
        [("ab", IdBoxStr(2, "ab".into()))]
    );
    keys!(
        c,
        "pad_mixed",
        PadMixed,
        [
            (
                "abc_XY_1_ff",
                PadMixed {
                    name: "abc".into(),
                    code: "XY".into(),
                    n: 1,
                    raw: vec![0xff]
                }
            ),
            (
                "full",
                PadMixed {
                    name: "abcdef".into(),
                    code: "VWXYZ".into(),
                    n: 999_999,
                    raw: vec![1, 0, 2]
                }
            ),
            (
                "fill_inside",
                PadMixed {
                    name: "a\0b".into(),
                    code: "a b".into(),
                    n: 0,
                    raw: vec![]
                }
            ),
        ]
    );
    keys!(
        c,
        "sep_mixed",
        SepMixed,
        [
            (
                "host1_x_empty_9",
                SepMixed {
                    a: "host1".into(),
                    b: "x".into(),
                    raw: vec![],
                    tail: 9
                }
            ),
            (
                "escapes",
                SepMixed {
                    a: "a\0b\x01c".into(),
                    b: String::new(),
                    raw: vec![0x00, 0x01, 0x02, 0xff],
                    tail: 0
                }
            ),
        ]
    );
    keys!(
        c,
        "desc_mixed",
        DescMixed,
        [
            (
                "typical",
                DescMixed {
                    a: 0x1234,
                    i: -1,
                    s: "a".into(),
                    o: None,
                    p: "ab".into(),
                    d: 42,
                    c: "ab".into(),
                    last: "ab\0".into()
                }
            ),
            (
                "zeros_some_5",
                DescMixed {
                    a: 0,
                    i: 0,
                    s: "\x01".into(),
                    o: Some(5),
                    p: String::new(),
                    d: 0,
                    c: String::new(),
                    last: String::new()
                }
            ),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// bytes

fn byte_vals() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("empty", vec![]),
        ("00", vec![0x00]),
        ("00_00", vec![0x00, 0x00]),
        ("01", vec![0x01]),
        ("01_01", vec![0x01, 0x01]),
        ("01_00", vec![0x01, 0x00]),
        ("02", vec![0x02]),
        ("7f_80", vec![0x7f, 0x80]),
        ("fe", vec![0xfe]),
        ("ff", vec![0xff]),
        ("ff_ff", vec![0xff, 0xff]),
        ("00_01_ff", vec![0x00, 0x01, 0xff]),
        ("ab", b"ab".to_vec()),
        ("ab_00", b"ab\0".to_vec()),
        ("ab_ff", b"ab\xff".to_vec()),
    ]
}

#[derive(RowKey, Debug)]
struct VecLast(Vec<u8>);
#[derive(RowKey, Debug)]
struct VecLastDesc(#[desc] Vec<u8>);
#[derive(RowKey, Debug)]
struct BytesLast(Bytes);
#[derive(RowKey, Debug)]
struct SepVec(#[sep] Vec<u8>, u8);
#[derive(RowKey, Debug)]
struct SepVecDesc(
    #[desc]
    #[sep]
    Vec<u8>,
    u8,
);
#[derive(RowKey, Debug)]
struct SepBytes(#[sep] Bytes, u8);
#[derive(RowKey, Debug)]
struct SepPipeVec(#[sep(b'|')] Vec<u8>, u8);
#[derive(RowKey, Debug)]
struct PadVec(#[pad(4)] Vec<u8>, u8);
#[derive(RowKey, Debug)]
struct PadVecDesc(
    #[desc]
    #[pad(4)]
    Vec<u8>,
    u8,
);
#[derive(RowKey, Debug)]
struct PadBytesUnderscore(#[pad(4, fill = b'_')] Bytes, u8);
#[derive(RowKey, Debug)]
struct PadBytesFf(#[pad(3, fill = 0xFF)] Bytes, u8);

/// Bytes as the last field after a fixed-width one.
#[derive(RowKey, Debug)]
struct IdVec(u8, Vec<u8>);
#[derive(RowKey, Debug)]
struct IdBytes(u8, Bytes);

fn byte_short() -> Vec<(&'static str, Vec<u8>)> {
    let mut v = byte_vals();
    v.retain(|(n, _)| ["empty", "00", "01", "01_00", "ff", "00_01_ff", "ab"].contains(n));
    v
}

fn byte_fields(c: &mut Corpus) {
    c.group("bytes");
    let fits4 = |v: &Vec<u8>| v.len() <= 4 && v.last() != Some(&0);
    wrap!(c, "vec_last", VecLast, byte_vals());
    wrap!(c, "vec_last_desc", VecLastDesc, byte_short());
    let it = byte_vals().into_iter().step_by(2);
    wrap!(
        c,
        "bytes_last",
        BytesLast,
        it.map(|(n, v)| (n, Bytes::from(v)))
    );
    let it = byte_vals().into_iter();
    keys!(c, "sep_vec", SepVec, it.map(|(n, v)| (n, SepVec(v, 0x00))));
    let it = byte_short().into_iter();
    keys!(
        c,
        "sep_vec_desc",
        SepVecDesc,
        it.map(|(n, v)| (n, SepVecDesc(v, 0x00)))
    );
    let it = byte_vals().into_iter().step_by(3);
    keys!(
        c,
        "sep_bytes",
        SepBytes,
        it.map(|(n, v)| (n, SepBytes(v.into(), 0x00)))
    );
    let it = byte_short().into_iter();
    keys!(
        c,
        "sep_pipe_vec",
        SepPipeVec,
        it.map(|(n, v)| (n, SepPipeVec(v, 0x00)))
    );
    let it = byte_short().into_iter().filter(|(_, v)| fits4(v));
    keys!(c, "pad4_vec", PadVec, it.map(|(n, v)| (n, PadVec(v, 0x00))));
    keys!(
        c,
        "pad4_vec",
        PadVec,
        [("full_4", PadVec(vec![1, 2, 0, 4], 0))]
    );
    let it = byte_short().into_iter().filter(|(_, v)| fits4(v));
    keys!(
        c,
        "pad4_vec_desc",
        PadVecDesc,
        it.map(|(n, v)| (n, PadVecDesc(v, 0x00)))
    );
    let it = byte_short()
        .into_iter()
        .filter(|(_, v)| v.len() <= 4 && v.last() != Some(&b'_'));
    keys!(
        c,
        "pad4_underscore_bytes",
        PadBytesUnderscore,
        it.map(|(n, v)| (n, PadBytesUnderscore(v.into(), 0x00)))
    );
    let it = byte_short()
        .into_iter()
        .filter(|(_, v)| v.len() <= 3 && v.last() != Some(&0xff));
    keys!(
        c,
        "pad3_ff_bytes",
        PadBytesFf,
        it.map(|(n, v)| (n, PadBytesFf(v.into(), 0x00)))
    );
    keys!(
        c,
        "id_vec_last",
        IdVec,
        [("00_01_ff", IdVec(3, vec![0x00, 0x01, 0xff]))]
    );
    keys!(
        c,
        "id_bytes_last",
        IdBytes,
        [("ff_x_00", IdBytes(4, Bytes::from_static(b"\xffx\x00")))]
    );
}

// ---------------------------------------------------------------------------------------------
// pad decimal

#[derive(RowKey, Debug)]
struct Dec3U8(#[pad(3)] u8);
#[derive(RowKey, Debug)]
struct Dec5U16(#[pad(5)] u16);
#[derive(RowKey, Debug)]
struct Dec6U32(#[pad(6)] u32);
#[derive(RowKey, Debug)]
struct Dec6U32Desc(
    #[desc]
    #[pad(6)]
    u32,
);
#[derive(RowKey, Debug)]
struct Dec20U64(#[pad(20)] u64);
#[derive(RowKey, Debug)]
struct Dec11U64(#[pad(11)] u64);
#[derive(RowKey, Debug)]
struct Dec40U128(#[pad(40)] u128);
#[derive(RowKey, Debug)]
struct Dec1U8(#[pad(1)] u8);

fn decimals(c: &mut Corpus) {
    c.group("pad_decimal");
    wrap!(
        c,
        "pad3_u8",
        Dec3U8,
        [
            ("zero", 0u8),
            ("one", 1),
            ("nine", 9),
            ("ten", 10),
            ("max", u8::MAX)
        ]
    );
    wrap!(
        c,
        "pad5_u16",
        Dec5U16,
        [
            ("zero", 0u16),
            ("one", 1),
            ("9999", 9999),
            ("max", u16::MAX)
        ]
    );
    let six = [
        ("zero", 0u32),
        ("one", 1),
        ("42", 42),
        ("99999", 99_999),
        ("100000", 100_000),
        ("max_999999", 999_999),
    ];
    wrap!(c, "pad6_u32", Dec6U32, six);
    wrap!(c, "pad6_u32_desc", Dec6U32Desc, six);
    wrap!(
        c,
        "pad20_u64",
        Dec20U64,
        [
            ("zero", 0u64),
            ("ms_2023", 1_700_000_000_000),
            ("max", u64::MAX)
        ]
    );
    wrap!(
        c,
        "pad11_u64",
        Dec11U64,
        [
            ("zero", 0u64),
            ("phone", 13_812_345_678),
            ("max_11_digits", 99_999_999_999)
        ]
    );
    wrap!(
        c,
        "pad40_u128",
        Dec40U128,
        [("zero", 0u128), ("one", 1), ("max", u128::MAX)]
    );
    wrap!(c, "pad1_u8", Dec1U8, [("zero", 0u8), ("nine", 9)]);
}

// ---------------------------------------------------------------------------------------------
// Option

#[derive(RowKey, Debug)]
struct OptU16(Option<u16>);
#[derive(RowKey, Debug)]
struct OptU16Desc(#[desc] Option<u16>);
#[derive(RowKey, Debug)]
struct OptI32Java(#[rowkey(java)] Option<i32>);
#[derive(RowKey, Debug)]
struct OptSep(#[sep] Option<String>, u8);
#[derive(RowKey, Debug)]
struct OptSepDesc(
    #[desc]
    #[sep]
    Option<String>,
    u8,
);
#[derive(RowKey, Debug)]
struct OptStrLast(Option<String>);
#[derive(RowKey, Debug)]
struct OptPad(#[pad(4)] Option<String>, u8);
#[derive(RowKey, Debug)]
struct OptF64(Option<f64>);
#[derive(RowKey, Debug)]
struct OptBool(Option<bool>);
#[derive(RowKey, Debug)]
struct OptKind(Option<Kind>, u8);
#[derive(RowKey, Debug)]
struct OptInner(Option<Inner>, u8);
#[derive(RowKey, Debug)]
struct OptOpt(Option<Option<u8>>);
#[derive(RowKey, Debug)]
struct OptReverseTs(u8, #[reverse_ts] Option<i64>);

/// A presence byte before a fixed-width field, a separated string and a last string.
#[derive(RowKey, Debug)]
struct OptMixed {
    a: Option<u16>,
    #[sep]
    s: Option<String>,
    last: Option<String>,
}

fn options(c: &mut Corpus) {
    c.group("option");
    let u16s = [
        ("none", None),
        ("some_0", Some(0u16)),
        ("some_1", Some(1)),
        ("some_max", Some(u16::MAX)),
    ];
    wrap!(c, "option_u16", OptU16, u16s);
    wrap!(c, "option_u16_desc", OptU16Desc, u16s);
    wrap!(
        c,
        "option_i32_java",
        OptI32Java,
        [
            ("none", None),
            ("some_minus_1", Some(-1i32)),
            ("some_1", Some(1))
        ]
    );
    let strs = || {
        [
            ("none", None),
            ("some_empty", Some(String::new())),
            ("some_a", Some("a".to_string())),
            ("some_00", Some("\0".to_string())),
            ("some_01", Some("\x01".to_string())),
        ]
    };
    keys!(
        c,
        "option_sep",
        OptSep,
        strs().map(|(n, s)| (n, OptSep(s, 9)))
    );
    keys!(
        c,
        "option_sep_desc",
        OptSepDesc,
        strs().map(|(n, s)| (n, OptSepDesc(s, 9)))
    );
    wrap!(c, "option_string_last", OptStrLast, strs());
    let it = strs().into_iter().filter(|(n, _)| *n != "some_00");
    keys!(c, "option_pad4", OptPad, it.map(|(n, s)| (n, OptPad(s, 9))));
    wrap!(
        c,
        "option_f64",
        OptF64,
        [
            ("none", None),
            ("some_minus_zero", Some(-0.0f64)),
            ("some_nan", Some(f64::NAN))
        ]
    );
    wrap!(
        c,
        "option_bool",
        OptBool,
        [
            ("none", None),
            ("some_false", Some(false)),
            ("some_true", Some(true))
        ]
    );
    keys!(
        c,
        "option_enum",
        OptKind,
        [
            ("none", OptKind(None, 0)),
            ("some_click", OptKind(Some(Kind::Click), 0)),
            ("some_buy", OptKind(Some(Kind::Buy), 0)),
        ]
    );
    keys!(
        c,
        "option_nested",
        OptInner,
        [
            ("none", OptInner(None, 1)),
            (
                "some",
                OptInner(
                    Some(Inner {
                        host: "h1".into(),
                        port: 80
                    }),
                    1
                )
            ),
        ]
    );
    wrap!(
        c,
        "option_option",
        OptOpt,
        [
            ("none", None),
            ("some_none", Some(None)),
            ("some_some_0", Some(Some(0u8)))
        ]
    );
    keys!(
        c,
        "option_reverse_ts",
        OptReverseTs,
        [
            ("none", OptReverseTs(1, None)),
            ("some_0", OptReverseTs(1, Some(0))),
            ("some_ms", OptReverseTs(1, Some(1_700_000_000_000))),
        ]
    );
    keys!(
        c,
        "option_mixed",
        OptMixed,
        [
            (
                "none_none_none",
                OptMixed {
                    a: None,
                    s: None,
                    last: None
                }
            ),
            (
                "some_0102_x_yz",
                OptMixed {
                    a: Some(0x0102),
                    s: Some("x".into()),
                    last: Some("yz".into())
                }
            ),
            (
                "some_0_empty_empty",
                OptMixed {
                    a: Some(0),
                    s: Some(String::new()),
                    last: Some(String::new())
                }
            ),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// enums

#[derive(RowKey, Debug, Clone, Copy)]
enum Kind {
    Click,
    View,
    Buy,
}

#[derive(RowKey, Debug, Clone, Copy)]
enum Explicit {
    Low = 10,
    Mid = 11,
    High = 200,
    Top = 255,
}

#[derive(RowKey, Debug, Clone, Copy)]
#[repr(u16)]
enum Wide {
    X = 1,
    Y = 0x1234,
    Z = 0xFFFF,
}

#[derive(RowKey, Debug, Clone, Copy)]
#[repr(u8)]
enum ReprU8 {
    Zero = 0,
    Gap = 100,
}

#[derive(RowKey, Debug)]
struct EnumDesc(#[desc] Kind, #[desc] Wide);

#[derive(RowKey, Debug)]
struct EnumFields {
    uid: u32,
    kind: Kind,
    level: Explicit,
    wide: Wide,
}

fn enums(c: &mut Corpus) {
    c.group("enums");
    keys!(
        c,
        "enum_default",
        Kind,
        [
            ("click", Kind::Click),
            ("view", Kind::View),
            ("buy", Kind::Buy)
        ]
    );
    keys!(
        c,
        "enum_explicit",
        Explicit,
        [
            ("low_10", Explicit::Low),
            ("mid_11", Explicit::Mid),
            ("high_200", Explicit::High),
            ("top_255", Explicit::Top)
        ]
    );
    keys!(
        c,
        "enum_repr_u16",
        Wide,
        [
            ("x_1", Wide::X),
            ("y_0x1234", Wide::Y),
            ("z_0xffff", Wide::Z)
        ]
    );
    keys!(
        c,
        "enum_repr_u8",
        ReprU8,
        [("zero", ReprU8::Zero), ("gap_100", ReprU8::Gap)]
    );
    keys!(
        c,
        "enum_desc",
        EnumDesc,
        [
            ("click_x", EnumDesc(Kind::Click, Wide::X)),
            ("buy_z", EnumDesc(Kind::Buy, Wide::Z)),
        ]
    );
    keys!(
        c,
        "enum_fields",
        EnumFields,
        [(
            "buy_high_y",
            EnumFields {
                uid: 7,
                kind: Kind::Buy,
                level: Explicit::High,
                wide: Wide::Y
            }
        )]
    );
}

// ---------------------------------------------------------------------------------------------
// nested structs

#[derive(RowKey, Debug)]
struct Inner {
    #[sep]
    host: String,
    port: u16,
}

#[derive(RowKey, Debug)]
struct InnerLast {
    id: u8,
    name: String,
}

#[derive(RowKey, Debug)]
struct Outer {
    region: u8,
    inner: Inner,
    #[sep]
    path: String,
    last: Inner,
}

#[derive(RowKey, Debug)]
struct OuterDesc {
    #[desc]
    inner: Inner,
    tail: u8,
}

#[derive(RowKey, Debug)]
struct OuterLastInner {
    region: u8,
    last: InnerLast,
}

#[derive(RowKey, Debug)]
struct Pair(u16, #[sep] String, i8);

#[derive(RowKey, Debug)]
struct NestPair(Pair, Pair);

#[derive(RowKey, Debug)]
struct Tagged<T> {
    tag: T,
    id: u64,
}
type TaggedU16 = Tagged<u16>;
type TaggedKind = Tagged<Kind>;

/// `#[desc]` on a nested key, an optional nested key, a `#[desc]` separated `Box<str>`, `#[desc]`
/// padded `Bytes` and a 40-digit decimal.
#[derive(RowKey, Debug)]
struct Combos {
    #[desc]
    inner: Inner,
    maybe: Option<Inner>,
    #[desc]
    #[sep]
    bx: Box<str>,
    #[desc]
    #[pad(3)]
    by: Bytes,
    #[pad(40)]
    wide: u128,
}

fn inner(h: &str, p: u16) -> Inner {
    Inner {
        host: h.into(),
        port: p,
    }
}

fn nested(c: &mut Corpus) {
    c.group("nested");
    keys!(
        c,
        "inner",
        Inner,
        [
            ("empty_0", inner("", 0)),
            ("h1_80", inner("h1", 80)),
            ("h1_00_max", inner("h1\0", u16::MAX))
        ]
    );
    keys!(
        c,
        "outer",
        Outer,
        [
            (
                "simple",
                Outer {
                    region: 3,
                    inner: inner("h1", 80),
                    path: "/a".into(),
                    last: inner("h2", 443)
                }
            ),
            (
                "empties",
                Outer {
                    region: 0,
                    inner: inner("", 0),
                    path: String::new(),
                    last: inner("", 0)
                }
            ),
            (
                "escapes",
                Outer {
                    region: 255,
                    inner: inner("\0\x01", 1),
                    path: "\x01".into(),
                    last: inner("a\0", 2)
                }
            ),
            (
                "h1_80_last_empty_max",
                Outer {
                    region: 3,
                    inner: inner("h1", 80),
                    path: "/a".into(),
                    last: inner("", u16::MAX)
                }
            ),
        ]
    );
    keys!(
        c,
        "outer_desc_inner",
        OuterDesc,
        [
            (
                "h1_80",
                OuterDesc {
                    inner: inner("h1", 80),
                    tail: 1
                }
            ),
            (
                "empty_0",
                OuterDesc {
                    inner: inner("", 0),
                    tail: 1
                }
            ),
            (
                "00_max",
                OuterDesc {
                    inner: inner("\0", u16::MAX),
                    tail: 1
                }
            ),
        ]
    );
    keys!(
        c,
        "outer_last_inner_raw",
        OuterLastInner,
        [
            (
                "abc",
                OuterLastInner {
                    region: 1,
                    last: InnerLast {
                        id: 2,
                        name: "abc".into()
                    }
                }
            ),
            (
                "empty",
                OuterLastInner {
                    region: 1,
                    last: InnerLast {
                        id: 2,
                        name: String::new()
                    }
                }
            ),
            (
                "has_00",
                OuterLastInner {
                    region: 1,
                    last: InnerLast {
                        id: 2,
                        name: "a\0".into()
                    }
                }
            ),
        ]
    );
    keys!(
        c,
        "tuple_struct",
        Pair,
        [
            ("zero_empty", Pair(0, String::new(), 0)),
            ("mixed", Pair(0x1234, "x".into(), -1)),
            ("0102_x_min", Pair(0x0102, "x".into(), i8::MIN)),
        ]
    );
    keys!(
        c,
        "nested_tuples",
        NestPair,
        [(
            "two",
            NestPair(Pair(1, "a".into(), i8::MIN), Pair(2, "b".into(), i8::MAX))
        )]
    );
    keys!(
        c,
        "generic_u16",
        TaggedU16,
        [("tag_7", Tagged { tag: 7u16, id: 9 })]
    );
    keys!(
        c,
        "generic_enum",
        TaggedKind,
        [(
            "view",
            Tagged {
                tag: Kind::View,
                id: u64::MAX
            }
        )]
    );
    keys!(
        c,
        "combos",
        Combos,
        [
            (
                "h1_80_x_1_a01_01_42",
                Combos {
                    inner: inner("h1", 80),
                    maybe: Some(inner("x", 1)),
                    bx: "a\x01".into(),
                    by: Bytes::from_static(b"\x01"),
                    wide: 42
                }
            ),
            (
                "empties_none_max",
                Combos {
                    inner: inner("", 0),
                    maybe: None,
                    bx: "".into(),
                    by: Bytes::new(),
                    wide: u128::MAX
                }
            ),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// #[reverse_ts] and #[reverse]

#[derive(RowKey, Debug)]
struct RtsI64 {
    host: u8,
    #[reverse_ts]
    at: i64,
}
#[derive(RowKey, Debug)]
struct RtsU64 {
    host: u8,
    #[reverse_ts]
    at: u64,
}
#[derive(RowKey, Debug)]
struct RtsI32 {
    host: u8,
    #[reverse_ts]
    at: i32,
}
#[derive(RowKey, Debug)]
struct RtsDesc {
    host: u8,
    #[desc]
    #[reverse_ts]
    at: i64,
}

#[derive(RowKey, Debug)]
struct RevU32(#[reverse] u32);
#[derive(RowKey, Debug)]
struct RevI16(#[reverse] i16);
#[derive(RowKey, Debug)]
struct RevU64Dec(
    #[reverse]
    #[pad(11)]
    u64,
);
#[derive(RowKey, Debug)]
struct RevStr(
    #[reverse]
    #[pad(8)]
    String,
    u8,
);
#[derive(RowKey, Debug)]
struct RevStrSpace(
    #[reverse]
    #[pad(6, fill = b' ')]
    String,
    u8,
);
#[derive(RowKey, Debug)]
struct RevArr(#[reverse] [u8; 3]);
#[derive(RowKey, Debug)]
struct RevVec(
    #[reverse]
    #[pad(4)]
    Vec<u8>,
    u8,
);
#[derive(RowKey, Debug)]
struct RevU32Desc(
    #[reverse]
    #[desc]
    u32,
);

/// Two `#[reverse_ts]` fields, `i64` and `u64`.
#[derive(RowKey, Debug)]
struct RtsTwo {
    host: u8,
    #[reverse_ts]
    ts: i64,
    #[reverse_ts]
    ts_u: u64,
}

/// `#[reverse]` on every kind of field: integer bytes, decimal digits, characters, array bytes.
#[derive(RowKey, Debug)]
struct RevMixed {
    #[reverse]
    a: u32,
    #[reverse]
    #[pad(11)]
    phone: u64,
    #[reverse]
    #[pad(8)]
    name: String,
    #[reverse]
    arr: [u8; 3],
    #[reverse]
    s: i16,
}

fn time_and_reverse(c: &mut Corpus) {
    c.group("reverse");
    let ts = [
        ("zero", 0i64),
        ("one", 1),
        ("ms_2023", 1_700_000_000_000),
        ("i64_max", i64::MAX),
    ];
    keys!(
        c,
        "reverse_ts_i64",
        RtsI64,
        ts.map(|(n, at)| (n, RtsI64 { host: 1, at }))
    );
    keys!(
        c,
        "reverse_ts_desc",
        RtsDesc,
        ts.map(|(n, at)| (n, RtsDesc { host: 1, at }))
    );
    keys!(
        c,
        "reverse_ts_u64",
        RtsU64,
        [
            ("zero", 0u64),
            ("ms_2023", 1_700_000_000_000),
            ("i64_max", i64::MAX as u64)
        ]
        .map(|(n, at)| (n, RtsU64 { host: 2, at }))
    );
    keys!(
        c,
        "reverse_ts_i32",
        RtsI32,
        [
            ("zero", 0i32),
            ("secs_2023", 1_700_000_000),
            ("i32_max", i32::MAX)
        ]
        .map(|(n, at)| (n, RtsI32 { host: 3, at }))
    );

    wrap!(
        c,
        "reverse_u32",
        RevU32,
        [
            ("zero", 0u32),
            ("0x01020304", 0x0102_0304),
            ("max", u32::MAX)
        ]
    );
    wrap!(
        c,
        "reverse_u32_desc",
        RevU32Desc,
        [("zero", 0u32), ("0x01020304", 0x0102_0304)]
    );
    wrap!(
        c,
        "reverse_i16",
        RevI16,
        [
            ("min", i16::MIN),
            ("minus_2", -2),
            ("zero", 0),
            ("0x0102", 0x0102)
        ]
    );
    wrap!(
        c,
        "reverse_pad11_u64",
        RevU64Dec,
        [
            ("zero", 0u64),
            ("42", 42),
            ("phone", 13_812_345_678),
            ("max", 99_999_999_999)
        ]
    );
    keys!(
        c,
        "reverse_pad8_string",
        RevStr,
        [
            ("empty", RevStr(String::new(), 0)),
            ("ab_e_acute", RevStr("abé".into(), 0)),
            ("full_8", RevStr("abcdefgh".into(), 0)),
            ("a_00_b", RevStr("a\0b".into(), 0)),
        ]
    );
    keys!(
        c,
        "reverse_pad6_space_string",
        RevStrSpace,
        [
            ("empty", RevStrSpace(String::new(), 0)),
            ("abc", RevStrSpace("abc".into(), 0)),
            ("a_space_b", RevStrSpace("a b".into(), 0)),
        ]
    );
    wrap!(
        c,
        "reverse_arr3",
        RevArr,
        [
            ("010203", [1u8, 2, 3]),
            ("zeros", [0; 3]),
            ("ff_00_01", [0xff, 0, 1])
        ]
    );
    keys!(
        c,
        "reverse_pad4_vec",
        RevVec,
        [
            ("empty", RevVec(vec![], 0)),
            ("010203", RevVec(vec![1, 2, 3], 0)),
            ("ff", RevVec(vec![0xff], 0)),
        ]
    );
    keys!(
        c,
        "reverse_ts_i64_u64",
        RtsTwo,
        [
            (
                "ms_2023_5",
                RtsTwo {
                    host: 1,
                    ts: 1_700_000_000_000,
                    ts_u: 5
                }
            ),
            (
                "zero_i64_max",
                RtsTwo {
                    host: 1,
                    ts: 0,
                    ts_u: i64::MAX as u64
                }
            ),
        ]
    );
    keys!(
        c,
        "reverse_mixed",
        RevMixed,
        [
            (
                "typical",
                RevMixed {
                    a: 0x0102_0304,
                    phone: 13_812_345_678,
                    name: "abé".into(),
                    arr: [1, 2, 3],
                    s: -2
                }
            ),
            (
                "zeros_phone_42",
                RevMixed {
                    a: 0,
                    phone: 42,
                    name: String::new(),
                    arr: [0; 3],
                    s: 0
                }
            ),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Java interop

#[derive(RowKey, Debug)]
struct JavaI8(#[rowkey(java)] i8);
#[derive(RowKey, Debug)]
struct JavaI16(#[rowkey(java)] i16);
#[derive(RowKey, Debug)]
struct JavaI32(#[rowkey(java)] i32);
#[derive(RowKey, Debug)]
struct JavaI64(#[rowkey(java)] i64);
#[derive(RowKey, Debug)]
struct JavaI128(#[rowkey(java)] i128);
#[derive(RowKey, Debug)]
struct JavaU32(#[rowkey(java)] u32);
#[derive(RowKey, Debug)]
struct JavaF32(#[rowkey(java)] f32);
#[derive(RowKey, Debug)]
struct JavaF64(#[rowkey(java)] f64);
#[derive(RowKey, Debug)]
struct JavaBool(#[rowkey(java)] bool);
#[derive(RowKey, Debug)]
struct JavaI32Desc(
    #[rowkey(java)]
    #[desc]
    i32,
);
#[derive(RowKey, Debug)]
struct JavaBoolDesc(
    #[rowkey(java)]
    #[desc]
    bool,
);

#[derive(RowKey, Debug)]
struct JavaField {
    #[rowkey(java)]
    a: i32,
    b: i32,
    #[rowkey(java)]
    flag: bool,
}

#[derive(RowKey, Debug)]
#[rowkey(java)]
struct JavaAll {
    i: i16,
    l: i64,
    u: u32,
    f: f64,
    g: f32,
    flag: bool,
    ch: char,
    #[sep]
    s: String,
    o: Option<i32>,
    #[desc]
    d: i32,
}

/// A `#[rowkey(java)]` key without `char` and `#[desc]` fields.
#[derive(RowKey, Debug)]
#[rowkey(java)]
struct JavaEight {
    i: i16,
    l: i64,
    u: u32,
    f: f64,
    g: f32,
    flag: bool,
    #[sep]
    s: String,
    o: Option<i32>,
}

fn java(c: &mut Corpus) {
    c.group("java");
    let java_signed = |min: i128, max: i128| {
        [
            ("min", min),
            ("minus_1", -1),
            ("zero", 0),
            ("one", 1),
            ("max", max),
        ]
    };
    let it = java_signed(i8::MIN.into(), i8::MAX.into());
    wrap!(c, "java_i8", JavaI8, it.map(|(n, v)| (n, v as i8)));
    let it = java_signed(i16::MIN.into(), i16::MAX.into());
    wrap!(c, "java_i16", JavaI16, it.map(|(n, v)| (n, v as i16)));
    let it = java_signed(i32::MIN.into(), i32::MAX.into());
    wrap!(c, "java_i32", JavaI32, it.map(|(n, v)| (n, v as i32)));
    wrap!(
        c,
        "java_i32_desc",
        JavaI32Desc,
        it.map(|(n, v)| (n, v as i32))
    );
    let it = java_signed(i64::MIN.into(), i64::MAX.into());
    wrap!(c, "java_i64", JavaI64, it.map(|(n, v)| (n, v as i64)));
    wrap!(c, "java_i128", JavaI128, java_signed(i128::MIN, i128::MAX));
    wrap!(
        c,
        "java_u32",
        JavaU32,
        [
            ("zero", 0u32),
            ("0x80000000", 0x8000_0000),
            ("max", u32::MAX)
        ]
    );
    wrap!(
        c,
        "java_f32",
        JavaF32,
        [
            ("minus_1", -1.0f32),
            ("minus_zero", -0.0),
            ("zero", 0.0),
            ("one_5", 1.5),
            ("inf", f32::INFINITY),
            ("nan", f32::NAN)
        ]
    );
    wrap!(
        c,
        "java_f64",
        JavaF64,
        [
            ("neg_inf", f64::NEG_INFINITY),
            ("minus_1", -1.0f64),
            ("minus_zero", -0.0),
            ("zero", 0.0),
            ("subnormal_min", f64::from_bits(1)),
            ("max", f64::MAX),
            ("nan", f64::NAN)
        ]
    );
    wrap!(c, "java_bool", JavaBool, [("false", false), ("true", true)]);
    wrap!(
        c,
        "java_bool_desc",
        JavaBoolDesc,
        [("false", false), ("true", true)]
    );
    keys!(
        c,
        "java_field",
        JavaField,
        [
            (
                "minus_1",
                JavaField {
                    a: -1,
                    b: -1,
                    flag: true
                }
            ),
            (
                "one",
                JavaField {
                    a: 1,
                    b: 1,
                    flag: false
                }
            ),
        ]
    );
    keys!(
        c,
        "java_container",
        JavaAll,
        [
            (
                "negatives",
                JavaAll {
                    i: -2,
                    l: i64::MIN,
                    u: 5,
                    f: -1.0,
                    g: 1.5,
                    flag: true,
                    ch: 'é',
                    s: "s".into(),
                    o: Some(-7),
                    d: -1
                }
            ),
            (
                "zeros",
                JavaAll {
                    i: 0,
                    l: 0,
                    u: 0,
                    f: 0.0,
                    g: -0.0,
                    flag: false,
                    ch: '\0',
                    s: String::new(),
                    o: None,
                    d: 0
                }
            ),
        ]
    );
    keys!(
        c,
        "java_container_eight_fields",
        JavaEight,
        [(
            "negatives",
            JavaEight {
                i: -2,
                l: i64::MIN,
                u: 5,
                f: -1.0,
                g: 1.5,
                flag: true,
                s: "s".into(),
                o: Some(-7)
            }
        )]
    );
}

// ---------------------------------------------------------------------------------------------
// salt

/// Phoenix: the salted prefix is the whole key.
#[derive(RowKey, Debug)]
struct SaltField16 {
    #[salt(buckets = 16)]
    host: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 16))]
struct SaltWhole16 {
    host: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 16))]
struct SaltWholeSep {
    #[sep]
    host: String,
    port: u16,
}

/// The salted prefix is the first field; the rest is not hashed.
#[derive(RowKey, Debug)]
struct SaltPrefix {
    #[salt(buckets = 16)]
    seller_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

/// The salted prefix ends at a later field.
#[derive(RowKey, Debug)]
struct SaltLater {
    #[sep]
    tenant: String,
    #[salt(buckets = 16)]
    #[sep]
    host: String,
    seq: u32,
}

#[derive(RowKey, Debug)]
struct SaltDesc {
    #[salt(buckets = 32)]
    #[desc]
    n: u16,
    tail: u8,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 1))]
struct Salt1 {
    id: u32,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 20))]
struct Salt20 {
    s: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 256))]
struct Salt256 {
    host: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 257))]
struct Salt257 {
    host: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 1000))]
struct Salt1000 {
    host: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 1000))]
struct Salt1000Id {
    id: u32,
}

#[derive(RowKey, Debug)]
struct Salt65536 {
    #[salt(buckets = 65536)]
    host: String,
}

#[derive(RowKey, Debug)]
struct ModuloField {
    #[salt(buckets = 8, modulo)]
    ts: u64,
    #[sep]
    host: String,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 300, modulo))]
struct ModuloWhole300 {
    id: u64,
}

#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 16, modulo))]
struct ModuloWholeU8 {
    id: u8,
}

#[derive(RowKey, Debug)]
struct ModuloDesc {
    #[salt(buckets = 10, modulo)]
    #[desc]
    id: u32,
}

const HOSTS: [(&str, &str); 10] = [
    ("empty", ""),
    ("a", "a"),
    ("host1", "host1"),
    ("host12", "host12"),
    ("host2", "host2"),
    ("has_00", "h\0"),
    ("e_acute", "é"),
    ("long", "the-quick-brown-fox-jumps-over-the-lazy-dog"),
    ("negative_bytes", "\u{7f}\u{80}\u{ff}"),
    ("row_1", "row-1"),
];

fn hosts() -> impl Iterator<Item = (&'static str, String)> {
    HOSTS.iter().map(|(n, h)| (*n, h.to_string()))
}

/// OpenTSDB's row key: the salt hashes the metric and the tags, not the base hour.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 20, fields(metric, tags)), allow_hotspot)]
struct SaltFieldsTsdb {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

/// Phoenix salt over one `#[sep]` field, followed by an unsalted field.
#[derive(RowKey, Debug)]
struct SaltFieldSep {
    #[salt(buckets = 16)]
    #[sep]
    host: String,
    port: u16,
}

/// A salted `#[sep]` field, then `#[desc]` enum, `#[pad]` bytes with a fill and an option.
#[derive(RowKey, Debug)]
struct SaltMetric {
    #[salt(buckets = 16)]
    #[sep]
    host: String,
    #[desc]
    kind: Kind,
    #[pad(4, fill = b'_')]
    code: Vec<u8>,
    ts: Option<u64>,
}

fn salt(c: &mut Corpus) {
    c.group("salt");
    let tsdb = [
        (
            "m1_h0_t1",
            [0, 0, 1],
            0x5e0b_e100u32,
            vec![0, 0, 1, 0, 0, 1],
        ),
        ("m1_h0_t2", [0, 0, 1], 0x5e0b_e100, vec![0, 0, 1, 0, 0, 2]),
        (
            "m1_h1_t1",
            [0, 0, 1],
            0x5e0b_e100 + 3600,
            vec![0, 0, 1, 0, 0, 1],
        ),
        ("m0_h0_none", [0, 0, 0], 0, vec![]),
        ("mff_hmax_ff", [0xFF; 3], u32::MAX, vec![0xFF, 0x00, 0x01]),
    ]
    .map(|(n, metric, base_hour, tags)| {
        (
            n,
            SaltFieldsTsdb {
                metric,
                base_hour,
                tags,
            },
        )
    });
    keys!(c, "salt20_fields_metric_tags", SaltFieldsTsdb, tsdb);
    let it = hosts().take(6).map(|(n, host)| (n, SaltField16 { host }));
    keys!(c, "salt16_phoenix_field", SaltField16, it);
    let it = hosts().map(|(n, host)| (n, SaltWhole16 { host }));
    keys!(c, "salt16_phoenix_whole_key", SaltWhole16, it);
    let it = hosts()
        .take(6)
        .map(|(n, host)| (n, SaltWholeSep { host, port: 8080 }));
    keys!(c, "salt16_whole_key_sep_port", SaltWholeSep, it);
    let host1_80 = SaltWholeSep {
        host: "host1".into(),
        port: 80,
    };
    keys!(
        c,
        "salt16_whole_key_sep_port",
        SaltWholeSep,
        [("host1_port_80", host1_80)]
    );
    let it = [
        ("host12_port_80", "host12", 80u16),
        ("host1_port_81", "host1", 81),
    ]
    .map(|(n, host, port)| {
        (
            n,
            SaltFieldSep {
                host: host.into(),
                port,
            },
        )
    });
    keys!(c, "salt16_field_sep_port", SaltFieldSep, it);
    keys!(
        c,
        "salt16_sep_desc_enum_pad_option",
        SaltMetric,
        [(
            "web1_view_ab_17",
            SaltMetric {
                host: "web1".into(),
                kind: Kind::View,
                code: b"ab".to_vec(),
                ts: Some(17)
            }
        )]
    );
    let it = [("0", 0u64), ("42", 42), ("max", u64::MAX)].map(|(n, seller_id)| {
        (
            n,
            SaltPrefix {
                seller_id,
                created_ms: 1_700_000_000_000,
                order_no: "A-17".into(),
            },
        )
    });
    keys!(c, "salt16_prefix_u64", SaltPrefix, it);
    let it = hosts().take(6).map(|(n, host)| {
        (
            n,
            SaltLater {
                tenant: "t".into(),
                host,
                seq: 7,
            },
        )
    });
    keys!(c, "salt16_through_second_field", SaltLater, it);
    let host1_seq_8 = SaltLater {
        tenant: "t".into(),
        host: "host1".into(),
        seq: 8,
    };
    keys!(
        c,
        "salt16_through_second_field",
        SaltLater,
        [("host1_seq_8", host1_seq_8)]
    );
    let it = [("0", 0u16), ("7", 7), ("max", u16::MAX)].map(|(k, n)| (k, SaltDesc { n, tail: 1 }));
    keys!(c, "salt32_desc_field", SaltDesc, it);
    keys!(
        c,
        "salt1_whole_key",
        Salt1,
        [("0", Salt1 { id: 0 }), ("max", Salt1 { id: u32::MAX })]
    );
    let it = hosts().take(5).map(|(n, s)| (n, Salt20 { s }));
    keys!(c, "salt20_whole_key", Salt20, it);
    let it = hosts().take(6).map(|(n, host)| (n, Salt256 { host }));
    keys!(c, "salt256_whole_key", Salt256, it);
    let it = hosts().take(6).map(|(n, host)| (n, Salt257 { host }));
    keys!(c, "salt257_two_bytes", Salt257, it);
    let it = hosts().take(5).map(|(n, host)| (n, Salt1000 { host }));
    keys!(c, "salt1000_two_bytes", Salt1000, it);
    let it = [
        ("0", 0u32),
        ("1", 1),
        ("max", u32::MAX),
        ("i32_min_bits", 0x8000_0000),
        ("12345", 12_345),
    ]
    .map(|(n, id)| (n, Salt1000Id { id }));
    keys!(c, "salt1000_u32", Salt1000Id, it);
    let it = hosts().take(6).map(|(n, host)| (n, Salt65536 { host }));
    keys!(c, "salt65536_field", Salt65536, it);

    let it = [
        ("zero", 0u64),
        ("ms_2023_3", 1_700_000_000_003),
        ("max", u64::MAX),
    ]
    .map(|(n, ts)| {
        (
            n,
            ModuloField {
                ts,
                host: "h".into(),
            },
        )
    });
    keys!(c, "salt8_modulo_field", ModuloField, it);
    let it = [
        ("0", 0u64),
        ("299", 299),
        ("300", 300),
        ("max", u64::MAX),
        ("301", 301),
    ]
    .map(|(n, id)| (n, ModuloWhole300 { id }));
    keys!(c, "salt300_modulo_whole_key", ModuloWhole300, it);
    let it = [("0", 0u8), ("17", 17), ("max", u8::MAX)].map(|(n, id)| (n, ModuloWholeU8 { id }));
    keys!(c, "salt16_modulo_u8", ModuloWholeU8, it);
    let it = [("0", 0u32), ("13", 13), ("max", u32::MAX)].map(|(n, id)| (n, ModuloDesc { id }));
    keys!(c, "salt10_modulo_desc", ModuloDesc, it);
}

// ---------------------------------------------------------------------------------------------
// hash prefixes

#[derive(RowKey, Debug)]
struct HashHex4Str {
    #[hash_prefix(4)]
    user: String,
}

#[derive(RowKey, Debug)]
struct HashHex32Sep {
    #[hash_prefix(32)]
    #[sep]
    name: String,
    tail: u8,
}

#[derive(RowKey, Debug)]
struct HashHex6U64(#[hash_prefix(6)] u64);

#[derive(RowKey, Debug)]
struct HashRaw4U32(#[hash_prefix(4, raw)] u32);

#[derive(RowKey, Debug)]
struct HashRaw16I32(#[hash_prefix(16, raw)] i32);

#[derive(RowKey, Debug)]
struct HashRaw1Str {
    #[hash_prefix(1, raw)]
    #[pad(6)]
    code: String,
    n: u8,
}

#[derive(RowKey, Debug)]
struct HashHexDesc {
    #[hash_prefix(4)]
    #[desc]
    id: u32,
}

#[derive(RowKey, Debug)]
struct HashThenRest {
    #[hash_prefix(4)]
    #[sep]
    uid: String,
    kind: Kind,
    #[reverse_ts]
    at: i64,
}

#[derive(RowKey, Debug)]
struct SaltOverHash {
    #[hash_prefix(2)]
    #[sep]
    user: String,
    #[salt(buckets = 32)]
    #[desc]
    n: u16,
    #[hash_prefix(8)]
    ch: char,
}

#[derive(RowKey, Debug)]
struct HashHex6Str {
    #[hash_prefix(6)]
    user: String,
}

/// Hex and raw hash prefixes of integers (Java two's-complement plain bytes) and a string.
#[derive(RowKey, Debug)]
struct HashMixed {
    #[hash_prefix(6)]
    id: u64,
    #[hash_prefix(4, raw)]
    small: u32,
    #[hash_prefix(32)]
    #[sep]
    name: String,
    #[hash_prefix(16, raw)]
    neg: i32,
}

fn hashes(c: &mut Corpus) {
    c.group("hash");
    let it = hosts().take(6).map(|(n, user)| (n, HashHex4Str { user }));
    keys!(c, "hash_hex4_string", HashHex4Str, it);
    let it = hosts()
        .take(5)
        .map(|(n, name)| (n, HashHex32Sep { name, tail: 9 }));
    keys!(c, "hash_hex32_sep_string", HashHex32Sep, it);
    wrap!(
        c,
        "hash_hex6_u64",
        HashHex6U64,
        [
            ("zero", 0u64),
            ("one", 1),
            ("12345", 12_345),
            ("max", u64::MAX)
        ]
    );
    wrap!(
        c,
        "hash_raw4_u32",
        HashRaw4U32,
        [("zero", 0u32), ("one", 1), ("max", u32::MAX)]
    );
    wrap!(
        c,
        "hash_raw16_i32",
        HashRaw16I32,
        [
            ("min", i32::MIN),
            ("minus_1", -1i32),
            ("zero", 0),
            ("max", i32::MAX)
        ]
    );
    let it = [("empty", ""), ("abc", "abc"), ("full_6", "abcdef")].map(|(k, s)| {
        (
            k,
            HashRaw1Str {
                code: s.into(),
                n: 3,
            },
        )
    });
    keys!(c, "hash_raw1_pad6_string", HashRaw1Str, it);
    let it = [("zero", 0u32), ("one", 1), ("max", u32::MAX)].map(|(n, id)| (n, HashHexDesc { id }));
    keys!(c, "hash_hex4_desc_u32", HashHexDesc, it);
    let it = [("u1", "u1"), ("empty", ""), ("has_01", "u\x01")].map(|(n, uid)| {
        (
            n,
            HashThenRest {
                uid: uid.into(),
                kind: Kind::View,
                at: 1_700_000_000_000,
            },
        )
    });
    keys!(c, "hash_hex4_then_enum_reverse_ts", HashThenRest, it);
    keys!(
        c,
        "hash_hex6_string",
        HashHex6Str,
        [(
            "foo0001",
            HashHex6Str {
                user: "foo0001".into()
            }
        )]
    );
    keys!(
        c,
        "hash_mixed",
        HashMixed,
        [(
            "42_7_user42_minus_5",
            HashMixed {
                id: 42,
                small: 7,
                name: "user42".into(),
                neg: -5
            }
        )]
    );
    keys!(
        c,
        "salt32_over_hash",
        SaltOverHash,
        [
            (
                "bob",
                SaltOverHash {
                    user: "bob".into(),
                    n: 7,
                    ch: 'é'
                }
            ),
            (
                "empty",
                SaltOverHash {
                    user: String::new(),
                    n: 0,
                    ch: '\0'
                }
            ),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// borrowed fields, max_len

#[derive(RowKey, Debug)]
struct BorrowedStrLast<'a> {
    id: u16,
    name: &'a str,
}

#[derive(RowKey, Debug)]
struct BorrowedSliceLast<'a> {
    id: u16,
    raw: &'a [u8],
}

#[derive(RowKey, Debug)]
struct Borrowed<'a> {
    #[sep]
    name: &'a str,
    #[pad(4)]
    code: &'a [u8],
    #[pad(6, fill = b' ')]
    label: &'a str,
    #[sep]
    raw: &'a [u8],
    tail: &'a [u8],
}

#[derive(RowKey, Debug)]
struct BorrowedSalted<'a> {
    #[salt(buckets = 16)]
    #[sep]
    host: &'a str,
    #[hash_prefix(4)]
    user: &'a str,
}

/// A borrowed string and a borrowed slice as the last field after a `u8`.
#[derive(RowKey, Debug)]
struct BorrowedStrAfterU8<'a> {
    id: u8,
    s: &'a str,
}
#[derive(RowKey, Debug)]
struct BorrowedSliceAfterU8<'a> {
    id: u8,
    b: &'a [u8],
}

#[derive(RowKey, Debug)]
#[rowkey(max_len = 10)]
struct Budget {
    id: u32,
    #[sep]
    name: String,
}

#[derive(RowKey, Debug)]
#[rowkey(max_len = 12)]
struct FixedBudget {
    id: u32,
    at: u64,
}

fn borrowed_and_limits(c: &mut Corpus) {
    c.group("borrowed");
    let it = [
        ("empty", ""),
        ("a", "a"),
        ("has_00_01", "a\0\x01"),
        ("utf8", "日本"),
    ]
    .map(|(n, name)| (n, BorrowedStrLast { id: 1, name }));
    keys!(c, "borrowed_str_last", BorrowedStrLast, it);
    let it = [
        ("empty", &b""[..]),
        ("00", b"\0"),
        ("ff_00_01", b"\xff\0\x01"),
    ]
    .map(|(n, raw)| (n, BorrowedSliceLast { id: 2, raw }));
    keys!(c, "borrowed_slice_last", BorrowedSliceLast, it);
    keys!(
        c,
        "borrowed_mixed",
        Borrowed,
        [
            (
                "typical",
                Borrowed {
                    name: "alice",
                    code: b"ab",
                    label: "x y",
                    raw: b"\xff\xfe",
                    tail: b"\0tail\xff"
                }
            ),
            (
                "empties",
                Borrowed {
                    name: "",
                    code: b"",
                    label: "",
                    raw: b"",
                    tail: b""
                }
            ),
            (
                "full_pads",
                Borrowed {
                    name: "n",
                    code: b"\x01\x00\x02\x03",
                    label: "abcdef",
                    raw: b"\x02",
                    tail: b"\x01"
                }
            ),
        ]
    );
    keys!(
        c,
        "borrowed_salted_hashed",
        BorrowedSalted,
        [
            (
                "host1_bob",
                BorrowedSalted {
                    host: "host1",
                    user: "bob"
                }
            ),
            ("empty", BorrowedSalted { host: "", user: "" }),
        ]
    );
    keys!(
        c,
        "borrowed_str_after_u8",
        BorrowedStrAfterU8,
        [("a_00_b", BorrowedStrAfterU8 { id: 5, s: "a\0b" })]
    );
    keys!(
        c,
        "borrowed_slice_after_u8",
        BorrowedSliceAfterU8,
        [(
            "00_ff",
            BorrowedSliceAfterU8 {
                id: 6,
                b: b"\x00\xff"
            }
        )]
    );

    c.group("max_len");
    keys!(
        c,
        "max_len10_sep",
        Budget,
        [
            (
                "empty",
                Budget {
                    id: 1,
                    name: String::new()
                }
            ),
            (
                "at_limit",
                Budget {
                    id: 1,
                    name: "abcde".into()
                }
            ),
        ]
    );
    keys!(
        c,
        "max_len12_fixed",
        FixedBudget,
        [
            (
                "max",
                FixedBudget {
                    id: u32::MAX,
                    at: u64::MAX
                }
            ),
            ("1_2", FixedBudget { id: 1, at: 2 }),
        ]
    );
}

fn build(c: &mut Corpus) {
    ints(c);
    scalars(c);
    strings(c);
    byte_fields(c);
    decimals(c);
    options(c);
    enums(c);
    nested(c);
    time_and_reverse(c);
    java(c);
    salt(c);
    hashes(c);
    borrowed_and_limits(c);
}
