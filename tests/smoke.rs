use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct OrderBySeller {
    #[salt(buckets = 16)]
    seller_id: u64,
    #[reverse_ts]
    created_ms: i64,
    #[sep]
    order_no: String,
}

#[test]
fn smoke() {
    let key = OrderBySeller {
        seller_id: 42,
        created_ms: 1_700_000_000_000,
        order_no: "A-17".into(),
    };
    let bytes = key.to_row_key().unwrap();
    assert_eq!(bytes.len(), key.encoded_len());
    let back = OrderBySeller::from_row_key(&bytes).unwrap();
    assert_eq!(back, key);
    println!("{}", OrderBySeller::describe(&bytes));
    println!("{}", OrderBySeller::describe(&bytes[..10]));
}
