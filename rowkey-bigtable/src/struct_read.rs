//! Reads of tables whose row keys are Struct-encoded (a table with a row key schema, or the
//! keys a continuous materialized view or an asynchronous secondary index writes): every row
//! key decoded through a [`StructSchema`] into its field values.

use core::pin::Pin;
use std::sync::Arc;

use bigtable_rs::google::bigtable::v2::{
    read_rows_request::RequestStatsView, ReadRowsRequest, RowFilter,
};
use futures_util::{Stream, StreamExt, TryStreamExt};
use rowkey::struct_key::{StructSchema, Value};
use rowkey::{ScanRange, ScanRanges};

use crate::read::{Chunked, Span};
use crate::{Client, Error, Row, Table};

/// What [`Error::Decode`] names as the layout of a key that does not decode through a
/// [`StructSchema`].
pub const STRUCT_LAYOUT: &str = "rowkey::struct_key::StructSchema";

/// The stream of a [`StructRead`]: `(field values, row)` in key order.
pub type StructRows = Pin<Box<dyn Stream<Item = Result<(Vec<Value>, Row), Error>> + Send>>;

/// A read whose row keys are decoded through a [`StructSchema`], built by
/// [`Table::read_struct`]: the whole table by default, or the [`ranges`](StructRead::ranges)
/// given. The key is one sorted space (no salt), so every range is in one `ReadRows` request
/// and the rows come back in byte order, which is the schema's field order wherever the
/// values are in sorted mode ([`StructSchema::lint_values`]).
///
/// A row whose key does not decode is an [`Error::Decode`] item naming the row key (layout
/// [`STRUCT_LAYOUT`]), and the stream goes on after it; a failed request is an error item and
/// ends the stream.
///
/// ```
/// use futures_util::StreamExt;
/// use rowkey::struct_key::{Field, FieldType, Int64Encoding, StructEncoding, StructSchema, Value};
/// use rowkey_bigtable::{testkit::Emulator, Batch, Cell, Client, Error};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let emulator = Emulator::start()?;
/// let client = Client::emulator(emulator.endpoint(), "p", "i")?;
/// let schema = StructSchema::new(
///     vec![
///         Field::new("user", FieldType::String),
///         Field::new("ts", FieldType::Timestamp(Int64Encoding::OrderedCodeBytes)),
///     ],
///     StructEncoding::OrderedCodeBytes,
/// )?;
/// client.admin().await?.create_table_with_schema("events", &["e"], &schema, &[]).await?;
/// let table = client.table("events");
/// let mut batch = Batch::new();
/// for (user, ts) in [("bo", 7), ("al", 256), ("al", -1)] {
///     let key = schema.encode(&[Value::String(user.into()), Value::Timestamp(ts)])?;
///     batch.put_raw(&table, key, [Cell::new("e", "n", "1")]);
/// }
/// batch.put_raw(&table, b"al\x00".to_vec(), [Cell::new("e", "n", "?")]); // not a struct key
/// batch.apply().await?;
///
/// let items: Vec<_> = table.read_struct(&schema).stream().collect().await;
/// let keys: Vec<_> = items.iter().filter_map(|i| i.as_ref().ok()).map(|(v, _)| v.clone()).collect();
/// assert_eq!(keys, [
///     vec![Value::String("al".into()), Value::Timestamp(-1)],
///     vec![Value::String("al".into()), Value::Timestamp(256)],
///     vec![Value::String("bo".into()), Value::Timestamp(7)],
/// ]);
/// // the foreign row is an error item naming its key, in its place in key order
/// assert!(matches!(&items[0], Err(Error::Decode { key, .. }) if key == b"al\x00"));
/// # Ok(()) }
/// ```
#[must_use = "a StructRead does nothing until .stream() or .collect()"]
pub struct StructRead {
    table: Table,
    /// The full name of the continuous materialized view read instead of the table.
    view: Option<String>,
    schema: Arc<StructSchema>,
    ranges: Vec<ScanRange>,
    after: Option<Vec<u8>>,
    limit: Option<u64>,
    reverse: bool,
    filter: Option<RowFilter>,
    chunk: u64,
}

