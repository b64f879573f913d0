//! Tables from the plan: create a table pre-split at the key layout's split points, through
//! the Bigtable table admin gRPC API (`CreateTable` with `initial_splits`).
//!
//! ```no_run
//! # use rowkey::RowKey;
//! use rowkey::plan::SplitPoints;
//! # #[derive(RowKey)] struct OrderBySeller { #[salt(buckets = 16)] seller_id: u64, #[reverse_ts] created_ms: i64, #[sep] order_no: String }
//! # async fn demo(client: rowkey_bigtable::Client) -> Result<(), rowkey_bigtable::Error> {
//! let admin = client.admin().await?;
//! // 16 tablets, one per salt bucket: `OrderBySeller::split_points(16)`.
//! let splits = admin.create_table_for::<OrderBySeller>("orders_by_seller", &["o"], 16).await?;
//! assert_eq!(splits.len(), 15);
//! # Ok(()) }
//! ```
//!
//! Against the emulator the admin API is reached at the emulator's endpoint without
//! credentials; against Cloud Bigtable at `bigtableadmin.googleapis.com` over TLS with the
//! usual Google credentials (scope `bigtable.admin.table`). The same table can be created with
//! the `cbt` tool: `cbt -project P -instance I createtable T families=o splits=…` (with
//! `BIGTABLE_EMULATOR_HOST` set for the emulator), which only takes printable split points.

use rowkey::plan::SplitPoints;
use std::collections::HashMap;
use std::sync::Arc;

use admin::bigtable_table_admin_client::BigtableTableAdminClient;
use gcp_auth::TokenProvider;
use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2 as admin;
use rowkey::struct_key::{SchemaFinding, SchemaSeverity, StructSchema};
use rowkey::RowKey;
use tonic::metadata::MetadataValue;
use tonic::transport::{Channel, ClientTlsConfig};

use crate::schema::{from_api, to_api};
use crate::{Client, Error};

const ADMIN_SCOPE: &str = "https://www.googleapis.com/auth/bigtable.admin.table";
const ADMIN_ENDPOINT: &str = "https://bigtableadmin.googleapis.com";

/// The table admin API of one instance. Cheap to clone.
#[derive(Clone)]
pub struct Admin {
    client: BigtableTableAdminClient<Channel>,
    token: Option<Arc<dyn TokenProvider>>,
    parent: String,
}

impl core::fmt::Debug for Admin {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Admin")
            .field("parent", &self.parent)
            .field("authenticated", &self.token.is_some())
            .finish_non_exhaustive()
    }
}

impl Client {
    /// The table admin API of this client's instance (on the emulator when the client is
    /// connected to one).
    ///
    /// # Errors
    ///
    /// Polled outside a Tokio runtime ([`Error::NoRuntime`]), no Google credentials (Cloud
    /// Bigtable), or the endpoint is invalid.
    pub async fn admin(&self) -> Result<Admin, Error> {
        crate::in_runtime("Client::admin")?;
        let parent = format!("projects/{}/instances/{}", self.project(), self.instance());
        match self.emulator_endpoint() {
            Some(endpoint) => {
                let channel = Channel::from_shared(format!("http://{endpoint}"))
                    .map_err(|e| Error::InvalidArgument(format!("emulator {endpoint:?}: {e}")))?
                    .connect_lazy();
                Ok(Admin {
                    client: BigtableTableAdminClient::new(channel),
                    token: None,
                    parent,
                })
            }
            None => {
                let token = gcp_auth::provider()
                    .await
                    .map_err(|e| Error::Client(e.into()))?;
                let channel = Channel::from_static(ADMIN_ENDPOINT)
                    .tls_config(ClientTlsConfig::new().with_webpki_roots())
                    .map_err(|e| Error::Client(e.into()))?
                    .connect_lazy();
                Ok(Admin {
                    client: BigtableTableAdminClient::new(channel),
                    token: Some(token),
                    parent,
                })
            }
        }
    }
}

/// Bigtable's rule for table ids: `[_a-zA-Z0-9][-_.a-zA-Z0-9]*`, at most 50 characters.
fn check_table_id(id: &str) -> Result<(), Error> {
    let mut chars = id.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if first_ok && rest_ok && id.len() <= 50 {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!(
            "table id {id:?}: must match [_a-zA-Z0-9][-_.a-zA-Z0-9]* and have at most 50 characters"
        )))
    }
}

impl Admin {
    /// `projects/{project}/instances/{instance}`.
    pub fn parent(&self) -> &str {
        &self.parent
    }

    async fn request<T>(&self, message: T, params: &str) -> Result<tonic::Request<T>, Error> {
        let mut req = tonic::Request::new(message);
        let routing = MetadataValue::try_from(params)
            .map_err(|e| Error::InvalidArgument(format!("{params:?}: {e}")))?;
        req.metadata_mut().insert("x-goog-request-params", routing);
        if let Some(token) = &self.token {
            let token = token
                .token(&[ADMIN_SCOPE])
                .await
                .map_err(|e| Error::Client(e.into()))?;
            let bearer = MetadataValue::try_from(format!("Bearer {}", token.as_str()))
                .map_err(|e| Error::InvalidArgument(format!("access token: {e}")))?;
            req.metadata_mut().insert("authorization", bearer);
        }
        Ok(req)
    }

