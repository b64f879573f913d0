//! The layouts, values and queries of the store oracles (`rowkey-bigtable/tests/bigtable/oracle.rs`,
//! `rowkey-hbase/tests/hbase/oracle.rs`): six layouts — (1) salted prefix, (2) whole-key salt, (3)
//! `hash_prefix`, (4) modulo time buckets, (5) no salt with a fixed-width id that can be all
//! `0xFF`, (6) a constant prefix and a 2-byte salt before a `#[rowkey(java)]` signed field and an
//! `Option` — each with every builder form: equality prefixes of every length, `_range` on
//! every orderable field with all nine bound shapes, and `_starts_with` on every string/bytes
//! field. Each query carries a predicate on the field values (never the scan ranges) that the
//! store's rows are checked against. Included by path; not a test target of its own.
#![allow(dead_code, unreachable_pub)]

use std::fmt::Debug;
use std::ops::Bound;

use rowkey::{RowKey, ScanRanges};

#[path = "../common/ranges.rs"]
pub mod ranges;
// ---------------------------------------------------------------------------------------------
// Layouts

/// (1) salted prefix: the salt hashes `host` only.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Salted {
    #[salt(buckets = 8)]
    #[sep]
    pub host: String,
    #[sep]
    pub data: Vec<u8>,
    pub ts: u64,
}

/// (2) whole-key salt (Phoenix style).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16))]
pub struct Whole {
    #[sep]
    pub user: Vec<u8>,
    pub kind: u8,
    pub ts: u64,
}

/// (3) hash prefix, newest first, raw bytes last.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Hashed {
    #[hash_prefix(4)]
    #[sep]
    pub user: String,
    #[reverse_ts]
    pub ts: i64,
    pub tag: Vec<u8>,
}

/// (4) modulo time buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Bucketed {
    #[salt(buckets = 16, modulo)]
    pub ts: u64,
    #[sep]
    pub host: String,
    pub event: u8,
}

/// (5) no salt; an id that can be all 0xFF, a separated name, a descending counter.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Plain {
    pub id: [u8; 2],
    #[sep]
    pub name: Vec<u8>,
    #[desc]
    pub rev: u16,
}

/// (6) interop behind a constant prefix and a 2-byte salt: a Java-encoded signed field (a range
/// is up to two byte ranges) and an `Option` (None first).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix = b"ix:")]
pub struct Interop {
    #[salt(buckets = 260)]
    pub shop: u8,
    #[rowkey(java)]
    pub delta: i32,
    pub level: Option<u16>,
}

// ---------------------------------------------------------------------------------------------
// Values

/// SplitMix64: deterministic.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<T: Clone>(&mut self, pool: &[T]) -> T {
        pool[self.below(pool.len())].clone()
    }
}

pub const HOSTS: &[&str] = &[
    "host1",
    "host12",
    "host2",
    "host",
    "",
    "h\u{0}",
    "h\u{0}x",
    "h\u{1}",
    "h\u{1}\u{1}",
    "a",
    "zz",
    "host1\u{0}",
    "host1\u{1}",
];

pub fn bytes_pool() -> Vec<Vec<u8>> {
    vec![
        vec![],
        vec![0],
        vec![0, 0],
        vec![1],
        vec![0, 1],
        vec![1, 0],
        vec![0xFF],
        vec![0xFF, 0xFF],
        vec![0xFF, 0xFF, 0xFF],
        vec![0xFF, 0x00],
        vec![0xFE, 0xFF],
        vec![0x00, 0xFF],
        b"host1".to_vec(),
        b"host12".to_vec(),
    ]
}

pub const TS_BASE: u64 = 1_700_000_000_000;

pub fn ts_pool() -> Vec<u64> {
    let mut v: Vec<u64> = (0..24).map(|i| TS_BASE + i * 7).collect();
    v.extend([0, 1, 255, 256, u64::MAX, u64::MAX - 1]);
    v
}

pub fn i64_ts_pool() -> Vec<i64> {
    let mut v: Vec<i64> = (0..12).map(|i| TS_BASE as i64 + i * 1000).collect();
    v.extend([0, 1, i64::MAX]);
    v
}

