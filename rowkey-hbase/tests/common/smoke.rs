//! What must work on every transport and every kind of gateway (one smoke test each): typed
//! writes and reads, the region view, an index table and a migration. Declared once per test
//! binary that needs it (`#[path] mod smoke;`).

use rowkey::index::{Index, Indexed, Record, RecordError};
use rowkey::migrate::Migration;
use rowkey::RowKey;
use rowkey_hbase::store::HBaseStore;
use rowkey_hbase::{Batch, Cell, Client};

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 4))]
pub struct Reading {
    pub sensor: u32,
    pub ts: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct ById {
    id: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct ByTeam {
    #[sep]
    team: String,
    id: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 2))]
struct SaltedId {
    id: u32,
}

#[derive(Debug, Clone, PartialEq)]
struct Member {
    id: u32,
    team: String,
}

impl Record for Member {
    type Key = ById;
    fn key(&self) -> ById {
        ById { id: self.id }
    }
    fn to_value(&self) -> Vec<u8> {
        self.team.as_bytes().to_vec()
    }
    fn from_row(k: ById, v: &[u8]) -> Result<Member, RecordError> {
        Ok(Member {
            id: k.id,
            team: String::from_utf8(v.to_vec())?,
        })
    }
}

/// Typed writes and reads, the region view, an index table and a migration, over `client`;
/// the tables named after `name` are created through `admin`.
pub fn smoke(admin: &Client, client: &Client, name: &str) {
    let readings = format!("{name}_readings");
    admin
        .create_table_for::<Reading>(&readings, &["d"], 4)
        .expect("create");
    let table = client.table(&readings);
    let mut batch = Batch::new();
    for i in 0..200u32 {
        let k = Reading {
            sensor: i % 7,
            ts: u64::from(i),
        };
        batch
            .put(&table, &k, [Cell::new("d", "v", i.to_string())])
            .expect("encode");
    }
    batch.apply().expect("write");
    let rows = table
        .read::<Reading>(&Reading::scan().sensor(3).ranges())
        .collect()
        .expect("read");
    assert_eq!(
        rows.len(),
        (0..200).filter(|i| i % 7 == 3).count(),
        "{name}"
    );
    assert!(
        rows.windows(2).all(|w| w[0].0.ts < w[1].0.ts),
        "{name}: merged in order"
    );
    let view = table.region_view(10).expect("region view");
    assert_eq!(view.regions.len(), 4, "{name}");
    assert_eq!(view.rows.iter().sum::<u64>(), 200, "{name}");

    // an index table, and its base table re-keyed into a salted destination
    let (base, by_team, dest, cps) = (
        format!("{name}_members"),
        format!("{name}_members_by_team"),
        format!("{name}_members_v2"),
        format!("{name}_checkpoints"),
    );
    HBaseStore::create_tables(admin, &base, &[&by_team], &cps).expect("create");
    admin.create_table(&dest, &["r"], &[]).expect("create");
    let store = HBaseStore::new(&client.table(&base), &client.table(&cps))
        .index("by_team", &client.table(&by_team))
        .destination(&client.table(&dest));
    let index = Index::non_unique("by_team", |m: &Member| ByTeam {
        team: m.team.clone(),
        id: m.id,
    })
    .expect("index");
    let members = Indexed::new(&store).with_index(&index).expect("indexed");
    for id in 0..30u32 {
        let team = ["red", "blue", "green"][id as usize % 3].to_owned();
        members.put(&Member { id, team }).expect("put");
    }
    let blue = members
        .scan(&index, ByTeam::scan().team("blue").ranges())
        .records()
        .expect("scan");
    assert_eq!(blue.len(), 10, "{name}");
    assert!(members.scrub().run(|_| {}).expect("scrub").is_clean());

    let m = Migration::new(&store, |k: ById| SaltedId { id: k.id })
        .name("salt")
        .batch_size(8);
    assert!(m.run(|_| {}).expect("copy").complete);
    let verified = m.verify().expect("verify");
    assert_eq!(verified.report().destination_rows, 30, "{name}");
}
