//! Region boundaries read through a key type: a split point is often a prefix of a key (the
//! salt byte alone, or the salt and part of a field), so it is decoded part by part, the part
//! it cuts short completed with zero bytes, and what does not decode shown in HBase's printable
//! form.

use crate::describe::{Show, Visit};
use crate::hbase::to_string_binary;
use crate::key::{DecodeRowKeyOwned, RowKey};

/// Zero bytes appended to a boundary cut inside a part, to decode that part.
const PAD: usize = 64;

/// One decoded part of a boundary key: the salt or a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Part {
    name: &'static str,
    value: String,
    /// The salt's value, for a salt part.
    salt: Option<u32>,
    /// The boundary ends inside this part: `value` is that of the part's bytes completed with
    /// zero bytes (the least value that starts with them, for an ascending field).
    partial: bool,
    /// The field's hash prefix (its characters as `value`), not the field.
    hash: bool,
}

impl Part {
    /// `seller_id`, or `hash(msisdn)` for a hash prefix.
    fn title(&self) -> String {
        if self.hash {
            format!("hash({})", self.name)
        } else {
            self.name.to_owned()
        }
    }

    fn text(&self) -> String {
        format!("{} {}", self.title(), self.value)
    }
}

/// A boundary key decoded: its parts, and the printable form of bytes that decode as nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Boundary {
    parts: Vec<Part>,
    rest: Option<String>,
}

/// The parts decoding reports, each with where it starts and ends.
#[derive(Default)]
struct Recorder {
    parts: Vec<(usize, usize, Part)>,
    pos: usize,
}

impl Visit for Recorder {
    fn prefix(&mut self, prefix: &'static [u8], at: usize) {
        self.pos = at + prefix.len();
    }
    fn salt(&mut self, salt: u32, at: usize, end: usize) {
        let part = Part {
            name: "salt",
            value: salt.to_string(),
            salt: Some(salt),
            partial: false,
            hash: false,
        };
        self.parts.push((at, end, part));
        self.pos = end;
    }
    fn field(&mut self, name: &'static str, end: usize, value: &dyn Show) {
        let mut v = String::new();
        value.show(&mut v);
        let part = Part {
            name,
            value: v,
            salt: None,
            partial: false,
            hash: false,
        };
        self.parts.push((self.pos, end, part));
        self.pos = end;
    }
}

/// Decodes as much of `bytes` as decodes (the error, if any, is not needed: the parts before
/// it are recorded, and a salt that does not match its fields still names its bucket).
fn record<K: RowKey + DecodeRowKeyOwned>(bytes: &[u8]) -> Recorder {
    let mut rec = Recorder::default();
    let _ = K::decode_visit(bytes, 0, &mut rec);
    rec
}

pub(super) fn boundary<K: RowKey + DecodeRowKeyOwned>(key: &[u8]) -> Boundary {
    let len = key.len();
    let whole = record::<K>(key);
    // decoding never reads past the end: every part it reports is whole
    let mut covered = whole.pos.min(len);
    let mut parts: Vec<Part> = whole.parts.into_iter().map(|(_, _, p)| p).collect();
    if covered < len {
        let mut padded = key.to_vec();
        padded.resize(len + PAD, 0);
        let longer = record::<K>(&padded);
        for (start, end, mut part) in longer.parts {
            if start != covered || end <= start {
                continue;
            }
            if end <= len {
                parts.push(part);
                covered = end;
            } else {
                part.partial = true;
                parts.push(part);
                covered = len;
                break;
            }
        }
    }
    let buckets = K::LAYOUT.salt.map_or(u32::MAX, |s| s.buckets);
    if parts.iter().any(|p| p.salt.is_some_and(|v| v >= buckets)) {
        // no bucket of the layout: no key of it starts so
        return Boundary {
            parts: Vec::new(),
            rest: Some(to_string_binary(key)),
        };
    }
    if covered < len {
        // a split inside a hash prefix's space (what `split_points` gives such a layout): the
        // hash characters, not a value
        let field = parts.iter().filter(|p| p.salt.is_none()).count();
        if let Some((f, hp)) = K::LAYOUT
            .fields
            .get(field)
            .and_then(|f| f.hash_prefix.map(|hp| (f, hp)))
        {
            let end = (covered + hp.width).min(len);
            let bytes = key.get(covered..end).unwrap_or_default();
            parts.push(Part {
                name: f.name,
                value: to_string_binary(bytes),
                salt: None,
                partial: end < len || bytes.len() < hp.width,
                hash: true,
            });
            covered = len;
        }
    }
    let rest = key
        .get(covered..)
        .filter(|r| !r.is_empty())
        .map(to_string_binary);
    Boundary { parts, rest }
}

