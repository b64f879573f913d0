//! How the client reaches a Thrift2 gateway: the socket transports (buffered or framed), the
//! protocols (binary or compact), and HTTP mode, in the clear or over TLS; with Kerberos
//! (feature `kerberos`, see `Kerberos`) on either.
//!
//! A production gateway rarely runs with the defaults of `hbase thrift2 start` (binary
//! protocol, unframed socket). [`GatewayConfig`] says what it runs with, and
//! [`Client::connect_to`](crate::Client::connect_to) checks it with one call: a client that
//! speaks something else gets an error that says so, never a hang.
//!
//! | the gateway runs with | `GatewayConfig` |
//! |---|---|
//! | `hbase thrift2 start` (the defaults) | `GatewayConfig::socket(addr)?` |
//! | `-f`, or a `nonblocking`, `hsha` or `threadedselector` server (they need framing) | `.framed()` |
//! | `-c` (`hbase.regionserver.thrift.compact`) | `.compact()` |
//! | `hbase.regionserver.thrift.http = true` | `GatewayConfig::http("http://host:9090/")?` |
//! | … and `hbase.thrift.ssl.enabled = true` | `GatewayConfig::http("https://host:9090/")?`, `.ca_file(path)?` for a private CA |
//! | Kerberos, `hbase.thrift.security.qop` = `auth` / `auth-int` / `auth-conf` (SASL GSSAPI; unframed) | `.kerberos(Kerberos::service("hbase/host@REALM"))` (feature `kerberos`) |
//! | Kerberos in HTTP mode (SPNEGO; `auth-conf` needs TLS) | `GatewayConfig::http("https://…")?.kerberos(Kerberos::service("HTTP/host@REALM"))` |
//!
//! In HTTP mode reads page with stateless `getScannerResults` calls, each resuming after the
//! last row, rather than scanners held open on the gateway (whose ids a restarted gateway, or
//! another one behind a load balancer, would give to other scanners).
//!
//! Over HTTPS the server's certificate is verified against the system's roots, or only
//! against the CA certificates given with [`ca_pem`](GatewayConfig::ca_pem) /
//! [`ca_file`](GatewayConfig::ca_file) — never skipped.
//!
//! ```no_run
//! # fn main() -> Result<(), rowkey_hbase::Error> {
//! use rowkey_hbase::{Client, GatewayConfig};
//!
//! // a gateway started with `hbase thrift2 -f -c start`
//! let client = Client::connect_to(GatewayConfig::socket("gateway.example:9090")?.framed().compact())?;
//! // a gateway in HTTP mode behind TLS, with a certificate of the company's CA
//! let client = Client::connect_to(
//!     GatewayConfig::http("https://gateway.example:9090/")?.ca_file("/etc/pki/company-ca.pem")?,
//! )?;
//! # Ok(()) }
//! ```

use std::fmt;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ::thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TCompactInputProtocol, TCompactOutputProtocol,
    TInputProtocol, TOutputProtocol,
};
use ::thrift::transport::{
    TBufferedReadTransport, TBufferedWriteTransport, TFramedReadTransport, TFramedWriteTransport,
    TIoChannel, TReadTransport, TTcpChannel, TWriteTransport,
};

use crate::error::{ConnectionError, ConnectionKind};
use crate::thrift::THBaseServiceSyncClient;
use crate::{Conn, Error};

/// How messages travel on a socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// Unframed (the gateway's default).
    Buffered,
    /// Each message preceded by its length (`-f`; what the non-blocking servers need).
    Framed,
}

/// How messages are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// `TBinaryProtocol` (the gateway's default).
    Binary,
    /// `TCompactProtocol` (`-c`).
    Compact,
}

/// Where a gateway is and what it speaks: see the [module docs](self).
#[derive(Clone, PartialEq, Eq)]
pub struct GatewayConfig {
    endpoint: Endpoint,
    transport: Transport,
    protocol: Protocol,
    #[cfg(feature = "kerberos")]
    kerberos: Option<crate::Kerberos>,
}

#[derive(Clone, PartialEq, Eq)]
enum Endpoint {
    Socket(SocketAddr),
    Http { url: String, roots: Roots },
}

