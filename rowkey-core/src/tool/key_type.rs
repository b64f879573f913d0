//! The key types the tool knows: [`KeyType`] (a name, a layout and the functions the tool
//! needs) and the [`KeyTypes`] a project registers.

use crate::layout::Layout;
use crate::plan;
use crate::plan::SplitPoints;
use crate::scan::ScanRanges;
use crate::text::{TaggedVariant, TextArgs, TextError, TextFields};
use crate::{DecodeRowKeyOwned, RowKey};

use super::decoded::{decode_fields, Decoded};

pub(super) type SampleSplitFn = fn(&[Vec<u8>], usize) -> Result<Vec<Vec<u8>>, plan::PlanError>;

/// One key type the tool knows: its name, layout and the functions it needs.
#[derive(Clone, Copy)]
pub struct KeyType {
    /// The name the tool knows the type by: `T::LAYOUT.name`, with the type parameters of a
    /// generic key (`Tagged<u32>`, paths left out).
    pub name: &'static str,
    /// The layout.
    pub layout: &'static Layout,
    pub(super) fields: fn() -> Vec<(&'static str, String)>,
    pub(super) decode: fn(&[u8]) -> Decoded,
    pub(super) encode: fn(&mut TextArgs) -> Result<Vec<u8>, TextError>,
    pub(super) scan: fn(&mut TextArgs) -> Result<ScanRanges, TextError>,
    pub(super) split_points: fn(usize) -> Result<Vec<Vec<u8>>, plan::PlanError>,
    pub(super) sample_split_points: SampleSplitFn,
    pub(super) variants: fn() -> Vec<TaggedVariant>,
    /// Labels a key visualizer's ranges through the type (`LoadMap::label_with`).
    pub(super) label_map: fn(crate::hotspot::LoadMap) -> crate::hotspot::LoadMap,
    pub(super) describe: fn(&[u8]) -> String,
}

impl KeyType {
    /// The entry of key type `T`.
    pub fn of<T>() -> KeyType
    where
        T: RowKey + TextFields + DecodeRowKeyOwned,
    {
        KeyType {
            name: type_name_of::<T>(),
            layout: T::LAYOUT,
            fields: T::fields,
            decode: decode_fields::<T>,
            encode: T::encode_text,
            scan: T::scan_text,
            split_points: T::split_points,
            sample_split_points: |keys, n| T::split_points_from_sample(keys, n),
            variants: T::variants,
            label_map: |map| map.label_with::<T>(),
            describe: T::describe,
        }
    }

    /// The key of `fields` (`field=value` pairs, as `keytool encode` takes them) — for tools
    /// built on the key tool that write keys of a type chosen at run time.
    ///
    /// ```
    /// use rowkey::tool::KeyType;
    /// use rowkey::text::TextArgs;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Order { seller: u32, no: u32 }
    ///
    /// let t = KeyType::of::<Order>();
    /// let key = t.encode_fields(&mut TextArgs::parse(["seller=7", "no=1"])?)?;
    /// assert_eq!(key, Order { seller: 7, no: 1 }.to_row_key()?.to_vec());
    /// assert_eq!(t.describe_fn()(&key), Order::describe(&key));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A field missing, unknown or given a value it cannot hold.
    pub fn encode_fields(&self, fields: &mut TextArgs) -> Result<Vec<u8>, TextError> {
        (self.encode)(fields)
    }

    /// The type's `describe` ([`RowKey::describe`]): a key as its fields.
    pub fn describe_fn(&self) -> fn(&[u8]) -> String {
        self.describe
    }
}

/// `T::LAYOUT.name`, or for a generic key its type as written without paths
/// (`Tagged<String>` for `my_crate::Tagged<alloc::string::String>`): interned, one leaked
/// string per generic type the process registers.
pub(super) fn type_name_of<T: RowKey>() -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    let full = std::any::type_name::<T>();
    if !full.contains('<') {
        return T::LAYOUT.name;
    }
    static NAMES: OnceLock<Mutex<HashMap<&'static str, &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    names
        .entry(full)
        .or_insert_with(|| Box::leak(short_type_name(full).into_boxed_str()))
}

/// A type name with every path cut to its last segment: `a::B<c::D, [u8; 4]>` → `B<D, [u8; 4]>`.
pub(super) fn short_type_name(full: &str) -> String {
    let mut out = String::with_capacity(full.len());
    let mut word = String::new();
    for ch in full.chars().chain(std::iter::once('\0')) {
        if ch.is_alphanumeric() || ch == '_' || ch == ':' {
            word.push(ch);
            continue;
        }
        out.push_str(word.rsplit("::").next().unwrap_or_default());
        word.clear();
        if ch != '\0' {
            out.push(ch);
        }
    }
    out
}

