//! The `field=value` arguments ([`TextArgs`]: equality pairs, and for scans one trailing range
//! or prefix) and [`FromText`], a field value read from them. The two are one exchange: a
//! value reads its field's text from the arguments, and a range's bounds parse as values.

use core::ops::Bound;

use super::error::TextError;

/// How the last constraint of a scan is given.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Last {
    /// `field=lo..hi`, `lo..=hi`, `lo..`, `..hi`, `..`: a range (an empty side is open).
    Range {
        /// Field path.
        field: String,
        /// Lower bound text, `None` when open.
        lo: Option<String>,
        /// Upper bound text, `None` when open.
        hi: Option<String>,
        /// `..=`: the upper bound is included.
        inclusive: bool,
    },
    /// `field^=prefix`: values starting with a prefix.
    StartsWith {
        /// Field path.
        field: String,
        /// Prefix text.
        prefix: String,
    },
}

impl Last {
    fn field(&self) -> &str {
        match self {
            Last::Range { field, .. } | Last::StartsWith { field, .. } => field,
        }
    }
}

/// `field=value` pairs (and, for scans, one trailing range or starts-with constraint).
#[derive(Debug, Clone, Default)]
pub struct TextArgs {
    pairs: Vec<(String, String, bool)>,
    scan: bool,
    last: Option<Last>,
    last_used: bool,
}

