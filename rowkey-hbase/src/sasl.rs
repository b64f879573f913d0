//! Thrift's SASL transport (`TSaslClientTransport`), client side, mechanism GSSAPI: what a
//! gateway with `hbase.thrift.security.qop` speaks on its socket.
//!
//! Negotiation messages are a status byte (`START` 1, `OK` 2, `BAD` 3, `ERROR` 4,
//! `COMPLETE` 5), a 4-byte big-endian length and the payload. The client sends `START`
//! "GSSAPI" and its first token, the two sides exchange GSSAPI tokens until the context is
//! established, then the gateway offers its security layers (RFC 4752: a wrapped byte mask
//! and its largest message) and the client answers with the layer it takes. After that every
//! flush is one frame: a 4-byte length and the bytes — wrapped (`auth-int`: signed,
//! `auth-conf`: encrypted) unless the layer is `auth`.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use libgssapi::context::{ClientCtx, SecurityContext};

use crate::error::{ConnectionError, ConnectionKind};
use crate::kerberos::{Kerberos, Qop};
use crate::Error;

const START: u8 = 1;
const OK: u8 = 2;
const BAD: u8 = 3;
const ERROR: u8 = 4;
const COMPLETE: u8 = 5;

/// The largest negotiation message or frame accepted (Thrift's own limit is 100 MB).
const MAX_FRAME: usize = 256 << 20;

/// The largest wrapped message this client accepts (advertised to the gateway).
const MAX_RECEIVE: u32 = 0x00ff_ffff;

/// Bytes a wrap adds at most (a Kerberos token header, checksum and padding).
const WRAP_OVERHEAD: usize = 256;

/// How long a gateway may say nothing after the client's first SASL message before the client
/// asks, on a second connection, whether it speaks SASL at all (a SASL gateway answers in
/// milliseconds: it only checks the service ticket).
const SILENCE_BEFORE_PROBE: Duration = Duration::from_millis(1500);

/// The error text of a negotiation message that is the start of an HTTP response.
const HTTP_ANSWER: &str = "an HTTP response where a SASL message belongs";

/// An authenticated connection's protection.
pub(crate) struct Layer {
    /// The context, when messages are wrapped (`auth-int`, `auth-conf`).
    ctx: Option<ClientCtx>,
    encrypt: bool,
    /// The largest message the gateway accepts before wrapping.
    max_send: usize,
}

/// The two halves of an authenticated connection.
pub(crate) struct SaslRead {
    stream: TcpStream,
    layer: Arc<Mutex<Layer>>,
    frame: io::Cursor<Vec<u8>>,
}

/// See [`SaslRead`].
pub(crate) struct SaslWrite {
    stream: TcpStream,
    layer: Arc<Mutex<Layer>>,
    pending: Vec<u8>,
}