    /// Create table `table_id` with column `families` (each keeping one version per cell),
    /// pre-split at `split_points` (sorted, non-empty keys: `split_points.len() + 1` tablets).
    ///
    /// # Errors
    ///
    /// An invalid table id, unsorted or empty split points, or the server's error (e.g.
    /// `AlreadyExists`).
    pub async fn create_table(
        &self,
        table_id: &str,
        families: &[&str],
        split_points: &[Vec<u8>],
    ) -> Result<(), Error> {
        let message = self.table_request(table_id, families, split_points, None)?;
        self.send_create(message).await
    }

    /// The `CreateTableRequest` of every `create_table*` method: checked table id and split
    /// points, one version per cell in every family, the row key schema if any.
    fn table_request(
        &self,
        table_id: &str,
        families: &[&str],
        split_points: &[Vec<u8>],
        row_key_schema: Option<admin::r#type::Struct>,
    ) -> Result<admin::CreateTableRequest, Error> {
        check_table_id(table_id)?;
        // The same checks the hotspot analyzer makes: strictly increasing, non-empty.
        rowkey::hotspot::Analyzer::new(split_points)?;
        let column_families: HashMap<String, admin::ColumnFamily> = families
            .iter()
            .map(|f| {
                (
                    (*f).to_owned(),
                    admin::ColumnFamily {
                        gc_rule: Some(admin::GcRule {
                            rule: Some(admin::gc_rule::Rule::MaxNumVersions(1)),
                        }),
                        ..admin::ColumnFamily::default()
                    },
                )
            })
            .collect();
        Ok(admin::CreateTableRequest {
            parent: self.parent.clone(),
            table_id: table_id.to_owned(),
            table: Some(admin::Table {
                column_families,
                row_key_schema,
                ..admin::Table::default()
            }),
            initial_splits: split_points
                .iter()
                .map(|k| admin::create_table_request::Split { key: k.clone() })
                .collect(),
        })
    }

    async fn send_create(&self, message: admin::CreateTableRequest) -> Result<(), Error> {
        let params = format!("parent={}", urlencoding::encode(&self.parent));
        let req = self.request(message, &params).await?;
        self.client.clone().create_table(req).await?;
        Ok(())
    }

    /// Create table `table_id` with column `families` (one version per cell), pre-split at
    /// `split_points`, declaring `schema` as its row key schema (`Table.row_key_schema`, the
    /// message of [`schema::to_api`](crate::schema::to_api)): GoogleSQL then reads the key's
    /// fields as columns. The request sent is
    /// [`create_table_with_schema_request`](Admin::create_table_with_schema_request)'s.
    ///
    /// The schema is linted first with the families
    /// ([`StructSchema::lint_with_families`]): what the API would refuse — a reserved (`_key`,
    /// `_timestamp`), empty or repeated field name, or a field named like a family — is
    /// [`Error::RowKeySchema`] with every finding, and nothing is sent. Findings of
    /// [`SchemaSeverity::Unsorted`] (a `BigEndianBytes` integer under `DelimitedBytes`) do not stop
    /// it: the API accepts such schemas.
    ///
    /// The emulator accepts the request and creates the table but ignores the schema.
    ///
    /// ```no_run
    /// # async fn demo(admin: rowkey_bigtable::Admin) -> Result<(), Box<dyn std::error::Error>> {
    /// use rowkey::struct_key::{Field, FieldType, Int64Encoding, StructEncoding, StructSchema};
    ///
    /// let schema = StructSchema::new(
    ///     vec![
    ///         Field::new("user", FieldType::String),
    ///         Field::new("ts", FieldType::Timestamp(Int64Encoding::OrderedCodeBytes)),
    ///     ],
    ///     StructEncoding::OrderedCodeBytes,
    /// )?;
    /// admin.create_table_with_schema("events", &["e"], &schema, &[b"m".to_vec()]).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::RowKeySchema`], or as [`create_table`](Admin::create_table).
    pub async fn create_table_with_schema(
        &self,
        table_id: &str,
        families: &[&str],
        schema: &StructSchema,
        split_points: &[Vec<u8>],
    ) -> Result<(), Error> {
        let message =
            self.create_table_with_schema_request(table_id, families, schema, split_points)?;
        self.send_create(message).await
    }