/// Prefixes for `_starts_with`: pool values and their prefixes.
pub fn prefixes_of(values: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = values
        .iter()
        .flat_map(|v| (0..=v.len()).map(move |i| v[..i].to_vec()))
        .collect();
    out.sort();
    out.dedup();
    out
}

pub fn str_prefixes() -> Vec<String> {
    let mut out: Vec<String> = HOSTS
        .iter()
        .flat_map(|h| {
            h.char_indices()
                .map(|(i, _)| h[..i].to_owned())
                .chain([h.to_string()])
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

// ---------------------------------------------------------------------------------------------
// Range shapes (shared with tests/scans/scan_store_props.rs)

// (the test binary declares `shapes` at its root, with its macros)
pub use crate::shapes::*;

// ---------------------------------------------------------------------------------------------
// Queries

pub type Pred<T> = Box<dyn Fn(&T) -> bool>;

pub struct Query<T> {
    pub form: String,
    pub ranges: ScanRanges,
    pub pred: Pred<T>,
}

pub fn q<T>(
    form: impl Into<String>,
    ranges: ScanRanges,
    pred: impl Fn(&T) -> bool + 'static,
) -> Query<T> {
    let form = form.into();
    // every query's ranges are sorted, disjoint, within a bucket each and minimal
    ranges::assert_well_formed(&form, &ranges);
    Query {
        form,
        ranges,
        pred: Box::new(pred),
    }
}

/// 0 to 4 values of `pool` (repeats allowed; 1 in 8 lists is empty).
pub fn some<T: Clone>(rng: &mut Rng, pool: &[T]) -> Vec<T> {
    let n = if rng.below(8) == 0 {
        0
    } else {
        1 + rng.below(4)
    };
    (0..n).map(|_| rng.pick(pool)).collect()
}

/// `values` of one field of `keys`.
pub fn field<T, F: Clone>(keys: &[T], f: impl Fn(&T) -> F) -> Vec<F> {
    keys.iter().map(f).collect()
}

pub trait Case:
    RowKey + for<'de> rowkey::DecodeRowKey<'de> + Clone + Debug + PartialEq + Send + 'static
{
    const TABLE: &'static str;
    /// Number of builder forms [`Case::query`] chooses from.
    const FORMS: usize;
    fn random(rng: &mut Rng) -> Self;
    /// An IN-list query (`.field_in(values)` on a prefix of the fields, then optionally a
    /// range on the next one): its values drawn from `pool` (stored keys and others).
    fn in_query(pool: &[Self], sh: Shape, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self>;
    /// Query of form `form`, with equality values from `t` and range bounds from `lo`, `hi`.
    fn query(
        form: usize,
        shape: Shape,
        t: &Self,
        lo: &Self,
        hi: &Self,
        rng: &mut Rng,
    ) -> Query<Self>;
}

impl Case for Salted {
    const TABLE: &'static str = "salted";
    const FORMS: usize = 9;
    fn random(rng: &mut Rng) -> Self {
        Salted {
            host: rng.pick(HOSTS).to_owned(),
            data: rng.pick(&bytes_pool()),
            ts: rng.pick(&ts_pool()),
        }
    }
    fn in_query(pool: &[Self], sh: Shape, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Salted::scan();
        let hosts = some(rng, &field(pool, |k| k.host.clone()));
        let datas = some(rng, &field(pool, |k| k.data.clone()));
        let tss = some(rng, &field(pool, |k| k.ts));
        let s = s.host_in(&hosts).expect("cap");
        match rng.below(4) {
            0 => q(format!("host_in {hosts:?}"), s.ranges(), move |k: &Self| {
                hosts.contains(&k.host)
            }),
            1 => {
                let r = s.data_in(&datas).expect("cap").ranges();
                q(
                    format!("host_in.data_in {hosts:?} {datas:?}"),
                    r,
                    move |k: &Self| hosts.contains(&k.host) && datas.contains(&k.data),
                )
            }
            2 => {
                let r = s
                    .data_in(&datas)
                    .expect("cap")
                    .ts_in(&tss)
                    .expect("cap")
                    .ranges();
                q(
                    format!("host_in.data_in.ts_in {hosts:?} {datas:?} {tss:?}"),
                    r,
                    move |k: &Self| {
                        hosts.contains(&k.host) && datas.contains(&k.data) && tss.contains(&k.ts)
                    },
                )
            }
            _ => {
                let b = bounds(sh, lo.data.clone(), hi.data.clone());
                let r = with_range!(sh, lo.data.clone(), hi.data.clone(), |r| s
                    .data_range(r)
                    .ranges());
                q(
                    format!("host_in.data_range {hosts:?} {sh:?}"),
                    r,
                    move |k: &Self| hosts.contains(&k.host) && contains(&b, &k.data),
                )
            }
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Salted::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("host", s.host(&t.host).ranges(), move |k: &Self| {
                k.host == t.host
            }),
            2 => q(
                "host.data",
                s.host(&t.host).data(&t.data).ranges(),
                move |k: &Self| k.host == t.host && k.data == t.data,
            ),
            3 => q(
                "host.data.ts",
                s.host(&t.host).data(&t.data).ts(t.ts).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.host.clone(), hi.host.clone());
                let r = with_range!(sh, lo.host.clone(), hi.host.clone(), |r| s
                    .host_range(r)
                    .ranges());
                q(format!("host_range {sh:?}"), r, move |k: &Self| {
                    contains(&b, &k.host)
                })
            }
            5 => {
                let b = bounds(sh, lo.data.clone(), hi.data.clone());
                let r = with_range!(sh, lo.data.clone(), hi.data.clone(), |r| s
                    .host(&t.host)
                    .data_range(r)
                    .ranges());
                q(format!("host.data_range {sh:?}"), r, move |k: &Self| {
                    k.host == t.host && contains(&b, &k.data)
                })
            }
            6 => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s
                    .host(&t.host)
                    .data(&t.data)
                    .ts_range(r)
                    .ranges());
                q(format!("host.data.ts_range {sh:?}"), r, move |k: &Self| {
                    k.host == t.host && k.data == t.data && contains(&b, &k.ts)
                })
            }
            7 => {
                let p = rng.pick(&str_prefixes());
                let r = s.host_starts_with(&p).ranges();
                q(format!("host_starts_with {p:?}"), r, move |k: &Self| {
                    k.host.starts_with(&p)
                })
            }
            _ => {
                let p = rng.pick(&prefixes_of(&bytes_pool()));
                let r = s.host(&t.host).data_starts_with(&p).ranges();
                q(
                    format!("host.data_starts_with {p:?}"),
                    r,
                    move |k: &Self| k.host == t.host && k.data.starts_with(&p),
                )
            }
        }
    }
}

impl Case for Whole {
    const TABLE: &'static str = "whole";
    const FORMS: usize = 8;
    fn random(rng: &mut Rng) -> Self {
        Whole {
            user: rng.pick(&bytes_pool()),
            kind: rng.pick(&[0u8, 1, 7, 0xFF]),
            ts: rng.pick(&ts_pool()),
        }
    }
    fn in_query(pool: &[Self], sh: Shape, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Whole::scan();
        let users = some(rng, &field(pool, |k| k.user.clone()));
        let kinds = some(rng, &[0u8, 1, 2, 7, 0xFF]);
        let tss = some(rng, &field(pool, |k| k.ts));
        let s = s.user_in(&users).expect("cap");
        match rng.below(4) {
            0 => q(format!("user_in {users:?}"), s.ranges(), move |k: &Self| {
                users.contains(&k.user)
            }),
            1 => {
                let r = s.kind_in(&kinds).expect("cap").ranges();
                q(
                    format!("user_in.kind_in {users:?} {kinds:?}"),
                    r,
                    move |k: &Self| users.contains(&k.user) && kinds.contains(&k.kind),
                )
            }
            2 => {
                let r = s
                    .kind_in(&kinds)
                    .expect("cap")
                    .ts_in(&tss)
                    .expect("cap")
                    .ranges();
                q(
                    format!("user_in.kind_in.ts_in {users:?} {kinds:?} {tss:?}"),
                    r,
                    move |k: &Self| {
                        users.contains(&k.user) && kinds.contains(&k.kind) && tss.contains(&k.ts)
                    },
                )
            }
            _ => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s
                    .kind_in(&kinds)
                    .expect("cap")
                    .ts_range(r)
                    .ranges());
                q(
                    format!("user_in.kind_in.ts_range {users:?} {kinds:?} {sh:?}"),
                    r,
                    move |k: &Self| {
                        users.contains(&k.user) && kinds.contains(&k.kind) && contains(&b, &k.ts)
                    },
                )
            }
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Whole::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("user", s.user(&t.user).ranges(), move |k: &Self| {
                k.user == t.user
            }),
            2 => q(
                "user.kind",
                s.user(&t.user).kind(t.kind).ranges(),
                move |k: &Self| k.user == t.user && k.kind == t.kind,
            ),
            3 => q(
                "user.kind.ts",
                s.user(&t.user).kind(t.kind).ts(t.ts).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.user.clone(), hi.user.clone());
                let r = with_range!(sh, lo.user.clone(), hi.user.clone(), |r| s
                    .user_range(r)
                    .ranges());
                q(format!("user_range {sh:?}"), r, move |k: &Self| {
                    contains(&b, &k.user)
                })
            }
            5 => {
                let b = bounds(sh, lo.kind, hi.kind);
                let r = with_range!(sh, lo.kind, hi.kind, |r| s
                    .user(&t.user)
                    .kind_range(r)
                    .ranges());
                q(format!("user.kind_range {sh:?}"), r, move |k: &Self| {
                    k.user == t.user && contains(&b, &k.kind)
                })
            }
            6 => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s
                    .user(&t.user)
                    .kind(t.kind)
                    .ts_range(r)
                    .ranges());
                q(format!("user.kind.ts_range {sh:?}"), r, move |k: &Self| {
                    k.user == t.user && k.kind == t.kind && contains(&b, &k.ts)
                })
            }
            _ => {
                let p = rng.pick(&prefixes_of(&bytes_pool()));
                let r = s.user_starts_with(&p).ranges();
                q(format!("user_starts_with {p:?}"), r, move |k: &Self| {
                    k.user.starts_with(&p)
                })
            }
        }
    }
}

