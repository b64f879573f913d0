// With a custom separator the byte order is not the string order: no exact range exists
// (starts-with does).
use rowkey::RowKey;

#[derive(RowKey)]
struct Tagged {
    #[sep(b'|')]
    tag: String,
    n: u32,
}

fn main() {
    let _ = Tagged::scan().tag_starts_with("a").ranges();
    let _ = Tagged::scan().tag_range("a".to_string().."b".to_string());
}
