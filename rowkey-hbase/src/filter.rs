//! Typed server-side filters for a [`Read`](crate::Read): HBase's own filter classes, sent as
//! the protobuf messages HBase defines for them (`Filter.proto`, `Comparator.proto`, through
//! bindings generated from those files, see `rowkey-hbase/proto/regen.sh`) in the scan's
//! `filterBytes`.
//!
//! A typed read sends **one** filter per scanner: a `FilterList` (`MUST_PASS_ALL`) of the
//! read's row ranges (`MultiRowRangeFilter`), the filters given here, and keys-only
//! (`FirstKeyOnlyFilter`, `KeyOnlyFilter`). That is why a read takes typed filters: the
//! Thrift2 gateway applies either the scan's `filterString` or its `filterBytes`, never both
//! (`ThriftUtilities.scanFromThrift` sets the string's filter, then replaces it with the bytes'
//! one), so a filter string cannot travel beside the ranges. A read given a filter string
//! ([`Read::filter`](crate::Read::filter)) still works: it opens one scanner per range, in
//! turn, each with the string — exact, but one scanner (a seek and a round trip) per range
//! instead of one per salt bucket.
//!
//! ```
//! use rowkey_hbase::filter::{CompareOp, Comparator, Filter};
//!
//! // rows whose o:status is "open" (rows without the column are dropped), and of those only
//! // the columns whose qualifier starts with "amount"
//! let f = Filter::all([
//!     Filter::single_column_value("o", b"status", CompareOp::Equal, Comparator::Binary(b"open".to_vec()))
//!         .if_missing_drop(),
//!     Filter::ColumnPrefix(b"amount".to_vec()),
//! ]);
//! assert!(!f.to_bytes().is_empty());
//! ```

use prost::Message;

use crate::proto;

const FILTERS: &str = "org.apache.hadoop.hbase.filter.";

/// A comparison of a [`Filter`]: HBase's `CompareOperator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CompareOp {
    /// `<`
    Less,
    /// `<=`
    LessOrEqual,
    /// `=`
    Equal,
    /// `!=`
    NotEqual,
    /// `>=`
    GreaterOrEqual,
    /// `>`
    Greater,
}

impl CompareOp {
    fn to_proto(self) -> proto::CompareType {
        match self {
            CompareOp::Less => proto::CompareType::Less,
            CompareOp::LessOrEqual => proto::CompareType::LessOrEqual,
            CompareOp::Equal => proto::CompareType::Equal,
            CompareOp::NotEqual => proto::CompareType::NotEqual,
            CompareOp::GreaterOrEqual => proto::CompareType::GreaterOrEqual,
            CompareOp::Greater => proto::CompareType::Greater,
        }
    }
}

/// What a [`Filter`]'s bytes are compared with: HBase's `ByteArrayComparable`s.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Comparator {
    /// The bytes, compared lexicographically (`BinaryComparator`).
    Binary(Vec<u8>),
    /// The bytes' first bytes (`BinaryPrefixComparator`).
    BinaryPrefix(Vec<u8>),
    /// Contains this text, case-insensitively (`SubstringComparator`: only `Equal` and
    /// `NotEqual` make sense with it).
    Substring(String),
    /// Matches this Java regular expression (`RegexStringComparator`, UTF-8, Java engine:
    /// only `Equal` and `NotEqual` make sense with it).
    Regex(String),
    /// An 8-byte big-endian `long` (HBase `Bytes.toBytes(long)`), compared as a number
    /// (`LongComparator`).
    Long(i64),
}

impl Comparator {
    fn to_proto(&self) -> proto::Comparator {
        let comparable = |value: &[u8]| proto::ByteArrayComparable {
            value: Some(value.to_vec()),
        };
        let (class, bytes) = match self {
            Comparator::Binary(v) => (
                "BinaryComparator",
                proto::BinaryComparator {
                    comparable: comparable(v),
                }
                .encode_to_vec(),
            ),
            Comparator::BinaryPrefix(v) => (
                "BinaryPrefixComparator",
                proto::BinaryPrefixComparator {
                    comparable: comparable(v),
                }
                .encode_to_vec(),
            ),
            Comparator::Substring(s) => (
                "SubstringComparator",
                proto::SubstringComparator {
                    // HBase lowercases it on construction; its parseFrom does not
                    substr: s.to_lowercase(),
                }
                .encode_to_vec(),
            ),
            Comparator::Regex(p) => (
                "RegexStringComparator",
                proto::RegexStringComparator {
                    pattern: p.clone(),
                    pattern_flags: 0,
                    charset: "UTF-8".into(),
                    engine: Some("JAVA".into()),
                }
                .encode_to_vec(),
            ),
            Comparator::Long(n) => (
                "LongComparator",
                proto::LongComparator {
                    comparable: comparable(&n.to_be_bytes()),
                }
                .encode_to_vec(),
            ),
        };
        proto::Comparator {
            name: format!("{FILTERS}{class}"),
            serialized_comparator: Some(bytes),
        }
    }
}

