//! Row key schemas as the admin API's message: a [`StructSchema`] to the `Type.Struct` of
//! `Table.row_key_schema` ([`to_api`]) and back ([`from_api`]).
//!
//! | `rowkey::struct_key` | admin API (`google.bigtable.admin.v2.Type`) |
//! | --- | --- |
//! | `FieldType::Int64(BigEndianBytes)` | `int64_type { encoding { big_endian_bytes {} } }` |
//! | `FieldType::Int64(OrderedCodeBytes)` | `int64_type { encoding { ordered_code_bytes {} } }` |
//! | `FieldType::String` | `string_type { encoding { utf8_bytes {} } }` |
//! | `FieldType::Bytes` | `bytes_type { encoding { raw {} } }` |
//! | `FieldType::Timestamp(e)` | `timestamp_type { encoding { unix_micros_int64 { <e as above> } } }` |
//! | `StructEncoding::Singleton` | `encoding { singleton {} }` |
//! | `StructEncoding::DelimitedBytes(d)` | `encoding { delimited_bytes { delimiter: d } }` |
//! | `StructEncoding::OrderedCodeBytes` | `encoding { ordered_code_bytes {} }` |
//!
//! Field names are copied as they are. The way back also takes the deprecated
//! `string.encoding.utf8_raw` (which the API "converts to an empty `utf8_bytes`") and ignores
//! the deprecated `big_endian_bytes.bytes_type` ("ignored if set"); everything else rowkey
//! cannot express is a [`FromApiError`] naming the field: a field without a type or without
//! an encoding (the API requires both), a non-scalar type (Array, Map, Aggregate, Struct: the
//! API refuses them in a row key schema), a scalar type rowkey does not encode (Float32,
//! Float64, Bool, Date, Proto, Enum), a struct without an encoding, and what
//! [`StructSchema::new`] refuses (a `Singleton` of other than one field, a delimiter of 0 or
//! over 50 bytes).
//!
//! ```
//! use rowkey::struct_key::{Field, FieldType, Int64Encoding, StructEncoding, StructSchema};
//! use rowkey_bigtable::admin_v2::r#type::{self, r#struct};
//! use rowkey_bigtable::schema::{from_api, to_api};
//!
//! let schema = StructSchema::new(
//!     vec![
//!         Field::new("user", FieldType::String),
//!         Field::new("ts", FieldType::Timestamp(Int64Encoding::OrderedCodeBytes)),
//!     ],
//!     StructEncoding::DelimitedBytes(b"#".to_vec()),
//! )?;
//! let message: r#type::Struct = to_api(&schema);
//! assert_eq!(message.fields[0].field_name, "user");
//! assert_eq!(
//!     message.encoding.as_ref().and_then(|e| e.encoding.clone()),
//!     Some(r#struct::encoding::Encoding::DelimitedBytes(r#struct::encoding::DelimitedBytes {
//!         delimiter: b"#".to_vec(),
//!     })),
//! );
//! assert_eq!(from_api(&message)?, schema);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2::{
    r#type::{self, int64, r#struct, string, timestamp},
    Type,
};
use rowkey::struct_key::{
    Field, FieldType, Int64Encoding, SchemaError, StructEncoding, StructSchema,
};

/// The admin API's `Int64.Encoding` of `e`.
fn int64_encoding(e: Int64Encoding) -> int64::Encoding {
    int64::Encoding {
        encoding: Some(match e {
            Int64Encoding::BigEndianBytes => {
                // its one field, `bytes_type`, is deprecated ("ignored if set"): left unset
                int64::encoding::Encoding::BigEndianBytes(int64::encoding::BigEndianBytes::default())
            }
            Int64Encoding::OrderedCodeBytes => {
                int64::encoding::Encoding::OrderedCodeBytes(int64::encoding::OrderedCodeBytes {})
            }
        }),
    }
}

