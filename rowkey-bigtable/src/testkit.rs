//! Start the Cloud Bigtable emulator (`cbtemulator`) on a free loopback port, for tests and
//! examples.
//!
//! ```toml
//! [dev-dependencies]
//! rowkey-bigtable = { version = "0.1", features = ["testkit"] }
//! ```
//!
//! The emulator ships in the Debian package `google-cloud-cli-bigtable-emulator` (the Cloud
//! SDK's `platform/bigtable-emulator/cbtemulator`). [`Emulator::start`] finds it, starts it on
//! `127.0.0.1:<free port>` and waits until it accepts connections. It keeps all data in memory.
//!
//! The emulator runs under a tiny `sh` wrapper that reads its standard input: when the
//! [`Emulator`] is dropped — or the process that started it exits in any way, even killed —
//! the pipe closes and the wrapper kills the emulator. No emulator outlives its test binary.
//!
//! ```no_run
//! # async fn demo() -> Result<(), rowkey_bigtable::Error> {
//! use rowkey_bigtable::testkit::Emulator;
//! use rowkey_bigtable::Client;
//!
//! let emulator = Emulator::shared()?; // one per process, started on first use
//! let client = Client::emulator(emulator.endpoint(), "demo-project", "demo-instance")?;
//! # Ok(()) }
//! ```

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The Debian package that ships `cbtemulator`.
pub const EMULATOR_PACKAGE: &str = "google-cloud-cli-bigtable-emulator";

/// Where the Debian package installs the emulator binary.
pub const DEFAULT_EMULATOR_PATH: &str =
    "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator";

/// The emulator could not be started.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum EmulatorError {
    /// No `cbtemulator` binary was found.
    NotInstalled {
        /// The places that were looked at.
        searched: Vec<PathBuf>,
    },
    /// Starting it failed, or it did not accept connections in time.
    Start(String),
}

impl fmt::Display for EmulatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmulatorError::NotInstalled { searched } => {
                write!(
                    f,
                    "the Cloud Bigtable emulator (cbtemulator) is not installed: install the \
                     Debian package `{EMULATOR_PACKAGE}` (apt-get install {EMULATOR_PACKAGE}), or \
                     set CBTEMULATOR to the binary's path. Looked at: "
                )?;
                for (i, p) in searched.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}", p.display())?;
                }
                Ok(())
            }
            EmulatorError::Start(msg) => write!(f, "could not start the Bigtable emulator: {msg}"),
        }
    }
}

impl std::error::Error for EmulatorError {}

/// Find the `cbtemulator` binary: `$CBTEMULATOR`, the Debian package's path, the Cloud SDK
/// under `$CLOUDSDK_ROOT_DIR`, then `cbtemulator` on `$PATH`.
///
/// # Errors
///
/// [`EmulatorError::NotInstalled`] (its message names the Debian package) when none exists.
pub fn find_binary() -> Result<PathBuf, EmulatorError> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("CBTEMULATOR") {
        candidates.push(PathBuf::from(p));
    }
    candidates.push(PathBuf::from(DEFAULT_EMULATOR_PATH));
    if let Some(root) = std::env::var_os("CLOUDSDK_ROOT_DIR") {
        candidates.push(Path::new(&root).join("platform/bigtable-emulator/cbtemulator"));
    }
    candidates.push(PathBuf::from(
        "/usr/share/google-cloud-sdk/platform/bigtable-emulator/cbtemulator",
    ));
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join("cbtemulator")));
    }
    match candidates.iter().find(|p| p.is_file()) {
        Some(p) => Ok(p.clone()),
        None => Err(EmulatorError::NotInstalled {
            searched: candidates,
        }),
    }
}