/// Authenticate `stream` to the gateway at `at`; the halves to carry Thrift messages on.
pub(crate) fn handshake(
    mut stream: TcpStream,
    kerberos: &Kerberos,
    at: &str,
) -> Result<(SaslRead, SaslWrite, Qop), Error> {
    let broken = |e: io::Error| {
        if e.to_string() == HTTP_ANSWER {
            return Error::Connection(ConnectionError::new(
                ConnectionKind::Protocol,
                format!(
                "the gateway at {at} answered the Kerberos (SASL) handshake with HTTP: it runs \
                 in HTTP mode (hbase.regionserver.thrift.http); connect with \
                 GatewayConfig::http(\"http://{at}/\") and Kerberos (SPNEGO)"
            ),
            ));
        }
        if matches!(
            e.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
        ) {
            return Error::Connection(ConnectionError::new(
                ConnectionKind::Protocol,
                format!(
                "the gateway at {at} did not answer the Kerberos (SASL) handshake ({e}): it may \
                 not speak SASL (hbase.thrift.security.qop unset), or run framed, compact or in \
                 HTTP mode"
            ),
            ));
        }
        if e.kind() == io::ErrorKind::UnexpectedEof {
            // a SASL gateway says BAD or ERROR before it closes a connection
            return Error::Connection(ConnectionError::new(
                ConnectionKind::Protocol,
                format!(
                "the gateway at {at} closed the connection during the Kerberos (SASL) handshake \
                 without a SASL answer: it does not speak SASL here — it runs without Kerberos \
                 (hbase.thrift.security.qop unset), framed or compact"
            ),
            ));
        }
        Error::Connection(ConnectionError::new(
            ConnectionKind::Protocol,
            format!(
                "the gateway at {at} broke off the Kerberos (SASL) handshake ({e}): does it run \
             with Kerberos (hbase.thrift.security.qop)?"
            ),
        ))
    };
    let mut ctx = kerberos.context(false)?;
    let first = kerberos.first_token(&mut ctx)?;
    send(&mut stream, START, b"GSSAPI").map_err(broken)?;
    send(&mut stream, OK, &first).map_err(broken)?;
    if let Some(e) = silent_without_sasl(&stream, at) {
        return Err(e);
    }
    let chosen = loop {
        let (status, payload) = receive(&mut stream).map_err(broken)?;
        match status {
            OK | COMPLETE => {}
            BAD | ERROR => return Err(refused(kerberos, at, &payload)),
            other => {
                return Err(Error::Connection(ConnectionError::new(
                    ConnectionKind::Protocol,
                    format!(
                    "the gateway at {at} sent SASL status {other} during the Kerberos handshake"
                ),
                )))
            }
        }
        if !ctx.is_complete() {
            let token = ctx
                .step(Some(&payload), None)
                .map_err(|e| Error::Auth(kerberos.explain("the gateway's answer", &e)))?;
            let token = token.map(|t| t.to_vec()).unwrap_or_default();
            send(&mut stream, OK, &token).map_err(broken)?;
            continue;
        }
        if payload.is_empty() {
            send(&mut stream, OK, &[]).map_err(broken)?;
            continue;
        }
        // the security layers the gateway offers
        let offer = ctx
            .unwrap(&payload)
            .map_err(|e| Error::Auth(kerberos.explain("the gateway's security layers", &e)))?;
        let (mask, max) = match &offer[..] {
            [mask, a, b, c] => (*mask, u32::from_be_bytes([0, *a, *b, *c])),
            _ => {
                return Err(Error::Auth(format!(
                    "the gateway at {at} offered security layers in {} bytes, not 4",
                    offer.len()
                )))
            }
        };
        let offered = Qop::offered(mask);
        let chosen = match kerberos.wanted_qop() {
            Some(q) if offered.contains(&q) => q,
            Some(q) => {
                return Err(Error::Auth(format!(
                    "the gateway at {at} offers protection {} (hbase.thrift.security.qop); this \
                     client insists on {q} (Kerberos::qop)",
                    names(&offered)
                )))
            }
            None => match offered.first() {
                Some(q) => *q,
                None => {
                    return Err(Error::Auth(format!(
                        "the gateway at {at} offered no security layer"
                    )))
                }
            },
        };
        let mut answer = MAX_RECEIVE.to_be_bytes();
        answer[0] = chosen.bit();
        let wrapped = ctx
            .wrap(false, &answer)
            .map_err(|e| Error::Auth(kerberos.explain("the answer to the gateway", &e)))?;
        send(&mut stream, COMPLETE, &wrapped).map_err(broken)?;
        let (status, payload) = receive(&mut stream).map_err(broken)?;
        match status {
            COMPLETE => {}
            BAD | ERROR => return Err(refused(kerberos, at, &payload)),
            other => {
                return Err(Error::Connection(ConnectionError::new(
                    ConnectionKind::Protocol,
                    format!(
                        "the gateway at {at} ended the Kerberos handshake with SASL status {other}"
                    ),
                )))
            }
        }
        let max_send = if max == 0 {
            MAX_FRAME
        } else {
            usize::try_from(max).unwrap_or(MAX_FRAME)
        };
        break (chosen, max_send);
    };
    let (qop, max_send) = chosen;
    let layer = Arc::new(Mutex::new(Layer {
        encrypt: qop == Qop::AuthConf,
        ctx: (qop != Qop::Auth).then_some(ctx),
        max_send,
    }));
    let write = stream
        .try_clone()
        .map_err(|e| Error::Connection(ConnectionError::io(e.to_string(), e)))?;
    Ok((
        SaslRead {
            stream,
            layer: Arc::clone(&layer),
            frame: io::Cursor::new(Vec::new()),
        },
        SaslWrite {
            stream: write,
            layer,
            pending: Vec::new(),
        },
        qop,
    ))
}