/// The admin API's `Type` of a field type.
fn field_type(ty: FieldType) -> Type {
    let kind = match ty {
        FieldType::Int64(e) => r#type::Kind::Int64Type(r#type::Int64 {
            encoding: Some(int64_encoding(e)),
        }),
        FieldType::String => r#type::Kind::StringType(r#type::String {
            encoding: Some(string::Encoding {
                encoding: Some(string::encoding::Encoding::Utf8Bytes(
                    string::encoding::Utf8Bytes {},
                )),
            }),
        }),
        FieldType::Bytes => r#type::Kind::BytesType(r#type::Bytes {
            encoding: Some(r#type::bytes::Encoding {
                encoding: Some(r#type::bytes::encoding::Encoding::Raw(
                    r#type::bytes::encoding::Raw {},
                )),
            }),
        }),
        FieldType::Timestamp(e) => r#type::Kind::TimestampType(r#type::Timestamp {
            encoding: Some(timestamp::Encoding {
                encoding: Some(timestamp::encoding::Encoding::UnixMicrosInt64(
                    int64_encoding(e),
                )),
            }),
        }),
    };
    Type { kind: Some(kind) }
}

/// `schema` as the admin API's `Type.Struct`, the message of `Table.row_key_schema`: every
/// field's name, type and encoding, and the struct encoding (see the [module docs](self)).
///
/// ```
/// use rowkey::struct_key::{Field, FieldType, Int64Encoding, StructEncoding, StructSchema};
/// use rowkey_bigtable::admin_v2::r#type::{int64, Kind};
///
/// let schema = StructSchema::new(
///     vec![Field::new("n", FieldType::Int64(Int64Encoding::BigEndianBytes))],
///     StructEncoding::Singleton,
/// )?;
/// let message = rowkey_bigtable::schema::to_api(&schema);
/// let Some(Kind::Int64Type(t)) = message.fields[0].r#type.as_ref().and_then(|t| t.kind.clone()) else {
///     panic!("not an Int64");
/// };
/// assert!(matches!(
///     t.encoding.and_then(|e| e.encoding),
///     Some(int64::encoding::Encoding::BigEndianBytes(_))
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_api(schema: &StructSchema) -> r#type::Struct {
    let encoding = match schema.encoding() {
        StructEncoding::Singleton => {
            r#struct::encoding::Encoding::Singleton(r#struct::encoding::Singleton {})
        }
        StructEncoding::DelimitedBytes(d) => {
            r#struct::encoding::Encoding::DelimitedBytes(r#struct::encoding::DelimitedBytes {
                delimiter: d.clone(),
            })
        }
        StructEncoding::OrderedCodeBytes => {
            r#struct::encoding::Encoding::OrderedCodeBytes(r#struct::encoding::OrderedCodeBytes {})
        }
    };
    r#type::Struct {
        fields: schema
            .fields()
            .iter()
            .map(|f| r#struct::Field {
                field_name: f.name.clone(),
                r#type: Some(field_type(f.ty)),
            })
            .collect(),
        encoding: Some(r#struct::Encoding {
            encoding: Some(encoding),
        }),
    }
}

/// A `Type.Struct` that rowkey cannot express as a [`StructSchema`] (see [`from_api`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FromApiError {
    field: String,
    index: Option<usize>,
    kind: FromApiErrorKind,
}

