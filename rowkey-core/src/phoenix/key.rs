//! [`PhoenixKey`]: what `#[derive(RowKey)]` with `#[rowkey(phoenix)]` knows of the Phoenix table
//! whose primary key the type is — its columns, salt and `rowKeyOrderOptimizable` flag — and the
//! `CREATE TABLE` it prints.

use super::ddl::{create_table, Column};

/// A key type derived with `#[rowkey(phoenix)]`: an Apache Phoenix primary key, encoded byte
/// for byte as Phoenix encodes it (see the [module docs](super)).
///
/// ```
/// use rowkey::phoenix::PhoenixKey;
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// #[rowkey(phoenix, salt(buckets = 4))]
/// struct Metric {
///     host: String,
///     #[desc]
///     ts: i64,
///     seq: i32,
/// }
///
/// assert_eq!(
///     Metric::phoenix_ddl("METRICS"),
///     "CREATE TABLE METRICS (host VARCHAR NOT NULL, ts BIGINT NOT NULL, seq INTEGER NOT NULL \
///      CONSTRAINT pk PRIMARY KEY (host, ts DESC, seq)) SALT_BUCKETS = 4"
/// );
/// let key = Metric { host: "web-1".into(), ts: 1_700_000_000_000, seq: 7 }.to_row_key()?;
/// assert_eq!(&key[1..7], b"web-1\x00"); // salt byte, VARCHAR, separator
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub trait PhoenixKey: crate::RowKey {
    /// `SALT_BUCKETS` (`#[rowkey(salt(buckets = N))]`), or none.
    const SALT_BUCKETS: Option<u32>;
    /// Phoenix's `rowKeyOrderOptimizable` flag of the table (PHOENIX-2067): `true` unless
    /// `#[rowkey(phoenix(row_key_order_optimizable = false))]`.
    const ROW_KEY_ORDER_OPTIMIZABLE: bool;

    /// The primary-key columns, in key order: each field's name, Phoenix type, DESC and
    /// nullability.
    fn columns() -> Vec<Column>;

    /// The `CREATE TABLE` of a table with this primary key and no other column
    /// (`table`: `TABLE` or `SCHEMA.TABLE`): see [`create_table`].
    fn phoenix_ddl(table: &str) -> String {
        create_table(table, &Self::columns(), &[], Self::SALT_BUCKETS)
    }

    /// [`phoenix_ddl`](Self::phoenix_ddl) with non-key columns (name, SQL type), nullable, in
    /// Phoenix's default column family.
    ///
    /// ```
    /// use rowkey::phoenix::PhoenixKey;
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(phoenix)]
    /// struct Order {
    ///     buyer: String,
    ///     order_id: u64,
    /// }
    ///
    /// assert_eq!(
    ///     Order::phoenix_ddl_with("SHOP.ORDERS", &[("amount", "DECIMAL")]),
    ///     "CREATE TABLE SHOP.ORDERS (buyer VARCHAR NOT NULL, order_id UNSIGNED_LONG NOT NULL, \
    ///      amount DECIMAL CONSTRAINT pk PRIMARY KEY (buyer, order_id))"
    /// );
    /// ```
    fn phoenix_ddl_with(table: &str, values: &[(&str, &str)]) -> String {
        create_table(table, &Self::columns(), values, Self::SALT_BUCKETS)
    }
}
