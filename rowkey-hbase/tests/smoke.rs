//! First contact with a real HBase.
use rowkey::RowKey;
use rowkey_hbase::server::HBase;
use rowkey_hbase::{Batch, Cell, Client};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ev {
    #[salt(buckets = 4)]
    #[sep]
    host: String,
    seq: u32,
}

#[test]
fn smoke() {
    let hbase = HBase::shared().unwrap_or_else(|e| panic!("{e}"));
    let client = Client::connect(hbase.thrift_addr()).unwrap();
    client.create_table_for::<Ev>("smoke", &["f"], 4).unwrap();
    let t = client.table("smoke");
    let regions = t.regions().unwrap();
    assert_eq!(regions.len(), 4, "{regions:?}");
    let mut b = Batch::new();
    for seq in 0..10 {
        for host in ["a", "b", "a'b", "c\u{0}"] {
            b.put(
                &t,
                &Ev {
                    host: host.into(),
                    seq,
                },
                [Cell::new("f", "v", seq.to_string())],
            )
            .unwrap();
        }
    }
    assert_eq!(b.apply().unwrap(), 40);
    let all = t.read::<Ev>(&Ev::scan().ranges()).keys().unwrap();
    assert_eq!(all.len(), 40);
    let rev = t.read::<Ev>(&Ev::scan().ranges()).reverse().keys().unwrap();
    let mut fwd = all.clone();
    fwd.reverse();
    assert_eq!(rev, fwd);
    let a = t
        .read::<Ev>(&Ev::scan().host("a").seq_range(3..7).ranges())
        .reverse()
        .keys()
        .unwrap();
    assert_eq!(a.iter().map(|e| e.seq).collect::<Vec<_>>(), [6, 5, 4, 3]);
    let q = t
        .read::<Ev>(&Ev::scan().host("a'b").ranges())
        .reverse()
        .sequential()
        .keys()
        .unwrap();
    assert_eq!(q.len(), 10);
}