/// The certificates an HTTPS gateway's certificate is verified against.
#[derive(Clone, PartialEq, Eq)]
enum Roots {
    /// The system's trusted roots.
    System,
    /// Only these CA certificates (DER).
    Ca(Vec<Vec<u8>>),
}

impl fmt::Debug for GatewayConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("GatewayConfig");
        match &self.endpoint {
            Endpoint::Socket(addr) => d.field("socket", addr),
            Endpoint::Http { url, roots } => d.field("http", url).field(
                "roots",
                &match roots {
                    Roots::System => "system".to_owned(),
                    Roots::Ca(c) => format!("{} CA certificate(s)", c.len()),
                },
            ),
        };
        d.field("transport", &self.transport)
            .field("protocol", &self.protocol);
        #[cfg(feature = "kerberos")]
        d.field("kerberos", &self.kerberos);
        d.finish()
    }
}

impl GatewayConfig {
    /// A gateway on a socket (`host:port`): binary protocol, unframed — `hbase thrift2 start`.
    ///
    /// # Errors
    ///
    /// [`Error::Connection`] when the address does not resolve.
    pub fn socket(addr: impl ToSocketAddrs) -> Result<GatewayConfig, Error> {
        let addr = addr
            .to_socket_addrs()
            .map_err(|e| {
                Error::Connection(ConnectionError::new(
                    ConnectionKind::Refused,
                    format!("resolving the address: {e}"),
                ))
            })?
            .next()
            .ok_or_else(|| {
                Error::Connection(ConnectionError::new(
                    ConnectionKind::Refused,
                    "the address resolves to nothing",
                ))
            })?;
        Ok(GatewayConfig {
            endpoint: Endpoint::Socket(addr),
            transport: Transport::Buffered,
            protocol: Protocol::Binary,
            #[cfg(feature = "kerberos")]
            kerberos: None,
        })
    }

