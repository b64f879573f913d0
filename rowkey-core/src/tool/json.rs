//! JSON output (a few values: strings, numbers, arrays, objects).

use std::fmt::Write as _;

use crate::layout::Layout;

use super::cli::attributes;

/// The fields of a layout as JSON objects (name, type, attributes, text form), comma-separated.
pub(super) fn fields_json(layout: &Layout, texts: &[(&'static str, String)]) -> String {
    layout
        .fields
        .iter()
        .zip(texts)
        .map(|(l, (_, exp))| {
            format!(
                "{{\"name\":{},\"type\":{},\"attributes\":{},\"text\":{}}}",
                js(l.name),
                js(l.ty),
                js(&attributes(l)),
                js(exp)
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) fn js(s: &str) -> String {
    crate::hotspot::json_string(s, false)
}

pub(super) fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

pub(super) fn jnum(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".to_owned()
    }
}
