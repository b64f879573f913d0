//! Bigtable structured row keys (issue 28): tables created with a row key schema (the request
//! message itself, and the table on the emulator), and reads whose keys are decoded through a
//! `StructSchema`, against the Cloud Bigtable emulator (one per test binary, started here).

use futures::StreamExt;
use prost::Message;
use rowkey::struct_key::{
    Field, FieldType, Int64Encoding, SchemaFindingKind, StructEncoding, StructSchema, Value,
};
use rowkey::{ScanRange, ScanRanges};
use rowkey_bigtable::admin_v2::CreateTableRequest;
use rowkey_bigtable::schema::{from_api, to_api};
use rowkey_bigtable::testkit::Emulator;
use rowkey_bigtable::{Batch, Cell, Client, Error, STRUCT_LAYOUT};

const OC: Int64Encoding = Int64Encoding::OrderedCodeBytes;
const BE: Int64Encoding = Int64Encoding::BigEndianBytes;

fn client() -> Client {
    let emulator = Emulator::shared().unwrap_or_else(|e| panic!("{e}"));
    Client::emulator(emulator.endpoint(), "structs", "structs").expect("emulator client")
}

fn s(v: &str) -> Value {
    Value::String(v.into())
}

fn events_schema() -> StructSchema {
    StructSchema::new(
        vec![
            Field::new("user", FieldType::String),
            Field::new("at", FieldType::Timestamp(OC)),
            Field::new("seq", FieldType::Int64(BE)),
            Field::new("tag", FieldType::Bytes),
        ],
        StructEncoding::OrderedCodeBytes,
    )
    .expect("schema")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_create_request_carries_the_row_key_schema() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    let schema = events_schema();
    let splits = vec![b"h".to_vec(), b"p".to_vec()];
    let request = admin
        .create_table_with_schema_request("events_req", &["e", "m"], &schema, &splits)
        .expect("request");
    // what goes on the wire, decoded back
    let bytes = request.encode_to_vec();
    let decoded = CreateTableRequest::decode(bytes.as_slice()).expect("decode");
    assert_eq!(decoded, request);
    assert_eq!(decoded.parent, "projects/structs/instances/structs");
    assert_eq!(decoded.table_id, "events_req");
    let splits_sent: Vec<_> = decoded
        .initial_splits
        .iter()
        .map(|s| s.key.clone())
        .collect();
    assert_eq!(splits_sent, splits);
    let table = decoded.table.expect("a table");
    let mut families: Vec<_> = table.column_families.keys().cloned().collect();
    families.sort();
    assert_eq!(families, ["e", "m"]);
    let sent = table.row_key_schema.expect("a row key schema");
    assert_eq!(sent, to_api(&schema));
    let names: Vec<_> = sent.fields.iter().map(|f| f.field_name.as_str()).collect();
    assert_eq!(names, ["user", "at", "seq", "tag"]);
    assert_eq!(from_api(&sent).expect("back"), schema);

    // the emulator accepts it and creates the table (it keeps no schema)
    admin
        .create_table_with_schema("events_req", &["e", "m"], &schema, &splits)
        .await
        .expect("create");
    assert!(admin
        .list_tables()
        .await
        .expect("list")
        .contains(&"events_req".to_owned()));
    let kept = admin.row_key_schema("events_req").await.expect("get table");
    assert!(
        kept.is_none() || kept.as_ref() == Some(&schema),
        "the schema read back is neither absent (emulator) nor the one sent: {kept:?}"
    );
    // a table without a schema reads back as None
    admin
        .create_table("plain_req", &["e"], &[])
        .await
        .expect("create");
    assert_eq!(admin.row_key_schema("plain_req").await.expect("get"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schema_the_api_refuses_is_not_sent() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    let schema = StructSchema::new(
        vec![
            Field::new("_key", FieldType::String),
            Field::new("e", FieldType::Bytes),
            Field::new("", FieldType::Int64(OC)),
            Field::new("e", FieldType::String),
        ],
        StructEncoding::OrderedCodeBytes,
    )
    .expect("schema");
    let err = admin
        .create_table_with_schema("refused", &["e"], &schema, &[])
        .await
        .unwrap_err();
    let Error::RowKeySchema(findings) = &err else {
        panic!("{err:?}")
    };
    let got: Vec<_> = findings
        .iter()
        .map(|f| (f.index(), f.field(), f.kind().clone()))
        .collect();
    assert_eq!(
        got,
        [
            (Some(0), "_key", SchemaFindingKind::ReservedName),
            (Some(2), "", SchemaFindingKind::EmptyName),
            (Some(3), "e", SchemaFindingKind::DuplicateName { first: 1 }),
            (Some(1), "e", SchemaFindingKind::FamilyName),
            (Some(3), "e", SchemaFindingKind::FamilyName),
        ]
    );
    let msg = err.to_string();
    assert!(msg.contains("\"_key\"") && msg.contains("(#2)"), "{msg}");
    assert!(!admin
        .list_tables()
        .await
        .expect("list")
        .contains(&"refused".to_owned()));
    // an unsorted-only finding (BigEndianBytes under a delimiter) does not stop it
    let delimited = StructSchema::new(
        vec![
            Field::new("id", FieldType::String),
            Field::new("n", FieldType::Int64(BE)),
        ],
        StructEncoding::DelimitedBytes(b"#".to_vec()),
    )
    .expect("schema");
    assert_eq!(delimited.lint().len(), 1);
    admin
        .create_table_with_schema("unsorted_ok", &["e"], &delimited, &[])
        .await
        .expect("create");
}

/// Write `rows` (struct keys from `values`, in the order given) and a few foreign keys; read
/// back: every struct key decoded, in key order, and each foreign row an error item naming
/// its key in its place.
async fn write_and_read_back(
    client: &Client,
    table_id: &str,
    schema: &StructSchema,
    values: &[Vec<Value>],
    foreign: &[&[u8]],
) {
    for v in values {
        assert!(
            schema.lint_values(v).is_empty(),
            "test data in sorted mode: {v:?}"
        );
    }
    let admin = client.admin().await.expect("admin");
    admin
        .create_table_with_schema(table_id, &["d"], schema, &[])
        .await
        .expect("create");
    let table = client.table(table_id);
    let mut batch = Batch::new();
    // written in reverse, so the order read back is the server's
    for (i, v) in values.iter().enumerate().rev() {
        let key = schema.encode(v).expect("encode");
        batch.put_raw(&table, key, [Cell::new("d", "i", i.to_string())]);
    }
    for key in foreign {
        batch.put_raw(&table, key.to_vec(), [Cell::new("d", "i", "foreign")]);
    }
    assert_eq!(
        batch.apply().await.expect("write"),
        values.len() + foreign.len()
    );

    let mut expected = values.to_vec();
    expected.sort();
    let mut keys: Vec<Vec<u8>> = values
        .iter()
        .map(|v| schema.encode(v).expect("encode"))
        .collect();
    keys.extend(foreign.iter().map(|k| k.to_vec()));
    keys.sort();

    let items: Vec<_> = table
        .read_struct(schema)
        .chunk_rows(3)
        .stream()
        .collect()
        .await;
    assert_eq!(items.len(), values.len() + foreign.len(), "{table_id}");
    let mut ok = Vec::new();
    for (item, key) in items.iter().zip(&keys) {
        match item {
            Ok((v, row)) => {
                assert_eq!(&row.key, key);
                assert_eq!(&schema.encode(v).expect("re-encode"), key);
                let i: usize = std::str::from_utf8(row.value("d", b"i").expect("cell"))
                    .expect("utf8")
                    .parse()
                    .expect("index");
                assert_eq!(&values[i], v, "the row's cell names the values written");
                ok.push(v.clone());
            }
            Err(Error::Decode {
                layout,
                key: k,
                source,
            }) => {
                assert_eq!(*layout, STRUCT_LAYOUT);
                assert_eq!(k, key);
                assert!(foreign.contains(&k.as_slice()), "{table_id}: {source}");
                let msg = item.as_ref().unwrap_err().to_string();
                assert!(msg.contains("row key"), "{msg}");
            }
            Err(other) => panic!("{table_id}: {other}"),
        }
    }
    assert_eq!(ok, expected, "{table_id}: decoded, in key order");

    // reverse, limit, resume after a key's values, and ranges
    let back = table.read_struct(schema).reverse().stream();
    let back: Vec<_> = back
        .filter_map(|i| async { i.ok() })
        .map(|(v, _)| v)
        .collect()
        .await;
    let mut rev = expected.clone();
    rev.reverse();
    assert_eq!(back, rev, "{table_id}: reverse");
    let first_two = table
        .read_struct(schema)
        .limit(2)
        .stream()
        .collect::<Vec<_>>()
        .await;
    assert_eq!(first_two.len(), 2);
    let mid = &expected[expected.len() / 2];
    let rest = table
        .read_struct(schema)
        .after(mid)
        .expect("after")
        .stream()
        .filter_map(|i| async { i.ok() })
        .map(|(v, _)| v)
        .collect::<Vec<_>>()
        .await;
    let want: Vec<_> = expected.iter().filter(|v| *v > mid).cloned().collect();
    assert_eq!(rest, want, "{table_id}: after {mid:?}");
    let lo = schema.encode(&expected[1]).expect("encode");
    let hi = schema.encode(&expected[3]).expect("encode");
    let ranged: Vec<_> = table
        .read_struct(schema)
        .ranges(&ScanRanges::one(ScanRange::new(&lo, Some(&hi))))
        .stream()
        .collect()
        .await;
    let in_range = |k: &[u8]| k >= lo.as_slice() && k < hi.as_slice();
    let foreign_in_range = foreign.iter().filter(|k| in_range(k)).count();
    assert_eq!(ranged.len(), 2 + foreign_in_range, "{table_id}");
    let ranged: Vec<_> = ranged
        .into_iter()
        .filter_map(Result::ok)
        .map(|(v, _)| v)
        .collect();
    assert_eq!(ranged, expected[1..3], "{table_id}: [key 1, key 3)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ordered_code_bytes_keys_read_back_in_key_order() {
    let schema = events_schema();
    let values: Vec<Vec<Value>> = vec![
        vec![
            s("al"),
            Value::Timestamp(-5),
            Value::Int64(0),
            Value::Bytes(vec![]),
        ],
        vec![
            s("al"),
            Value::Timestamp(0),
            Value::Int64(1),
            Value::Bytes(vec![0]),
        ],
        vec![
            s("al"),
            Value::Timestamp(256),
            Value::Int64(0),
            Value::Bytes(vec![]),
        ],
        vec![
            s("al"),
            Value::Timestamp(256),
            Value::Int64(0),
            Value::Bytes(vec![0xFF]),
        ],
        vec![
            s(""),
            Value::Timestamp(0),
            Value::Int64(0),
            Value::Bytes(vec![]),
        ],
        vec![
            s("a\0b"),
            Value::Timestamp(i64::MIN),
            Value::Int64(7),
            Value::Bytes(b"x".to_vec()),
        ],
        vec![
            s("bo"),
            Value::Timestamp(i64::MAX),
            Value::Int64(i64::MAX),
            Value::Bytes(vec![1]),
        ],
        vec![
            s("é"),
            Value::Timestamp(1),
            Value::Int64(3),
            Value::Bytes(vec![0, 0]),
        ],
    ];
    // "al" then a bare 00 (truncated escape), and 00 02 (no such escape)
    write_and_read_back(
        &client(),
        "oc_keys",
        &schema,
        &values,
        &[b"al\x00", b"\x00\x02"],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delimited_bytes_keys_read_back_in_key_order() {
    let schema = StructSchema::new(
        vec![
            Field::new("device", FieldType::String),
            Field::new("country", FieldType::String),
            Field::new("n", FieldType::Int64(OC)),
            Field::new("serial", FieldType::Bytes),
        ],
        StructEncoding::DelimitedBytes(b"#".to_vec()),
    )
    .expect("schema");
    let values: Vec<Vec<Value>> = vec![
        vec![
            s("phone"),
            s("india"),
            Value::Int64(3),
            Value::Bytes(b"8923695".to_vec()),
        ],
        vec![
            s("phone"),
            s("india"),
            Value::Int64(3),
            Value::Bytes(b"89".to_vec()),
        ],
        vec![
            s("phone"),
            s("in"),
            Value::Int64(63),
            Value::Bytes(b"z".to_vec()),
        ],
        vec![
            s("phone"),
            s("india"),
            Value::Int64(-1),
            Value::Bytes(vec![]),
        ],
        vec![
            s("pad"),
            s("peru"),
            Value::Int64(0),
            Value::Bytes(b"1".to_vec()),
        ],
        vec![
            s("tablet"),
            s("chile"),
            Value::Int64(-64),
            Value::Bytes(vec![0xFF]),
        ],
        vec![
            s("phone"),
            s(""),
            Value::Int64(1),
            Value::Bytes(b"2".to_vec()),
        ],
    ];
    // a field too few, an Int64 that is not orderedcode (C0 needs a second byte), too many
    write_and_read_back(
        &client(),
        "delimited_keys",
        &schema,
        &values,
        &[
            b"phone#india",
            b"phone#india#\xC0#1",
            b"phone#india#\x83#1#2",
        ],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn singleton_keys_read_back_in_key_order() {
    let schema = StructSchema::new(
        vec![Field::new("n", FieldType::Int64(OC))],
        StructEncoding::Singleton,
    )
    .expect("schema");
    let values: Vec<Vec<Value>> = [0i64, -1, 1, 63, 64, -65, 256, i64::MIN, i64::MAX, -300]
        .into_iter()
        .map(|n| vec![Value::Int64(n)])
        .collect();
    // a non-canonical 1 (C0 01) and a truncated two-byte value
    write_and_read_back(
        &client(),
        "singleton_keys",
        &schema,
        &values,
        &[b"\xC0\x01", b"\xC1"],
    )
    .await;
    // a Timestamp over BigEndianBytes as the one field: negative values are encodable but
    // are not sorted, so the test data keeps to non-negative ones
    let ts = StructSchema::new(
        vec![Field::new("at", FieldType::Timestamp(BE))],
        StructEncoding::Singleton,
    )
    .expect("schema");
    let values: Vec<Vec<Value>> = [0i64, 1, 255, 256, 1_700_000_000_000_000, i64::MAX]
        .into_iter()
        .map(|n| vec![Value::Timestamp(n)])
        .collect();
    write_and_read_back(&client(), "singleton_ts", &ts, &values, &[b"\x00\x01"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_read_on_the_emulator_is_an_error_item() {
    // the emulator has no continuous materialized views: the read must say so, not panic and
    // not look like an empty view
    let items: Vec<_> = client()
        .read_view("no_views_here", &events_schema())
        .stream()
        .collect()
        .await;
    assert_eq!(items.len(), 1, "{items:?}");
    match &items[0] {
        // the emulator reads `table_name` only: "table \"\" not found"
        Err(Error::Grpc(status)) => assert_eq!(status.code(), tonic::Code::NotFound, "{status:?}"),
        other => panic!("{other:?}"),
    }
}