    /// A gateway in HTTP mode at `url` (`http://…` or `https://…`, the path the gateway serves
    /// Thrift on, `/` by default): Thrift messages in HTTP POST bodies, binary protocol.
    /// Over `https` the server's certificate is verified against the system's roots.
    ///
    /// ```
    /// use rowkey_hbase::GatewayConfig;
    ///
    /// assert!(GatewayConfig::http("https://gateway.example:9090/").is_ok());
    /// assert!(GatewayConfig::http("gateway.example:9090").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] for a URL that is not `http://` or `https://`.
    pub fn http(url: &str) -> Result<GatewayConfig, Error> {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(Error::InvalidArgument(format!(
                "gateway URL {url:?}: expected http://host:port/ or https://host:port/"
            )));
        }
        Ok(GatewayConfig {
            endpoint: Endpoint::Http {
                url: url.to_owned(),
                roots: Roots::System,
            },
            transport: Transport::Buffered,
            protocol: Protocol::Binary,
            #[cfg(feature = "kerberos")]
            kerberos: None,
        })
    }

    /// Authenticate with Kerberos (feature `kerberos`): SASL GSSAPI on a socket gateway
    /// (`hbase.thrift.security.qop`), SPNEGO on one in HTTP mode. See [`crate::kerberos`].
    #[cfg(feature = "kerberos")]
    #[must_use]
    pub fn kerberos(mut self, kerberos: crate::Kerberos) -> GatewayConfig {
        self.kerberos = Some(kerberos);
        self
    }

    /// Frame each message (a socket gateway started with `-f`, or a `nonblocking`, `hsha` or
    /// `threadedselector` server). HTTP mode has no framing: [`Client::connect_to`]
    /// refuses the combination.
    ///
    /// [`Client::connect_to`]: crate::Client::connect_to
    #[must_use]
    pub fn framed(mut self) -> GatewayConfig {
        self.transport = Transport::Framed;
        self
    }

    /// Use the compact protocol (a gateway started with `-c`).
    #[must_use]
    pub fn compact(mut self) -> GatewayConfig {
        self.protocol = Protocol::Compact;
        self
    }

    /// Verify an HTTPS gateway's certificate against these CA certificates (PEM) only, instead
    /// of the system's roots.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] when the PEM holds no certificate, or the gateway is not an
    /// `https://` one.
    pub fn ca_pem(mut self, pem: &[u8]) -> Result<GatewayConfig, Error> {
        let Endpoint::Http { url, roots } = &mut self.endpoint else {
            return Err(Error::InvalidArgument(
                "a CA certificate is for an https:// gateway (GatewayConfig::http)".into(),
            ));
        };
        if !url.starts_with("https://") {
            return Err(Error::InvalidArgument(format!(
                "a CA certificate is for an https:// gateway, not {url}"
            )));
        }
        let certs: Vec<Vec<u8>> = ureq::tls::parse_pem(pem)
            .filter_map(|item| match item {
                Ok(ureq::tls::PemItem::Certificate(c)) => Some(c.der().to_vec()),
                _ => None,
            })
            .collect();
        if certs.is_empty() {
            return Err(Error::InvalidArgument(
                "the CA PEM holds no certificate".into(),
            ));
        }
        *roots = Roots::Ca(certs);
        Ok(self)
    }

    /// [`ca_pem`](Self::ca_pem) from a file.
    ///
    /// # Errors
    ///
    /// The file cannot be read, or as [`ca_pem`](Self::ca_pem).
    pub fn ca_file(self, path: impl AsRef<Path>) -> Result<GatewayConfig, Error> {
        let path = path.as_ref();
        let pem = std::fs::read(path).map_err(|e| {
            Error::InvalidArgument(format!("reading the CA file {}: {e}", path.display()))
        })?;
        self.ca_pem(&pem)
    }

    /// The transport.
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// The protocol.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The socket address, for a socket gateway.
    pub fn socket_addr(&self) -> Option<SocketAddr> {
        match &self.endpoint {
            Endpoint::Socket(a) => Some(*a),
            Endpoint::Http { .. } => None,
        }
    }

    /// The URL, for a gateway in HTTP mode.
    pub fn url(&self) -> Option<&str> {
        match &self.endpoint {
            Endpoint::Http { url, .. } => Some(url),
            Endpoint::Socket(_) => None,
        }
    }

    /// Where the gateway is, for messages.
    pub(crate) fn describe(&self) -> String {
        match &self.endpoint {
            Endpoint::Socket(a) => a.to_string(),
            Endpoint::Http { url, .. } => url.clone(),
        }
    }

    /// What this client speaks, for messages.
    fn speaks(&self) -> String {
        let protocol = match self.protocol {
            Protocol::Binary => "binary",
            Protocol::Compact => "compact",
        };
        match (&self.endpoint, self.transport) {
            (Endpoint::Http { .. }, _) => format!("Thrift over HTTP, {protocol} protocol"),
            (Endpoint::Socket(_), Transport::Buffered) => {
                format!("an unframed socket, {protocol} protocol")
            }
            (Endpoint::Socket(_), Transport::Framed) => {
                format!("a framed socket, {protocol} protocol")
            }
        }
    }

    pub(crate) fn check(&self) -> Result<(), Error> {
        if matches!(self.endpoint, Endpoint::Http { .. }) && self.transport == Transport::Framed {
            return Err(Error::InvalidArgument(
                "HTTP mode has no framing: a GatewayConfig::http gateway cannot be framed()".into(),
            ));
        }
        #[cfg(feature = "kerberos")]
        if let (Endpoint::Socket(_), Some(_), Transport::Framed) =
            (&self.endpoint, &self.kerberos, self.transport)
        {
            return Err(Error::InvalidArgument(
                "HBase's gateway does not run Kerberos (SASL) over a framed transport \
                 (\"Thrift server authentication doesn't work with framed transport yet\"): \
                 a Kerberized socket gateway is unframed"
                    .into(),
            ));
        }
        Ok(())
    }

    /// The HTTP client of an HTTP-mode gateway (one per `Client`: it keeps connections).
    pub(crate) fn agent(&self, timeout: Duration) -> Option<ureq::Agent> {
        let Endpoint::Http { roots, .. } = &self.endpoint else {
            return None;
        };
        let roots = match roots {
            Roots::System => ureq::tls::RootCerts::PlatformVerifier,
            Roots::Ca(certs) => ureq::tls::RootCerts::new_with_certs(
                &certs
                    .iter()
                    .map(|der| ureq::tls::Certificate::from_der(der).to_owned())
                    .collect::<Vec<_>>(),
            ),
        };
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .tls_config(ureq::tls::TlsConfig::builder().root_certs(roots).build())
            .build();
        Some(config.into())
    }
}