/// What [`FromApiError`] is about.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FromApiErrorKind {
    /// A field without a `type` (the API requires one).
    NoType,
    /// A type without an encoding, or an encoding without its choice (the API requires
    /// one). The type's name.
    NoEncoding(&'static str),
    /// Array, Map, Aggregate or Struct: the API refuses non-scalar types in a row key schema.
    NotScalar(&'static str),
    /// A scalar type that `rowkey::struct_key` does not encode: Float32, Float64, Bool, Date,
    /// Proto or Enum.
    Unsupported(&'static str),
    /// The struct has no encoding (or an encoding without its choice).
    NoStructEncoding,
    /// The schema as [`StructSchema::new`] refuses it.
    Schema(SchemaError),
}

impl FromApiError {
    fn at(index: usize, field: &r#struct::Field, kind: FromApiErrorKind) -> Self {
        Self {
            field: field.field_name.clone(),
            index: Some(index),
            kind,
        }
    }

    /// The field's name (empty for the whole struct, or an anonymous field: see
    /// [`index`](FromApiError::index)).
    pub fn field(&self) -> &str {
        &self.field
    }

    /// The field's position (`None`: the struct as a whole).
    pub fn index(&self) -> Option<usize> {
        self.index
    }

    /// What is wrong.
    pub fn kind(&self) -> &FromApiErrorKind {
        &self.kind
    }
}

impl fmt::Display for FromApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(i) => write!(f, "row key schema field {:?} (#{i}): ", self.field)?,
            None => f.write_str("row key schema: ")?,
        }
        match &self.kind {
            FromApiErrorKind::NoType => f.write_str("no type"),
            FromApiErrorKind::NoEncoding(t) => write!(f, "{t} without an encoding"),
            FromApiErrorKind::NotScalar(t) => write!(
                f,
                "{t} is not a scalar type (a row key schema allows none of Array, Map, Aggregate, Struct)"
            ),
            FromApiErrorKind::Unsupported(t) => write!(
                f,
                "{t} is not a row key type rowkey encodes (Int64, String, Bytes, Timestamp)"
            ),
            FromApiErrorKind::NoStructEncoding => f.write_str("no struct encoding"),
            FromApiErrorKind::Schema(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FromApiError {}

fn int64_from_api(e: Option<&int64::Encoding>) -> Option<Int64Encoding> {
    match e.and_then(|e| e.encoding.as_ref())? {
        int64::encoding::Encoding::BigEndianBytes(_) => Some(Int64Encoding::BigEndianBytes),
        int64::encoding::Encoding::OrderedCodeBytes(_) => Some(Int64Encoding::OrderedCodeBytes),
    }
}

// `Utf8Raw` is deprecated, and still read (see the module docs)
#[allow(deprecated)]
fn field_from_api(index: usize, field: &r#struct::Field) -> Result<Field, FromApiError> {
    let err = |kind| FromApiError::at(index, field, kind);
    let kind = field
        .r#type
        .as_ref()
        .and_then(|t| t.kind.as_ref())
        .ok_or_else(|| err(FromApiErrorKind::NoType))?;
    let ty = match kind {
        r#type::Kind::Int64Type(t) => FieldType::Int64(
            int64_from_api(t.encoding.as_ref())
                .ok_or_else(|| err(FromApiErrorKind::NoEncoding("Int64")))?,
        ),
        r#type::Kind::StringType(t) => {
            match t.encoding.as_ref().and_then(|e| e.encoding.as_ref()) {
                // Utf8Raw is deprecated: "if set, converts to an empty `utf8_bytes`"
                Some(
                    string::encoding::Encoding::Utf8Bytes(_)
                    | string::encoding::Encoding::Utf8Raw(_),
                ) => FieldType::String,
                None => return Err(err(FromApiErrorKind::NoEncoding("String"))),
            }
        }
        r#type::Kind::BytesType(t) => match t.encoding.as_ref().and_then(|e| e.encoding.as_ref()) {
            Some(r#type::bytes::encoding::Encoding::Raw(_)) => FieldType::Bytes,
            None => return Err(err(FromApiErrorKind::NoEncoding("Bytes"))),
        },
        r#type::Kind::TimestampType(t) => {
            let inner = match t.encoding.as_ref().and_then(|e| e.encoding.as_ref()) {
                Some(timestamp::encoding::Encoding::UnixMicrosInt64(e)) => int64_from_api(Some(e)),
                None => None,
            };
            FieldType::Timestamp(
                inner.ok_or_else(|| err(FromApiErrorKind::NoEncoding("Timestamp")))?,
            )
        }
        r#type::Kind::StructType(_) => return Err(err(FromApiErrorKind::NotScalar("Struct"))),
        r#type::Kind::ArrayType(_) => return Err(err(FromApiErrorKind::NotScalar("Array"))),
        r#type::Kind::MapType(_) => return Err(err(FromApiErrorKind::NotScalar("Map"))),
        r#type::Kind::AggregateType(_) => {
            return Err(err(FromApiErrorKind::NotScalar("Aggregate")))
        }
        r#type::Kind::Float32Type(_) => return Err(err(FromApiErrorKind::Unsupported("Float32"))),
        r#type::Kind::Float64Type(_) => return Err(err(FromApiErrorKind::Unsupported("Float64"))),
        r#type::Kind::BoolType(_) => return Err(err(FromApiErrorKind::Unsupported("Bool"))),
        r#type::Kind::DateType(_) => return Err(err(FromApiErrorKind::Unsupported("Date"))),
        r#type::Kind::ProtoType(_) => return Err(err(FromApiErrorKind::Unsupported("Proto"))),
        r#type::Kind::EnumType(_) => return Err(err(FromApiErrorKind::Unsupported("Enum"))),
    };
    Ok(Field::new(field.field_name.clone(), ty))
}