impl TextArgs {
    /// Equality pairs `field=value` (split at the first `=`).
    ///
    /// # Errors
    ///
    /// An argument without `=`, or a field given twice.
    pub fn parse<I, S>(args: I) -> Result<Self, TextError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut out = TextArgs::default();
        for a in args {
            let a = a.as_ref();
            let Some((k, v)) = a.split_once('=') else {
                return Err(TextError::new(
                    "",
                    format!("expected field=value, got {a:?}"),
                ));
            };
            out.push(k, v)?;
        }
        Ok(out)
    }

    /// Scan arguments: equality pairs, and as the last argument optionally a range
    /// (`field=lo..hi`, `lo..=hi`, `lo..`, `..hi`) or a prefix (`field^=prefix`). Only the last
    /// argument is read as a range; to fix a field to a text containing `..` there, escape a dot
    /// as `\x2E`.
    ///
    /// # Errors
    ///
    /// As [`parse`](Self::parse), and a `^=` that is not the last argument.
    pub fn parse_scan<I, S>(args: I) -> Result<Self, TextError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let args: Vec<S> = args.into_iter().collect();
        let n = args.len();
        let mut out = TextArgs {
            scan: true,
            ..TextArgs::default()
        };
        for (i, a) in args.iter().enumerate() {
            let a = a.as_ref();
            let is_last = i + 1 == n;
            let Some((k, v)) = a.split_once('=') else {
                return Err(TextError::new(
                    "",
                    format!("expected field=value, field=lo..hi or field^=prefix, got {a:?}"),
                ));
            };
            if let Some(field) = k.strip_suffix('^') {
                if !is_last {
                    return Err(TextError::new(
                        field,
                        "a prefix (^=) ends the scan: give it as the last argument",
                    ));
                }
                out.last = Some(Last::StartsWith {
                    field: field.to_owned(),
                    prefix: v.to_owned(),
                });
                continue;
            }
            if is_last {
                if let Some((lo, hi)) = v.split_once("..") {
                    let (hi, inclusive) = match hi.strip_prefix('=') {
                        Some(h) => (h, true),
                        None => (hi, false),
                    };
                    let side = |s: &str| (!s.is_empty()).then(|| s.to_owned());
                    out.last = Some(Last::Range {
                        field: k.to_owned(),
                        lo: side(lo),
                        hi: side(hi),
                        inclusive,
                    });
                    continue;
                }
            }
            out.push(k, v)?;
        }
        if let Some(l) = &out.last {
            if out.pairs.iter().any(|(k, _, _)| k == l.field()) {
                return Err(TextError::new(
                    l.field(),
                    "given twice (as a value and as a range or prefix)",
                ));
            }
        }
        Ok(out)
    }

    fn push(&mut self, k: &str, v: &str) -> Result<(), TextError> {
        if k.is_empty() {
            return Err(TextError::new("", format!("empty field name in {k}={v}")));
        }
        if self.pairs.iter().any(|(p, _, _)| p == k) {
            return Err(TextError::new(k, "given twice"));
        }
        self.pairs.push((k.to_owned(), v.to_owned(), false));
        Ok(())
    }

    /// The value text of `path`, marked as used.
    ///
    /// # Errors
    ///
    /// `path` is not given (the message says the `expected` form).
    pub fn take(&mut self, path: &str, expected: &str) -> Result<String, TextError> {
        match self.pairs.iter_mut().find(|(k, _, _)| k == path) {
            Some((_, v, used)) => {
                *used = true;
                Ok(v.clone())
            }
            None => Err(TextError::new(
                path,
                format!("missing: give {path}=<{expected}>"),
            )),
        }
    }

    /// A bad value error for `path`, with a hint when a scan value looks like a range that is
    /// not the last argument.
    pub fn bad_value(&self, path: &str, text: &str, message: String) -> TextError {
        let looks_like_range = self.scan && text.contains("..");
        if looks_like_range {
            TextError::new(
                path,
                format!("{message} (a range must be the last argument: it ends the scan)"),
            )
        } else {
            TextError::new(path, message)
        }
    }

    /// Whether `path` (or a sub-field `path.x`) is given.
    pub fn has(&self, path: &str) -> bool {
        self.pairs.iter().any(|(k, _, _)| {
            k == path
                || k.strip_prefix(path)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// Every argument was used.
    ///
    /// # Errors
    ///
    /// The first unused argument: an unknown field, or (in a scan) a field after an unfixed one.
    pub fn finish(&self, fields: &[&str]) -> Result<(), TextError> {
        let known = |k: &str| {
            fields
                .iter()
                .any(|f| k == *f || k.strip_prefix(f).is_some_and(|r| r.starts_with('.')))
        };
        if let Some((k, _, _)) = self.pairs.iter().find(|(_, _, used)| !used) {
            return Err(self.unused(k, fields, known(k)));
        }
        if let Some(l) = self.last.as_ref().filter(|_| !self.last_used) {
            return Err(self.unused(l.field(), fields, known(l.field())));
        }
        Ok(())
    }

    fn unused(&self, k: &str, fields: &[&str], known: bool) -> TextError {
        if !known {
            return TextError::new(k, format!("no such field (fields: {})", fields.join(", ")));
        }
        // A known field left over in a scan: a field before it is not fixed.
        let root = k.split('.').next().unwrap_or(k);
        let free = fields
            .iter()
            .take_while(|f| **f != root)
            .find(|f| !self.has(f) && self.last.as_ref().is_none_or(|l| l.field() != **f));
        match free {
            Some(f) => TextError::new(
                k,
                format!(
                    "cannot be constrained while `{f}` before it is free: a scan fixes fields in key order (give {f}=… too)"
                ),
            ),
            None => TextError::new(
                k,
                "comes after a range or prefix: a range or prefix ends the scan",
            ),
        }
    }

    /// In a generated scan: how field `path` is constrained.
    #[doc(hidden)]
    pub fn step(&mut self, path: &str) -> Step {
        if self.has(path) {
            return Step::Eq;
        }
        match &self.last {
            Some(Last::Range { field, .. }) if field == path => Step::Range,
            Some(Last::StartsWith { field, .. }) if field == path => Step::StartsWith,
            _ => Step::Done,
        }
    }

    /// The bounds of the range on `path`, parsed as `T`.
    ///
    /// # Errors
    ///
    /// A bound that does not parse as `T`.
    pub fn range_bounds<T: FromText>(
        &mut self,
        path: &str,
    ) -> Result<(Bound<T>, Bound<T>), TextError> {
        let Some(Last::Range {
            lo, hi, inclusive, ..
        }) = self.last.clone()
        else {
            return Err(TextError::new(path, "no range given"));
        };
        self.last_used = true;
        let lo = match lo {
            None => Bound::Unbounded,
            Some(s) => Bound::Included(parse_field::<T>(path, &s)?),
        };
        let hi = match hi {
            None => Bound::Unbounded,
            Some(s) if inclusive => Bound::Included(parse_field::<T>(path, &s)?),
            Some(s) => Bound::Excluded(parse_field::<T>(path, &s)?),
        };
        Ok((lo, hi))
    }

    /// The prefix on `path`, parsed as `T`.
    ///
    /// # Errors
    ///
    /// A prefix that does not parse as `T`.
    pub fn prefix<T: FromText>(&mut self, path: &str) -> Result<T, TextError> {
        let Some(Last::StartsWith { prefix, .. }) = self.last.clone() else {
            return Err(TextError::new(path, "no prefix given"));
        };
        self.last_used = true;
        parse_field::<T>(path, &prefix)
    }

    /// In a generated scan: the error for a range or prefix a field does not allow.
    #[doc(hidden)]
    pub fn refused(&self, path: &str, what: &str, why: &str) -> TextError {
        TextError::new(path, format!("no {what} on this field: {why}"))
    }
}

/// How a generated scan constrains one field.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Fixed to a value.
    Eq,
    /// A range (ends the scan).
    Range,
    /// A prefix (ends the scan).
    StartsWith,
    /// Not constrained: the scan ends before this field.
    Done,
}

/// `parent.name`, or `name` at the top level.
#[doc(hidden)]
pub fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_owned()
    } else {
        format!("{parent}.{name}")
    }
}