/// What a connection saw that its Thrift errors do not say: the first bytes it received (to
/// recognise an HTTP answer on a socket) and the last HTTP failure in words.
#[derive(Debug, Default)]
pub(crate) struct Traced {
    first: Vec<u8>,
    http_error: Option<String>,
    /// Credentials refused or not to be had: no retry helps.
    refused: Option<String>,
}

/// A connection's [`Traced`], shared by its halves.
pub(crate) type Seen = Arc<Mutex<Traced>>;

/// `e`, with the words of the HTTP failure behind it when there was one (Thrift keeps only
/// "transport error" of it).
pub(crate) fn explain(seen: &Seen, e: ::thrift::Error) -> ::thrift::Error {
    if let ::thrift::Error::Transport(_) = &e {
        if let Some(message) = seen.lock().ok().and_then(|mut t| t.http_error.take()) {
            return ::thrift::Error::Transport(::thrift::TransportError::new(
                ::thrift::TransportErrorKind::Unknown,
                message,
            ));
        }
    }
    e
}

/// The refusal behind a failed call, if its credentials were refused (or could not be had):
/// [`Error::Auth`], not to be retried.
pub(crate) fn refused(seen: &Seen) -> Option<Error> {
    seen.lock()
        .ok()
        .and_then(|mut t| t.refused.take())
        .map(Error::Auth)
}

/// An open connection: the generated client, the socket to check it with (none over HTTP),
/// and the first bytes it received.
pub(crate) struct Opened {
    pub(crate) conn: Conn,
    pub(crate) probe: Option<TcpStream>,
    pub(crate) seen: Seen,
}

/// Open one connection to the gateway.
pub(crate) fn open(
    config: &GatewayConfig,
    agent: Option<&ureq::Agent>,
    timeout: Duration,
) -> Result<Opened, Error> {
    let seen: Seen = Arc::new(Mutex::new(Traced::default()));
    match &config.endpoint {
        Endpoint::Socket(addr) => {
            let stream = TcpStream::connect_timeout(addr, timeout).map_err(|e| {
                Error::Connection(ConnectionError::io(format!("connecting to {addr}: {e}"), e))
            })?;
            let _ = stream.set_nodelay(true);
            stream
                .set_read_timeout(Some(timeout))
                .and_then(|()| stream.set_write_timeout(Some(timeout)))
                .map_err(|e| Error::Connection(ConnectionError::io(e.to_string(), e)))?;
            let probe = stream
                .try_clone()
                .map_err(|e| Error::Connection(ConnectionError::io(e.to_string(), e)))?;
            #[cfg(feature = "kerberos")]
            if let Some(kerberos) = &config.kerberos {
                let (r, w, _) = crate::sasl::handshake(stream, kerberos, &addr.to_string())?;
                let r = Sniff {
                    inner: r,
                    seen: Arc::clone(&seen),
                };
                return Ok(Opened {
                    conn: client(r, w, config.protocol),
                    probe: Some(probe),
                    seen,
                });
            }
            let (r, w) = TTcpChannel::with_stream(stream)
                .split()
                .map_err(|e| Error::Connection(ConnectionError::thrift(e.to_string(), e)))?;
            let r = Sniff {
                inner: r,
                seen: Arc::clone(&seen),
            };
            let conn = match config.transport {
                Transport::Buffered => client(
                    TBufferedReadTransport::new(r),
                    TBufferedWriteTransport::new(w),
                    config.protocol,
                ),
                Transport::Framed => client(
                    TFramedReadTransport::new(r),
                    TFramedWriteTransport::new(w),
                    config.protocol,
                ),
            };
            Ok(Opened {
                conn,
                probe: Some(probe),
                seen,
            })
        }
        Endpoint::Http { url, .. } => {
            let agent =
                agent.ok_or_else(|| Error::Connection(ConnectionError::other("no HTTP client")))?;
            let shared = Arc::new(Mutex::new(Exchange {
                agent: agent.clone(),
                url: url.clone(),
                request: Vec::new(),
                response: io::Cursor::new(Vec::new()),
                seen: Arc::clone(&seen),
                #[cfg(feature = "kerberos")]
                kerberos: config.kerberos.clone(),
            }));
            let conn = client(
                HttpRead(Arc::clone(&shared)),
                HttpWrite(shared),
                config.protocol,
            );
            Ok(Opened {
                conn,
                probe: None,
                seen,
            })
        }
    }
}

