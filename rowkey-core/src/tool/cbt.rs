//! Shell quoting and row regexes for `cbt` (bash) commands.

use std::fmt::Write as _;

/// A bash word whose value is exactly `bytes`: `'…'` when printable, else `$'…'` with `\xHH`.
/// `None` when the bytes hold 0x00, which no command-line argument can carry.
pub(super) fn bash_word(bytes: &[u8]) -> Option<String> {
    if bytes.contains(&0) {
        return None;
    }
    let bare = !bytes.is_empty()
        && bytes.first() != Some(&b'-')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"_.:/-+@%".contains(b));
    if bare {
        return Some(String::from_utf8_lossy(bytes).into_owned());
    }
    let plain = bytes
        .iter()
        .all(|b| (0x20..=0x7E).contains(b) && *b != b'\'');
    if plain {
        return Some(format!("'{}'", String::from_utf8_lossy(bytes)));
    }
    let mut s = String::from("$'");
    for &b in bytes {
        match b {
            b'\'' => s.push_str("\\'"),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7E => s.push(char::from(b)),
            _ => {
                let _ = write!(s, "\\x{b:02X}");
            }
        }
    }
    s.push('\'');
    Some(s)
}

/// cbt arguments cannot carry 0x00: the widest start at or below `start` without it.
pub(super) fn cbt_start(start: &[u8]) -> (Vec<u8>, bool) {
    match start.iter().position(|b| *b == 0) {
        Some(i) => (start.get(..i).unwrap_or_default().to_vec(), true),
        None => (start.to_vec(), false),
    }
}

/// … and the smallest stop at or above `stop` without 0x00 (`P\x00…` → `P\x01`).
pub(super) fn cbt_stop(stop: &[u8]) -> (Vec<u8>, bool) {
    match stop.iter().position(|b| *b == 0) {
        Some(i) => {
            let mut v = stop.get(..i).unwrap_or_default().to_vec();
            v.push(1);
            (v, true)
        }
        None => (stop.to_vec(), false),
    }
}

/// A pattern for `cbt read … regex=` that matches exactly the keys `k` with
/// `start <= k < stop` (`stop: None`: no upper bound), for when `start=`/`end=` had to be
/// widened (they cannot carry `0x00`).
///
/// Bigtable matches a row-key regex (RE2) against the key byte by byte: `\xHH` is the byte
/// `HH`, `\C` any byte (`.` would not match `\n`). The pattern is anchored (`^`, and `$`
/// where a key may end), and every other branch ends in `\C*`, so it selects the same keys
/// whether the server matches the whole key or a part. It has only printable ASCII
/// without `'`, so it goes into single quotes unchanged. It is built from the bytes: keys that
/// share the bounds' common bytes, then at the first byte where `start` and `stop` differ, the
/// keys above `start`'s rest, those strictly between, and those below `stop`'s rest.
pub(super) fn cbt_regex(start: &[u8], stop: Option<&[u8]>) -> Option<String> {
    // a prefix range: the prefix, then anything
    if let Some(stop) = stop {
        if crate::scan::prefix_successor(start).as_deref() == Some(stop) {
            return Some(format!("^{}\\C*", re_lit(start)));
        }
    }
    let body = match stop {
        None => Some(re_at_least(start)),
        Some(stop) => re_between(start, stop),
    }?;
    Some(format!("^{body}"))
}

/// One byte in a pattern: letters, digits and `_` as they are, anything else `\xHH`.
pub(super) fn re_byte(b: u8) -> String {
    if b.is_ascii_alphanumeric() || b == b'_' {
        char::from(b).to_string()
    } else {
        format!("\\x{b:02X}")
    }
}

pub(super) fn re_lit(bytes: &[u8]) -> String {
    bytes.iter().map(|b| re_byte(*b)).collect()
}

/// The bytes `lo..=hi` (`lo <= hi`), then anything.
pub(super) fn re_class_any(lo: u8, hi: u8) -> String {
    if lo == hi {
        format!("{}\\C*", re_byte(lo))
    } else {
        format!("[\\x{lo:02X}-\\x{hi:02X}]\\C*")
    }
}

pub(super) fn re_alt(parts: Vec<String>) -> Option<String> {
    match parts.len() {
        0 => None,
        1 => parts.into_iter().next(),
        _ => Some(format!("(?:{})", parts.join("|"))),
    }
}

/// Keys (after the bytes matched so far) at or above `s`.
pub(super) fn re_at_least(s: &[u8]) -> String {
    let Some((&c, rest)) = s.split_first() else {
        return "\\C*".to_owned();
    };
    let mut parts = vec![format!("{}{}", re_byte(c), re_at_least(rest))];
    if c < 0xFF {
        parts.push(re_class_any(c + 1, 0xFF));
    }
    re_alt(parts).unwrap_or_default()
}

/// Keys (after the bytes matched so far) below `e`; `None`: no key.
pub(super) fn re_below(e: &[u8]) -> Option<String> {
    let (&c, rest) = e.split_first()?;
    // the key ends here: a proper prefix of `e` sorts before it
    let mut parts = vec!["$".to_owned()];
    if c > 0 {
        parts.push(re_class_any(0, c - 1));
    }
    if let Some(r) = re_below(rest) {
        parts.push(format!("{}{r}", re_byte(c)));
    }
    re_alt(parts)
}

/// Keys (after the bytes matched so far) in `s..e`; `None`: no key.
pub(super) fn re_between(s: &[u8], e: &[u8]) -> Option<String> {
    let Some((&sc, srest)) = s.split_first() else {
        return re_below(e);
    };
    let (&ec, erest) = e.split_first()?;
    if sc == ec {
        return re_between(srest, erest).map(|r| format!("{}{r}", re_byte(sc)));
    }
    if sc > ec {
        return None;
    }
    let mut parts = vec![format!("{}{}", re_byte(sc), re_at_least(srest))];
    if ec - sc >= 2 {
        parts.push(re_class_any(sc + 1, ec - 1));
    }
    if let Some(r) = re_below(erest) {
        parts.push(format!("{}{r}", re_byte(ec)));
    }
    re_alt(parts)
}