/// A typed HBase server-side filter (see the [module docs](self)). Build one with the
/// variants or the helper functions and give it to
/// [`Read::with_filter`](crate::Read::with_filter).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Filter {
    /// Cells whose value compares so (`ValueFilter`).
    Value(CompareOp, Comparator),
    /// Cells whose qualifier compares so (`QualifierFilter`).
    Qualifier(CompareOp, Comparator),
    /// Cells whose family compares so (`FamilyFilter`).
    Family(CompareOp, Comparator),
    /// Rows whose key compares so (`RowFilter`). The read's ranges already choose the rows:
    /// this is for a condition the ranges cannot say (a regular expression, say).
    Row(CompareOp, Comparator),
    /// Rows whose column `family:qualifier` compares so (`SingleColumnValueFilter`).
    SingleColumnValue {
        /// The column's family.
        family: Vec<u8>,
        /// The column's qualifier.
        qualifier: Vec<u8>,
        /// The comparison.
        op: CompareOp,
        /// What the value is compared with.
        comparator: Comparator,
        /// Drop the rows that do not have the column (HBase's default keeps them).
        filter_if_missing: bool,
        /// Compare only the column's newest version (HBase's default).
        latest_version_only: bool,
    },
    /// Columns whose qualifier starts with these bytes (`ColumnPrefixFilter`).
    ColumnPrefix(Vec<u8>),
    /// Columns whose qualifier starts with any of these (`MultipleColumnPrefixFilter`).
    MultipleColumnPrefix(Vec<Vec<u8>>),
    /// Cells with exactly these timestamps (`TimestampsFilter`).
    Timestamps(Vec<i64>),
    /// Every filter passes (`FilterList`, `MUST_PASS_ALL`).
    All(Vec<Filter>),
    /// Any filter passes (`FilterList`, `MUST_PASS_ONE`).
    Any(Vec<Filter>),
}

impl Filter {
    /// [`Filter::SingleColumnValue`] with HBase's defaults (rows without the column pass; the
    /// newest version is compared).
    pub fn single_column_value(
        family: &str,
        qualifier: &[u8],
        op: CompareOp,
        comparator: Comparator,
    ) -> Filter {
        Filter::SingleColumnValue {
            family: family.as_bytes().to_vec(),
            qualifier: qualifier.to_vec(),
            op,
            comparator,
            filter_if_missing: false,
            latest_version_only: true,
        }
    }

    /// A [`Filter::SingleColumnValue`] that drops the rows without the column; other filters
    /// are returned as they are.
    #[must_use]
    pub fn if_missing_drop(self) -> Filter {
        match self {
            Filter::SingleColumnValue {
                family,
                qualifier,
                op,
                comparator,
                latest_version_only,
                ..
            } => Filter::SingleColumnValue {
                family,
                qualifier,
                op,
                comparator,
                filter_if_missing: true,
                latest_version_only,
            },
            other => other,
        }
    }

    /// Every filter passes.
    pub fn all(filters: impl IntoIterator<Item = Filter>) -> Filter {
        Filter::All(filters.into_iter().collect())
    }

    /// Any filter passes.
    pub fn any(filters: impl IntoIterator<Item = Filter>) -> Filter {
        Filter::Any(filters.into_iter().collect())
    }

    /// The filter as HBase's `Filter` message (class name and serialized filter), encoded:
    /// what the Thrift2 gateway's `filterBytes` carries.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_proto().encode_to_vec()
    }

    pub(crate) fn to_proto(&self) -> proto::Filter {
        let compare = |op: &CompareOp, c: &Comparator| proto::CompareFilter {
            compare_op: op.to_proto() as i32,
            comparator: Some(c.to_proto()),
        };
        match self {
            Filter::Value(op, c) => named(
                "ValueFilter",
                proto::ValueFilter {
                    compare_filter: compare(op, c),
                },
            ),
            Filter::Qualifier(op, c) => named(
                "QualifierFilter",
                proto::QualifierFilter {
                    compare_filter: compare(op, c),
                },
            ),
            Filter::Family(op, c) => named(
                "FamilyFilter",
                proto::FamilyFilter {
                    compare_filter: compare(op, c),
                },
            ),
            Filter::Row(op, c) => named(
                "RowFilter",
                proto::RowFilter {
                    compare_filter: compare(op, c),
                },
            ),
            Filter::SingleColumnValue {
                family,
                qualifier,
                op,
                comparator,
                filter_if_missing,
                latest_version_only,
            } => named(
                "SingleColumnValueFilter",
                proto::SingleColumnValueFilter {
                    column_family: Some(family.clone()),
                    column_qualifier: Some(qualifier.clone()),
                    compare_op: op.to_proto() as i32,
                    comparator: comparator.to_proto(),
                    filter_if_missing: Some(*filter_if_missing),
                    latest_version_only: Some(*latest_version_only),
                },
            ),
            Filter::ColumnPrefix(p) => named(
                "ColumnPrefixFilter",
                proto::ColumnPrefixFilter { prefix: p.clone() },
            ),
            Filter::MultipleColumnPrefix(ps) => {
                let mut sorted = ps.clone();
                sorted.sort();
                sorted.dedup();
                named(
                    "MultipleColumnPrefixFilter",
                    proto::MultipleColumnPrefixFilter {
                        sorted_prefixes: sorted,
                    },
                )
            }
            Filter::Timestamps(ts) => {
                let mut sorted = ts.clone();
                sorted.sort_unstable();
                sorted.dedup();
                named(
                    "TimestampsFilter",
                    proto::TimestampsFilter {
                        timestamps: sorted,
                        can_hint: Some(true),
                    },
                )
            }
            Filter::All(fs) => list(proto::filter_list::Operator::MustPassAll, fs),
            Filter::Any(fs) => list(proto::filter_list::Operator::MustPassOne, fs),
        }
    }
}