    /// The `CreateTableRequest` that
    /// [`create_table_with_schema`](Admin::create_table_with_schema) sends, built and checked
    /// but not sent: to inspect it, or to send it with another client.
    ///
    /// ```
    /// use rowkey::struct_key::{Field, FieldType, StructEncoding, StructSchema};
    /// use rowkey_bigtable::{schema, Client, Error};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // no request is made: any endpoint will do
    /// let admin = Client::emulator("127.0.0.1:9", "p", "i")?.admin().await?;
    /// let s = StructSchema::new(vec![Field::new("id", FieldType::String)], StructEncoding::Singleton)?;
    /// let request = admin.create_table_with_schema_request("t", &["cf"], &s, &[])?;
    /// let table = request.table.expect("a table");
    /// assert_eq!(table.row_key_schema, Some(schema::to_api(&s)));
    ///
    /// // a field named like a family is refused before anything is sent
    /// let clash = StructSchema::new(vec![Field::new("cf", FieldType::String)], StructEncoding::Singleton)?;
    /// match admin.create_table_with_schema_request("t", &["cf"], &clash, &[]) {
    ///     Err(Error::RowKeySchema(findings)) => assert_eq!(findings[0].field(), "cf"),
    ///     other => panic!("{other:?}"),
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`create_table_with_schema`](Admin::create_table_with_schema), before sending.
    pub fn create_table_with_schema_request(
        &self,
        table_id: &str,
        families: &[&str],
        schema: &StructSchema,
        split_points: &[Vec<u8>],
    ) -> Result<admin::CreateTableRequest, Error> {
        let refused: Vec<SchemaFinding> = schema
            .lint_with_families(families)
            .into_iter()
            .filter(|f| f.severity() == SchemaSeverity::Refused)
            .collect();
        if !refused.is_empty() {
            return Err(Error::RowKeySchema(refused));
        }
        self.table_request(table_id, families, split_points, Some(to_api(schema)))
    }

    /// The row key schema of table (or materialized view) `table_id`, from `GetTable`
    /// (schema view): `None` when it has none.
    ///
    /// The emulator keeps no row key schema: there it is `None` even for a table created with
    /// [`create_table_with_schema`](Admin::create_table_with_schema).
    ///
    /// # Errors
    ///
    /// The server's error (e.g. `NotFound`), or a schema rowkey cannot express
    /// ([`Error::SchemaMessage`], naming the field).
    pub async fn row_key_schema(&self, table_id: &str) -> Result<Option<StructSchema>, Error> {
        check_table_id(table_id)?;
        let name = format!("{}/tables/{table_id}", self.parent);
        let params = format!("name={}", urlencoding::encode(&name));
        let req = self
            .request(
                admin::GetTableRequest {
                    name,
                    view: admin::table::View::SchemaView as i32,
                },
                &params,
            )
            .await?;
        let table = self.client.clone().get_table(req).await?.into_inner();
        match table.row_key_schema {
            None => Ok(None),
            Some(message) => Ok(Some(from_api(&message).map_err(Error::SchemaMessage)?)),
        }
    }

    /// Create table `table_id` pre-split at `T::split_points(regions)` — the salt bucket
    /// boundaries, or even splits of the hash-prefix space — and return those split points.
    ///
    /// # Errors
    ///
    /// The layout has neither salt nor hash prefix ([`Error::Plan`]; derive split points from
    /// a sample with `rowkey::plan` and call [`create_table`](Admin::create_table)), or as
    /// [`create_table`](Admin::create_table).
    pub async fn create_table_for<T: RowKey>(
        &self,
        table_id: &str,
        families: &[&str],
        regions: usize,
    ) -> Result<Vec<Vec<u8>>, Error> {
        let splits = T::split_points(regions)?;
        self.create_table(table_id, families, &splits).await?;
        Ok(splits)
    }

    /// Delete table `table_id` and all its data.
    ///
    /// # Errors
    ///
    /// The server's error (e.g. `NotFound`).
    pub async fn delete_table(&self, table_id: &str) -> Result<(), Error> {
        check_table_id(table_id)?;
        let name = format!("{}/tables/{table_id}", self.parent);
        let params = format!("name={}", urlencoding::encode(&name));
        let req = self
            .request(admin::DeleteTableRequest { name }, &params)
            .await?;
        self.client.clone().delete_table(req).await?;
        Ok(())
    }

    /// The ids of the instance's tables.
    ///
    /// # Errors
    ///
    /// The server's error.
    pub async fn list_tables(&self) -> Result<Vec<String>, Error> {
        let params = format!("parent={}", urlencoding::encode(&self.parent));
        let mut ids = Vec::new();
        let mut page_token = String::new();
        loop {
            let req = self
                .request(
                    admin::ListTablesRequest {
                        parent: self.parent.clone(),
                        page_token: page_token.clone(),
                        ..admin::ListTablesRequest::default()
                    },
                    &params,
                )
                .await?;
            let resp = self.client.clone().list_tables(req).await?.into_inner();
            let prefix = format!("{}/tables/", self.parent);
            ids.extend(
                resp.tables
                    .into_iter()
                    .map(|t| t.name.strip_prefix(&prefix).unwrap_or(&t.name).to_owned()),
            );
            if resp.next_page_token.is_empty() {
                return Ok(ids);
            }
            page_token = resp.next_page_token;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check_table_id;

    #[test]
    fn table_ids() {
        assert!(check_table_id("orders_by-seller.v2").is_ok());
        assert!(check_table_id("_x").is_ok());
        assert!(check_table_id("").is_err());
        assert!(check_table_id("-x").is_err());
        assert!(check_table_id("a/b").is_err());
        assert!(check_table_id(&"a".repeat(51)).is_err());
    }
}
