use rowkey::RowKey;

// `Host` is a fine key on its own: its String is the last field, so it needs no terminator.
#[derive(RowKey)]
struct Host {
    dc: u16,
    name: String,
}

// ...but nested as a non-last field, `Host`'s end is unknown: `web1` vs `web12`.
#[derive(RowKey)]
struct HostMetric {
    host: Host,
    metric: u32,
}

fn main() {}
