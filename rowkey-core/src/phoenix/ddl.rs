//! The `CREATE TABLE` of a Phoenix primary key: [`Column`], [`create_table`].

use std::borrow::Cow;

use super::traits::PhoenixType;

/// One primary-key column of a [`create_table`] statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The column name (unquoted identifiers are upper-cased by Phoenix; a name that is not
    /// a plain identifier is written quoted).
    pub name: String,
    /// The SQL type (`PhoenixType::sql_type`).
    pub sql_type: Cow<'static, str>,
    /// A DESC column.
    pub desc: bool,
    /// A nullable column (`Option`); otherwise `NOT NULL`.
    pub nullable: bool,
}

impl Column {
    /// The column `name` of Rust type `T`.
    ///
    /// ```
    /// use rowkey::phoenix::Column;
    ///
    /// let c = Column::of::<Option<String>>("name", true);
    /// assert_eq!((c.sql_type.as_ref(), c.desc, c.nullable), ("VARCHAR", true, true));
    /// ```
    pub fn of<T: PhoenixType + ?Sized>(name: &str, desc: bool) -> Self {
        Self {
            name: name.to_owned(),
            sql_type: T::sql_type(),
            desc,
            nullable: T::NULLABLE,
        }
    }
}

/// A name as Phoenix SQL: as is when it is a plain identifier, else double-quoted.
fn sql_name(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        name.to_owned()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

/// The Phoenix `CREATE TABLE` for a primary key of `pk` columns (in key order) and the
/// non-key `values` columns (name, SQL type; nullable, in Phoenix's default column family),
/// with `SALT_BUCKETS = n` when salted.
///
/// Phoenix needs no column besides the key: each row then stores only its empty marker cell
/// (`0:_0`, or `0:\x00\x00\x00\x00` with column encoding), which is what makes a row visible
/// to `SELECT`. `table` may be `SCHEMA.TABLE` (written as given: quote parts yourself when
/// they are not plain identifiers).
///
/// ```
/// use rowkey::phoenix::{create_table, Column};
///
/// let ddl = create_table(
///     "METRICS.EVENTS",
///     &[
///         Column::of::<String>("host", false),
///         Column::of::<i64>("ts", true),
///         Column::of::<Option<String>>("tag", false),
///     ],
///     &[("val", "DOUBLE")],
///     Some(8),
/// );
/// assert_eq!(
///     ddl,
///     "CREATE TABLE METRICS.EVENTS (host VARCHAR NOT NULL, ts BIGINT NOT NULL, tag VARCHAR, \
///      val DOUBLE CONSTRAINT pk PRIMARY KEY (host, ts DESC, tag)) SALT_BUCKETS = 8"
/// );
/// ```
pub fn create_table(
    table: &str,
    pk: &[Column],
    values: &[(&str, &str)],
    salt_buckets: Option<u32>,
) -> String {
    let mut cols: Vec<String> = pk
        .iter()
        .map(|c| {
            format!(
                "{} {}{}",
                sql_name(&c.name),
                c.sql_type,
                if c.nullable { "" } else { " NOT NULL" }
            )
        })
        .collect();
    cols.extend(values.iter().map(|(n, t)| format!("{} {t}", sql_name(n))));
    let keys: Vec<String> = pk
        .iter()
        .map(|c| format!("{}{}", sql_name(&c.name), if c.desc { " DESC" } else { "" }))
        .collect();
    let mut ddl = format!(
        "CREATE TABLE {table} ({} CONSTRAINT pk PRIMARY KEY ({}))",
        cols.join(", "),
        keys.join(", ")
    );
    if let Some(n) = salt_buckets {
        ddl.push_str(&format!(" SALT_BUCKETS = {n}"));
    }
    ddl
}
