//! A key decoded part by part (prefix, salt, fields) with the byte range of each, for
//! `describe`.

use crate::hbase::to_string_binary;
use crate::{DecodeError, DecodeRowKeyOwned, RowKey};

/// What a part of a decoded key is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PartKind {
    /// The layout's constant prefix.
    Prefix,
    /// The salt.
    Salt,
    /// A field (or a tagged enum's `variant`).
    Field,
}

/// One decoded part of a key: name, byte range and value as `describe` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Field {
    pub(super) kind: PartKind,
    pub(super) name: &'static str,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) value: String,
}

#[derive(Debug, Clone)]
pub(super) struct Decoded {
    pub(super) salt: Option<u32>,
    /// Prefix, salt and fields in key order, with their byte ranges.
    pub(super) parts: Vec<Field>,
    pub(super) error: Option<DecodeError>,
}

impl Decoded {
    /// The fields (not the prefix or salt), in key order.
    pub(super) fn fields(&self) -> impl Iterator<Item = &Field> {
        self.parts.iter().filter(|p| p.kind == PartKind::Field)
    }
}

pub(super) struct Recorder {
    pub(super) salt: Option<u32>,
    pub(super) parts: Vec<Field>,
    pub(super) pos: usize,
}

impl crate::describe::Visit for Recorder {
    fn prefix(&mut self, prefix: &'static [u8], at: usize) {
        let end = at + prefix.len();
        self.parts.push(Field {
            kind: PartKind::Prefix,
            name: "prefix",
            start: at,
            end,
            value: format!("\"{}\"", to_string_binary(prefix)),
        });
        self.pos = end;
    }
    fn salt(&mut self, salt: u32, at: usize, end: usize) {
        self.salt = Some(salt);
        self.parts.push(Field {
            kind: PartKind::Salt,
            name: "salt",
            start: at,
            end,
            value: salt.to_string(),
        });
        self.pos = end;
    }
    fn field(&mut self, name: &'static str, end: usize, value: &dyn crate::describe::Show) {
        let mut v = String::new();
        value.show(&mut v);
        self.parts.push(Field {
            kind: PartKind::Field,
            name,
            start: self.pos,
            end,
            value: v,
        });
        self.pos = end;
    }
}

pub(super) fn decode_fields<T>(bytes: &[u8]) -> Decoded
where
    T: RowKey + DecodeRowKeyOwned,
{
    let mut rec = Recorder {
        salt: None,
        parts: Vec::new(),
        pos: 0,
    };
    let res = (|| {
        if let Some(max) = T::LAYOUT.max_len {
            crate::decode::check_decode_max_len(bytes.len(), max)
                .map_err(|e| e.in_key(T::LAYOUT.name))?;
        }
        let (_, used) = T::decode_visit(bytes, 0, &mut rec)?;
        crate::decode::check_end(used, bytes.len()).map_err(|e| e.in_key(T::LAYOUT.name))
    })();
    Decoded {
        salt: rec.salt,
        parts: rec.parts,
        error: res.err(),
    }
}
