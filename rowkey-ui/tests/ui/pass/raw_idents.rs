use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct r#Key {
    r#type: u32,
    #[sep]
    r#match: String,
    r#fn: i64,
}

fn main() {
    let k = r#Key {
        r#type: 7,
        r#match: "m".into(),
        r#fn: -3,
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(b.len(), k.encoded_len());
    assert_eq!(r#Key::from_row_key(&b).unwrap(), k);
    assert_eq!(<r#Key as RowKey>::LAYOUT.fields[0].name, "type");
}