impl Case for Hashed {
    const TABLE: &'static str = "hashed";
    const FORMS: usize = 7;
    fn random(rng: &mut Rng) -> Self {
        Hashed {
            user: rng.pick(HOSTS).to_owned(),
            ts: rng.pick(&i64_ts_pool()),
            tag: rng.pick(&bytes_pool()),
        }
    }
    fn in_query(pool: &[Self], sh: Shape, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Hashed::scan();
        let users = some(rng, &field(pool, |k| k.user.clone()));
        let tss = some(rng, &field(pool, |k| k.ts));
        let tags = some(rng, &field(pool, |k| k.tag.clone()));
        let s = s.user_in(&users).expect("cap");
        match rng.below(4) {
            0 => q(format!("user_in {users:?}"), s.ranges(), move |k: &Self| {
                users.contains(&k.user)
            }),
            1 => {
                let r = s.ts_in(&tss).expect("cap").ranges();
                q(
                    format!("user_in.ts_in {users:?} {tss:?}"),
                    r,
                    move |k: &Self| users.contains(&k.user) && tss.contains(&k.ts),
                )
            }
            2 => {
                let r = s
                    .ts_in(&tss)
                    .expect("cap")
                    .tag_in(&tags)
                    .expect("cap")
                    .ranges();
                q(
                    format!("user_in.ts_in.tag_in {users:?} {tss:?} {tags:?}"),
                    r,
                    move |k: &Self| {
                        users.contains(&k.user) && tss.contains(&k.ts) && tags.contains(&k.tag)
                    },
                )
            }
            _ => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s.ts_range(r).ranges());
                q(
                    format!("user_in.ts_range {users:?} {sh:?}"),
                    r,
                    move |k: &Self| users.contains(&k.user) && contains(&b, &k.ts),
                )
            }
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Hashed::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("user", s.user(&t.user).ranges(), move |k: &Self| {
                k.user == t.user
            }),
            2 => q(
                "user.ts",
                s.user(&t.user).ts(t.ts).ranges(),
                move |k: &Self| k.user == t.user && k.ts == t.ts,
            ),
            3 => q(
                "user.ts.tag",
                s.user(&t.user).ts(t.ts).tag(&t.tag).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s.user(&t.user).ts_range(r).ranges());
                q(format!("user.ts_range {sh:?}"), r, move |k: &Self| {
                    k.user == t.user && contains(&b, &k.ts)
                })
            }
            5 => {
                let b = bounds(sh, lo.tag.clone(), hi.tag.clone());
                let r = with_range!(sh, lo.tag.clone(), hi.tag.clone(), |r| s
                    .user(&t.user)
                    .ts(t.ts)
                    .tag_range(r)
                    .ranges());
                q(format!("user.ts.tag_range {sh:?}"), r, move |k: &Self| {
                    k.user == t.user && k.ts == t.ts && contains(&b, &k.tag)
                })
            }
            _ => {
                let p = rng.pick(&prefixes_of(&bytes_pool()));
                let r = s.user(&t.user).ts(t.ts).tag_starts_with(&p).ranges();
                q(
                    format!("user.ts.tag_starts_with {p:?}"),
                    r,
                    move |k: &Self| k.user == t.user && k.ts == t.ts && k.tag.starts_with(&p),
                )
            }
        }
    }
}