impl Boundary {
    fn text(&self, empty: &str) -> String {
        let mut items: Vec<String> = self
            .parts
            .iter()
            .map(|p| {
                if p.partial {
                    format!("{}…", p.text())
                } else {
                    p.text()
                }
            })
            .collect();
        if let Some(r) = &self.rest {
            items.push(if self.parts.is_empty() {
                r.clone()
            } else {
                format!("+ {r}")
            });
        }
        if items.is_empty() {
            empty.to_owned()
        } else {
            items.join(" · ")
        }
    }
}

/// A region boundary (a split point, or any key) described through the key type `K`, for
/// labels: `salt 5 · seller_id 42` — each decoded part as `name value`, joined by ` · `.
///
/// A boundary is often a prefix of a key: the part it ends inside is decoded from its bytes
/// completed with zero bytes and marked `…` (`seller_id 42…`: the least value starting with
/// those bytes for an ascending field). A boundary inside a `#[hash_prefix]`'s space (what
/// `split_points` gives such a layout) shows the hash characters: `hash(msisdn) 4000`. Bytes
/// that decode as nothing of `K` are shown in
/// HBase's printable form ([`to_string_binary`](crate::hbase::to_string_binary)), after a `+`
/// when some parts decoded before them, and so is a boundary whose salt is no bucket of the
/// layout; the empty key is `(start of table)`. A salt is shown even when it does not match the
/// fields after it (a split point need not be a key). Never panics.
///
/// ```
/// use rowkey::hotspot::boundary_label;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Order {
///     #[salt(buckets = 16)]
///     seller_id: u64,
///     order_no: u32,
/// }
///
/// assert_eq!(boundary_label::<Order>(&[5]), "salt 5");
/// let mut key = vec![5];
/// key.extend_from_slice(&42u64.to_be_bytes());
/// assert_eq!(boundary_label::<Order>(&key), "salt 5 · seller_id 42");
/// key.extend_from_slice(&[0, 1]); // half of order_no
/// assert_eq!(boundary_label::<Order>(&key), "salt 5 · seller_id 42 · order_no 65536…");
/// assert_eq!(boundary_label::<Order>(b""), "(start of table)");
/// assert_eq!(boundary_label::<Order>(&[200, 1]), r"\xC8\x01"); // no salt of 16 buckets
/// ```
pub fn boundary_label<K: RowKey + DecodeRowKeyOwned>(key: &[u8]) -> String {
    boundary::<K>(key).text("(start of table)")
}

