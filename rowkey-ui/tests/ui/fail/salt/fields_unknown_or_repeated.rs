// The salt's fields(..) must name fields of the key, each once.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(salt(buckets = 20, fields(metric, tag, metric)))]
struct TsdbRow {
    metric: [u8; 3],
    base_hour: u32,
    tags: Vec<u8>,
}

#[derive(RowKey)]
#[rowkey(salt(buckets = 20, fields()))]
struct Empty {
    metric: [u8; 3],
    tags: Vec<u8>,
}

#[derive(RowKey)]
struct OnField {
    #[salt(buckets = 20, fields(metric))]
    metric: [u8; 3],
    tags: Vec<u8>,
}

fn main() {}