/// A `Type.Struct` received from the API (a table's or a materialized view's
/// `row_key_schema`) as a [`StructSchema`].
///
/// # Errors
///
/// What rowkey cannot express (see the [module docs](self)): the first such field, by name
/// and position. Names are not checked here: [`StructSchema::lint`] lists what the API
/// would refuse.
///
/// ```
/// use rowkey_bigtable::admin_v2::r#type::{self, r#struct, Float64, Kind};
/// use rowkey_bigtable::admin_v2::Type;
/// use rowkey_bigtable::schema::{from_api, FromApiErrorKind};
///
/// let message = r#type::Struct {
///     fields: vec![r#struct::Field {
///         field_name: "price".into(),
///         r#type: Some(Type { kind: Some(Kind::Float64Type(Float64 {})) }),
///     }],
///     encoding: None,
/// };
/// let err = from_api(&message).unwrap_err();
/// assert_eq!((err.field(), err.index()), ("price", Some(0)));
/// assert_eq!(err.kind(), &FromApiErrorKind::Unsupported("Float64"));
/// ```
pub fn from_api(message: &r#type::Struct) -> Result<StructSchema, FromApiError> {
    let fields = message
        .fields
        .iter()
        .enumerate()
        .map(|(i, f)| field_from_api(i, f))
        .collect::<Result<Vec<_>, _>>()?;
    let whole = |kind| FromApiError {
        field: String::new(),
        index: None,
        kind,
    };
    let encoding = match message.encoding.as_ref().and_then(|e| e.encoding.as_ref()) {
        Some(r#struct::encoding::Encoding::Singleton(_)) => StructEncoding::Singleton,
        Some(r#struct::encoding::Encoding::DelimitedBytes(d)) => {
            StructEncoding::DelimitedBytes(d.delimiter.clone())
        }
        Some(r#struct::encoding::Encoding::OrderedCodeBytes(_)) => StructEncoding::OrderedCodeBytes,
        None => return Err(whole(FromApiErrorKind::NoStructEncoding)),
    };
    StructSchema::new(fields, encoding).map_err(|e| whole(FromApiErrorKind::Schema(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    const BE: Int64Encoding = Int64Encoding::BigEndianBytes;
    const OC: Int64Encoding = Int64Encoding::OrderedCodeBytes;

    fn every_field_type() -> Vec<Field> {
        vec![
            Field::new("i_be", FieldType::Int64(BE)),
            Field::new("i_oc", FieldType::Int64(OC)),
            Field::new("s", FieldType::String),
            Field::new("b", FieldType::Bytes),
            Field::new("t_be", FieldType::Timestamp(BE)),
            Field::new("t_oc", FieldType::Timestamp(OC)),
        ]
    }

    fn kind_of(message: &r#type::Struct, i: usize) -> r#type::Kind {
        message.fields[i]
            .r#type
            .clone()
            .and_then(|t| t.kind)
            .expect("a type")
    }

    #[test]
    fn every_type_and_encoding_to_the_message() {
        let schema = StructSchema::new(every_field_type(), StructEncoding::OrderedCodeBytes)
            .expect("schema");
        let m = to_api(&schema);
        let names: Vec<_> = m.fields.iter().map(|f| f.field_name.as_str()).collect();
        assert_eq!(names, ["i_be", "i_oc", "s", "b", "t_be", "t_oc"]);
        let int64 = |e| r#type::Int64 {
            encoding: Some(int64::Encoding { encoding: Some(e) }),
        };
        let be =
            int64::encoding::Encoding::BigEndianBytes(int64::encoding::BigEndianBytes::default());
        let oc = int64::encoding::Encoding::OrderedCodeBytes(int64::encoding::OrderedCodeBytes {});
        assert_eq!(kind_of(&m, 0), r#type::Kind::Int64Type(int64(be)));
        assert_eq!(kind_of(&m, 1), r#type::Kind::Int64Type(int64(oc)));
        assert_eq!(
            kind_of(&m, 2),
            r#type::Kind::StringType(r#type::String {
                encoding: Some(string::Encoding {
                    encoding: Some(string::encoding::Encoding::Utf8Bytes(
                        string::encoding::Utf8Bytes {}
                    ))
                })
            })
        );
        assert_eq!(
            kind_of(&m, 3),
            r#type::Kind::BytesType(r#type::Bytes {
                encoding: Some(r#type::bytes::Encoding {
                    encoding: Some(r#type::bytes::encoding::Encoding::Raw(
                        r#type::bytes::encoding::Raw {}
                    ))
                })
            })
        );
        let ts = |e| {
            r#type::Kind::TimestampType(r#type::Timestamp {
                encoding: Some(timestamp::Encoding {
                    encoding: Some(timestamp::encoding::Encoding::UnixMicrosInt64(
                        int64::Encoding { encoding: Some(e) },
                    )),
                }),
            })
        };
        assert_eq!(kind_of(&m, 4), ts(be));
        assert_eq!(kind_of(&m, 5), ts(oc));
        assert_eq!(
            m.encoding.and_then(|e| e.encoding),
            Some(r#struct::encoding::Encoding::OrderedCodeBytes(
                r#struct::encoding::OrderedCodeBytes {}
            ))
        );
    }

    #[test]
    fn every_schema_round_trips_through_the_message_and_its_bytes() {
        let encodings = [
            StructEncoding::OrderedCodeBytes,
            StructEncoding::DelimitedBytes(b"#".to_vec()),
            StructEncoding::DelimitedBytes(vec![0x00, 0x01, 0xFF]),
            StructEncoding::DelimitedBytes(vec![b'|'; 50]),
        ];
        let mut checked = 0;
        for encoding in encodings {
            for n in 0..=every_field_type().len() {
                let fields = every_field_type().into_iter().take(n).collect();
                let schema = StructSchema::new(fields, encoding.clone()).expect("schema");
                let message = to_api(&schema);
                assert_eq!(from_api(&message).as_ref(), Ok(&schema));
                let bytes = message.encode_to_vec();
                let decoded = r#type::Struct::decode(bytes.as_slice()).expect("decode");
                assert_eq!(decoded, message);
                assert_eq!(from_api(&decoded).as_ref(), Ok(&schema));
                checked += 1;
            }
        }
        for field in every_field_type() {
            let schema = StructSchema::new(vec![field], StructEncoding::Singleton).expect("schema");
            let decoded =
                r#type::Struct::decode(to_api(&schema).encode_to_vec().as_slice()).expect("decode");
            assert_eq!(from_api(&decoded), Ok(schema));
            checked += 1;
        }
        assert_eq!(checked, 4 * 7 + 6);
    }

    /// The wire bytes, worked out by hand from the proto's field numbers: `Struct { fields(1):
    /// Field { field_name(1): "k", type(2): Type { bytes_type(1): Bytes { encoding(1):
    /// Encoding { raw(1): {} } } } }, encoding(2): Encoding { singleton(1): {} } }`.
    #[test]
    fn wire_bytes_of_a_singleton_bytes_key() {
        let schema = StructSchema::new(
            vec![Field::new("k", FieldType::Bytes)],
            StructEncoding::Singleton,
        )
        .expect("schema");
        assert_eq!(
            to_api(&schema).encode_to_vec(),
            [
                0x0A, 0x0B, 0x0A, 0x01, b'k', 0x12, 0x06, 0x0A, 0x04, 0x0A, 0x02, 0x0A, 0x00, 0x12,
                0x02, 0x0A, 0x00
            ]
        );
        // delimited_bytes(2) { delimiter(1): "#" } and int64_type(5) { ordered_code_bytes(2) }
        let schema = StructSchema::new(
            vec![Field::new("n", FieldType::Int64(OC))],
            StructEncoding::DelimitedBytes(b"#".to_vec()),
        )
        .expect("schema");
        assert_eq!(
            to_api(&schema).encode_to_vec(),
            [
                0x0A, 0x0B, 0x0A, 0x01, b'n', 0x12, 0x06, 0x2A, 0x04, 0x0A, 0x02, 0x12, 0x00, 0x12,
                0x05, 0x12, 0x03, 0x0A, 0x01, b'#'
            ]
        );
    }

    fn with_type(name: &str, kind: Option<r#type::Kind>) -> r#type::Struct {
        r#type::Struct {
            fields: vec![
                r#struct::Field {
                    field_name: "ok".into(),
                    r#type: Some(field_type(FieldType::String)),
                },
                r#struct::Field {
                    field_name: name.into(),
                    r#type: Some(Type { kind }),
                },
            ],
            encoding: Some(r#struct::Encoding {
                encoding: Some(r#struct::encoding::Encoding::OrderedCodeBytes(
                    r#struct::encoding::OrderedCodeBytes {},
                )),
            }),
        }
    }

    #[test]
    fn what_rowkey_cannot_express_names_the_field() {
        let cases: Vec<(Option<r#type::Kind>, FromApiErrorKind)> = vec![
            (None, FromApiErrorKind::NoType),
            (
                Some(r#type::Kind::Int64Type(r#type::Int64 { encoding: None })),
                FromApiErrorKind::NoEncoding("Int64"),
            ),
            (
                Some(r#type::Kind::Int64Type(r#type::Int64 {
                    encoding: Some(int64::Encoding { encoding: None }),
                })),
                FromApiErrorKind::NoEncoding("Int64"),
            ),
            (
                Some(r#type::Kind::StringType(r#type::String { encoding: None })),
                FromApiErrorKind::NoEncoding("String"),
            ),
            (
                Some(r#type::Kind::BytesType(r#type::Bytes { encoding: None })),
                FromApiErrorKind::NoEncoding("Bytes"),
            ),
            (
                Some(r#type::Kind::TimestampType(r#type::Timestamp {
                    encoding: Some(timestamp::Encoding {
                        encoding: Some(timestamp::encoding::Encoding::UnixMicrosInt64(
                            int64::Encoding { encoding: None },
                        )),
                    }),
                })),
                FromApiErrorKind::NoEncoding("Timestamp"),
            ),
            (
                Some(r#type::Kind::StructType(r#type::Struct::default())),
                FromApiErrorKind::NotScalar("Struct"),
            ),
            (
                Some(r#type::Kind::ArrayType(Box::default())),
                FromApiErrorKind::NotScalar("Array"),
            ),
            (
                Some(r#type::Kind::MapType(Box::default())),
                FromApiErrorKind::NotScalar("Map"),
            ),
            (
                Some(r#type::Kind::AggregateType(Box::default())),
                FromApiErrorKind::NotScalar("Aggregate"),
            ),
            (
                Some(r#type::Kind::Float32Type(r#type::Float32 {})),
                FromApiErrorKind::Unsupported("Float32"),
            ),
            (
                Some(r#type::Kind::Float64Type(r#type::Float64 {})),
                FromApiErrorKind::Unsupported("Float64"),
            ),
            (
                Some(r#type::Kind::BoolType(r#type::Bool {})),
                FromApiErrorKind::Unsupported("Bool"),
            ),
            (
                Some(r#type::Kind::DateType(r#type::Date {})),
                FromApiErrorKind::Unsupported("Date"),
            ),
            (
                Some(r#type::Kind::ProtoType(r#type::Proto::default())),
                FromApiErrorKind::Unsupported("Proto"),
            ),
            (
                Some(r#type::Kind::EnumType(r#type::Enum::default())),
                FromApiErrorKind::Unsupported("Enum"),
            ),
        ];
        for (kind, expected) in cases {
            let err = from_api(&with_type("bad", kind)).unwrap_err();
            assert_eq!(
                (err.field(), err.index(), err.kind()),
                ("bad", Some(1), &expected)
            );
            assert!(err
                .to_string()
                .starts_with("row key schema field \"bad\" (#1): "));
        }
        // a field with no type at all
        let mut m = with_type("x", None);
        m.fields[1].r#type = None;
        assert_eq!(from_api(&m).unwrap_err().kind(), &FromApiErrorKind::NoType);
    }

    #[test]
    fn struct_level_errors() {
        let mut m = with_type("n", Some(field_type(FieldType::Bytes).kind.expect("kind")));
        m.encoding = None;
        let err = from_api(&m).unwrap_err();
        assert_eq!(
            (err.index(), err.kind()),
            (None, &FromApiErrorKind::NoStructEncoding)
        );
        m.encoding = Some(r#struct::Encoding { encoding: None });
        assert_eq!(
            from_api(&m).unwrap_err().kind(),
            &FromApiErrorKind::NoStructEncoding
        );
        m.encoding = Some(r#struct::Encoding {
            encoding: Some(r#struct::encoding::Encoding::Singleton(
                r#struct::encoding::Singleton {},
            )),
        });
        assert_eq!(
            from_api(&m).unwrap_err().kind(),
            &FromApiErrorKind::Schema(SchemaError::SingletonFieldCount { fields: 2 })
        );
        m.encoding = Some(r#struct::Encoding {
            encoding: Some(r#struct::encoding::Encoding::DelimitedBytes(
                r#struct::encoding::DelimitedBytes { delimiter: vec![] },
            )),
        });
        assert_eq!(
            from_api(&m).unwrap_err().kind(),
            &FromApiErrorKind::Schema(SchemaError::DelimiterLength { len: 0 })
        );
    }

    #[test]
    #[allow(deprecated)]
    fn deprecated_forms_are_read() {
        // string utf8_raw (deprecated, "converts to an empty utf8_bytes") and a
        // big_endian_bytes with the deprecated bytes_type ("ignored if set")
        let m = r#type::Struct {
            fields: vec![
                r#struct::Field {
                    field_name: "s".into(),
                    r#type: Some(Type {
                        kind: Some(r#type::Kind::StringType(r#type::String {
                            encoding: Some(string::Encoding {
                                encoding: Some(string::encoding::Encoding::Utf8Raw(
                                    string::encoding::Utf8Raw {},
                                )),
                            }),
                        })),
                    }),
                },
                r#struct::Field {
                    field_name: "n".into(),
                    r#type: Some(Type {
                        kind: Some(r#type::Kind::Int64Type(r#type::Int64 {
                            encoding: Some(int64::Encoding {
                                encoding: Some(int64::encoding::Encoding::BigEndianBytes(
                                    int64::encoding::BigEndianBytes {
                                        bytes_type: Some(r#type::Bytes::default()),
                                    },
                                )),
                            }),
                        })),
                    }),
                },
            ],
            encoding: Some(r#struct::Encoding {
                encoding: Some(r#struct::encoding::Encoding::OrderedCodeBytes(
                    r#struct::encoding::OrderedCodeBytes {},
                )),
            }),
        };
        let schema = from_api(&m).expect("schema");
        assert_eq!(
            schema.fields(),
            [
                Field::new("s", FieldType::String),
                Field::new("n", FieldType::Int64(BE))
            ]
        );
        // written back in the current forms
        assert_eq!(from_api(&to_api(&schema)), Ok(schema));
    }

    /// Messages from the wire that rowkey did not write: valid encodings with bytes flipped,
    /// dropped and inserted. `from_api` never panics, and what it accepts survives `to_api`.
    #[test]
    fn mutated_messages_never_panic() {
        let mut seeds = Vec::new();
        for encoding in [
            StructEncoding::OrderedCodeBytes,
            StructEncoding::DelimitedBytes(b"#|".to_vec()),
        ] {
            let schema = StructSchema::new(every_field_type(), encoding).expect("schema");
            seeds.push(to_api(&schema).encode_to_vec());
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut decoded, mut accepted) = (0, 0);
        for round in 0..20_000 {
            let mut bytes = seeds[round % seeds.len()].clone();
            for _ in 0..(1 + next() % 2) {
                let at = (next() % (bytes.len() as u64 + 1)) as usize;
                let byte = next() as u8;
                match next() % 3 {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, byte),
                }
            }
            let Ok(message) = r#type::Struct::decode(bytes.as_slice()) else {
                continue;
            };
            decoded += 1;
            if let Ok(schema) = from_api(&message) {
                accepted += 1;
                assert_eq!(from_api(&to_api(&schema)).as_ref(), Ok(&schema));
            }
        }
        // the mutations reach both outcomes
        assert!(
            decoded > 300 && accepted > 100 && accepted < decoded,
            "{decoded} decoded, {accepted} accepted"
        );
    }
}