/// The label of the key range `[start, end)` (a region; `end: None` is the end of the table)
/// through the key type `K`: the parts both boundaries share once, then the first part they
/// differ in as a range — `salt 5 · seller_id 42…57`. A range of exactly one salt bucket is
/// `salt 5`; a range from a bucket's start to a split inside it `salt 5 · seller_id < 42`, and
/// from a split to the bucket's end `salt 5 · seller_id ≥ 57`; a range of hash prefixes
/// `hash(msisdn) 4000…8000`. Boundaries that do not decode (see [`boundary_label`]), or
/// differ in parts of different names, give both described in full: `start – end`. Never
/// panics.
///
/// ```
/// use rowkey::hotspot::range_label;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Order {
///     #[salt(buckets = 16)]
///     seller_id: u64,
///     order_no: u32,
/// }
///
/// let at = |salt: u8, seller: u64| {
///     let mut k = vec![salt];
///     k.extend_from_slice(&seller.to_be_bytes());
///     k
/// };
/// assert_eq!(range_label::<Order>(&[5], Some(&[6])), "salt 5");
/// assert_eq!(range_label::<Order>(&at(5, 42), Some(&at(5, 57))), "salt 5 · seller_id 42…57");
/// assert_eq!(range_label::<Order>(&[5], Some(&at(5, 42))), "salt 5 · seller_id < 42");
/// assert_eq!(range_label::<Order>(&at(5, 57), Some(&[6])), "salt 5 · seller_id ≥ 57");
/// assert_eq!(range_label::<Order>(b"", Some(&[1])), "salt 0");
/// assert_eq!(range_label::<Order>(b"", Some(&at(0, 42))), "salt 0 · seller_id < 42");
/// assert_eq!(range_label::<Order>(&[15], None), "salt 15");
/// ```
pub fn range_label<K: RowKey + DecodeRowKeyOwned>(start: &[u8], end: Option<&[u8]>) -> String {
    let max_salt = K::LAYOUT.salt.map(|s| s.buckets.saturating_sub(1));
    let s = boundary::<K>(start);
    let e = end.map(boundary::<K>);
    let end_text = e.as_ref().map_or_else(
        || "(end of table)".to_owned(),
        |b| b.text("(start of table)"),
    );
    let fallback = format!("{} – {end_text}", s.text("(start of table)"));
    if s.rest.is_some() || e.as_ref().is_some_and(|b| b.rest.is_some()) {
        return fallback;
    }
    let join = |parts: &[Part], last: Option<String>| {
        let mut items: Vec<String> = parts.iter().map(Part::text).collect();
        items.extend(last);
        items.join(" · ")
    };
    let Some(e) = e else {
        // open end: everything from the start on
        let Some((last, before)) = s.parts.split_last() else {
            return "(whole table)".to_owned();
        };
        let last_text = match last.salt {
            Some(v) if Some(v) == max_salt => last.text(),
            Some(v) => format!("salt {v}…{}", max_salt.unwrap_or(v)),
            None => format!("{} ≥ {}", last.title(), last.value),
        };
        return join(before, Some(last_text));
    };
    let d = s
        .parts
        .iter()
        .zip(&e.parts)
        .take_while(|(a, b)| a == b)
        .count();
    let common = s.parts.get(..d).unwrap_or_default();
    match (s.parts.get(d), e.parts.get(d)) {
        (Some(a), Some(b)) if a.title() == b.title() => {
            let next_bucket = matches!((a.salt, b.salt), (Some(x), Some(y)) if y == x.saturating_add(1) && !b.partial);
            let end_is_bucket = e.parts.len() == d + 1;
            match s.parts.get(d + 1) {
                None if next_bucket && end_is_bucket => join(common, Some(a.text())),
                Some(n) if next_bucket && end_is_bucket => join(
                    common,
                    Some(format!("{} · {} ≥ {}", a.text(), n.title(), n.value)),
                ),
                _ => join(
                    common,
                    Some(format!("{} {}…{}", a.title(), a.value, b.value)),
                ),
            }
        }
        // the start is where the end's prefix starts: below the end's first new part
        (None, Some(b)) => match (b.salt, e.parts.get(d + 1)) {
            // from the start of the table to a split inside the first bucket
            (Some(0), Some(next)) if !b.partial => join(
                common,
                Some(format!("salt 0 · {} < {}", next.title(), next.value)),
            ),
            (Some(1), None) if !b.partial => join(common, Some("salt 0".to_owned())),
            (Some(v), None) if v > 1 && !b.partial => {
                join(common, Some(format!("salt 0…{}", v - 1)))
            }
            (None, _) => join(common, Some(format!("{} < {}", b.title(), b.value))),
            _ => fallback,
        },
        _ => fallback,
    }
}
