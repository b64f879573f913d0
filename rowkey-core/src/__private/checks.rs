//! Compile-time checks: traits the generated code requires and nothing (or only the right
//! case) implements, so that a misuse fails with the trait's message. `Key` is the key type and
//! `Field` a marker type named after the field.

/// `Bool<B>` implements a generated "is delimited" trait only for `true`: a compile-time check
/// whose failure is a normal trait error with the derive's message.
pub struct Bool<const B: bool>;

/// A range over a nested key field: implemented only when `EXACT`, the nested key's
/// `Codec::RANGE_EXACT` (its bounds encode whole into the one byte range of its values).
#[diagnostic::on_unimplemented(
    message = "rowkey: no range scan on `{Field}` of `{Key}`: the nested key's bytes do not sort as its values, so a range of its values is not one byte range",
    label = "this range would return wrong rows",
    note = "a range over a nested key needs each of its fields ascending and fully encodable (no #[desc], #[reverse_ts], #[rowkey(java)], #[hash_prefix], #[reverse], custom separator or #[pad] fill other than 0x00) and no salt; fix `{Field}` by equality (`.{Field}(v)`), or give the nested key plain encodings (#[sep] for strings)"
)]
pub trait NestedRangeExact<Key: ?Sized, Field, const EXACT: bool> {}
impl<R: ?Sized, Key: ?Sized, Field> NestedRangeExact<Key, Field, true> for R {}

// Scan misuse: the typed builder offers the method names users try, with an argument bound that
// nothing implements, so the compiler answers with why the scan is refused and what to do.
// `Key` is the key type and `Field` a marker type named after the field.

#[diagnostic::on_unimplemented(
    message = "rowkey: no range scan on `{Field}` of `{Key}`: #[hash_prefix] puts a hash of the value first, so a range of values is scattered over the whole key space and no byte range holds it",
    label = "this range would return wrong rows",
    note = "fix `{Field}` by equality (`.{Field}(v)`: one hash, one range), scan each value separately, or keep an index table keyed by `{Field}` without the hash"
)]
pub trait NoRangeOnHashed<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no range scan on `{Field}` of `{Key}`: #[reverse] stores its bytes reversed, so neighbouring values are far apart in key order",
    label = "this range would return wrong rows",
    note = "fix `{Field}` by equality (`.{Field}(v)`), or drop #[reverse] if range scans matter more than spreading writes"
)]
pub trait NoRangeOnReversed<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no range scan on `{Field}` of `{Key}`: a custom separator #[sep(b'..')] orders only content bytes above it, so a value range is not one byte range",
    label = "this range would return wrong rows",
    note = "use `.{Field}_starts_with(p)` or equality (`.{Field}(v)`), or the default #[sep] (escaped, order-preserving for every value)"
)]
pub trait NoRangeOnCustomSeparator<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no range scan on `{Field}` of `{Key}`: #[pad(N, fill = ..)] with a fill byte other than 0x00 stores a short value followed by the fill, so a value that continues with bytes below the fill sorts before the shorter value (with fill b' ', `\\t` is stored `\\t ` and sorts before the empty value, stored `  `) and a range of values is not one byte range",
    label = "this range would return wrong rows",
    note = "fix `{Field}` by equality (`.{Field}(v)`), list its values (`.{Field}_in(values)`) or, on a field that is not an `Option`, use `.{Field}_starts_with(p)`; or pad with 0x00 (`#[pad(N)]`), which keeps the value order for every content"
)]
pub trait NoRangeOnPadFill<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no range scan on `{Field}` of `{Key}`: in this Phoenix key its bytes do not sort as its values (a CHAR(N) column compares padded with spaces; a DESC variable-width column of a table without rowKeyOrderOptimizable sorts a value before its extensions)",
    label = "this range would return wrong rows",
    note = "fix `{Field}` by equality (`.{Field}(v)`) or list its values (`.{Field}_in(values)`)"
)]
pub trait NoRangeOnPhoenixUnordered<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no range scan on `{Field}` of `{Key}`: in this Bigtable struct key its bytes do not sort as its values (a BigEndianBytes Int64/Timestamp sorts negative values last; a delimited String/Bytes field that is not the last sorts a value after its extensions that continue below the delimiter)",
    label = "this range would return wrong rows",
    note = "fix `{Field}` by equality (`.{Field}(v)`), list its values (`.{Field}_in(values)`) or, for strings and bytes, use `.{Field}_starts_with(p)`; or use bigtable(ordered_code) without big_endian, where every field sorts"
)]
pub trait NoRangeOnStructUnordered<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no starts-with scan on `{Field}` of `{Key}`: a DESC variable-width column of a Phoenix table without rowKeyOrderOptimizable does not keep a value's extensions together",
    label = "this scan would return wrong rows",
    note = "fix `{Field}` by equality (`.{Field}(v)`) or list its values (`.{Field}_in(values)`)"
)]
pub trait NoStartsWithOnPhoenixUnordered<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no starts-with scan on `{Field}` of `{Key}`: starts-with applies to string and bytes fields (and an `Option` of one)",
    label = "`{Field}` is not a string or bytes field",
    note = "use `.{Field}_range(r)` for a range of values or `.{Field}(v)` for equality"
)]
pub trait NoStartsWithOnNonContent<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no starts-with scan on `{Field}` of `{Key}`: #[hash_prefix] puts a hash of the whole value first, so values sharing a prefix share no key bytes",
    label = "this scan would return wrong rows",
    note = "fix `{Field}` by equality (`.{Field}(v)`)"
)]
pub trait NoStartsWithOnHashed<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: no starts-with scan on `{Field}` of `{Key}`: #[reverse] stores the content reversed, so values sharing a prefix share no leading key bytes",
    label = "this scan would return wrong rows",
    note = "fix `{Field}` by equality (`.{Field}(v)`)"
)]
pub trait NoStartsWithOnReversed<Key: ?Sized, Field> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: `{Key}::scan()` fixes fields in key order, and `{Later}` comes after `{Earlier}`, which is not fixed yet: keys with `{Later}` fixed but `{Earlier}` free are spread over the whole table, not one range",
    label = "`{Earlier}` is skipped",
    note = "fix `{Earlier}` first: by a value (`.{Earlier}(v)`), by a list of values (`.{Earlier}_in(values)`, one range per value), or by every value of a finite domain (`.{Earlier}_any()` on a bool or fieldless enum); or scan an index table whose key starts with `{Later}`"
)]
pub trait NoSkippedField<Key: ?Sized, Later, Earlier> {}