/// A running emulator, stopped when dropped (or when this process exits).
///
/// ```
/// use rowkey_bigtable::testkit::{find_binary, Emulator, EmulatorError, EMULATOR_PACKAGE};
///
/// // a test that needs the emulator fails loudly without it, naming the package to install
/// let binary = find_binary().unwrap_or_else(|e: EmulatorError| panic!("{e} ({EMULATOR_PACKAGE})"));
/// assert!(binary.ends_with("cbtemulator"));
/// let emulator = Emulator::start()?;
/// assert!(emulator.addr().ip().is_loopback());
/// assert_eq!(emulator.endpoint(), emulator.addr().to_string());
/// let addr = emulator.addr();
/// assert!(std::net::TcpStream::connect(addr).is_ok());
/// emulator.stop(); // or drop it
/// # Ok::<(), EmulatorError>(())
/// ```
pub struct Emulator {
    addr: SocketAddr,
    endpoint: String,
    /// The wrapper's standard input: closing it stops the emulator.
    stdin: Mutex<Option<ChildStdin>>,
    child: Mutex<Child>,
}

impl fmt::Debug for Emulator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Emulator")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

/// The wrapper: start the emulator in the background, wait for standard input to close (the
/// parent exited or dropped the handle), then stop it. `$0` is the binary, `$1` the port.
const WRAPPER: &str = r#"
"$0" -host 127.0.0.1 -port "$1" &
child=$!
echo "started $child"
cat >/dev/null
kill "$child" 2>/dev/null
wait "$child" 2>/dev/null
"#;

impl Emulator {
    /// Start a new emulator on a free loopback port and wait until it accepts connections.
    ///
    /// # Errors
    ///
    /// [`EmulatorError::NotInstalled`] when there is no `cbtemulator` (the message names the
    /// Debian package), [`EmulatorError::Start`] when it does not come up.
    pub fn start() -> Result<Emulator, EmulatorError> {
        let bin = find_binary()?;
        let mut last = String::new();
        // A port found free can be taken by someone else before the emulator binds it: retry.
        for _ in 0..5 {
            match Self::start_once(&bin) {
                Ok(e) => return Ok(e),
                Err(e) => last = e,
            }
        }
        Err(EmulatorError::Start(last))
    }

    fn start_once(bin: &Path) -> Result<Emulator, String> {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free loopback port: {e}"))?
            .port();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(WRAPPER)
            .arg(bin)
            .arg(port.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("spawning sh for {}: {e}", bin.display()))?;
        let stdin = child.stdin.take();
        // Wait for the wrapper's "started" line, so the emulator process exists.
        if let Some(out) = child.stdout.take() {
            let mut line = String::new();
            let mut reader = BufReader::new(out);
            let _ = reader.read_line(&mut line);
            // Drain the rest (the emulator's own stdout) in the background.
            std::thread::spawn(move || {
                let mut sink = [0u8; 4096];
                while matches!(reader.read(&mut sink), Ok(n) if n > 0) {}
            });
        }
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let emulator = Emulator {
            addr,
            endpoint: addr.to_string(),
            stdin: Mutex::new(stdin),
            child: Mutex::new(child),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                return Ok(emulator);
            }
            if let Ok(Some(status)) = emulator
                .child
                .lock()
                .map_err(|_| io::Error::other("poisoned"))
                .and_then(|mut c| c.try_wait())
            {
                return Err(format!(
                    "the emulator wrapper exited ({status}) on port {port}"
                ));
            }
            if Instant::now() > deadline {
                return Err(format!("no connection on {addr} after 30 s"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// One emulator for the whole process, started on first use (tests and examples share it).
    /// It is stopped when the process exits.
    ///
    /// # Errors
    ///
    /// As [`Emulator::start`]; a failure is remembered and returned again.
    pub fn shared() -> Result<&'static Emulator, EmulatorError> {
        static SHARED: OnceLock<Result<Emulator, EmulatorError>> = OnceLock::new();
        SHARED
            .get_or_init(Emulator::start)
            .as_ref()
            .map_err(Clone::clone)
    }

    /// `host:port`, the value for `BIGTABLE_EMULATOR_HOST`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The socket address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stop the emulator now (also done on drop and at process exit).
    pub fn stop(&self) {
        if let Ok(mut stdin) = self.stdin.lock() {
            stdin.take();
        }
        if let Ok(mut child) = self.child.lock() {
            let _ = child.wait();
        }
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.stop();
    }
}