fn client<R, W>(r: R, w: W, protocol: Protocol) -> Conn
where
    R: TReadTransport + Send + 'static,
    W: TWriteTransport + Send + 'static,
{
    let (input, output): (
        Box<dyn TInputProtocol + Send>,
        Box<dyn TOutputProtocol + Send>,
    ) = match protocol {
        Protocol::Binary => (
            Box::new(TBinaryInputProtocol::new(r, true)),
            Box::new(TBinaryOutputProtocol::new(w, true)),
        ),
        Protocol::Compact => (
            Box::new(TCompactInputProtocol::new(r)),
            Box::new(TCompactOutputProtocol::new(w)),
        ),
    };
    THBaseServiceSyncClient::new(input, output)
}

/// A read half that keeps the first bytes the connection received.
struct Sniff<R> {
    inner: R,
    seen: Seen,
}

impl<R: Read> Read for Sniff<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Ok(mut seen) = self.seen.lock() {
            let first = &mut seen.first;
            if first.len() < 8 {
                let take = (8 - first.len()).min(n);
                first.extend_from_slice(buf.get(..take).unwrap_or_default());
            }
        }
        Ok(n)
    }
}

/// One HTTP exchange at a time: the request a call writes, the response it reads.
struct Exchange {
    agent: ureq::Agent,
    url: String,
    request: Vec<u8>,
    response: io::Cursor<Vec<u8>>,
    seen: Seen,
    #[cfg(feature = "kerberos")]
    kerberos: Option<crate::Kerberos>,
}

/// Responses larger than this are refused (a scanner page is far smaller).
const MAX_RESPONSE: u64 = 512 << 20;

impl Exchange {
    /// POST the request; keep the response's body for the reads.
    fn post(&mut self) -> io::Result<()> {
        let body = std::mem::take(&mut self.request);
        #[allow(unused_mut)]
        let mut request = self
            .agent
            .post(&self.url)
            .header("Content-Type", "application/x-thrift")
            .header("Accept", "application/x-thrift");
        #[cfg(feature = "kerberos")]
        if let Some(kerberos) = &self.kerberos {
            match kerberos.negotiate_header() {
                Ok(header) => request = request.header("Authorization", header),
                Err(e) => {
                    let message = match e {
                        Error::Auth(m) => m,
                        other => other.to_string(),
                    };
                    return Err(self.refuse(message));
                }
            }
        }
        let mut response = request
            .send(&body[..])
            .map_err(|e| io::Error::other(http_error(&self.url, &e)))?;
        let status = response.status();
        let bytes = response
            .body_mut()
            .with_config()
            .limit(MAX_RESPONSE)
            .read_to_vec()
            .map_err(|e| io::Error::other(format!("reading the answer of {}: {e}", self.url)))?;
        if status.as_u16() != 200 {
            let text = String::from_utf8_lossy(bytes.get(..200).unwrap_or(&bytes));
            let why = match status.as_u16() {
                401 if cfg!(feature = "kerberos") => {
                    " (the gateway wants Kerberos over SPNEGO, and did not take this client's: \
                     GatewayConfig::kerberos with the gateway's hbase.thrift.spnego.principal)"
                }
                401 => {
                    " (the gateway wants Kerberos over SPNEGO: rowkey-hbase's `kerberos` feature, \
                     GatewayConfig::kerberos)"
                }
                403 => " (the gateway refused this user)",
                404 => " (no Thrift servlet at this path)",
                _ => "",
            };
            let message = format!(
                "the gateway at {} answered HTTP {status}{why}: {text}",
                self.url
            );
            if matches!(status.as_u16(), 401 | 403) {
                return Err(self.refuse(message));
            }
            return Err(io::Error::new(io::ErrorKind::ConnectionAborted, message));
        }
        self.response = io::Cursor::new(bytes);
        Ok(())
    }
}