fn names(qops: &[Qop]) -> String {
    if qops.is_empty() {
        return "none".into();
    }
    qops.iter().map(|q| q.name()).collect::<Vec<_>>().join(", ")
}

/// The gateway's `BAD`/`ERROR` message, with what usually causes it.
fn refused(kerberos: &Kerberos, at: &str, payload: &[u8]) -> Error {
    let text = String::from_utf8_lossy(payload.get(..300).unwrap_or(payload));
    Error::Auth(format!(
        "the gateway at {at} refused the Kerberos handshake: {text} — is {} its principal \
         (hbase.thrift.kerberos.principal), and the client's principal one its KDC trusts?",
        kerberos.service_principal()
    ))
}

/// When the gateway has said nothing for [`SILENCE_BEFORE_PROBE`] after the client's first
/// SASL message, whether that is because it does not speak SASL: the error saying so.
///
/// A gateway without SASL reads the message's first four bytes (`01 00 00 00`) as the length
/// of a Thrift method name (16 MiB) and waits for the rest, saying nothing until the client's
/// timeout. So the client asks it a plain Thrift question on a second connection: a Thrift
/// answer (strict binary protocol: `80 01`) or an HTTP one means the gateway runs without
/// SASL. A SASL gateway answers the question with a SASL `ERROR` (or not at all): then, as
/// when the gateway answers in time, the handshake goes on as before.
fn silent_without_sasl(stream: &TcpStream, at: &str) -> Option<Error> {
    let timeout = stream.read_timeout().ok().flatten();
    let quick = timeout.map_or(SILENCE_BEFORE_PROBE, |t| t.min(SILENCE_BEFORE_PROBE));
    stream.set_read_timeout(Some(quick)).ok()?;
    let mut first = [0u8; 1];
    let peeked = stream.peek(&mut first);
    stream.set_read_timeout(timeout).ok()?;
    match peeked {
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) => {}
        // an answer, or an error the handshake reports itself
        _ => return None,
    }
    let answer = plain_call(stream.peer_addr().ok()?, Duration::from_secs(2))?;
    if answer.starts_with(&[0x80, 0x01]) {
        Some(Error::Connection(ConnectionError::new(
            ConnectionKind::Protocol,
            format!(
                "the gateway at {at} does not speak SASL: it said nothing to the Kerberos (SASL) \
             handshake for {} ms and answered a plain Thrift call — it runs without Kerberos \
             (no hbase.thrift.security.qop). Connect without GatewayConfig::kerberos, or run \
             the gateway with Kerberos",
                quick.as_millis()
            ),
        )))
    } else if answer.starts_with(b"HTTP/") {
        Some(Error::Connection(ConnectionError::new(
            ConnectionKind::Protocol,
            format!(
                "the gateway at {at} does not speak SASL: it answered a plain call with HTTP — it \
             runs in HTTP mode (hbase.regionserver.thrift.http); connect with \
             GatewayConfig::http(\"http://{at}/\") and Kerberos (SPNEGO)"
            ),
        )))
    } else {
        None
    }
}

