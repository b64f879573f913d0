use rowkey::RowKey;

#[derive(RowKey)]
union Either {
    a: u32,
    b: f32,
}

fn main() {}
