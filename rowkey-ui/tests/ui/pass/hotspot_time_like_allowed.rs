// Time-like leading fields compile with #[rowkey(allow_hotspot)], or behind a salt or hash;
// names that only look similar do not trigger the check.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(allow_hotspot)]
struct A {
    ts_hour: u32,
    host: u16,
}

#[derive(RowKey)]
struct B {
    #[salt(buckets = 16)]
    epoch_seconds: u64,
    host: u16,
}

#[derive(RowKey)]
struct C {
    #[hash_prefix(4)]
    seq: u64,
    host: u16,
}

#[derive(RowKey)]
struct D {
    status: u8,
    stats_id: u64,
    #[sep]
    timestamp_zone: String,
}

#[derive(RowKey)]
struct E {
    hour_of_day: u8,
    host: u16,
}

fn main() {}