/// The first five bytes a gateway answers a plain Thrift call with (buffered transport, strict
/// binary protocol; a method no gateway has, without arguments: a Thrift server answers with
/// an exception message), or `None` when it answers nothing in `timeout`.
fn plain_call(peer: SocketAddr, timeout: Duration) -> Option<Vec<u8>> {
    const NAME: &[u8] = b"rowkeyHbaseProbe";
    let mut s = TcpStream::connect_timeout(&peer, timeout).ok()?;
    s.set_read_timeout(Some(timeout)).ok()?;
    s.set_write_timeout(Some(timeout)).ok()?;
    let mut call = vec![0x80, 0x01, 0x00, 0x01]; // version 1, CALL
    call.extend_from_slice(&u32::try_from(NAME.len()).ok()?.to_be_bytes());
    call.extend_from_slice(NAME);
    call.extend_from_slice(&0u32.to_be_bytes()); // sequence id
    call.push(0); // the arguments: STOP
    s.write_all(&call).ok()?;
    s.flush().ok()?;
    let mut answer = [0u8; 5];
    s.read_exact(&mut answer).ok()?;
    Some(answer.to_vec())
}

fn send(stream: &mut TcpStream, status: u8, payload: &[u8]) -> io::Result<()> {
    let len = u32::try_from(payload.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "SASL message too large"))?;
    let mut message = Vec::with_capacity(5 + payload.len());
    message.push(status);
    message.extend_from_slice(&len.to_be_bytes());
    message.extend_from_slice(payload);
    stream.write_all(&message)?;
    stream.flush()
}

fn receive(stream: &mut TcpStream) -> io::Result<(u8, Vec<u8>)> {
    let mut header = [0u8; 5];
    stream.read_exact(&mut header)?;
    if &header == b"HTTP/" {
        return Err(io::Error::new(io::ErrorKind::InvalidData, HTTP_ANSWER));
    }
    let [status, a, b, c, d] = header;
    let payload = read_payload(stream, u32::from_be_bytes([a, b, c, d]))?;
    Ok((status, payload))
}

fn read_payload(stream: &mut TcpStream, len: u32) -> io::Result<Vec<u8>> {
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    if len > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a SASL frame of {len} bytes (more than {MAX_FRAME})"),
        ));
    }
    let mut payload = vec![0u8; len];
    stream.read_exact(&mut payload)?;
    Ok(payload)
}

fn gss_io(e: libgssapi::error::Error) -> io::Error {
    io::Error::other(format!("GSSAPI on the Kerberos connection: {e}"))
}

impl Read for SaslRead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.frame.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            let mut len = [0u8; 4];
            self.stream.read_exact(&mut len)?;
            let bytes = read_payload(&mut self.stream, u32::from_be_bytes(len))?;
            let mut layer = self
                .layer
                .lock()
                .map_err(|_| io::Error::other("poisoned SASL layer"))?;
            let bytes = match layer.ctx.as_mut() {
                Some(ctx) => ctx.unwrap(&bytes).map_err(gss_io)?.to_vec(),
                None => bytes,
            };
            self.frame = io::Cursor::new(bytes);
        }
    }
}

impl Write for SaslWrite {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    /// The end of a message: send it, in frames the gateway accepts.
    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let mut layer = self
            .layer
            .lock()
            .map_err(|_| io::Error::other("poisoned SASL layer"))?;
        let encrypt = layer.encrypt;
        // room for the wrap's own bytes within the gateway's limit
        let max_send = layer.max_send.saturating_sub(WRAP_OVERHEAD).max(1024);
        let mut out = Vec::with_capacity(pending.len() + 64);
        match layer.ctx.as_mut() {
            None => {
                let len = u32::try_from(pending.len()).map_err(|_| {
                    io::Error::new(io::ErrorKind::InvalidInput, "a message over 4 GiB")
                })?;
                out.extend_from_slice(&len.to_be_bytes());
                out.extend_from_slice(&pending);
            }
            Some(ctx) => {
                for chunk in pending.chunks(max_send) {
                    let wrapped = ctx.wrap(encrypt, chunk).map_err(gss_io)?;
                    let len = u32::try_from(wrapped.len()).map_err(|_| {
                        io::Error::new(io::ErrorKind::InvalidInput, "a wrapped frame over 4 GiB")
                    })?;
                    out.extend_from_slice(&len.to_be_bytes());
                    out.extend_from_slice(&wrapped);
                }
            }
        }
        drop(layer);
        self.stream.write_all(&out)?;
        self.stream.flush()
    }
}