impl KeyType {
    /// `(field, expected text)` of each top-level field, in key order (for a tagged key enum:
    /// `variant`, see [`variants`](Self::variants)).
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        (self.fields)()
    }

    /// The variants of a tagged key enum (a keyspace), each with its tag and key type; empty
    /// for a struct key.
    pub fn variants(&self) -> Vec<TaggedVariant> {
        (self.variants)()
    }

    /// Whether some key of this type has a field `name` (for a keyspace: some variant's key).
    pub(super) fn has_field(&self, name: &str) -> bool {
        self.layout.fields.iter().any(|l| l.name == name)
            || self
                .variants()
                .iter()
                .any(|v| v.layout.fields.iter().any(|l| l.name == name))
    }

    /// The names of its fields (a keyspace: `Variant.field` for each variant's).
    pub(super) fn field_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .layout
            .fields
            .iter()
            .map(|l| l.name.to_owned())
            .collect();
        for v in self.variants() {
            names.extend(
                v.layout
                    .fields
                    .iter()
                    .map(|l| format!("{}.{}", v.name, l.name)),
            );
        }
        names
    }
}

impl KeyType {
    /// Labels a key visualizer's map through this type
    /// ([`LoadMap::label_with`](crate::hotspot::LoadMap::label_with)): for a tool that knows
    /// the type by name only, as `rowkey_hbase::keytool`'s `visualize`.
    pub fn label_map(&self, map: crate::hotspot::LoadMap) -> crate::hotspot::LoadMap {
        (self.label_map)(map)
    }
}

impl std::fmt::Debug for KeyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyType").field("name", &self.name).finish()
    }
}

/// The key types of a tool: implemented for tuples `(A,)` … `(A, B, C, D, E, F, G, H)` of
/// derived struct keys and tagged key enums (keyspaces) without lifetime parameters (generic
/// keys with their parameters given).
///
/// ```
/// use rowkey::tool::{KeyType, KeyTypes};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event {
///     #[salt(buckets = 8)]
///     host: u32,
///     seq: u64,
/// }
///
/// #[derive(RowKey)]
/// struct Tagged<T> {
///     id: u64,
///     tag: T,
/// }
///
/// let types: Vec<KeyType> = <(Event, Tagged<u16>)>::key_types();
/// let names: Vec<&str> = types.iter().map(|t| t.name).collect();
/// assert_eq!(names, ["Event", "Tagged<u16>"]);
/// let event = KeyType::of::<Event>();
/// assert_eq!(event.layout.salt.unwrap().buckets, 8);
/// let fields = event.fields(); // what `keytool encode Event --help` lists
/// assert_eq!(fields.iter().map(|(name, _)| *name).collect::<Vec<_>>(), ["host", "seq"]);
/// ```
pub trait KeyTypes {
    /// The types, in order.
    fn key_types() -> Vec<KeyType>;
}

macro_rules! key_types_tuple {
    ($($t:ident),+) => {
        impl<$($t),+> KeyTypes for ($($t,)+)
        where
            $($t: RowKey + TextFields + DecodeRowKeyOwned,)+
        {
            fn key_types() -> Vec<KeyType> {
                vec![$(KeyType::of::<$t>()),+]
            }
        }
    };
}
key_types_tuple!(A);
key_types_tuple!(A, B);
key_types_tuple!(A, B, C);
key_types_tuple!(A, B, C, D);
key_types_tuple!(A, B, C, D, E);
key_types_tuple!(A, B, C, D, E, F);
key_types_tuple!(A, B, C, D, E, F, G);
key_types_tuple!(A, B, C, D, E, F, G, H);

#[cfg(test)]
mod tests {
    use super::short_type_name;

    #[test]
    fn type_names_lose_their_paths() {
        assert_eq!(short_type_name("keytool::Tagged<u32>"), "Tagged<u32>");
        assert_eq!(
            short_type_name("a::b::Tagged<alloc::string::String, [u8; 4]>"),
            "Tagged<String, [u8; 4]>"
        );
        assert_eq!(
            short_type_name("x::Pair<core::option::Option<x::Kind>, (u8, i64)>"),
            "Pair<Option<Kind>, (u8, i64)>"
        );
        assert_eq!(short_type_name("Plain"), "Plain");
    }
}