impl Case for Bucketed {
    const TABLE: &'static str = "bucketed";
    const FORMS: usize = 8;
    fn random(rng: &mut Rng) -> Self {
        Bucketed {
            ts: rng.pick(&ts_pool()),
            host: rng.pick(HOSTS).to_owned(),
            event: rng.pick(&[0u8, 1, 2, 0xFF]),
        }
    }
    fn in_query(pool: &[Self], sh: Shape, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Bucketed::scan();
        let tss = some(rng, &field(pool, |k| k.ts));
        let hosts = some(rng, &field(pool, |k| k.host.clone()));
        let events = some(rng, &field(pool, |k| k.event));
        let s = s.ts_in(&tss).expect("cap");
        match rng.below(4) {
            0 => q(format!("ts_in {tss:?}"), s.ranges(), move |k: &Self| {
                tss.contains(&k.ts)
            }),
            1 => {
                let r = s.host_in(&hosts).expect("cap").ranges();
                q(
                    format!("ts_in.host_in {tss:?} {hosts:?}"),
                    r,
                    move |k: &Self| tss.contains(&k.ts) && hosts.contains(&k.host),
                )
            }
            2 => {
                let r = s
                    .host_in(&hosts)
                    .expect("cap")
                    .event_in(&events)
                    .expect("cap")
                    .ranges();
                q(
                    format!("ts_in.host_in.event_in {tss:?} {hosts:?} {events:?}"),
                    r,
                    move |k: &Self| {
                        tss.contains(&k.ts) && hosts.contains(&k.host) && events.contains(&k.event)
                    },
                )
            }
            _ => {
                let b = bounds(sh, lo.host.clone(), hi.host.clone());
                let r = with_range!(sh, lo.host.clone(), hi.host.clone(), |r| s
                    .host_range(r)
                    .ranges());
                q(
                    format!("ts_in.host_range {tss:?} {sh:?}"),
                    r,
                    move |k: &Self| tss.contains(&k.ts) && contains(&b, &k.host),
                )
            }
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Bucketed::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("ts", s.ts(t.ts).ranges(), move |k: &Self| k.ts == t.ts),
            2 => q(
                "ts.host",
                s.ts(t.ts).host(&t.host).ranges(),
                move |k: &Self| k.ts == t.ts && k.host == t.host,
            ),
            3 => q(
                "ts.host.event",
                s.ts(t.ts).host(&t.host).event(t.event).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.ts, hi.ts);
                let r = with_range!(sh, lo.ts, hi.ts, |r| s.ts_range(r).ranges());
                q(format!("ts_range {sh:?}"), r, move |k: &Self| {
                    contains(&b, &k.ts)
                })
            }
            5 => {
                let b = bounds(sh, lo.host.clone(), hi.host.clone());
                let r = with_range!(sh, lo.host.clone(), hi.host.clone(), |r| s
                    .ts(t.ts)
                    .host_range(r)
                    .ranges());
                q(format!("ts.host_range {sh:?}"), r, move |k: &Self| {
                    k.ts == t.ts && contains(&b, &k.host)
                })
            }
            6 => {
                let b = bounds(sh, lo.event, hi.event);
                let r = with_range!(sh, lo.event, hi.event, |r| s
                    .ts(t.ts)
                    .host(&t.host)
                    .event_range(r)
                    .ranges());
                q(format!("ts.host.event_range {sh:?}"), r, move |k: &Self| {
                    k.ts == t.ts && k.host == t.host && contains(&b, &k.event)
                })
            }
            _ => {
                let p = rng.pick(&str_prefixes());
                let r = s.ts(t.ts).host_starts_with(&p).ranges();
                q(format!("ts.host_starts_with {p:?}"), r, move |k: &Self| {
                    k.ts == t.ts && k.host.starts_with(&p)
                })
            }
        }
    }
}

