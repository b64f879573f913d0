//! [`Client`]: a gateway of one HBase cluster, its pool of connections and the calls every
//! other module makes through it (retried when idempotent), and table administration.

use rowkey::plan::SplitPoints;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::thrift::protocol::{TInputProtocol, TOutputProtocol};
use rowkey::RowKey;

use crate::error::Error;
use crate::gateway::{self, GatewayConfig};
use crate::pool;
#[cfg(doc)]
use crate::read::Read;
use crate::table::Table;
use crate::thrift::{
    TColumnFamilyDescriptor, THBaseServiceSyncClient, TTHBaseServiceSyncClient, TTableDescriptor,
    TTableName,
};
#[cfg(doc)]
use crate::write::Cell;

/// One Thrift2 connection: the generated client over the gateway's transport and protocol
/// ([`GatewayConfig`]).
pub type Conn =
    THBaseServiceSyncClient<Box<dyn TInputProtocol + Send>, Box<dyn TOutputProtocol + Send>>;

/// How long the first call of [`Client::connect_to`] waits for an answer: a gateway that speaks
/// another transport may wait for bytes that never come.
const FIRST_CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections kept for reuse.
const POOL: usize = 32;

/// Streams a read runs at once unless [`Client::with_max_streams`] or
/// [`Read::streams`] says otherwise.
pub const DEFAULT_MAX_STREAMS: usize = 8;

/// A Thrift2 gateway of one HBase cluster. Cheap to clone; clones share a small pool of
/// connections (each call takes one, and gives it back when the call succeeded).
///
/// # Connections that survive
///
/// The gateway closes connections that stay idle longer than its
/// `hbase.thrift.server.socket.read.timeout` (60 s by default), and all of them when it
/// restarts. Before a pooled connection is used it is checked: one idle longer than
/// [`with_max_idle`](Self::with_max_idle) (default 30 s), or already closed by the gateway, is
/// dropped and a fresh one opened. A call that fails because its connection broke is sent again
/// on a fresh connection, with a growing pause (50 ms doubling to 2 s), until
/// [`with_retry_for`](Self::with_retry_for) (default 15 s) has passed — when the call is
/// idempotent:
///
/// - **retried**: reads (gets, opening a scanner and its pages, `table_exists`, listing tables
///   and regions), puts whose cells all carry a timestamp ([`Cell::at`]: writing the same
///   cell at the same timestamp twice is writing it once — the index and migration stores
///   write that way), and deletes of a row at a given timestamp;
/// - **not retried** once sent: puts with server time (a second attempt would write a second
///   version, later than a concurrent writer's), plain deletes (a second attempt would also
///   delete what another writer put in between), and table administration (`create_table`
///   twice is an error). They fail with [`Error::Connection`]; only a failure to *connect* is
///   retried for them, since nothing was sent.
///
/// A read whose scanner breaks mid-stream resumes after the last row it returned (see
/// [`Read`]).
#[derive(Clone)]
pub struct Client {
    gateway: GatewayConfig,
    /// The HTTP client of a gateway in HTTP mode.
    agent: Option<ureq::Agent>,
    timeout: Duration,
    max_idle: Duration,
    retry: pool::Retry,
    max_streams: usize,
    pool: Arc<Mutex<Vec<pool::Pooled>>>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("gateway", &self.gateway)
            .field("timeout", &self.timeout)
            .field("max_idle", &self.max_idle)
            .field("retry_for", &self.retry.budget)
            .field("max_streams", &self.max_streams)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Connect to the Thrift2 gateway at `addr` (`hbase thrift2 start`: binary protocol,
    /// unframed transport — the gateway's defaults; for others see [`connect_to`](Self::connect_to)).
    /// One connection is opened and checked with a call.
    ///
    /// # Errors
    ///
    /// [`Error::Connection`] when nothing answers there, or the gateway speaks something else.
    pub fn connect(addr: impl ToSocketAddrs) -> Result<Client, Error> {
        Client::connect_to(GatewayConfig::socket(addr)?)
    }

    /// Connect to a gateway with the transport and protocol it runs with ([`GatewayConfig`]:
    /// framed, compact, HTTP mode, TLS). One connection is opened and checked with a call
    /// (`tableExists` of `hbase:meta`) answered within 10 s.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), rowkey_hbase::Error> {
    /// use rowkey_hbase::{Client, GatewayConfig};
    ///
    /// let client = Client::connect_to(GatewayConfig::socket("127.0.0.1:9090")?.framed())?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Connection`] when nothing answers there, or the gateway does not answer in this
    /// transport and protocol — saying what it may run with instead (an HTTP answer on a
    /// socket: HTTP mode; no answer: framed, compact or HTTP); a TLS certificate that is not
    /// trusted. [`Error::InvalidArgument`] for a configuration that cannot work (HTTP mode
    /// framed).
    pub fn connect_to(gateway: GatewayConfig) -> Result<Client, Error> {
        gateway.check()?;
        let timeout = Duration::from_secs(120);
        let client = Client {
            agent: gateway.agent(timeout),
            gateway,
            timeout,
            max_idle: Duration::from_secs(30),
            retry: pool::Retry::default(),
            max_streams: DEFAULT_MAX_STREAMS,
            pool: Arc::new(Mutex::new(Vec::new())),
        };
        // The first call waits at most FIRST_CALL_TIMEOUT, over a socket or HTTP alike.
        let first = FIRST_CALL_TIMEOUT.min(client.timeout);
        let probe_agent = client.gateway.agent(first);
        let mut conn =
            pool::Pooled::new(gateway::open(&client.gateway, probe_agent.as_ref(), first)?);
        let meta = crate::thrift::TTableName::new(b"hbase".to_vec(), b"meta".to_vec());
        match conn.conn.table_exists(meta) {
            Ok(_) => {}
            Err(e) => return Err(gateway::first_call_error(&client.gateway, &conn.seen, e)),
        }
        // back to the client's own timeout before a socket connection is pooled (an HTTP one
        // holds the probe's short-timeout agent: drop it)
        match &conn.probe {
            Some(socket) => {
                let _ = socket
                    .set_read_timeout(Some(client.timeout))
                    .and_then(|()| socket.set_write_timeout(Some(client.timeout)));
                client.give_back(conn);
            }
            None => drop(conn),
        }
        Ok(client)
    }

    /// Time out a call (connect, read or write) after `timeout` (default 120 s).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Client {
        self.timeout = timeout;
        self.agent = self.gateway.agent(timeout);
        if let Ok(mut pool) = self.pool.lock() {
            // pooled connections carry the old timeout
            pool.clear();
        }
        self
    }

