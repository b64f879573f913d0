// Leading fields whose names say time or sequence: each key writes to one region at a time.
use rowkey::RowKey;

#[derive(RowKey)]
struct A {
    ts_hour: u32,
    host: u16,
}

#[derive(RowKey)]
struct B {
    epoch_seconds: u64,
    host: u16,
}

#[derive(RowKey)]
struct C {
    #[pad(10)]
    date: String,
    host: u16,
}

#[derive(RowKey)]
struct D {
    seq: u64,
    host: u16,
}

#[derive(RowKey)]
struct E {
    created_at: i64,
    host: u16,
}

#[derive(RowKey)]
struct F {
    send_time: u64,
    host: u16,
}

#[derive(RowKey)]
struct G {
    event_ts: u64,
    host: u16,
}

fn main() {}