impl core::fmt::Debug for StructRead {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("StructRead")
            .field("table", &self.table.id())
            .field("view", &self.view)
            .field("schema", &self.schema)
            .field("ranges", &self.ranges)
            .field("after", &self.after)
            .field("limit", &self.limit)
            .field("reverse", &self.reverse)
            .finish_non_exhaustive()
    }
}

impl Table {
    /// A read of this table whose row keys are decoded through `schema` (see [`StructRead`]).
    pub fn read_struct(&self, schema: &StructSchema) -> StructRead {
        StructRead {
            table: self.clone(),
            view: None,
            schema: Arc::new(schema.clone()),
            ranges: vec![ScanRange::new(b"", None)],
            after: None,
            limit: None,
            reverse: false,
            filter: None,
            chunk: 4096,
        }
    }
}

impl Client {
    /// A read of continuous materialized view `view_id` of this instance, whose row keys are
    /// decoded through `schema` — the view's row key schema, which Bigtable derives from the
    /// view's query (see [`StructRead`]). The requests name the view in `ReadRows`'
    /// `materialized_view_name`, routed by the instance (`x-goog-request-params:
    /// name=projects/…/instances/…`: what Google's client conformance tests expect of a
    /// `TypedReadRows` of a materialized view, taken to hold for `ReadRows` too).
    ///
    /// Not tried against Cloud Bigtable from here: the emulator has no materialized views (it
    /// answers such a read with an error, which the stream yields as an error item).
    ///
    /// ```no_run
    /// # async fn demo(client: rowkey_bigtable::Client, schema: rowkey::struct_key::StructSchema) -> Result<(), rowkey_bigtable::Error> {
    /// let counts = client.read_view("clicks_by_user", &schema).limit(100).collect().await?;
    /// # Ok(()) }
    /// ```
    pub fn read_view(&self, view_id: &str, schema: &StructSchema) -> StructRead {
        let mut read = self.table(view_id).read_struct(schema);
        read.view = Some(format!(
            "projects/{}/instances/{}/materializedViews/{view_id}",
            self.project(),
            self.instance()
        ));
        read
    }
}

impl StructRead {
    /// The request every `ReadRows` of this read starts from (the rows and limit are set per
    /// request).
    fn template(&self) -> ReadRowsRequest {
        let (table_name, materialized_view_name) = match &self.view {
            Some(view) => (String::new(), view.clone()),
            None => (self.table.name().to_owned(), String::new()),
        };
        ReadRowsRequest {
            table_name,
            materialized_view_name,
            app_profile_id: self.table.app_profile().to_owned(),
            filter: self.filter.clone(),
            request_stats_view: RequestStatsView::RequestStatsNone as i32,
            reversed: self.reverse,
            ..ReadRowsRequest::default()
        }
    }

    /// Read only `ranges` (byte ranges of the encoded keys; e.g. a
    /// [`ScanRange::prefix`] of the encoded first field under `DelimitedBytes`, followed by
    /// the delimiter). Calling it again replaces them.
    pub fn ranges(mut self, ranges: &ScanRanges) -> Self {
        self.ranges = ranges.iter().cloned().collect();
        self
    }

    /// At most `n` rows (decode error items count as rows).
    pub fn limit(mut self, n: usize) -> Self {
        self.limit = Some(u64::try_from(n).unwrap_or(u64::MAX));
        self
    }

    /// Read in reverse: the largest key first (Bigtable's reversed `ReadRows`).
    pub fn reverse(mut self) -> Self {
        self.reverse = true;
        self
    }

    /// Resume after the row key `key`: only rows after it in this read's direction.
    pub fn after_key(mut self, key: &[u8]) -> Self {
        self.after = Some(key.to_vec());
        self
    }

    /// Resume after the key of `values` (see [`after_key`](StructRead::after_key)).
    ///
    /// # Errors
    ///
    /// The values do not encode through the schema ([`Error::Encode`], naming the field).
    pub fn after(self, values: &[Value]) -> Result<Self, Error> {
        let key = self.schema.encode(values)?;
        Ok(self.after_key(&key))
    }