pub const IDS: &[[u8; 2]] = &[
    [0xFF, 0xFF],
    [0xFF, 0xFE],
    [0xFE, 0xFF],
    [0x00, 0x00],
    [0x00, 0x01],
    [0x01, 0x00],
    [0x7F, 0xFF],
];

impl Case for Plain {
    const TABLE: &'static str = "plain";
    const FORMS: usize = 8;
    fn random(rng: &mut Rng) -> Self {
        Plain {
            id: rng.pick(IDS),
            name: rng.pick(&bytes_pool()),
            rev: rng.pick(&[0u16, 1, 0xFF, 0x100, u16::MAX]),
        }
    }
    fn in_query(pool: &[Self], sh: Shape, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Plain::scan();
        let ids = some(rng, &field(pool, |k| k.id));
        let names = some(rng, &field(pool, |k| k.name.clone()));
        let revs = some(rng, &field(pool, |k| k.rev));
        let s = s.id_in(&ids).expect("cap");
        match rng.below(4) {
            0 => q(format!("id_in {ids:?}"), s.ranges(), move |k: &Self| {
                ids.contains(&k.id)
            }),
            1 => {
                let r = s.name_in(&names).expect("cap").ranges();
                q(
                    format!("id_in.name_in {ids:?} {names:?}"),
                    r,
                    move |k: &Self| ids.contains(&k.id) && names.contains(&k.name),
                )
            }
            2 => {
                let r = s
                    .name_in(&names)
                    .expect("cap")
                    .rev_in(&revs)
                    .expect("cap")
                    .ranges();
                q(
                    format!("id_in.name_in.rev_in {ids:?} {names:?} {revs:?}"),
                    r,
                    move |k: &Self| {
                        ids.contains(&k.id) && names.contains(&k.name) && revs.contains(&k.rev)
                    },
                )
            }
            _ => {
                let b = bounds(sh, lo.rev, hi.rev);
                let r = with_range!(sh, lo.rev, hi.rev, |r| s
                    .name_in(&names)
                    .expect("cap")
                    .rev_range(r)
                    .ranges());
                q(
                    format!("id_in.name_in.rev_range {ids:?} {names:?} {sh:?}"),
                    r,
                    move |k: &Self| {
                        ids.contains(&k.id) && names.contains(&k.name) && contains(&b, &k.rev)
                    },
                )
            }
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Plain::scan();
        let t = t.clone();
        match form {
            0 => q("all", s.ranges(), |_: &Self| true),
            1 => q("id", s.id(t.id).ranges(), move |k: &Self| k.id == t.id),
            2 => q(
                "id.name",
                s.id(t.id).name(&t.name).ranges(),
                move |k: &Self| k.id == t.id && k.name == t.name,
            ),
            3 => q(
                "id.name.rev",
                s.id(t.id).name(&t.name).rev(t.rev).ranges(),
                move |k: &Self| *k == t,
            ),
            4 => {
                let b = bounds(sh, lo.id, hi.id);
                let r = with_range!(sh, lo.id, hi.id, |r| s.id_range(r).ranges());
                q(format!("id_range {sh:?}"), r, move |k: &Self| {
                    contains(&b, &k.id)
                })
            }
            5 => {
                let b = bounds(sh, lo.name.clone(), hi.name.clone());
                let r = with_range!(sh, lo.name.clone(), hi.name.clone(), |r| s
                    .id(t.id)
                    .name_range(r)
                    .ranges());
                q(format!("id.name_range {sh:?}"), r, move |k: &Self| {
                    k.id == t.id && contains(&b, &k.name)
                })
            }
            6 => {
                let b = bounds(sh, lo.rev, hi.rev);
                let r = with_range!(sh, lo.rev, hi.rev, |r| s
                    .id(t.id)
                    .name(&t.name)
                    .rev_range(r)
                    .ranges());
                q(format!("id.name.rev_range {sh:?}"), r, move |k: &Self| {
                    k.id == t.id && k.name == t.name && contains(&b, &k.rev)
                })
            }
            _ => {
                let p = rng.pick(&prefixes_of(&bytes_pool()));
                let r = s.id(t.id).name_starts_with(&p).ranges();
                q(format!("id.name_starts_with {p:?}"), r, move |k: &Self| {
                    k.id == t.id && k.name.starts_with(&p)
                })
            }
        }
    }
}

impl Case for Interop {
    const TABLE: &'static str = "interop";
    const FORMS: usize = 5;
    fn random(rng: &mut Rng) -> Self {
        let delta = if rng.below(2) == 0 {
            rng.pick(&[i32::MIN, -70_000, -2, -1, 0, 1, 2, 70_000, i32::MAX])
        } else {
            rng.below(101) as i32 - 50
        };
        Interop {
            shop: rng.pick(&[0u8, 1, 2, 0xFF]),
            delta,
            level: rng.pick(&[None, Some(0u16), Some(1), Some(0xFF), Some(u16::MAX)]),
        }
    }
    fn in_query(pool: &[Self], sh: Shape, lo: &Self, hi: &Self, rng: &mut Rng) -> Query<Self> {
        let s = Interop::scan();
        let shops = some(rng, &field(pool, |k| k.shop));
        let deltas = some(rng, &field(pool, |k| k.delta));
        let levels = some(rng, &field(pool, |k| k.level));
        let s = s.shop_in(&shops).expect("cap");
        match rng.below(4) {
            0 => q(format!("shop_in {shops:?}"), s.ranges(), move |k: &Self| {
                shops.contains(&k.shop)
            }),
            1 => {
                let r = s.delta_in(&deltas).expect("cap").ranges();
                q(
                    format!("shop_in.delta_in {shops:?} {deltas:?}"),
                    r,
                    move |k: &Self| shops.contains(&k.shop) && deltas.contains(&k.delta),
                )
            }
            2 => {
                let r = s
                    .delta_in(&deltas)
                    .expect("cap")
                    .level_in(&levels)
                    .expect("cap")
                    .ranges();
                q(
                    format!("shop_in.delta_in.level_in {shops:?} {deltas:?} {levels:?}"),
                    r,
                    move |k: &Self| {
                        shops.contains(&k.shop)
                            && deltas.contains(&k.delta)
                            && levels.contains(&k.level)
                    },
                )
            }
            _ => {
                let b = bounds(sh, lo.delta, hi.delta);
                let r = with_range!(sh, lo.delta, hi.delta, |r| s.delta_range(r).ranges());
                q(
                    format!("shop_in.delta_range {shops:?} {sh:?}"),
                    r,
                    move |k: &Self| shops.contains(&k.shop) && contains(&b, &k.delta),
                )
            }
        }
    }
    fn query(form: usize, sh: Shape, t: &Self, lo: &Self, hi: &Self, _: &mut Rng) -> Query<Self> {
        let s = Interop::scan();
        let t = t.clone();
        match form {
            0 => q("shop", s.shop(t.shop).ranges(), move |k: &Self| {
                k.shop == t.shop
            }),
            1 => q(
                "shop.delta",
                s.shop(t.shop).delta(t.delta).ranges(),
                move |k: &Self| k.shop == t.shop && k.delta == t.delta,
            ),
            2 => {
                let b = bounds(sh, lo.delta, hi.delta);
                let r = with_range!(sh, lo.delta, hi.delta, |r| s
                    .shop(t.shop)
                    .delta_range(r)
                    .ranges());
                q(format!("shop.delta_range {sh:?}"), r, move |k: &Self| {
                    k.shop == t.shop && contains(&b, &k.delta)
                })
            }
            3 => {
                let b = bounds(sh, lo.level, hi.level);
                let r = with_range!(sh, lo.level, hi.level, |r| s
                    .shop(t.shop)
                    .delta(t.delta)
                    .level_range(r)
                    .ranges());
                q(
                    format!("shop.delta.level_range {sh:?}"),
                    r,
                    move |k: &Self| {
                        k.shop == t.shop && k.delta == t.delta && contains(&b, &k.level)
                    },
                )
            }
            _ => q(
                "shop.delta.level",
                s.shop(t.shop).delta(t.delta).level(t.level).ranges(),
                move |k: &Self| *k == t,
            ),
        }
    }
}
