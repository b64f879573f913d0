//! A fault-injecting TCP proxy on a loopback port, between a client and the emulator: it cuts
//! connections after a number of bytes from the server, delays what the server sends,
//! refuses new connections for a while, and cuts every live connection at once. Std threads
//! only; stopped when dropped.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What the proxy does to the connections it carries.
#[derive(Default)]
struct Faults {
    /// Cut a connection once the server has sent it this many bytes (0: never).
    cut_after: AtomicU64,
    /// Connections still to cut that way (`u64::MAX`: every one).
    cuts_left: AtomicU64,
    /// Accept and drop new connections until then.
    refuse_until: Mutex<Option<Instant>>,
    /// Pause before forwarding each read from the server.
    delay_us: AtomicU64,
    /// Both halves of every live connection, to cut them all.
    live: Mutex<Vec<(TcpStream, TcpStream)>>,
    /// Counters: connections cut, refused, carried.
    cut: AtomicU64,
    refused: AtomicU64,
    carried: AtomicU64,
}

/// The proxy. Dropping it stops accepting (live connections end with their peers).
pub struct Proxy {
    addr: SocketAddr,
    faults: Arc<Faults>,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    /// A proxy to `upstream` (`host:port`) on a free loopback port, carrying connections
    /// untouched until told otherwise.
    pub fn start(upstream: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        let addr = listener.local_addr().expect("proxy address");
        let faults = Arc::new(Faults::default());
        let stop = Arc::new(AtomicBool::new(false));
        let upstream = upstream.to_owned();
        let (f, s) = (faults.clone(), stop.clone());
        thread::spawn(move || {
            for client in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(client) = client else { continue };
                let refusing = f
                    .refuse_until
                    .lock()
                    .expect("faults")
                    .is_some_and(|t| Instant::now() < t);
                if refusing {
                    f.refused.fetch_add(1, Ordering::SeqCst);
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(&upstream) else {
                    continue;
                };
                f.carried.fetch_add(1, Ordering::SeqCst);
                let _ = client.set_nodelay(true);
                let _ = server.set_nodelay(true);
                // is this connection to be cut?
                let limit = f.cut_after.load(Ordering::SeqCst);
                let cut = limit > 0
                    && f.cuts_left
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                            (n > 0).then(|| if n == u64::MAX { n } else { n - 1 })
                        })
                        .is_ok();
                if let (Ok(c), Ok(sv)) = (client.try_clone(), server.try_clone()) {
                    f.live.lock().expect("faults").push((c, sv));
                }
                let (c2, s2) = match (client.try_clone(), server.try_clone()) {
                    (Ok(c), Ok(s)) => (c, s),
                    _ => continue,
                };
                // client → server, untouched
                thread::spawn(move || pump(client, server, None, None));
                // server → client, with the faults
                let f2 = f.clone();
                thread::spawn(move || pump(s2, c2, cut.then_some(limit), Some(f2)));
            }
        });
        Proxy { addr, faults, stop }
    }

    /// `host:port` to give the client.
    pub fn endpoint(&self) -> String {
        self.addr.to_string()
    }

    /// Cut connections once the server has sent them `bytes` — the next `connections` of them
    /// (`None`: every one from now on).
    pub fn cut_after(&self, bytes: u64, connections: Option<u64>) {
        self.faults
            .cuts_left
            .store(connections.unwrap_or(u64::MAX), Ordering::SeqCst);
        self.faults.cut_after.store(bytes, Ordering::SeqCst);
    }

    /// Refuse new connections (accept and close them) for `d`.
    pub fn refuse_for(&self, d: Duration) {
        *self.faults.refuse_until.lock().expect("faults") = Some(Instant::now() + d);
    }

    /// Pause this long before forwarding each read from the server.
    pub fn delay(&self, d: Duration) {
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.faults.delay_us.store(us, Ordering::SeqCst);
    }

    /// Cut every live connection now (a server restart, seen from the client).
    pub fn cut_all(&self) {
        let live = std::mem::take(&mut *self.faults.live.lock().expect("faults"));
        for (c, s) in live {
            let _ = c.shutdown(Shutdown::Both);
            let _ = s.shutdown(Shutdown::Both);
            self.faults.cut.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Connections cut so far.
    pub fn cut(&self) -> u64 {
        self.faults.cut.load(Ordering::SeqCst)
    }

    /// Connections refused so far.
    pub fn refused(&self) -> u64 {
        self.faults.refused.load(Ordering::SeqCst)
    }

    /// Connections carried so far.
    pub fn carried(&self) -> u64 {
        self.faults.carried.load(Ordering::SeqCst)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // wake the accept loop
        let _ = TcpStream::connect(self.addr);
        self.cut_all();
    }
}

/// Copy `from` to `to`; with `limit`, cut both once that many bytes went through.
fn pump(mut from: TcpStream, mut to: TcpStream, limit: Option<u64>, faults: Option<Arc<Faults>>) {
    let mut buf = [0u8; 16 * 1024];
    let mut sent = 0u64;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if let Some(f) = &faults {
            let us = f.delay_us.load(Ordering::SeqCst);
            if us > 0 {
                thread::sleep(Duration::from_micros(us));
            }
        }
        let take = match limit {
            Some(l) => usize::try_from(l.saturating_sub(sent)).unwrap_or(n).min(n),
            None => n,
        };
        if take > 0 && to.write_all(&buf[..take]).is_err() {
            break;
        }
        sent += take as u64;
        if limit.is_some_and(|l| sent >= l) {
            if let Some(f) = &faults {
                f.cut.fetch_add(1, Ordering::SeqCst);
            }
            break;
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}
