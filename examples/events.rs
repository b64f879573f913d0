//! `events`: one row per user event, keyed `md5(uid)[..4] + uid + event_type + biz_type + reverse ts`.
//! Shows which queries a prefix scan serves and which it cannot — on a real embedded store.
//!
//! Run: `cargo run --example events`

mod support;

use rowkey::RowKey;
use support::Store;

/// What the user did. Stored as a 1-byte code ("use codes, not names").
#[derive(RowKey, Debug, Clone, Copy, PartialEq, Eq)]
enum EventType {
    View = 1,
    Click = 2,
    Purchase = 3,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct EventKey {
    /// 4 hex chars of md5(uid) first: users spread over the key space, no hot region.
    #[hash_prefix(4)]
    uid: u64,
    event_type: EventType,
    /// Business line; variable length, so terminated: a scan for "shop" never returns "shopping".
    #[sep]
    biz_type: String,
    /// Newest first within (uid, event_type, biz_type).
    #[reverse_ts]
    ts_ms: i64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::temp("events")?;
    let bizes = ["shop", "shopping", "ads", "video"];
    let types = [EventType::View, EventType::Click, EventType::Purchase];
    let mut rows = Vec::new();
    for uid in 1..=200u64 {
        for i in 0..12i64 {
            let key = EventKey {
                uid,
                event_type: types[(uid as usize + i as usize) % 3],
                biz_type: bizes[(uid as usize * 7 + i as usize) % 4].to_string(),
                ts_ms: 1_700_000_000_000 + i * 60_000 + uid as i64,
            };
            rows.push((key.to_row_key()?, format!("payload {uid}/{i}").into_bytes()));
        }
    }
    store.put_all(rows.iter().map(|(k, v)| (k.as_ref(), v.as_slice())))?;
    println!("wrote {} events for 200 users", rows.len());

    let sample = EventKey::from_row_key(&rows[0].0)?;
    println!(
        "a key:      {}",
        rowkey::hbase::to_string_binary(&rows[0].0)
    );
    println!("described:  {}", EventKey::describe(&rows[0].0));
    assert_eq!(sample.uid, 1);

    // Served by one prefix scan each:
    let show =
        |label: &str, ranges: rowkey::ScanRanges| -> Result<(), Box<dyn std::error::Error>> {
            let found: Vec<EventKey> = store
                .scan_each(&ranges)?
                .into_iter()
                .flatten()
                .map(|(k, _)| EventKey::from_row_key(&k))
                .collect::<Result<_, _>>()?;
            println!(
                "{label:<48} {} range(s), {:>3} rows",
                ranges.len(),
                found.len()
            );
            if let Some(first) = found.first() {
                println!("{:<48} first: {first:?}", "");
            }
            Ok(())
        };
    show("all events of user 42", EventKey::scan().uid(42).ranges())?;
    show(
        "user 42, clicks",
        EventKey::scan()
            .uid(42)
            .event_type(EventType::Click)
            .ranges(),
    )?;
    show(
        "user 42, clicks in \"shop\" (not \"shopping\")",
        EventKey::scan()
            .uid(42)
            .event_type(EventType::Click)
            .biz_type("shop")
            .ranges(),
    )?;
    show(
        "user 42, clicks in biz starting with \"shop\"",
        EventKey::scan()
            .uid(42)
            .event_type(EventType::Click)
            .biz_type_starts_with("shop")
            .ranges(),
    )?;
    show(
        "user 42, clicks in \"shop\", last 5 minutes of data",
        EventKey::scan()
            .uid(42)
            .event_type(EventType::Click)
            .biz_type("shop")
            .ts_ms_range(1_700_000_000_000 + 6 * 60_000..)
            .ranges(),
    )?;
    // Not served: "all clicks of every user" would need event_type first (or a second table),
    // because uid (and its hash) come first. The builder makes the wrong scan unwritable: a
    // range over a hashed field does not compile, and the error says why:
    //
    //     EventKey::scan().uid_range(1..100);
    //     // error[E0277]: rowkey: no range scan on `uid` of `EventKey`: #[hash_prefix] puts a
    //     //   hash of the value first, so a range of values is scattered over the whole key space
    //
    // and neither does skipping a field:
    //
    //     EventKey::scan().event_type(EventType::Click);
    //     // error[E0277]: rowkey: `EventKey::scan()` fixes fields in key order, and `event_type`
    //     //   comes after `uid`, which is not fixed yet
    //
    // (rowkey-ui/tests/ui/fail/scan/ holds the full messages.)
    Ok(())
}