#[diagnostic::on_unimplemented(
    message = "rowkey: nothing can follow a range or starts-with in a `{Key}` scan: the keys it selects hold every value of the later fields, so `{Field}` cannot narrow them to one byte range",
    label = "the scan already ended",
    note = "call `.ranges()` and filter rows in code, or fix the ranged field by equality and constrain `{Field}` instead"
)]
pub trait NothingAfterRange<Key: ?Sized, Field> {}

// One mechanism per key for the two misuses that name another field (a skipped field, a field
// after a range): each stage dereferences to the key's `Misuse<F, S>`, which has the three
// method names of field `F` and dereferences on to `Misuse<F::Next, S>`, so that the method
// names of every later field are found, once each, down one chain. `S` says where the chain
// stands, and `Refused<S, F>` picks the message.

/// Stage kind: field `Earlier` is the next to fix.
pub struct Skipping<Earlier>(core::marker::PhantomData<Earlier>);
/// Stage kind: the scan ended with a range or starts-with.
pub struct Ended;

/// The field after a field marker, for the misuse chain.
pub trait NextField {
    type Next;
}

/// What a misused method returns (it never compiles in a call): `.ranges()` exists, so that the
/// refused call is the only error.
pub struct Misused;

impl Misused {
    pub fn ranges(self) -> crate::ScanRanges {
        crate::ScanRanges::default()
    }
}

/// Compile-time check that a non-last nested key field marks its own end: `Bool<PREFIX_FREE>`
/// must implement it, which only `Bool<true>` does.
#[diagnostic::on_unimplemented(
    message = "rowkey: field `{Field}` of `{Key}` is not the last field, but its type `{Nested}` does not mark its own end (a nested key whose last field is variable-length and unterminated)",
    label = "`{Nested}` is not self-delimiting",
    note = "a prefix scan for `web1` would also return `web12`, and keys could not be decoded: give the last field of `{Nested}` #[sep] or #[pad(N)], or move `{Field}` last"
)]
pub trait SelfDelimited<Key: ?Sized, Field, Nested: ?Sized> {}
impl<Key: ?Sized, Field, Nested: ?Sized> SelfDelimited<Key, Field, Nested> for Bool<true> {}
