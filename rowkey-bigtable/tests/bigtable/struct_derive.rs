//! Derived Bigtable struct keys (`#[rowkey(bigtable(..))]`, issue 28) on Bigtable: the table
//! created with the key type's row key schema (the request message itself, and the table on
//! the emulator), rows written with keys from `T::to_row_key` and read back typed — through the
//! merged read `table.read::<T>` and through `read_struct_as::<T>` — in key order; the typed
//! view read's requests and its error item on the emulator (which has no views).

use futures::StreamExt;
use prost::Message;
use rowkey::struct_key::{Micros, StructKey};
use rowkey::RowKey;
use rowkey_bigtable::admin_v2::CreateTableRequest;
use rowkey_bigtable::schema::{from_api, to_api};
use rowkey_bigtable::testkit::Emulator;
use rowkey_bigtable::{Batch, Cell, Client, Error};

fn client() -> Client {
    let emulator = Emulator::shared().unwrap_or_else(|e| panic!("{e}"));
    Client::emulator(emulator.endpoint(), "derived", "derived").expect("emulator client")
}

#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[rowkey(bigtable(ordered_code))]
struct Click {
    user: String,
    at: Micros,
    tag: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
#[rowkey(bigtable(delimited = b"#"))]
struct Visit {
    site: String,
    n: i64,
}

/// A field named like a column family: the admin API would refuse the schema.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(bigtable(singleton))]
struct Clash {
    c: String,
}

fn clicks() -> Vec<Click> {
    let mut out = Vec::new();
    for user in ["", "al", "al\0", "bo", "é"] {
        for at in [i64::MIN, -1, 0, 256, i64::MAX] {
            for tag in [vec![], vec![0], vec![0xFF]] {
                out.push(Click {
                    user: user.into(),
                    at: Micros(at),
                    tag,
                });
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_create_request_carries_the_key_types_schema() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    let splits = vec![Click {
        user: "b".into(),
        at: Micros(0),
        tag: vec![],
    }
    .to_row_key()
    .expect("split key")
    .to_vec()];
    let request = admin
        .create_table_for_struct_request::<Click>("clicks_req", &["c"], &splits)
        .expect("request");
    let decoded = CreateTableRequest::decode(request.encode_to_vec().as_slice()).expect("decode");
    assert_eq!(decoded, request);
    assert_eq!(decoded.table_id, "clicks_req");
    let sent: Vec<_> = decoded
        .initial_splits
        .iter()
        .map(|s| s.key.clone())
        .collect();
    assert_eq!(sent, splits);
    let schema = decoded
        .table
        .expect("a table")
        .row_key_schema
        .expect("a row key schema");
    assert_eq!(schema, to_api(&Click::row_key_schema()));
    let names: Vec<_> = schema
        .fields
        .iter()
        .map(|f| f.field_name.as_str())
        .collect();
    assert_eq!(names, ["user", "at", "tag"]);
    assert_eq!(from_api(&schema).expect("back"), Click::row_key_schema());
    // refused before anything is sent
    match admin.create_table_for_struct_request::<Clash>("clash", &["c"], &[]) {
        Err(Error::RowKeySchema(findings)) => assert_eq!(findings[0].field(), "c"),
        other => panic!("{other:?}"),
    }
    // the emulator creates it
    admin
        .create_table_for_struct::<Click>("clicks_req", &["c"], &splits)
        .await
        .expect("create");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn derived_keys_read_back_typed_in_key_order() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    admin
        .create_table_for_struct::<Click>("clicks", &["c"], &[])
        .await
        .expect("create");
    let table = client.table("clicks");
    let rows = clicks();
    let mut batch = Batch::new();
    // written in reverse, so the order read back is the server's
    for (i, k) in rows.iter().enumerate().rev() {
        batch
            .put(&table, k, [Cell::new("c", "i", i.to_string())])
            .expect("put");
    }
    batch.put_raw(&table, b"al\x00".to_vec(), [Cell::new("c", "i", "foreign")]);
    assert_eq!(batch.apply().await.expect("write"), rows.len() + 1);

    // ordered code sorts every value: key order is the fields' order
    let mut want = rows.clone();
    want.sort();
    let read: Vec<_> = table
        .read::<Click>(&Click::scan().ranges())
        .stream()
        .collect()
        .await;
    let mut got = Vec::new();
    for item in read {
        match item {
            Ok((k, row)) => {
                let i: usize = std::str::from_utf8(row.value("c", b"i").expect("cell"))
                    .expect("utf8")
                    .parse()
                    .expect("index");
                assert_eq!(rows[i], k, "the row's cell names the key written");
                got.push(k);
            }
            Err(Error::Decode { key, .. }) => assert_eq!(key, b"al\x00"),
            Err(other) => panic!("{other}"),
        }
    }
    assert_eq!(got, want);

    // a typed scan: user = "al", at in 0..=256
    let ranges = Click::scan()
        .user("al")
        .at_range(Micros(0)..=Micros(256))
        .ranges();
    let got: Vec<Click> = table
        .read::<Click>(&ranges)
        .collect()
        .await
        .expect("read")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let want_al: Vec<_> = want
        .iter()
        .filter(|k| k.user == "al" && (0..=256).contains(&k.at.0))
        .cloned()
        .collect();
    assert_eq!(got, want_al);
    assert_eq!(got.len(), 6);

    // through the schema read, decoded as the key type; resume and reverse
    let all: Vec<_> = table
        .read_struct_as::<Click>()
        .stream()
        .filter_map(|i| async { i.ok() })
        .map(|(k, _)| k)
        .collect()
        .await;
    assert_eq!(all, want);
    let mid = &want[want.len() / 2];
    let rest: Vec<_> = table
        .read_struct_as::<Click>()
        .after(mid)
        .expect("after")
        .reverse()
        .limit(3)
        .collect()
        .await
        .expect("read")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let below: Vec<_> = want
        .iter()
        .filter(|k| *k < mid)
        .rev()
        .take(3)
        .cloned()
        .collect();
    assert_eq!(rest, below);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delimited_keys_read_back_typed() {
    let client = client();
    let admin = client.admin().await.expect("admin");
    admin
        .create_table_for_struct::<Visit>("visits", &["v"], &[])
        .await
        .expect("create");
    let table = client.table("visits");
    // sorted mode: every site byte above '#'; orderedcode integers sort in any case
    let mut rows = Vec::new();
    for site in ["a", "ab", "b", "zz"] {
        for n in [-5i64, 0, 7, 1_000_000] {
            rows.push(Visit {
                site: site.into(),
                n,
            });
        }
    }
    let mut batch = Batch::new();
    for k in rows.iter().rev() {
        batch
            .put(&table, k, [Cell::new("v", "x", "1")])
            .expect("put");
    }
    // a value holding the delimiter is refused, naming the field
    match batch.put(
        &table,
        &Visit {
            site: "a#b".into(),
            n: 0,
        },
        [Cell::new("v", "x", "1")],
    ) {
        Err(Error::Encode(e)) => assert_eq!(e.field(), "site"),
        other => panic!("{other:?}"),
    }
    batch.apply().await.expect("write");
    let mut want = rows.clone();
    want.sort();
    let got: Vec<_> = table
        .read::<Visit>(&Visit::scan().ranges())
        .collect()
        .await
        .expect("read")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(got, want);
    let got: Vec<_> = table
        .read::<Visit>(&Visit::scan().site("ab").n_range(0..).ranges())
        .collect()
        .await
        .expect("read")
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        got,
        [0, 7, 1_000_000].map(|n| Visit {
            site: "ab".into(),
            n
        })
    );
    let got: Vec<_> = table
        .read::<Visit>(&Visit::scan().site_starts_with("a").ranges())
        .collect()
        .await
        .expect("read");
    assert_eq!(got.len(), 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_view_read_on_the_emulator_is_an_error_item() {
    let items: Vec<_> = client()
        .read_view_as::<Click>("no_views_here")
        .stream()
        .collect()
        .await;
    assert_eq!(items.len(), 1, "{items:?}");
    match &items[0] {
        Err(Error::Grpc(status)) => assert_eq!(status.code(), tonic::Code::NotFound, "{status:?}"),
        other => panic!("{other:?}"),
    }
}