    /// Retry an idempotent call whose connection broke, on fresh connections, until
    /// `budget` has passed since its first attempt (default 15 s: long enough for a gateway
    /// restart; `Duration::ZERO` tries once more, at once). See [the type docs](Client) for
    /// which calls are idempotent.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), rowkey_hbase::Error> {
    /// use std::time::Duration;
    ///
    /// let client = rowkey_hbase::Client::connect("127.0.0.1:9090")?
    ///     .with_retry_for(Duration::from_secs(60))
    ///     .with_max_idle(Duration::from_secs(20))
    ///     .with_max_streams(4);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn with_retry_for(mut self, budget: Duration) -> Client {
        self.retry.budget = budget;
        self
    }

    /// Drop a pooled connection that has been idle longer than `max_idle` instead of using it
    /// (default 30 s; keep it below the gateway's `hbase.thrift.server.socket.read.timeout`).
    #[must_use]
    pub fn with_max_idle(mut self, max_idle: Duration) -> Client {
        self.max_idle = max_idle;
        self
    }

    /// The most scanners a [`Read`] runs at once — threads and connections — whatever its
    /// number of ranges and salt buckets (default [`DEFAULT_MAX_STREAMS`]; at least 1).
    #[must_use]
    pub fn with_max_streams(mut self, n: usize) -> Client {
        self.max_streams = n.max(1);
        self
    }

    /// The gateway's socket address (`None` for a gateway in HTTP mode: see
    /// [`gateway`](Self::gateway)).
    pub fn addr(&self) -> Option<SocketAddr> {
        self.gateway.socket_addr()
    }

    /// The gateway and what it speaks.
    pub fn gateway(&self) -> &GatewayConfig {
        &self.gateway
    }

    /// Whether reads page with stateless `getScannerResults` calls (HTTP mode) rather than
    /// scanners held open on the gateway.
    pub(crate) fn stateless_scans(&self) -> bool {
        self.gateway.url().is_some()
    }

    /// A new connection of its own (for a scanner held open, or a raw call through the
    /// generated [`thrift`] client).
    ///
    /// # Errors
    ///
    /// [`Error::Connection`].
    pub fn open(&self) -> Result<Conn, Error> {
        Ok(self.open_pooled()?.conn)
    }

    fn open_pooled(&self) -> Result<pool::Pooled, Error> {
        let opened = gateway::open(&self.gateway, self.agent.as_ref(), self.timeout)?;
        Ok(pool::Pooled::new(opened))
    }

    /// A pooled connection that is still open, or a new one.
    pub(crate) fn checkout(&self) -> Result<pool::Pooled, Error> {
        loop {
            let pooled = self.pool.lock().ok().and_then(|mut p| p.pop());
            match pooled {
                Some(c) if c.usable(self.max_idle) => return Ok(c),
                // closed by the gateway, or idle too long: drop it
                Some(_) => continue,
                None => return self.open_pooled(),
            }
        }
    }

    /// Return a connection whose last call succeeded (or failed with an HBase error).
    pub(crate) fn give_back(&self, mut conn: pool::Pooled) {
        conn.touch();
        if let Ok(mut pool) = self.pool.lock() {
            if pool.len() < POOL {
                pool.push(conn);
            }
        }
    }

    pub(crate) fn retry(&self) -> pool::Retry {
        self.retry
    }

    pub(crate) fn max_streams(&self) -> usize {
        self.max_streams
    }

    /// Run an idempotent call on a pooled connection, retried on a fresh connection when the
    /// connection breaks (see [the type docs](Client)). A connection whose call failed is
    /// dropped (its stream may be mid-message); an HBase error (`TIOError`) keeps it.
    pub(crate) fn call<R>(
        &self,
        f: impl FnMut(&mut Conn) -> ::thrift::Result<R>,
    ) -> Result<R, Error> {
        self.call_as(true, f)
    }

    /// [`call`](Self::call) for a call that must not be sent twice: retried only when the
    /// connection could not be made.
    pub(crate) fn call_once<R>(
        &self,
        f: impl FnMut(&mut Conn) -> ::thrift::Result<R>,
    ) -> Result<R, Error> {
        self.call_as(false, f)
    }

    fn call_as<R>(
        &self,
        idempotent: bool,
        mut f: impl FnMut(&mut Conn) -> ::thrift::Result<R>,
    ) -> Result<R, Error> {
        let mut attempts = pool::Attempts::new(self.retry);
        loop {
            let mut conn = match self.checkout() {
                Ok(c) => c,
                Err(e) => {
                    if pool::retryable(&e) && attempts.again() {
                        continue;
                    }
                    return Err(e);
                }
            };
            match f(&mut conn.conn) {
                Ok(r) => {
                    self.give_back(conn);
                    return Ok(r);
                }
                Err(e) => {
                    let e = gateway::explain(&conn.seen, e);
                    if let Some(refusal) = gateway::refused(&conn.seen) {
                        return Err(refusal);
                    }
                    if !pool::breaks_connection(&e) {
                        self.give_back(conn);
                    }
                    if idempotent && pool::transient(&e) && attempts.again() {
                        continue;
                    }
                    return Err(pool::gave_up(e, attempts.made()));
                }
            }
        }
    }

    /// The table `name` (`namespace:table` or a table of the `default` namespace). No request
    /// is made.
    pub fn table(&self, name: &str) -> Table {
        Table {
            client: self.clone(),
            name: name.into(),
        }
    }

    /// The tables of the `default` namespace.
    ///
    /// # Errors
    ///
    /// The call failed.
    pub fn list_tables(&self) -> Result<Vec<String>, Error> {
        let names = self.call(|c| c.get_table_names_by_namespace("default".into()))?;
        Ok(names
            .into_iter()
            .map(|n| String::from_utf8_lossy(&n.qualifier).into_owned())
            .collect())
    }

    /// Whether table `name` exists.
    ///
    /// # Errors
    ///
    /// The call failed.
    pub fn table_exists(&self, name: &str) -> Result<bool, Error> {
        self.call(|c| c.table_exists(table_name(name)))
    }

    /// Create table `name` with these column families, pre-split at `split_points` (each the
    /// first key of a region after the first; sorted, distinct, non-empty) — what the HBase
    /// shell's `create 'name', 'f', SPLITS => [...]` does.
    ///
    /// # Errors
    ///
    /// No family, unsorted or empty split points ([`Error::InvalidArgument`]), or HBase
    /// refused (the table exists, say).
    pub fn create_table(
        &self,
        name: &str,
        families: &[&str],
        split_points: &[Vec<u8>],
    ) -> Result<(), Error> {
        if families.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "table {name}: at least one column family"
            )));
        }
        if let Some(i) = split_points
            .windows(2)
            .position(|w| w[0] >= w[1])
            .or_else(|| split_points.iter().position(Vec::is_empty))
        {
            return Err(Error::InvalidArgument(format!(
                "table {name}: split points must be non-empty, sorted and distinct (at {i})"
            )));
        }
        let columns = families
            .iter()
            .map(|f| family_descriptor(f.as_bytes().to_vec()))
            .collect::<Vec<_>>();
        let desc = TTableDescriptor::new(table_name(name), columns, None, None);
        let splits = split_points.to_vec();
        self.call_once(|c| c.create_table(desc.clone(), splits.clone()))
    }

    /// Create table `name` pre-split into `regions` regions from `T`'s layout
    /// ([`SplitPoints::split_points`]: at salt-bucket boundaries, or evenly over a hash prefix).
    ///
    /// # Errors
    ///
    /// The layout has no split points of its own ([`Error::Plan`]: use a sample), or as
    /// [`create_table`](Self::create_table).
    pub fn create_table_for<T: RowKey>(
        &self,
        name: &str,
        families: &[&str],
        regions: usize,
    ) -> Result<(), Error> {
        let splits = T::split_points(regions)?;
        self.create_table(name, families, &splits)
    }

    /// Disable table `name` (reads and writes to it fail until it is enabled).
    ///
    /// # Errors
    ///
    /// The call failed.
    pub fn disable_table(&self, name: &str) -> Result<(), Error> {
        self.call_once(|c| c.disable_table(table_name(name)))
    }

    /// Enable table `name`.
    ///
    /// # Errors
    ///
    /// The call failed.
    pub fn enable_table(&self, name: &str) -> Result<(), Error> {
        self.call_once(|c| c.enable_table(table_name(name)))
    }

    /// Disable (when enabled) and delete table `name`.
    ///
    /// # Errors
    ///
    /// The call failed.
    pub fn delete_table(&self, name: &str) -> Result<(), Error> {
        let enabled = self.call(|c| c.is_table_enabled(table_name(name)))?;
        if enabled {
            self.disable_table(name)?;
        }
        self.call_once(|c| c.delete_table(table_name(name)))
    }
}

pub(crate) fn table_name(name: &str) -> TTableName {
    match name.split_once(':') {
        Some((ns, q)) => TTableName::new(Some(ns.as_bytes().to_vec()), q.as_bytes().to_vec()),
        None => TTableName::new(None, name.as_bytes().to_vec()),
    }
}

fn family_descriptor(name: Vec<u8>) -> TColumnFamilyDescriptor {
    TColumnFamilyDescriptor::new(
        name, None, None, None, None, None, None, None, None, None, None, None, None, None, None,
        None, None, None, None, None,
    )
}
