use rowkey::RowKey;

#[derive(RowKey)]
struct K {
    #[sep]
    host: String,
    #[reverse_ts]
    when: String,
}

fn main() {}