fn parse_field<T: FromText>(path: &str, s: &str) -> Result<T, TextError> {
    T::parse_text(s)
        .map_err(|e| TextError::new(path, format!("expected {}, got {s:?}: {e}", T::expected())))
}

#[diagnostic::on_unimplemented(
    message = "rowkey: `{Self}` cannot be read from text (key tool)",
    note = "field types must be integers, bool, char, f32/f64, [u8; N], strings/bytes, Option of those, or types deriving RowKey"
)]
/// A field type whose values can be typed as text. `#[derive(RowKey)]` implements it for
/// nested keys and fieldless enums (with the `tool` feature); see the [module docs](super) for
/// the syntax.
pub trait FromText: Sized {
    /// What the text looks like, for errors and help (`an unsigned integer (u64, …)`).
    const EXPECTED: &'static str;

    /// [`EXPECTED`](Self::EXPECTED), with the inner type's form for `Option`s.
    fn expected() -> String {
        Self::EXPECTED.to_owned()
    }

    /// Parse one value.
    ///
    /// # Errors
    ///
    /// Why the text is not a value (the caller adds the field and [`EXPECTED`](Self::EXPECTED)).
    fn parse_text(s: &str) -> Result<Self, String>;

    /// Read the value of field `path` from `args` (nested keys read `path.sub` fields).
    ///
    /// # Errors
    ///
    /// A missing field or bad text, naming the field.
    fn from_args(args: &mut TextArgs, path: &str) -> Result<Self, TextError> {
        let s = args.take(path, &Self::expected())?;
        Self::parse_text(&s).map_err(|e| {
            args.bad_value(
                path,
                &s,
                format!("expected {}, got {s:?}: {e}", Self::expected()),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_args() {
        let a = TextArgs::parse_scan(["a=1", "b=x..=y"]).unwrap();
        assert_eq!(
            a.last,
            Some(Last::Range {
                field: "b".into(),
                lo: Some("x".into()),
                hi: Some("y".into()),
                inclusive: true
            })
        );
        // only the last argument is a range
        let a = TextArgs::parse_scan(["a=1..2", "b=3"]).unwrap();
        assert!(a.last.is_none());
        assert!(TextArgs::parse_scan(["a^=x", "b=1"]).is_err());
        assert!(TextArgs::parse_scan(["a=1", "a=2"]).is_err());
        assert!(TextArgs::parse_scan(["a=1", "a=1.."]).is_err());
        assert!(TextArgs::parse(["novalue"]).is_err());
        let mut a = TextArgs::parse(["x.y=1"]).unwrap();
        assert!(a.has("x"));
        assert!(!a.has("x.z"));
        assert!(a.take("x.z", "n").is_err());
        assert!(a.finish(&["x"]).is_err()); // x.y unused
        assert_eq!(a.take("x.y", "n").unwrap(), "1");
        assert!(a.finish(&["x"]).is_ok());
    }
}
