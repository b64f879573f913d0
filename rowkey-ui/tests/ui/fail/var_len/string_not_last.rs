use rowkey::RowKey;

#[derive(RowKey)]
struct HostEvent {
    host: String,
    event: u32,
}

fn main() {}
