use crate::common;

use common::OrderBySeller;
use rowkey::RowKey;

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

#[test]
fn scan_smoke() {
    let r = OrderBySeller::scan()
        .seller_id(42)
        .created_ms_range(1_000..2_000)
        .ranges();
    println!("{r:?}");
    let r = OrderBySeller::scan().ranges();
    assert_eq!(r.len(), 16);
    let r = OrderBySeller::scan()
        .seller_id(42)
        .created_ms(5)
        .order_no_starts_with("A-")
        .ranges();
    println!("{r:?}");
    let key = OrderBySeller {
        seller_id: 42,
        created_ms: 5,
        order_no: "A-17".into(),
    }
    .to_row_key()
    .unwrap();
    assert!(r.contains(&key));
    let r = OrderBySeller::scan()
        .seller_id(42)
        .created_ms(5)
        .order_no("A-17")
        .ranges();
    assert!(r.contains(&key));
    assert_eq!(r.len(), 1);
}
