//! Tables and reads of derived Bigtable struct keys (`#[rowkey(bigtable(..))]`, issue 28): a
//! table created with the key type's own row key schema, and reads — of a table or of a
//! continuous materialized view — whose rows are decoded through the key type.

use core::marker::PhantomData;
use core::pin::Pin;

use futures_util::{Stream, StreamExt, TryStreamExt};
use rowkey::struct_key::StructKey;
use rowkey::{DecodeRowKeyOwned, ScanRanges};

use crate::admin_v2::CreateTableRequest;
use crate::v2::RowFilter;
use crate::{Admin, Client, Error, Row, StructRead, Table};

impl Admin {
    /// Create table `table_id` whose row key schema is `T`'s
    /// ([`StructKey::row_key_schema`]), with column families `families`, pre-split at
    /// `split_points` (none: one tablet).
    ///
    /// A struct key has no layout split points: the format has no salt or hash prefix
    /// (GoogleSQL decodes the whole key as the schema's fields), so `T::split_points` always
    /// refers to sampling. Take the split points from a sample of keys
    /// (`rowkey::plan::split_points_from_sample`) or from keys of `T` built for the purpose
    /// (`T { .. }.to_row_key()`).
    ///
    /// # Errors
    ///
    /// As [`create_table_with_schema`](Admin::create_table_with_schema): a schema the admin
    /// API would refuse with these families ([`Error::RowKeySchema`], nothing sent), or the
    /// server's error.
    pub async fn create_table_for_struct<T: StructKey>(
        &self,
        table_id: &str,
        families: &[&str],
        split_points: &[Vec<u8>],
    ) -> Result<(), Error> {
        self.create_table_with_schema(table_id, families, &T::row_key_schema(), split_points)
            .await
    }

    /// The `CreateTableRequest` that
    /// [`create_table_for_struct`](Admin::create_table_for_struct) sends, built and checked
    /// but not sent.
    ///
    /// ```
    /// use rowkey::struct_key::{Micros, StructKey};
    /// use rowkey::RowKey;
    /// use rowkey_bigtable::{schema, Client};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// #[rowkey(bigtable(ordered_code))]
    /// struct Click {
    ///     user: String,
    ///     at: Micros,
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // no request is made: any endpoint will do
    /// let admin = Client::emulator("127.0.0.1:9", "p", "i")?.admin().await?;
    /// let request = admin.create_table_for_struct_request::<Click>("clicks", &["c"], &[])?;
    /// let table = request.table.expect("a table");
    /// assert_eq!(table.row_key_schema, Some(schema::to_api(&Click::row_key_schema())));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`create_table_with_schema_request`](Admin::create_table_with_schema_request).
    pub fn create_table_for_struct_request<T: StructKey>(
        &self,
        table_id: &str,
        families: &[&str],
        split_points: &[Vec<u8>],
    ) -> Result<CreateTableRequest, Error> {
        self.create_table_with_schema_request(
            table_id,
            families,
            &T::row_key_schema(),
            split_points,
        )
    }
}

/// The stream of a [`StructReadAs`]: `(key, row)` in key order.
pub type StructRowsAs<T> = Pin<Box<dyn Stream<Item = Result<(T, Row), Error>> + Send>>;

/// A read whose row keys are decoded through the derived struct key `T`, built by
/// [`Table::read_struct_as`] or [`Client::read_view_as`]: a [`StructRead`] through
/// `T::row_key_schema()` whose rows are then decoded as `T` (the two agree byte for byte;
/// `tests/keys/bigtable_struct_keys.rs` of the `rowkey` crate checks it). A row whose key does not
/// decode is an [`Error::Decode`] item naming the row key and the stream goes on.
#[must_use = "a StructReadAs does nothing until .stream() or .collect()"]
pub struct StructReadAs<T> {
    inner: StructRead,
    key: PhantomData<fn() -> T>,
}

impl<T> core::fmt::Debug for StructReadAs<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StructReadAs")
            .field("inner", &self.inner)
            .finish()
    }
}

impl Table {
    /// A read of this table whose row keys are decoded as `T` (see [`StructReadAs`]); for
    /// merged reads of several ranges, [`Table::read`] works on struct keys as on any key.
    pub fn read_struct_as<T: StructKey + DecodeRowKeyOwned>(&self) -> StructReadAs<T> {
        StructReadAs {
            inner: self.read_struct(&T::row_key_schema()),
            key: PhantomData,
        }
    }
}

impl Client {
    /// A read of continuous materialized view `view_id` whose row keys are decoded as `T`,
    /// the view's row key schema as a derived key type (see [`Client::read_view`], whose
    /// requests it sends, and [`StructReadAs`]).
    pub fn read_view_as<T: StructKey + DecodeRowKeyOwned>(&self, view_id: &str) -> StructReadAs<T> {
        StructReadAs {
            inner: self.read_view(view_id, &T::row_key_schema()),
            key: PhantomData,
        }
    }
}

impl<T: StructKey + DecodeRowKeyOwned + Send + 'static> StructReadAs<T> {
    /// Read only `ranges` (e.g. `T::scan()…ranges()`), in key order.
    pub fn ranges(mut self, ranges: &ScanRanges) -> Self {
        self.inner = self.inner.ranges(ranges);
        self
    }

    /// At most `n` rows.
    pub fn limit(mut self, n: usize) -> Self {
        self.inner = self.inner.limit(n);
        self
    }

    /// Largest key first.
    pub fn reverse(mut self) -> Self {
        self.inner = self.inner.reverse();
        self
    }

    /// Only rows after `key` (before it when reversed): resume a read.
    ///
    /// # Errors
    ///
    /// [`Error::Encode`] when `key` cannot be encoded.
    pub fn after(mut self, key: &T) -> Result<Self, Error> {
        let bytes = key.to_row_key().map_err(Error::Encode)?;
        self.inner = self.inner.after_key(&bytes);
        Ok(self)
    }

    /// A `RowFilter` on every request.
    pub fn filter(mut self, filter: RowFilter) -> Self {
        self.inner = self.inner.filter(filter);
        self
    }

    /// Rows per `ReadRows` request.
    pub fn chunk_rows(mut self, n: u64) -> Self {
        self.inner = self.inner.chunk_rows(n);
        self
    }

    /// The rows, as `(key, row)` in key order.
    pub fn stream(self) -> StructRowsAs<T> {
        Box::pin(self.inner.stream().map(|item| {
            let (_, row) = item?;
            match T::from_row_key(&row.key) {
                Ok(key) => Ok((key, row)),
                Err(source) => Err(Error::Decode {
                    layout: T::LAYOUT.name,
                    key: row.key,
                    source,
                }),
            }
        }))
    }

    /// All rows, or the first error.
    ///
    /// # Errors
    ///
    /// The first error item of [`stream`](StructReadAs::stream).
    pub async fn collect(self) -> Result<Vec<(T, Row)>, Error> {
        self.stream().try_collect().await
    }
}