impl Exchange {
    /// A refusal no retry can help: recorded for [`refused`], and the request's error.
    fn refuse(&self, message: String) -> io::Error {
        if let Ok(mut seen) = self.seen.lock() {
            seen.refused = Some(message.clone());
        }
        io::Error::new(io::ErrorKind::PermissionDenied, message)
    }
}

/// What went wrong with an HTTP request, in words: a refused certificate says so.
fn http_error(url: &str, e: &ureq::Error) -> String {
    let text = e.to_string();
    if text.contains("certificate") || text.contains("Certificate") {
        format!("TLS with {url}: the gateway's certificate is not trusted ({text})")
    } else if text.contains("corrupt message") || text.contains("InvalidContentType") {
        format!("TLS with {url}: the gateway does not speak TLS here ({text}): use http://")
    } else {
        format!("HTTP POST to {url}: {text}")
    }
}

struct HttpRead(Arc<Mutex<Exchange>>);
struct HttpWrite(Arc<Mutex<Exchange>>);

impl Read for HttpRead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut x = self
            .0
            .lock()
            .map_err(|_| io::Error::other("poisoned HTTP exchange"))?;
        x.response.read(buf)
    }
}

impl Write for HttpWrite {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut x = self
            .0
            .lock()
            .map_err(|_| io::Error::other("poisoned HTTP exchange"))?;
        x.request.extend_from_slice(buf);
        Ok(buf.len())
    }

    /// The end of a message: send it.
    fn flush(&mut self) -> io::Result<()> {
        let mut x = self
            .0
            .lock()
            .map_err(|_| io::Error::other("poisoned HTTP exchange"))?;
        if x.request.is_empty() {
            return Ok(());
        }
        let sent = x.post();
        if let Err(e) = &sent {
            if let Ok(mut seen) = x.seen.lock() {
                seen.http_error = Some(e.to_string());
            }
        }
        sent
    }
}

/// The error of a connection's first call, saying what the gateway may run with instead when
/// the answer was not Thrift in this client's transport and protocol.
pub(crate) fn first_call_error(config: &GatewayConfig, seen: &Seen, e: ::thrift::Error) -> Error {
    let (first, http_error) = seen
        .lock()
        .map(|mut s| (s.first.clone(), s.http_error.take()))
        .unwrap_or_default();
    let at = config.describe();
    if let Some(refusal) = refused(seen) {
        return refusal;
    }
    if let Some(message) = http_error {
        return Error::Connection(ConnectionError::new(ConnectionKind::Protocol, message));
    }
    // a SASL gateway reads a Thrift call as a negotiation message and answers ERROR (4) or
    // BAD (3), with a length and its words
    if let [3 | 4, 0, 0, _, _, ..] = first.as_slice() {
        return Error::Auth(format!(
            "the gateway at {at} answered with a SASL negotiation message: it runs with \
             Kerberos (hbase.thrift.security.qop); connect with GatewayConfig::kerberos \
             (rowkey-hbase's `kerberos` feature)"
        ));
    }
    if first.starts_with(b"HTTP/") {
        return Error::Connection(ConnectionError::new(
            ConnectionKind::Protocol,
            format!(
                "the gateway at {at} answered with an HTTP response: it runs in HTTP mode \
             (hbase.regionserver.thrift.http); connect with GatewayConfig::http(\"http://{at}/\") \
             (https:// when hbase.thrift.ssl.enabled)"
            ),
        ));
    }
    match e {
        e @ (::thrift::Error::Transport(_) | ::thrift::Error::Protocol(_)) => {
            let text = format!(
                "the gateway at {at} did not answer a call in {} ({e}): it may run with another \
                 transport or protocol — framed (-f, or a nonblocking, hsha or threadedselector \
                 server: .framed()), compact (-c: .compact()), HTTP mode \
                 (GatewayConfig::http), or Kerberos (hbase.thrift.security.qop: \
                 GatewayConfig::kerberos)",
                config.speaks()
            );
            Error::Connection(ConnectionError::thrift(text, e))
        }
        other => Error::from(other),
    }
}
