use rowkey::RowKey;

// A timestamp first is fine when the user opts out of the check...
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
struct AuditLog {
    created_ms: i64,
    #[reverse_ts]
    seen_ts: i64,
}

// ...or when a salt spreads the writes (field salt)...
#[derive(RowKey, Debug, PartialEq)]
struct SaltedEvents {
    #[salt(buckets = 16)]
    #[reverse_ts]
    ts: i64,
    id: u32,
}

// ...or the whole key is salted (container salt)...
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 8))]
struct PhoenixSalted {
    created_ms: i64,
    id: u32,
}

// ...or a hash prefix comes first.
#[derive(RowKey, Debug, PartialEq)]
struct Hashed {
    #[hash_prefix(4)]
    created_ms: u64,
    id: u32,
}

fn main() {
    let a = AuditLog {
        created_ms: 1_700_000_000_000,
        seen_ts: 5,
    };
    assert_eq!(AuditLog::from_row_key(&a.to_row_key().unwrap()).unwrap(), a);
    let s = SaltedEvents {
        ts: 1_700_000_000_000,
        id: 9,
    };
    let b = s.to_row_key().unwrap();
    assert_eq!(b.len(), 1 + 8 + 4);
    assert_eq!(SaltedEvents::from_row_key(&b).unwrap(), s);
    let p = PhoenixSalted {
        created_ms: -1,
        id: 1,
    };
    assert_eq!(
        PhoenixSalted::from_row_key(&p.to_row_key().unwrap()).unwrap(),
        p
    );
    let h = Hashed {
        created_ms: 42,
        id: 2,
    };
    let b = h.to_row_key().unwrap();
    assert_eq!(b.len(), 4 + 8 + 4);
    assert_eq!(Hashed::from_row_key(&b).unwrap(), h);
}
