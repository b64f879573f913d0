//! Keys from text: the `field=value` input of the key tool (`rowkey::tool`, feature `tool`).
//!
//! With the `tool` feature, `#[derive(RowKey)]` implements [`FromText`] for every key type (a
//! nested key reads its fields as `outer.inner=value`; a fieldless enum reads a variant name or
//! its numeric code) and [`TextFields`] for every struct key that owns its data (no lifetime
//! parameters; type parameters are fine: register `Tagged<u32>`): encoding a key and building a
//! scan from `field=value` pairs. Without it the derive's text impls are dropped (they pass
//! through a macro of this crate, which sees its features). The generated code is a few calls
//! into this module; the value parsers live here.
//!
//! Value syntax by field type:
//!
//! | type | text |
//! |---|---|
//! | integers | decimal (`-17`, `42`) or hex with `0x` (`0x2A`, `-0x11`) |
//! | `f32`, `f64` | Rust float syntax (`1.5`, `-0`, `inf`, `NaN`) |
//! | `bool` | `true` / `false` |
//! | `char` | one character, or one `\xHH` escape |
//! | strings | the text; HBase `toStringBinary` escapes (`\x00`, `\x5C` for `\`) are decoded |
//! | bytes, `[u8; N]` | `0x…` or `hex:…` hex digits, else `toStringBinary` text (`ab\x00\xFF`) |
//! | `Option<T>` | `none` / `null`, or a value of `T` (write `\x6Eone` for the string "none") |
//! | fieldless enums | the variant name or its numeric code |
//! | nested keys | one `outer.inner=value` pair per field of the nested key |
//!
#![cfg_attr(feature = "tool", doc = "```")]
#![cfg_attr(not(feature = "tool"), doc = "```ignore")]
//! use rowkey::RowKey;
//! use rowkey::text::{TextArgs, TextFields};
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Event {
//!     #[sep]
//!     host: String,
//!     ts: u64,
//! }
//!
//! let mut args = TextArgs::parse([r"host=web\x001", "ts=0x10"])?;
//! let key = Event::encode_text(&mut args)?;
//! assert_eq!(key, Event { host: "web\u{0}1".into(), ts: 16 }.to_row_key()?.to_vec());
//!
//! let mut bad = TextArgs::parse(["host=web1", "ts=soon"])?;
//! assert_eq!(
//!     Event::encode_text(&mut bad).unwrap_err().to_string(),
//!     "field `ts`: expected an unsigned integer (u64, decimal or 0x hex), got \"soon\": invalid digit found in string"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod args;
mod error;
mod fields;
mod tagged;
mod values;

pub use args::{join, FromText, Step, TextArgs};
pub use error::TextError;
pub use fields::{encode_key, TextFields};
pub use tagged::{tagged_encode, tagged_fields, tagged_scan, variant_index, TaggedVariant};
pub use values::{borrowed_unsupported, enum_index, nested_text, parse_hex};
