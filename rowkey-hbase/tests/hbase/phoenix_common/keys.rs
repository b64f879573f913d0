// Shared by tests/hbase/phoenix_golden.rs and tests/hbase/phoenix_scans.rs, which `include!` it after
// rows.rs: the tables of rows.rs as `#[derive(RowKey)]` key types in the Phoenix key mode
// (`#[rowkey(phoenix)]`), and the way between them and the dynamic rows (`V`).

use rowkey::phoenix::PhoenixKey;
use rowkey::{DecodeRowKeyOwned, RowKey};

/// A field type as one dynamic value of rows.rs.
trait FromV: Sized {
    fn from_v(v: &V) -> Self;
    fn to_v(&self) -> V;
}

macro_rules! from_v {
    ($($t:ty => $var:ident),* $(,)?) => {$(
        impl FromV for $t {
            fn from_v(v: &V) -> Self {
                match v {
                    V::$var(x) => x.clone(),
                    other => panic!("{other:?} is not a {}", stringify!($t)),
                }
            }
            fn to_v(&self) -> V {
                V::$var(self.clone())
            }
        }
    )*};
}

from_v!(
    i8 => I8, i16 => I16, i32 => I32, i64 => I64,
    u8 => U8, u16 => U16, u32 => U32, u64 => U64,
    f32 => F32, f64 => F64, bool => Bool,
    String => Str, Option<String> => NStr, Char<4> => Char, [u8; 3] => Bin,
    Option<Vec<u8>> => NBytes, BigDecimal => Dec, Option<BigDecimal> => NDec,
    Date => Date, Time => Time, Timestamp => Ts, DateTime<Utc> => Chrono,
);

/// A derived Phoenix key type of one of rows.rs's tables.
#[allow(dead_code)] // `TABLE` is read by tests/hbase/phoenix_scans.rs only
trait KeyRow: RowKey + DecodeRowKeyOwned + PhoenixKey + Clone + std::fmt::Debug {
    /// Its table in rows.rs.
    const TABLE: &'static str;
    fn from_values(v: &[V]) -> Self;
    fn values(&self) -> Vec<V>;
}

macro_rules! key_row {
    ($name:ident, $table:literal, [$($attr:tt)*], { $( $(#[$fa:meta])* $f:ident : $t:ty ),* $(,)? }) => {
        #[derive(RowKey, Debug, Clone)]
        #[rowkey(phoenix $($attr)*)]
        struct $name {
            $( $(#[$fa])* $f: $t ),*
        }
        impl KeyRow for $name {
            const TABLE: &'static str = $table;
            fn from_values(v: &[V]) -> Self {
                let mut it = v.iter();
                $name { $( $f: <$t as FromV>::from_v(it.next().expect("a value per column")) ),* }
            }
            fn values(&self) -> Vec<V> {
                vec![$( self.$f.to_v() ),*]
            }
        }
    };
}

key_row!(Ints, "RKT_INTS", [], { a: i8, #[desc] b: i16, c: i32, #[desc] d: i64, e: String });
key_row!(IntsSalted, "RKT_INTS_SALTED", [, salt(buckets = 8)], {
    #[desc] a: i8, b: i16, #[desc] c: i32, d: i64, #[desc] e: Option<String>,
});
key_row!(Unsigned, "RKT_UNSIGNED", [], { a: u8, #[desc] b: u16, c: u32, #[desc] d: u64 });
key_row!(UnsignedSalted, "RKT_UNSIGNED_SALTED", [, salt(buckets = 4)], {
    #[desc] a: u8, b: u16, #[desc] c: u32, d: u64,
});
key_row!(Floats, "RKT_FLOATS", [], {
    a: bool, b: f64, #[desc] c: f32, #[desc] d: Option<String>, #[desc] e: f64,
});
key_row!(FloatsSalted, "RKT_FLOATS_SALTED", [, salt(buckets = 16)], {
    #[desc] a: bool, b: f32, #[desc] c: f64, d: Option<String>, #[desc] e: f32,
});
key_row!(Text, "RKT_TEXT", [], {
    a: String, #[desc] b: Char<4>, c: [u8; 3], #[desc] d: Option<String>, e: Option<String>,
});
key_row!(TextSalted, "RKT_TEXT_SALTED", [, salt(buckets = 3)], {
    a: Char<4>, #[desc] b: String, #[desc] c: [u8; 3], d: Option<String>, e: Option<Vec<u8>>,
});
key_row!(Decimal, "RKT_DECIMAL", [], {
    a: BigDecimal, #[desc] b: Option<BigDecimal>, c: i32, d: Option<BigDecimal>,
});
key_row!(DecimalSalted, "RKT_DECIMAL_SALTED", [, salt(buckets = 5)], {
    #[desc] a: BigDecimal, b: Option<String>, #[desc] c: Option<BigDecimal>,
});
key_row!(Times, "RKT_TIME", [], {
    a: Date, #[desc] b: Time, c: Timestamp, #[desc] d: DateTime<Utc>, e: Option<Vec<u8>>,
});
key_row!(TimesSalted, "RKT_TIME_SALTED", [, salt(buckets = 6)], {
    #[desc] a: Timestamp, #[desc] b: Date, c: Time, d: DateTime<Utc>,
});

/// What the derived key of `table` makes of `row`: its encoding, and the decoding of `key`
/// (`None`: no derived key type for the table).
#[allow(clippy::type_complexity)]
fn derived(
    table: &str,
    row: &[V],
    key: &[u8],
) -> Option<(Result<Vec<u8>, EncodeError>, Result<Vec<V>, DecodeError>)> {
    fn run<K: KeyRow>(row: &[V], key: &[u8]) -> (Result<Vec<u8>, EncodeError>, Result<Vec<V>, DecodeError>) {
        let enc = K::from_values(row).to_row_key().map(|b| b.to_vec());
        let dec = K::from_row_key(key).map(|k| k.values());
        (enc, dec)
    }
    Some(match table {
        "RKT_INTS" => run::<Ints>(row, key),
        "RKT_INTS_SALTED" => run::<IntsSalted>(row, key),
        "RKT_UNSIGNED" => run::<Unsigned>(row, key),
        "RKT_UNSIGNED_SALTED" => run::<UnsignedSalted>(row, key),
        "RKT_FLOATS" => run::<Floats>(row, key),
        "RKT_FLOATS_SALTED" => run::<FloatsSalted>(row, key),
        "RKT_TEXT" => run::<Text>(row, key),
        "RKT_TEXT_SALTED" => run::<TextSalted>(row, key),
        "RKT_DECIMAL" => run::<Decimal>(row, key),
        "RKT_DECIMAL_SALTED" => run::<DecimalSalted>(row, key),
        "RKT_TIME" => run::<Times>(row, key),
        "RKT_TIME_SALTED" => run::<TimesSalted>(row, key),
        _ => return None,
    })
}