fn named(class: &str, message: impl Message) -> proto::Filter {
    proto::Filter {
        name: format!("{FILTERS}{class}"),
        serialized_filter: Some(message.encode_to_vec()),
    }
}

fn list(op: proto::filter_list::Operator, filters: &[Filter]) -> proto::Filter {
    filter_list(op, filters.iter().map(Filter::to_proto).collect())
}

pub(crate) fn filter_list(
    op: proto::filter_list::Operator,
    filters: Vec<proto::Filter>,
) -> proto::Filter {
    named(
        "FilterList",
        proto::FilterList {
            operator: op as i32,
            filters,
        },
    )
}

/// The filters rowkey adds to a scanner itself.
pub(crate) mod own {
    use super::{named, proto};

    /// The rows of these `[start, stop)` ranges (sorted and disjoint; an empty start is the
    /// start of the table, `None` the end).
    pub(crate) fn multi_row_range<'a>(
        ranges: impl IntoIterator<Item = (&'a [u8], Option<&'a [u8]>)>,
    ) -> proto::Filter {
        named(
            "MultiRowRangeFilter",
            proto::MultiRowRangeFilter {
                row_range_list: ranges
                    .into_iter()
                    .map(|(start, stop)| proto::RowRange {
                        start_row: Some(start.to_vec()),
                        start_row_inclusive: Some(true),
                        stop_row: Some(stop.map(<[u8]>::to_vec).unwrap_or_default()),
                        stop_row_inclusive: Some(false),
                    })
                    .collect(),
            },
        )
    }

    /// Ends a scan after `stop` (a reversed scan: at the first row below it).
    pub(crate) fn inclusive_stop(stop: &[u8]) -> proto::Filter {
        named(
            "InclusiveStopFilter",
            proto::InclusiveStopFilter {
                stop_row_key: Some(stop.to_vec()),
            },
        )
    }

    /// Only each row's first cell, with an empty value: the keys.
    pub(crate) fn keys_only() -> [proto::Filter; 2] {
        [
            named("FirstKeyOnlyFilter", proto::FirstKeyOnlyFilter {}),
            named("KeyOnlyFilter", proto::KeyOnlyFilter { len_as_val: false }),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_the_java_class_names_and_decode_back() {
        let f = Filter::all([
            Filter::Value(CompareOp::Equal, Comparator::Binary(b"x".to_vec())),
            Filter::single_column_value("o", b"s", CompareOp::Greater, Comparator::Long(7))
                .if_missing_drop(),
        ]);
        let back = proto::Filter::decode(f.to_bytes().as_slice()).expect("decodes");
        assert_eq!(back.name, "org.apache.hadoop.hbase.filter.FilterList");
        let list = proto::FilterList::decode(back.serialized_filter.as_deref().unwrap_or_default())
            .expect("a FilterList");
        assert_eq!(
            list.operator,
            proto::filter_list::Operator::MustPassAll as i32
        );
        assert_eq!(list.filters.len(), 2);
        assert_eq!(
            list.filters[0].name,
            "org.apache.hadoop.hbase.filter.ValueFilter"
        );
        let scv = proto::SingleColumnValueFilter::decode(
            list.filters[1]
                .serialized_filter
                .as_deref()
                .unwrap_or_default(),
        )
        .expect("a SingleColumnValueFilter");
        assert_eq!(scv.filter_if_missing, Some(true));
        assert_eq!(scv.compare_op, proto::CompareType::Greater as i32);
        assert_eq!(
            scv.comparator.name,
            "org.apache.hadoop.hbase.filter.LongComparator"
        );
    }

    #[test]
    fn an_open_range_has_an_empty_stop_row() {
        let f = own::multi_row_range([(&b"a"[..], Some(&b"b"[..])), (&b"c"[..], None)]);
        let m =
            proto::MultiRowRangeFilter::decode(f.serialized_filter.as_deref().unwrap_or_default())
                .expect("decodes");
        assert_eq!(m.row_range_list[1].stop_row.as_deref(), Some(&b""[..]));
        assert_eq!(m.row_range_list[0].start_row_inclusive, Some(true));
        assert_eq!(m.row_range_list[0].stop_row_inclusive, Some(false));
    }
}
