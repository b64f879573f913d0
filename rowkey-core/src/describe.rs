//! `describe`: a field-by-field, human-readable view of a key. Decoding reports each part of a
//! key to a [`Visit`]or: [`NoVisit`] for `from_row_key`, a recorder for `describe` and the key
//! tool. Positions are byte offsets in the key being decoded.
//!
//! Not public API: reached by generated code through `rowkey::__private`.
#![allow(missing_docs)]

/// Called by decode after each part of a key; a no-op for `from_row_key`, a recorder for
/// `describe`. Positions are byte offsets in the key being decoded.
pub trait Visit {
    /// The layout's constant prefix, checked, at `at`.
    fn prefix(&mut self, prefix: &'static [u8], at: usize);
    /// The salt `salt`, stored in `at..end`.
    fn salt(&mut self, salt: u32, at: usize, end: usize);
    /// A field decoded, ending at `end` (it starts where the previous part ended).
    fn field(&mut self, name: &'static str, end: usize, value: &dyn Show);
}

/// The visitor of `from_row_key`: does nothing.
pub struct NoVisit;

impl Visit for NoVisit {
    #[inline(always)]
    fn prefix(&mut self, _: &'static [u8], _: usize) {}
    #[inline(always)]
    fn salt(&mut self, _: u32, _: usize, _: usize) {}
    #[inline(always)]
    fn field(&mut self, _: &'static str, _: usize, _: &dyn Show) {}
}

/// Human-readable rendering of a field value for `describe`.
#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` is not a row-key field type",
    note = "field types must be integers, bool, char, f32/f64, [u8; N], strings/bytes, Option of those, or types deriving RowKey"
)]
pub trait Show {
    fn show(&self, out: &mut String);
}

macro_rules! show_debug {
    ($($t:ty),*) => {$(
        impl Show for $t {
            fn show(&self, out: &mut String) {
                use core::fmt::Write;
                let _ = write!(out, "{self:?}");
            }
        }
    )*};
}
show_debug!(
    u8,
    u16,
    u32,
    u64,
    u128,
    i8,
    i16,
    i32,
    i64,
    i128,
    bool,
    char,
    f32,
    f64,
    String,
    Box<str>,
    &str
);

fn show_bytes(b: &[u8], out: &mut String) {
    out.push_str("b\"");
    out.push_str(&crate::hbase::to_string_binary(b));
    out.push('"');
}

impl Show for Vec<u8> {
    fn show(&self, out: &mut String) {
        show_bytes(self, out);
    }
}
impl Show for &[u8] {
    fn show(&self, out: &mut String) {
        show_bytes(self, out);
    }
}
impl Show for bytes::Bytes {
    fn show(&self, out: &mut String) {
        show_bytes(self, out);
    }
}
impl<const N: usize> Show for [u8; N] {
    fn show(&self, out: &mut String) {
        show_bytes(self, out);
    }
}
impl<T: Show> Show for Option<T> {
    fn show(&self, out: &mut String) {
        match self {
            None => out.push_str("None"),
            Some(v) => {
                out.push_str("Some(");
                v.show(out);
                out.push(')');
            }
        }
    }
}

/// The [`Visit`] behind `describe`: the fields shown so far and where the last one ended.
#[derive(Default)]
pub(crate) struct Describer {
    pub(crate) out: String,
    pub(crate) end: usize,
}

impl Visit for Describer {
    fn prefix(&mut self, prefix: &'static [u8], at: usize) {
        self.end = at + prefix.len();
    }
    fn salt(&mut self, salt: u32, _: usize, end: usize) {
        use core::fmt::Write;
        // after a tagged enum's `variant=…`: a space between (issue 23 item 5)
        if !self.out.is_empty() {
            self.out.push(' ');
        }
        let _ = write!(self.out, "salt={salt}");
        self.end = end;
    }
    fn field(&mut self, name: &'static str, end: usize, value: &dyn Show) {
        if !self.out.is_empty() {
            self.out.push(' ');
        }
        self.out.push_str(name);
        self.out.push('=');
        value.show(&mut self.out);
        self.end = end;
    }
}