    /// A Bigtable row filter applied to every row.
    pub fn filter(mut self, filter: RowFilter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Rows per `ReadRows` request (default 4096): the read goes on in requests of at most
    /// `n` rows, each after the last key of the one before (see
    /// [`Read::chunk_rows`](crate::Read::chunk_rows)).
    pub fn chunk_rows(mut self, n: u64) -> Self {
        self.chunk = n.max(1);
        self
    }

    /// The rows as a stream of `(field values, row)`, in key order.
    pub fn stream(self) -> StructRows {
        let template = self.template();
        let StructRead {
            table,
            schema,
            ranges,
            after,
            limit,
            reverse,
            chunk,
            ..
        } = self;
        let ranges = ScanRanges::new(ranges);
        // requests within the byte budget, read one after the other (the last first when
        // reverse), each cut after the resume key
        let mut requests: Vec<Vec<Span>> =
            rowkey::read::batches(ranges.as_slice(), crate::read::DEFAULT_MAX_REQUEST_BYTES)
                .into_iter()
                .map(|b| {
                    b.iter()
                        .map(Span::of)
                        .filter_map(|s| match &after {
                            Some(key) => s.after(key, reverse),
                            None => Some(s),
                        })
                        .collect::<Vec<Span>>()
                })
                .filter(|b| !b.is_empty())
                .collect();
        if reverse {
            requests.reverse();
        }
        if requests.is_empty() || limit == Some(0) {
            // An empty RowSet means "the whole table" to Bigtable: never send one.
            return Box::pin(futures_util::stream::empty());
        }
        let rows = Chunked::new(table, template, requests, chunk, limit, reverse);
        Box::pin(rows.map(move |item| {
            let (key, cells) = item?;
            match schema.decode(&key) {
                Ok(values) => Ok((values, Row { key, cells })),
                Err(source) => Err(Error::Decode {
                    layout: STRUCT_LAYOUT,
                    key,
                    source,
                }),
            }
        }))
    }

    /// All rows, or the first error.
    ///
    /// # Errors
    ///
    /// The first error item of [`stream`](StructRead::stream).
    pub async fn collect(self) -> Result<Vec<(Vec<Value>, Row)>, Error> {
        self.stream().try_collect().await
    }

    /// The decoded keys only (cells are still transferred; add a [`filter`](StructRead::filter)
    /// such as `StripValueTransformer` to avoid that).
    ///
    /// # Errors
    ///
    /// The first error item of [`stream`](StructRead::stream).
    pub async fn keys(self) -> Result<Vec<Vec<Value>>, Error> {
        self.stream().map_ok(|(k, _)| k).try_collect().await
    }
}

#[cfg(test)]
mod tests {
    use rowkey::struct_key::{Field, FieldType, StructEncoding};

    use super::*;

    fn schema() -> StructSchema {
        StructSchema::new(
            vec![Field::new("k", FieldType::Bytes)],
            StructEncoding::Singleton,
        )
        .expect("schema")
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_view_read_names_the_view_and_routes_by_instance() {
        // no request is made: any endpoint will do
        let client = Client::emulator("127.0.0.1:9", "p", "i")
            .expect("client")
            .with_app_profile("ap");
        let read = client.read_view("mv", &schema()).reverse();
        let request = read.template();
        assert_eq!(
            request.materialized_view_name,
            "projects/p/instances/i/materializedViews/mv"
        );
        assert_eq!(request.table_name, "");
        assert_eq!(request.app_profile_id, "ap");
        assert!(request.reversed);
        let routing = read.table.routing_of(&request).expect("routing");
        assert_eq!(
            routing.to_str().expect("ascii"),
            "name=projects%2Fp%2Finstances%2Fi&app_profile_id=ap"
        );

        // a table read: the table's name and routing
        let read = client.table("t").read_struct(&schema());
        let request = read.template();
        assert_eq!(request.table_name, "projects/p/instances/i/tables/t");
        assert_eq!(request.materialized_view_name, "");
        let routing = read.table.routing_of(&request).expect("routing");
        assert_eq!(
            routing.to_str().expect("ascii"),
            "table_name=projects%2Fp%2Finstances%2Fi%2Ftables%2Ft&app_profile_id=ap"
        );
    }
}
