//! Start a real HBase — standalone HBase 2.6 (master, region server and ZooKeeper in one JVM)
//! and its Thrift2 gateway — on free loopback ports, for tests and examples.
//!
//! ```toml
//! [dev-dependencies]
//! rowkey-hbase = { version = "0.1", features = ["testkit"] }
//! ```
//!
//! What it needs: a JDK 17 (`java`; HBase's Hadoop code does not run on JDK 24+) and Maven
//! (`mvn`) reaching Maven Central. The jars are resolved from this crate's `harness/pom.xml`
//! into `~/.m2` by `mvn dependency:build-classpath` (about 240 MB, first run only; the
//! classpath is cached under `~/.cache/rowkey-hbase`). Missing `java` or `mvn`, or a failed
//! fetch, is an error that says what to install — a test never passes without the server.
//!
//! [`HBase::shell`] runs the real HBase shell against the server: the 2.4.17 shell (the newest
//! `hbase-shell` artifact Maven Central serves) on the server's 2.6.1 client jars, fetched the
//! same way from `harness/shell-pom.xml` (about 27 MB more).
//!
//! [`HBase::start_with_phoenix`] (or [`HBase::shared_phoenix`]) starts the same server with
//! Apache Phoenix [`PHOENIX_VERSION`] in it, and [`HBase::phoenix_sql`] runs SQL through
//! Phoenix's JDBC driver: Phoenix's jars from `harness/phoenix-pom.xml` (about 60 MB more), a
//! tiny Java program (`harness/phoenix/PhoenixSql.java`) compiled with the JDK's `javac` into
//! the same cache.
//!
//! For Kerberos, [`Kdc`] runs Hadoop's MiniKdc (Apache Kerby) in a JVM and
//! [`HBase::start_kerberized`] a Kerberized server against it; [`MitKdc`] runs a real MIT KDC
//! (`krb5kdc`: the Debian packages `krb5-kdc` and `krb5-admin-server`), whose principals can
//! be deleted after their keytabs were written.
//!
//! Each process runs under a small `sh` wrapper that reads its standard input: when the handle
//! is dropped, or the process that started it exits in any way (even killed), the pipe closes
//! and the wrapper kills the JVM and removes its data directory. No HBase outlives its test
//! binary.
//!
//! ```no_run
//! use rowkey_hbase::testkit::HBase;
//! use rowkey_hbase::Client;
//!
//! let hbase = HBase::shared()?; // one per process, started on first use (20–60 s)
//! let client = Client::connect(hbase.thrift_addr())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

mod kdc;
mod mit_kdc;
mod tls;
pub use kdc::{kdc_classpath, Kdc, REALM};
pub use mit_kdc::{MitKdc, MIT_REALM};
pub use tls::{make_tls, TestTls, TLS_PASSWORD};

/// The HBase version the server runs (the `hbase-server` and `hbase-thrift` artifacts).
pub const HBASE_VERSION: &str = "2.6.1";

/// The Maven project that lists the server's jars.
const POM: &str = include_str!("../harness/pom.xml");

/// The version of the HBase shell [`HBase::shell`] runs: the newest `hbase-shell` artifact on
/// Maven Central (there is none for 2.5 or 2.6). It runs on the server's 2.6.1 client jars.
pub const SHELL_VERSION: &str = "2.4.17";

/// The Maven project that lists the shell's jars (`hbase-shell` without its dependencies, and
/// JRuby).
const SHELL_POM: &str = include_str!("../harness/shell-pom.xml");

/// Replaces the 2.4 shell's `trace` command, which imports HTrace classes that HBase 2.6 no
/// longer has (it moved to OpenTelemetry): without it the shell does not start
/// (`Can't load hbase shell command: trace … org.apache.hadoop.hbase.trace.SpanReceiverHost`).
const SHELL_TRACE_STUB: &str = r#"# rowkey-hbase: HBase 2.6 has no HTrace, which the 2.4 shell's `trace` command imports.
module Shell
  module Commands
    class Trace < Command
      def help
        'Not available: HBase 2.6 traces with OpenTelemetry, not HTrace.'
      end

      def command(*_args)
        raise 'trace is not available in the 2.4 shell on HBase 2.6 jars'
      end
    end
  end
end
"#;

/// The Apache Phoenix version [`HBase::start_with_phoenix`] runs: the newest release whose
/// HBase 2.6 compat module (`phoenix-hbase-compat-2.6.0`) Maven Central serves here.
pub const PHOENIX_VERSION: &str = "5.2.1";

/// The Maven project that lists Phoenix's jars (without HBase, Hadoop and ZooKeeper).
const PHOENIX_POM: &str = include_str!("../harness/phoenix-pom.xml");

/// The logging of the JVMs that run one script (the shell, the Phoenix harness): errors only, on
/// standard error.
const LOG4J_ERRORS: &str = "log4j.rootLogger=ERROR,console\n\
     log4j.appender.console=org.apache.log4j.ConsoleAppender\n\
     log4j.appender.console.target=System.err\n\
     log4j.appender.console.layout=org.apache.log4j.PatternLayout\n\
     log4j.appender.console.layout.ConversionPattern=%d %-5p [%t] %c{2}: %m%n\n";

/// The JDBC harness [`HBase::phoenix_sql`] runs (compiled on first use).
const PHOENIX_SQL_JAVA: &str = include_str!("../harness/phoenix/PhoenixSql.java");

/// How long one [`HBase::phoenix_sql`] script may run (the first connection to a new server
/// creates Phoenix's SYSTEM tables).
const PHOENIX_TIMEOUT: Duration = Duration::from_secs(600);

/// The `hbase-site.xml` properties Phoenix needs on the server (Phoenix's own
/// `bin/hbase-site.xml`: the WAL codec its secondary indexes need; namespace mapping off, the
/// default, written out because client and server must agree on it).
const PHOENIX_SITE: &str = "  <property><name>hbase.regionserver.wal.codec</name><value>org.apache.hadoop.hbase.regionserver.wal.IndexedWALEditCodec</value></property>
  <property><name>phoenix.schema.isNamespaceMappingEnabled</name><value>false</value></property>
";

/// `core-site.xml` of a Kerberized server: Hadoop's login reads its security setting there.
const KERBEROS_CORE_SITE: &str = r#"<?xml version="1.0"?>
<configuration>
  <property><name>hadoop.security.authentication</name><value>kerberos</value></property>
</configuration>
"#;

/// The `hbase-site.xml` settings of a Kerberized server (`gateway`: and of its gateway), all
/// principals' keys in `keytab`; ends the configuration.
fn kerberos_site(keytab: &Path, gateway: bool) -> String {
    let kt = keytab.display();
    let mut site = format!(
        "  <property><name>hadoop.security.authentication</name><value>kerberos</value></property>
  <property><name>hbase.security.authentication</name><value>kerberos</value></property>
  <property><name>hbase.master.kerberos.principal</name><value>hbase/localhost@{REALM}</value></property>
  <property><name>hbase.master.keytab.file</name><value>{kt}</value></property>
  <property><name>hbase.regionserver.kerberos.principal</name><value>hbase/localhost@{REALM}</value></property>
  <property><name>hbase.regionserver.keytab.file</name><value>{kt}</value></property>
  <property><name>hadoop.proxyuser.hbase.hosts</name><value>*</value></property>
  <property><name>hadoop.proxyuser.hbase.groups</name><value>*</value></property>
"
    );
    if gateway {
        site.push_str(&format!(
            "  <property><name>hbase.thrift.kerberos.principal</name><value>hbase/localhost@{REALM}</value></property>
  <property><name>hbase.thrift.keytab.file</name><value>{kt}</value></property>
  <property><name>hbase.thrift.spnego.principal</name><value>HTTP/localhost@{REALM}</value></property>
  <property><name>hbase.thrift.spnego.keytab.file</name><value>{kt}</value></property>
  <property><name>hbase.thrift.dns.interface</name><value>lo</value></property>
  <property><name>hbase.thrift.security.qop</name><value>auth-conf</value></property>
"
        ));
    }
    site.push_str("</configuration>");
    site
}

/// How long one [`HBase::shell`] script may run.
const SHELL_TIMEOUT: Duration = Duration::from_secs(300);

/// How long to wait for the server to answer.
const START_TIMEOUT: Duration = Duration::from_secs(300);

/// The server could not be started.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ServerError {
    /// A program the server needs is missing (`java`, `mvn`), or the wrong version.
    Missing(String),
    /// Fetching the jars with Maven failed.
    Fetch(String),
    /// Starting it failed, or it did not answer in time (with the tail of its log).
    Start(String),
    /// An [`HBase::shell`] script failed: its exit status and the tail of its output.
    Shell(String),
    /// An [`HBase::phoenix_sql`] script failed (or the server runs without Phoenix): the
    /// failing statement and Phoenix's error.
    Phoenix(String),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Missing(m) => write!(f, "cannot start HBase: {m}"),
            ServerError::Fetch(m) => write!(f, "cannot fetch the HBase {HBASE_VERSION} jars: {m}"),
            ServerError::Start(m) => write!(f, "HBase did not start: {m}"),
            ServerError::Shell(m) => write!(f, "the HBase shell failed: {m}"),
            ServerError::Phoenix(m) => write!(f, "Phoenix {PHOENIX_VERSION} SQL failed: {m}"),
        }
    }
}

impl std::error::Error for ServerError {}

/// The JVM flags HBase's own `bin/hbase` adds on JDK 17.
const JDK17_FLAGS: &[&str] = &[
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
    "--add-opens=java.base/java.util=ALL-UNNAMED",
    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
    "--add-opens=java.base/jdk.internal.util.random=ALL-UNNAMED",
    "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
    "--add-exports=java.base/sun.net.dns=ALL-UNNAMED",
    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
    "--add-modules=jdk.unsupported",
    "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
    "-Djava.net.preferIPv4Stack=true",
    // Hadoop's Kerberos login reads the JDK's krb5 configuration class (a Kerberized server)
    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
];

/// Find a JDK of version 11 to 23: `$ROWKEY_HBASE_JAVA`, `$JAVA_HOME/bin/java`, `java` on
/// `PATH`, then the Debian JDK 17's path.
///
/// # Errors
///
/// [`ServerError::Missing`] naming what to install.
pub fn find_java() -> Result<PathBuf, ServerError> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("ROWKEY_HBASE_JAVA") {
        candidates.push(PathBuf::from(p));
    }
    if let Some(home) = std::env::var_os("JAVA_HOME") {
        candidates.push(Path::new(&home).join("bin/java"));
    }
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join("java")));
    }
    candidates.push(PathBuf::from("/usr/lib/jvm/java-17-openjdk-amd64/bin/java"));
    java_among(&candidates)
}

/// The first of `candidates` that is a JDK 11–23.
fn java_among(candidates: &[PathBuf]) -> Result<PathBuf, ServerError> {
    let mut seen = Vec::new();
    for c in candidates.iter().filter(|p| p.is_file()) {
        match java_major(c) {
            Some(v) if (11..24).contains(&v) => return Ok(c.clone()),
            v => seen.push(format!(
                "{} (version {})",
                c.display(),
                v.map_or("unknown".into(), |v| v.to_string())
            )),
        }
    }
    Err(ServerError::Missing(format!(
        "no JDK 11–23 found (HBase {HBASE_VERSION} needs JDK 17: apt-get install openjdk-17-jdk-headless, \
         or set JAVA_HOME); found: {}",
        if seen.is_empty() { "none".to_string() } else { seen.join(", ") }
    )))
}

fn java_major(java: &Path) -> Option<u32> {
    let out = Command::new(java).arg("-version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    let quoted = text.split('"').nth(1)?;
    let mut parts = quoted.split('.');
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 {
        parts.next()?.parse().ok()
    } else {
        Some(first)
    }
}

fn find_mvn() -> Result<PathBuf, ServerError> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(home) = std::env::var_os("MAVEN_HOME") {
        candidates.push(Path::new(&home).join("bin/mvn"));
    }
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join("mvn")));
    }
    mvn_among(candidates)
}

fn mvn_among(candidates: Vec<PathBuf>) -> Result<PathBuf, ServerError> {
    candidates.into_iter().find(|p| p.is_file()).ok_or_else(|| {
        ServerError::Missing(
            "Maven (`mvn`) is not installed: it fetches the HBase jars from Maven Central \
                 (apt-get install maven)"
                .into(),
        )
    })
}

fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("ROWKEY_HBASE_CACHE") {
        return PathBuf::from(d);
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("rowkey-hbase").join(HBASE_VERSION)
}

/// The server's Java classpath: resolved by Maven from `harness/pom.xml` (fetching the jars on
/// the first run, with a line on standard error saying so), then cached.
///
/// # Errors
///
/// [`ServerError::Missing`] without `mvn`, [`ServerError::Fetch`] when Maven fails.
pub fn classpath() -> Result<String, ServerError> {
    static CP: OnceLock<Result<String, ServerError>> = OnceLock::new();
    CP.get_or_init(|| {
        resolve_classpath(
            POM,
            "server",
            &format!("HBase {HBASE_VERSION}"),
            "about 240 MB",
        )
    })
    .clone()
}

/// The HBase shell's jars (`hbase-shell` 2.4.17 and JRuby, from `harness/shell-pom.xml`), with
/// a directory of Ruby files that replace the shell's own in front: resolved and cached like
/// [`classpath`]. [`HBase::shell`] puts it before the server's classpath.
///
/// # Errors
///
/// As [`classpath`].
pub fn shell_classpath() -> Result<String, ServerError> {
    static CP: OnceLock<Result<String, ServerError>> = OnceLock::new();
    CP.get_or_init(|| {
        let jars = resolve_classpath(
            SHELL_POM,
            "shell",
            &format!("HBase shell {SHELL_VERSION}"),
            "about 27 MB",
        )?;
        let dir = cache_dir().join(format!("shell-ruby-{:016x}", fnv64(SHELL_TRACE_STUB)));
        let commands = dir.join("shell/commands");
        let trace = commands.join("trace.rb");
        if std::fs::read_to_string(&trace).ok().as_deref() != Some(SHELL_TRACE_STUB) {
            let tmp = commands.join(format!("trace.rb.{}.tmp", std::process::id()));
            std::fs::create_dir_all(&commands)
                .and_then(|()| std::fs::write(&tmp, SHELL_TRACE_STUB))
                .and_then(|()| std::fs::rename(&tmp, &trace))
                .map_err(|e| ServerError::Fetch(format!("writing {}: {e}", trace.display())))?;
        }
        Ok(format!("{}:{jars}", dir.display()))
    })
    .clone()
}

/// Phoenix's jars (from `harness/phoenix-pom.xml`: `phoenix-core-server`,
/// `phoenix-core-client` and `phoenix-hbase-compat-2.6.0` [`PHOENIX_VERSION`], without HBase,
/// Hadoop and ZooKeeper), resolved and cached like [`classpath`], less every artifact the
/// server's classpath already holds in some version (the server's own stays): what
/// [`HBase::start_with_phoenix`] appends to the server's classpath.
///
/// # Errors
///
/// As [`classpath`].
pub fn phoenix_classpath() -> Result<String, ServerError> {
    static CP: OnceLock<Result<String, ServerError>> = OnceLock::new();
    CP.get_or_init(|| {
        let server = classpath()?;
        let jars = resolve_classpath(
            PHOENIX_POM,
            "phoenix",
            &format!("Phoenix {PHOENIX_VERSION}"),
            "about 60 MB",
        )?;
        Ok(without_artifacts_of(&jars, &server))
    })
    .clone()
}

/// The jars of `extra` whose artifact (a jar's `…/group/artifact/version/x.jar` path less the
/// version) is not among those of `base`.
fn without_artifacts_of(extra: &str, base: &str) -> String {
    fn artifact(jar: &str) -> &Path {
        let p = Path::new(jar);
        p.parent().and_then(Path::parent).unwrap_or(p)
    }
    let held: std::collections::HashSet<&Path> = base
        .split(':')
        .filter(|j| !j.is_empty())
        .map(artifact)
        .collect();
    extra
        .split(':')
        .filter(|j| !j.is_empty() && !held.contains(artifact(j)))
        .collect::<Vec<_>>()
        .join(":")
}

/// The directory holding the compiled `PhoenixSql` class: compiled with the `javac` next to
/// `java` on first use, cached by the source's hash.
fn phoenix_harness(java: &Path) -> Result<PathBuf, ServerError> {
    static DIR: OnceLock<Result<PathBuf, ServerError>> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = cache_dir().join(format!("phoenix-sql-{:016x}", fnv64(PHOENIX_SQL_JAVA)));
        if dir.join("PhoenixSql.class").is_file() {
            return Ok(dir);
        }
        let javac = java.with_file_name("javac");
        if !javac.is_file() {
            return Err(ServerError::Missing(format!(
                "no `javac` next to {}: the Phoenix SQL harness is compiled with the JDK's \
                 javac (install a full JDK 17: apt-get install openjdk-17-jdk-headless)",
                java.display()
            )));
        }
        let tmp = cache_dir().join(format!("phoenix-sql.{}.tmp", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let src = tmp.join("src");
        let classes = tmp.join("classes");
        std::fs::create_dir_all(&src)
            .and_then(|()| std::fs::create_dir_all(&classes))
            .and_then(|()| std::fs::write(src.join("PhoenixSql.java"), PHOENIX_SQL_JAVA))
            .map_err(|e| ServerError::Fetch(format!("writing {}: {e}", src.display())))?;
        let out = Command::new(&javac)
            .args(["-nowarn", "-encoding", "UTF-8", "-d"])
            .arg(&classes)
            .arg(src.join("PhoenixSql.java"))
            .stdin(Stdio::null())
            .output()
            .map_err(|e| ServerError::Missing(format!("running {}: {e}", javac.display())))?;
        if !out.status.success() {
            return Err(ServerError::Fetch(format!(
                "compiling harness/phoenix/PhoenixSql.java with {} failed ({}):\n{}",
                javac.display(),
                out.status,
                tail(&String::from_utf8_lossy(&out.stderr), 30)
            )));
        }
        match std::fs::rename(&classes, &dir) {
            Ok(()) => {}
            // another process compiled it first
            Err(_) if dir.join("PhoenixSql.class").is_file() => {}
            Err(e) => {
                return Err(ServerError::Fetch(format!(
                    "writing {}: {e}",
                    dir.display()
                )))
            }
        }
        let _ = std::fs::remove_dir_all(&tmp);
        Ok(dir)
    })
    .clone()
}

/// FNV-1a: names the cache files after the Maven project they were resolved from, so checkouts
/// with different projects share `~/.cache/rowkey-hbase` without overwriting each other.
fn fnv64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn resolve_classpath(
    pom_text: &str,
    name: &str,
    what: &str,
    size: &str,
) -> Result<String, ServerError> {
    let dir = cache_dir();
    let stem = format!("{name}-{:016x}", fnv64(pom_text));
    let cached = dir.join(format!("{stem}.classpath.txt"));
    let pom = dir.join(format!("{stem}.pom.xml"));
    let pom_same = std::fs::read_to_string(&pom).is_ok_and(|p| p == pom_text);
    if pom_same {
        if let Ok(cp) = std::fs::read_to_string(&cached) {
            if !cp.is_empty() && cp.split(':').all(|j| Path::new(j).is_file()) {
                return Ok(cp);
            }
        }
    }
    let mvn = find_mvn()?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| ServerError::Fetch(format!("creating {}: {e}", dir.display())))?;
    std::fs::write(&pom, pom_text)
        .map_err(|e| ServerError::Fetch(format!("writing {}: {e}", pom.display())))?;
    eprintln!(
        "rowkey-hbase: fetching the {what} jars with Maven (first run only, {size} into \
         ~/.m2)…"
    );
    let tmp = dir.join(format!("{stem}.{}.tmp", std::process::id()));
    let out = Command::new(&mvn)
        .args(["-B", "-q", "-f"])
        .arg(&pom)
        .arg("dependency:build-classpath")
        .arg(format!("-Dmdep.outputFile={}", tmp.display()))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| ServerError::Fetch(format!("running {}: {e}", mvn.display())))?;
    if !out.status.success() {
        let mut msg = String::from_utf8_lossy(&out.stdout).into_owned();
        msg.push_str(&String::from_utf8_lossy(&out.stderr));
        return Err(ServerError::Fetch(format!(
            "`mvn dependency:build-classpath` on {} failed ({}); Maven Central must be \
             reachable:\n{}",
            pom.display(),
            out.status,
            tail(&msg, 40)
        )));
    }
    let cp = std::fs::read_to_string(&tmp)
        .map_err(|e| ServerError::Fetch(format!("reading {}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, &cached)
        .map_err(|e| ServerError::Fetch(format!("writing {}: {e}", cached.display())))?;
    eprintln!("rowkey-hbase: the {what} jars are in place");
    Ok(cp)
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

fn free_port() -> Result<u16, String> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free loopback port: {e}"))
}

/// The wrapper: `$1` is the log file, `$2` a directory to remove at the end (or empty), the
/// rest the command. It starts the command in the background, waits for standard input to
/// close (the parent exited or dropped the handle), then kills it.
const WRAPPER: &str = r#"
log=$1; dir=$2; shift 2
"$@" >>"$log" 2>&1 &
child=$!
echo "started $child"
cat >/dev/null
kill -9 "$child" 2>/dev/null
wait "$child" 2>/dev/null
[ -n "$dir" ] && rm -rf "$dir"
"#;

/// The wrapper of a JVM that runs to its end ([`HBase::shell`]): `$1` and `$2` are files for
/// its standard output and error, the rest the command. It exits with the command's status;
/// if standard input closes first (the parent gave up on it, or exited), it kills the command.
const RUN_WRAPPER: &str = r#"
out=$1; err=$2; shift 2
exec 3<&0 </dev/null
"$@" >"$out" 2>"$err" 3<&- &
child=$!
( cat <&3 >/dev/null 3<&-; kill -9 "$child" 2>/dev/null ) >/dev/null 2>&1 &
watcher=$!
exec 3<&-
wait "$child"; rc=$?
kill "$watcher" 2>/dev/null
exit $rc
"#;

/// Run `args` under [`RUN_WRAPPER`] with its output in the files `out` and `err`: its exit
/// status, or `None` when it was killed after `timeout`.
fn run_to_end(
    args: &[String],
    out: &Path,
    err: &Path,
    timeout: Duration,
) -> Result<Option<std::process::ExitStatus>, String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(RUN_WRAPPER)
        .arg("sh")
        .arg(out)
        .arg(err)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("spawning sh: {e}"))?;
    // Closing this pipe (below, or when this process dies) kills the command.
    let stdin = child.stdin.take();
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Ok(None) | Err(_) => break None,
        }
    };
    drop(stdin);
    if status.is_none() {
        let _ = child.wait();
    }
    Ok(status)
}

/// A JVM under the wrapper.
struct Jvm {
    stdin: Option<ChildStdin>,
    child: Child,
}

impl Jvm {
    fn spawn(log: &Path, remove: Option<&Path>, args: &[String]) -> Result<Jvm, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(WRAPPER)
            .arg("sh")
            .arg(log)
            .arg(remove.map(Path::as_os_str).unwrap_or_default())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("spawning sh: {e}"))?;
        let stdin = child.stdin.take();
        if let Some(out) = child.stdout.take() {
            let mut line = String::new();
            let mut reader = BufReader::new(out);
            let _ = reader.read_line(&mut line);
            // The wrapper writes nothing after that line (the JVM writes to its log); draining
            // is a precaution, so a thread that cannot start is no error.
            let _ = std::thread::Builder::new().spawn(move || {
                let mut sink = [0u8; 256];
                while matches!(reader.read(&mut sink), Ok(n) if n > 0) {}
            });
        }
        Ok(Jvm { stdin, child })
    }

    fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    fn kill(&mut self) {
        self.stdin.take();
        let _ = self.child.wait();
    }
}

/// A running standalone HBase with its Thrift2 gateway, stopped when dropped (or when this
/// process exits).
pub struct HBase {
    dir: PathBuf,
    java: PathBuf,
    classpath: String,
    zk_port: u16,
    gateway: Gateway,
    master: Mutex<Option<Jvm>>,
    /// With Phoenix: its jars (appended to the master's classpath).
    phoenix: Option<String>,
    /// JVM flags of every process of this server (a Kerberized one's `krb5.conf`).
    jvm_extra: Vec<String>,
    /// Kerberos on ([`HBase::start_kerberized`]): the keytab of every principal.
    kerberos_keytab: Option<PathBuf>,
    /// The first region server's info port ([`HBase::start_with_region_servers`]).
    info_port: Option<u16>,
}

impl fmt::Debug for HBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HBase")
            .field("dir", &self.dir)
            .field("zk_port", &self.zk_port)
            .field("thrift", &self.thrift_addr())
            .finish_non_exhaustive()
    }
}

/// A Thrift2 gateway process of an [`HBase`]: stopped when dropped. Fault tests kill and
/// restart one of their own ([`HBase::gateway`]) while other tests use the main one.
pub struct Gateway {
    dir: PathBuf,
    /// Its configuration directory (`hbase-site.xml`).
    conf: PathBuf,
    java: PathBuf,
    classpath: String,
    /// What it speaks, from its settings.
    mode: GatewayMode,
    /// A Kerberized server's keytab (the kit's readiness call authenticates with it).
    keytab: Option<PathBuf>,
    jvm_extra: Vec<String>,
    state: Mutex<(SocketAddr, Option<Jvm>)>,
}

/// What a gateway speaks, read from its `hbase-site.xml` settings.
#[derive(Debug, Clone, Copy, Default)]
struct GatewayMode {
    framed: bool,
    compact: bool,
    http: bool,
    tls: bool,
}

impl GatewayMode {
    fn from_settings(settings: &[(&str, &str)]) -> GatewayMode {
        let on = |key: &str| settings.iter().any(|(k, v)| *k == key && *v == "true");
        GatewayMode {
            framed: on("hbase.regionserver.thrift.framed"),
            compact: on("hbase.regionserver.thrift.compact"),
            http: on("hbase.regionserver.thrift.http"),
            tls: on("hbase.thrift.ssl.enabled"),
        }
    }

    /// Whether the gateway at `addr` answers: an admin call in its own transport and
    /// protocol, or (TLS, whose CA the kit does not know) a TCP connection accepted.
    fn answers(self, addr: SocketAddr, keytab: Option<&Path>) -> Result<(), String> {
        // A Kerberized gateway: a call with the server's own principal (from the keytab),
        // answered once HBase behind it is up.
        #[cfg(feature = "kerberos")]
        if let (Some(keytab), false) = (keytab, self.tls) {
            let (service, config) = if self.http {
                (
                    format!("HTTP/localhost@{REALM}"),
                    crate::GatewayConfig::http(&format!("http://{addr}/")),
                )
            } else {
                (
                    format!("hbase/localhost@{REALM}"),
                    crate::GatewayConfig::socket(addr),
                )
            };
            let kerberos = crate::Kerberos::keytab(&service, &service, keytab);
            return config
                .map(|c| c.kerberos(kerberos))
                .and_then(crate::Client::connect_to)
                .and_then(|c| c.list_tables())
                .map(drop)
                .map_err(|e| e.to_string());
        }
        #[cfg(not(feature = "kerberos"))]
        let _ = keytab;
        if self.tls {
            return std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2))
                .map(drop)
                .map_err(|e| e.to_string());
        }
        let config = if self.http {
            crate::GatewayConfig::http(&format!("http://{addr}/"))
        } else {
            crate::GatewayConfig::socket(addr)
        };
        let config = config.map(|c| {
            let c = if self.framed { c.framed() } else { c };
            if self.compact {
                c.compact()
            } else {
                c
            }
        });
        match config
            .and_then(crate::Client::connect_to)
            .and_then(|c| c.list_tables())
        {
            Ok(_) => Ok(()),
            Err(e) => Err(e.to_string()),
        }
    }
}

impl fmt::Debug for Gateway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gateway")
            .field("addr", &self.addr())
            .finish_non_exhaustive()
    }
}

impl Gateway {
    fn new(
        hbase_dir: &Path,
        conf: PathBuf,
        java: &Path,
        classpath: &str,
        mode: GatewayMode,
        keytab: Option<PathBuf>,
        jvm_extra: Vec<String>,
    ) -> Gateway {
        Gateway {
            dir: hbase_dir.to_path_buf(),
            conf,
            java: java.to_path_buf(),
            classpath: classpath.to_string(),
            mode,
            keytab,
            jvm_extra,
            state: Mutex::new((SocketAddr::from((Ipv4Addr::LOCALHOST, 0)), None)),
        }
    }

    /// The gateway's address (a new port after each [`restart`](Self::restart)).
    pub fn addr(&self) -> SocketAddr {
        self.state
            .lock()
            .map(|t| t.0)
            .unwrap_or_else(|p| p.into_inner().0)
    }

    /// Kill the gateway (`kill -9`): calls in flight fail, HBase keeps running.
    pub fn kill(&self) {
        if let Ok(mut state) = self.state.lock() {
            if let Some(mut jvm) = state.1.take() {
                jvm.kill();
            }
        }
    }

    /// (Re)start the gateway on a new free port and wait until it answers an admin call.
    /// Returns its address.
    ///
    /// # Errors
    ///
    /// [`ServerError::Start`] with the tail of its log when it does not answer in time.
    pub fn restart(&self) -> Result<SocketAddr, ServerError> {
        let port = free_port().map_err(ServerError::Start)?;
        self.start_on(port)
    }

    /// Start the gateway again on the port it had (after [`kill`](Self::kill)): what a
    /// client sees when a gateway restarts behind a fixed address. Waits until it answers.
    ///
    /// # Errors
    ///
    /// As [`restart`](Self::restart).
    pub fn restart_same_port(&self) -> Result<SocketAddr, ServerError> {
        self.start_on(self.addr().port())
    }

    fn start_on(&self, port: u16) -> Result<SocketAddr, ServerError> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| ServerError::Start("poisoned".into()))?;
        if let Some(mut old) = state.1.take() {
            old.kill();
        }
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let port_s = port.to_string();
        let log = self.dir.join(format!("thrift-{port}.log"));
        let jvm = Jvm::spawn(
            &log,
            None,
            &jvm_args(
                &self.java,
                &self.conf,
                &self.classpath,
                "512m",
                &self.jvm_extra,
                &[
                    "org.apache.hadoop.hbase.thrift2.ThriftServer",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    &port_s,
                    "--infoport",
                    "-1",
                    "start",
                ],
            ),
        )
        .map_err(ServerError::Start)?;
        *state = (addr, Some(jvm));
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let answer = self.mode.answers(addr, self.keytab.as_deref());
            match answer {
                Ok(_) => return Ok(addr),
                Err(e) => {
                    let exited = state.1.as_mut().and_then(Jvm::exited).is_some();
                    if exited || Instant::now() > deadline {
                        return Err(ServerError::Start(format!(
                            "the Thrift2 gateway {} (last error: {e}); its log:\n{}",
                            if exited {
                                "exited"
                            } else {
                                "did not answer in 300 s"
                            },
                            read_tail(&log, 20)
                        )));
                    }
                }
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.kill();
    }
}

fn read_tail(path: &Path, lines: usize) -> String {
    std::fs::read_to_string(path)
        .map(|t| tail(&t, lines))
        .unwrap_or_default()
}

impl HBase {
    /// Fetch the jars if needed, start standalone HBase and the Thrift2 gateway on free
    /// loopback ports, and wait until the gateway answers an admin call.
    ///
    /// # Errors
    ///
    /// [`ServerError`]: what is missing (and what to install), a failed fetch, or a server that
    /// did not come up (with the tail of its log).
    pub fn start() -> Result<HBase, ServerError> {
        Self::start_with(None, None, 1)
    }

    /// [`HBase::start`] with `n` region servers in the one standalone process
    /// (`HMaster --localRegionServers=n`), each with its info server on (the first on a free
    /// port, the next ones on the ports after it: [`metrics_url`](Self::metrics_url)) — for
    /// tests that watch how load spreads over servers.
    ///
    /// # Errors
    ///
    /// As [`HBase::start`].
    pub fn start_with_region_servers(n: usize) -> Result<HBase, ServerError> {
        Self::start_with(None, None, n.max(1))
    }

    /// [`HBase::start`] with Kerberos on (`hbase.security.authentication = kerberos`), its
    /// KDC `kdc`, which must hold the principals `hbase/localhost` (the master, the region
    /// server and the gateway) and `HTTP/localhost` (SPNEGO in HTTP mode). The main gateway
    /// speaks SASL GSSAPI with `hbase.thrift.security.qop = auth-conf`; add gateways with
    /// other settings with [`gateway_with`](Self::gateway_with) (say
    /// `("hbase.thrift.security.qop", "auth")`, or `("hbase.regionserver.thrift.http",
    /// "true")` for SPNEGO).
    ///
    /// # Errors
    ///
    /// As [`HBase::start`].
    #[cfg(feature = "kerberos")]
    pub fn start_kerberized(kdc: &Kdc) -> Result<HBase, ServerError> {
        Self::start_with(None, Some(kdc), 1)
    }

    /// [`HBase::start`] with Apache Phoenix [`PHOENIX_VERSION`] in the server: Phoenix's jars
    /// ([`phoenix_classpath`], fetched with Maven on first use) on the HBase JVM's classpath
    /// (in standalone HBase the region server, where Phoenix's coprocessors run, is that JVM)
    /// and the `hbase-site.xml` settings Phoenix needs. It then makes the first Phoenix
    /// connection, which creates Phoenix's SYSTEM tables (tens of seconds), so the server is
    /// ready for [`HBase::phoenix_sql`] when this returns. The times are printed on standard
    /// error.
    ///
    /// # Errors
    ///
    /// As [`HBase::start`]; [`ServerError::Missing`] without `javac`;
    /// [`ServerError::Phoenix`] when the first connection fails.
    pub fn start_with_phoenix() -> Result<HBase, ServerError> {
        let started = Instant::now();
        let jars = phoenix_classpath()?;
        let hbase = Self::start_with(Some(jars), None, 1)?;
        let up = started.elapsed();
        hbase.phoenix_sql("SELECT COUNT(*) FROM SYSTEM.CATALOG")?;
        eprintln!(
            "rowkey-hbase: HBase {HBASE_VERSION} with Phoenix {PHOENIX_VERSION} up in {:.1} s; \
             the first Phoenix connection (SYSTEM tables) took {:.1} s more",
            up.as_secs_f64(),
            (started.elapsed() - up).as_secs_f64()
        );
        Ok(hbase)
    }

    fn start_with(
        phoenix: Option<String>,
        kdc: Option<&Kdc>,
        region_servers: usize,
    ) -> Result<HBase, ServerError> {
        let java = find_java()?;
        let classpath = classpath()?;
        let mut last = ServerError::Start(String::new());
        // A port found free can be taken before ZooKeeper binds it: retry.
        for _ in 0..3 {
            match Self::start_once(&java, &classpath, phoenix.clone(), kdc, region_servers) {
                Ok(h) => return Ok(h),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn start_once(
        java: &Path,
        classpath: &str,
        phoenix: Option<String>,
        kdc: Option<&Kdc>,
        region_servers: usize,
    ) -> Result<HBase, ServerError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("rowkey-hbase-{}-{nanos}", std::process::id()));
        let conf = dir.join("conf");
        std::fs::create_dir_all(&conf)
            .map_err(|e| ServerError::Start(format!("creating {}: {e}", conf.display())))?;
        let zk_port = free_port().map_err(ServerError::Start)?;
        let site = format!(
            r#"<?xml version="1.0"?>
<configuration>
  <property><name>hbase.cluster.distributed</name><value>false</value></property>
  <property><name>hbase.rootdir</name><value>file://{root}/hbase</value></property>
  <property><name>hbase.zookeeper.property.dataDir</name><value>{root}/zk</value></property>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>{zk_port}</value></property>
  <property><name>hbase.unsafe.stream.capability.enforce</name><value>false</value></property>
  <property><name>hbase.master.info.port</name><value>-1</value></property>
  <property><name>hbase.regionserver.info.port</name><value>-1</value></property>
  <property><name>hbase.master.port</name><value>0</value></property>
  <property><name>hbase.regionserver.port</name><value>0</value></property>
  <property><name>hbase.master.hostname</name><value>localhost</value></property>
  <property><name>hbase.unsafe.regionserver.hostname</name><value>localhost</value></property>
  <property><name>hbase.regionserver.handler.count</name><value>30</value></property>
  <property><name>hbase.thrift.minWorkerThreads</name><value>64</value></property>
  <property><name>hbase.io.compress.snappy.codec</name><value>org.apache.hadoop.hbase.io.compress.xerial.SnappyCodec</value></property>
  <property><name>hbase.io.compress.zstd.codec</name><value>org.apache.hadoop.hbase.io.compress.zstd.ZstdCodec</value></property>
</configuration>
"#,
            root = dir.display()
        );
        let site = match kdc {
            Some(kdc) => site.replace("</configuration>", &kerberos_site(kdc.keytab(), false)),
            None => site,
        };
        // several region servers: their info servers on, from a free port up (each takes the
        // next free one), for their metrics
        let info_port = if region_servers > 1 {
            Some(free_port().map_err(ServerError::Start)?)
        } else {
            None
        };
        let site = match info_port {
            Some(port) => site.replace(
                "  <property><name>hbase.regionserver.info.port</name><value>-1</value></property>",
                &format!(
                    "  <property><name>hbase.regionserver.info.port</name><value>{port}</value></property>\n\
                     \x20 <property><name>hbase.regionserver.info.port.auto</name><value>true</value></property>\n\
                     \x20 <property><name>hbase.regionserver.info.bindAddress</name><value>127.0.0.1</value></property>"
                ),
            ),
            None => site,
        };
        let log4j = "log4j.rootLogger=WARN,console\n\
                     log4j.appender.console=org.apache.log4j.ConsoleAppender\n\
                     log4j.appender.console.layout=org.apache.log4j.PatternLayout\n\
                     log4j.appender.console.layout.ConversionPattern=%d %-5p [%t] %c{2}: %m%n\n";
        // The gateway's own configuration: the same cluster, and an HBase client that gives up
        // after a few quick retries (the default retries for minutes: a put to a disabled
        // table would hold a test that long).
        let gateway_conf = dir.join("conf-gateway");
        let gateway_site = site.replace(
            "</configuration>",
            "  <property><name>hbase.client.retries.number</name><value>4</value></property>\n\
             \x20 <property><name>hbase.client.pause</name><value>100</value></property>\n\
             </configuration>",
        );
        let gateway_site = match kdc {
            Some(kdc) => {
                gateway_site.replace("</configuration>", &kerberos_site(kdc.keytab(), true))
            }
            None => gateway_site,
        };
        let jvm_extra: Vec<String> = kdc
            .map(|k| {
                vec![format!(
                    "-Djava.security.krb5.conf={}",
                    k.krb5_conf().display()
                )]
            })
            .unwrap_or_default();
        // Phoenix's settings for the server (and its JDBC clients, which read this
        // configuration too); the gateway needs none of them.
        let site = match phoenix {
            Some(_) => site.replace(
                "</configuration>",
                &format!("{PHOENIX_SITE}</configuration>"),
            ),
            None => site,
        };
        let master_classpath = match &phoenix {
            Some(jars) if !jars.is_empty() => format!("{classpath}:{jars}"),
            _ => classpath.to_string(),
        };
        std::fs::create_dir_all(&gateway_conf)
            .and_then(|()| std::fs::write(conf.join("hbase-site.xml"), &site))
            .and_then(|()| std::fs::write(conf.join("log4j.properties"), log4j))
            .and_then(|()| std::fs::write(gateway_conf.join("hbase-site.xml"), gateway_site))
            .and_then(|()| std::fs::write(gateway_conf.join("log4j.properties"), log4j))
            .and_then(|()| match kdc {
                // Hadoop's own login (UserGroupInformation) reads core-site.xml only
                Some(_) => {
                    std::fs::write(conf.join("core-site.xml"), KERBEROS_CORE_SITE).and_then(|()| {
                        std::fs::write(gateway_conf.join("core-site.xml"), KERBEROS_CORE_SITE)
                    })
                }
                None => Ok(()),
            })
            .map_err(|e| ServerError::Start(format!("writing the configuration: {e}")))?;
        let master = Jvm::spawn(
            &dir.join("master.log"),
            Some(&dir),
            &jvm_args(
                java,
                &conf,
                &master_classpath,
                "1536m",
                &jvm_extra,
                &[
                    "org.apache.hadoop.hbase.master.HMaster",
                    &format!("--localRegionServers={region_servers}"),
                    "start",
                ],
            ),
        )
        .map_err(ServerError::Start)?;
        let hbase = HBase {
            dir: dir.clone(),
            java: java.to_path_buf(),
            classpath: classpath.to_string(),
            zk_port,
            gateway: Gateway::new(
                &dir,
                gateway_conf.clone(),
                java,
                classpath,
                GatewayMode::default(),
                kdc.map(|k| k.keytab().to_path_buf()),
                jvm_extra.clone(),
            ),
            master: Mutex::new(Some(master)),
            phoenix,
            jvm_extra,
            kerberos_keytab: kdc.map(|k| k.keytab().to_path_buf()),
            info_port,
        };
        if let Err(e) = hbase.gateway.restart() {
            let exited = hbase
                .master
                .lock()
                .ok()
                .and_then(|mut m| m.as_mut().and_then(Jvm::exited))
                .is_some();
            return Err(ServerError::Start(format!(
                "{e}\nHBase {}; its log:\n{}",
                if exited { "exited" } else { "is running" },
                read_tail(&dir.join("master.log"), 40)
            )));
        }
        Ok(hbase)
    }

    /// A second Thrift2 gateway of this HBase, on a port of its own (for a test that kills
    /// it while others use the main one).
    ///
    /// # Errors
    ///
    /// As [`Gateway::restart`].
    pub fn gateway(&self) -> Result<Gateway, ServerError> {
        self.gateway_with(&[])
    }

    /// A second Thrift2 gateway with these `hbase-site.xml` settings added to the main
    /// gateway's (say `hbase.thrift.server.socket.read.timeout`, the idle time after which
    /// it closes a connection, in ms; or `hbase.regionserver.thrift.framed`,
    /// `hbase.regionserver.thrift.compact`, `hbase.regionserver.thrift.http`,
    /// `hbase.thrift.ssl.enabled` for a gateway that speaks something else: the kit waits for
    /// it in its own transport and protocol).
    ///
    /// # Errors
    ///
    /// Its configuration could not be written, or as [`Gateway::restart`].
    pub fn gateway_with(&self, settings: &[(&str, &str)]) -> Result<Gateway, ServerError> {
        let main = self.dir.join("conf-gateway");
        let conf = if settings.is_empty() {
            main
        } else {
            let site = std::fs::read_to_string(main.join("hbase-site.xml"))
                .map_err(|e| ServerError::Start(format!("reading the gateway's site: {e}")))?;
            let extra: String = settings
                .iter()
                .map(|(k, v)| {
                    format!("  <property><name>{k}</name><value>{v}</value></property>\n")
                })
                .collect();
            let site = site.replace("</configuration>", &format!("{extra}</configuration>"));
            let conf = self
                .dir
                .join(format!("conf-gateway-{}", fnv64(&format!("{settings:?}"))));
            std::fs::create_dir_all(&conf)
                .and_then(|()| std::fs::write(conf.join("hbase-site.xml"), site))
                .and_then(|()| {
                    std::fs::copy(main.join("log4j.properties"), conf.join("log4j.properties"))
                        .map(|_| ())
                })
                .and_then(|()| {
                    match std::fs::copy(main.join("core-site.xml"), conf.join("core-site.xml")) {
                        // a Kerberized server's: Hadoop's login reads it
                        Ok(_) => Ok(()),
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                        Err(e) => Err(e),
                    }
                })
                .map_err(|e| {
                    ServerError::Start(format!("writing a gateway's configuration: {e}"))
                })?;
            conf
        };
        let g = Gateway::new(
            &self.dir,
            conf,
            &self.java,
            &self.classpath,
            GatewayMode::from_settings(settings),
            self.kerberos_keytab.clone(),
            self.jvm_extra.clone(),
        );
        g.restart()?;
        Ok(g)
    }

    /// A gateway in HTTP mode over TLS with `tls`'s keystore ([`make_tls`]): the settings
    /// `hbase.regionserver.thrift.http`, `hbase.thrift.ssl.enabled` and the keystore's, added
    /// to the main gateway's (a Kerberized server's gateway then wants SPNEGO). The kit only
    /// waits for its port to accept (it does not know the CA).
    ///
    /// # Errors
    ///
    /// As [`gateway_with`](Self::gateway_with).
    pub fn https_gateway(&self, tls: &TestTls) -> Result<Gateway, ServerError> {
        let keystore = tls.keystore.display().to_string();
        self.gateway_with(&[
            ("hbase.regionserver.thrift.http", "true"),
            ("hbase.thrift.ssl.enabled", "true"),
            ("hbase.thrift.ssl.keystore.store", &keystore),
            ("hbase.thrift.ssl.keystore.password", TLS_PASSWORD),
            ("hbase.thrift.ssl.keystore.keypassword", TLS_PASSWORD),
        ])
    }

    /// The main gateway.
    pub fn main_gateway(&self) -> &Gateway {
        &self.gateway
    }

    /// One server for the whole process, started on first use (tests and examples share it).
    /// It is stopped when the process exits.
    ///
    /// # Errors
    ///
    /// As [`HBase::start`]; a failure is remembered and returned again.
    pub fn shared() -> Result<&'static HBase, ServerError> {
        static SHARED: OnceLock<Result<HBase, ServerError>> = OnceLock::new();
        SHARED
            .get_or_init(HBase::start)
            .as_ref()
            .map_err(Clone::clone)
    }

    /// One server with Phoenix for the whole process ([`HBase::start_with_phoenix`]), started
    /// on first use; separate from [`HBase::shared`]'s plain server. It is stopped when the
    /// process exits.
    ///
    /// # Errors
    ///
    /// As [`HBase::start_with_phoenix`]; a failure is remembered and returned again.
    pub fn shared_phoenix() -> Result<&'static HBase, ServerError> {
        static SHARED: OnceLock<Result<HBase, ServerError>> = OnceLock::new();
        SHARED
            .get_or_init(HBase::start_with_phoenix)
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The main Thrift2 gateway's address.
    pub fn thrift_addr(&self) -> SocketAddr {
        self.gateway.addr()
    }

    /// The info server of the first region server of an [`HBase::start_with_region_servers`]
    /// server (`http://127.0.0.1:port`), whose `/jmx` servlet reports every region of the
    /// process (the region servers share one JVM and its metrics): `None` otherwise.
    pub fn metrics_url(&self) -> Option<String> {
        self.info_port.map(|p| format!("http://127.0.0.1:{p}"))
    }

    /// The ZooKeeper client port (`hbase.zookeeper.quorum` is `127.0.0.1`).
    pub fn zk_port(&self) -> u16 {
        self.zk_port
    }

    /// The directory holding the configuration (`conf/hbase-site.xml`), data and logs.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The Java classpath the server runs with (for a tool of the tests' own, such as the
    /// HBase shell).
    pub fn server_classpath(&self) -> &str {
        &self.classpath
    }

    /// The `java` binary the server runs with.
    pub fn java(&self) -> &Path {
        &self.java
    }

    /// The JVM flags the server runs with on JDK 17.
    pub fn jvm_flags() -> &'static [&'static str] {
        JDK17_FLAGS
    }

    /// Run `script` with the real HBase shell against this server, non-interactively
    /// (`hbase shell -n script.rb`), and return what it printed on standard output: each
    /// statement echoed after an `hbase:NNN:0> ` prompt, then its result as the shell prints it
    /// (a `scan` prints `ROW  COLUMN+CELL`, one ` row column=…, timestamp=…, value=…` line per
    /// cell with the row in `Bytes.toStringBinary` form, then `N row(s)`).
    ///
    /// The shell is HBase's [`SHELL_VERSION`] shell (the newest on Maven Central) on the
    /// server's own [`HBASE_VERSION`] client jars, with JRuby; its jars are fetched with Maven
    /// on first use ([`shell_classpath`]). It connects through ZooKeeper with the server's
    /// `conf/hbase-site.xml`. Each call starts a JVM (about 5 s before the first statement):
    /// put many statements in one script.
    ///
    /// ```no_run
    /// # use rowkey_hbase::testkit::HBase;
    /// let out = HBase::shared()?.shell("create 't', 'd'\nput 't', 'r1', 'd:q', 'v'\nscan 't'")?;
    /// assert!(out.contains("1 row(s)"));
    /// # Ok::<(), rowkey_hbase::testkit::ServerError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`shell_classpath`] when the jars cannot be fetched; [`ServerError::Shell`] when a
    /// statement fails (the shell stops at the first error and exits non-zero) or the script
    /// runs longer than 300 s, with the tail of both output streams.
    pub fn shell(&self, script: &str) -> Result<String, ServerError> {
        let shell_cp = shell_classpath()?;
        static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let conf = self.dir.join("conf");
        let base = self.dir.join(format!("shell-{n}"));
        let (rb, out, err) = (
            base.with_extension("rb"),
            base.with_extension("out"),
            base.with_extension("err"),
        );
        let log4j = base.with_extension("log4j.properties");
        let mut script = script.to_owned();
        if !script.ends_with('\n') {
            script.push('\n');
        }
        std::fs::write(&rb, script)
            .and_then(|()| std::fs::write(&log4j, LOG4J_ERRORS))
            .map_err(|e| ServerError::Shell(format!("writing {}: {e}", rb.display())))?;
        let mut args = vec![
            self.java.display().to_string(),
            "-Xmx384m".into(),
            "-XX:+UseSerialGC".into(),
            // JRuby's own advice for short runs (`jruby --dev`): half the start-up CPU.
            "-XX:TieredStopAtLevel=1".into(),
            "-Djruby.compile.mode=OFF".into(),
        ];
        args.extend(JDK17_FLAGS.iter().map(|s| s.to_string()));
        args.push(format!("-Dlog4j.configuration=file:{}", log4j.display()));
        args.push("-cp".into());
        // JRuby before the server's jars: they hold a newer joni than JRuby 9.2's.
        args.push(format!("{}:{shell_cp}:{}", conf.display(), self.classpath));
        args.push("org.jruby.JarBootstrapMain".into());
        args.push("-n".into());
        args.push(rb.display().to_string());
        let status = run_to_end(&args, &out, &err, SHELL_TIMEOUT).map_err(ServerError::Shell)?;
        let stdout = std::fs::read(&out).unwrap_or_default();
        let stdout = String::from_utf8_lossy(&stdout).into_owned();
        match status {
            Some(s) if s.success() => Ok(stdout),
            _ => Err(ServerError::Shell(format!(
                "{} running {} (HBase shell {SHELL_VERSION} on the HBase {HBASE_VERSION} \
                 jars); its standard output ends:\n{}\nits standard error ends:\n{}",
                status.map_or_else(
                    || format!("no exit in {} s", SHELL_TIMEOUT.as_secs()),
                    |s| s.to_string()
                ),
                rb.display(),
                tail(&stdout, 30),
                read_tail(&err, 30)
            ))),
        }
    }

    /// Load the HFiles under `dir` (`<dir>/<family>/<file>`, as [`crate::bulk`] writes them)
    /// into `table` with HBase's own tool, `BulkLoadHFilesTool` — what
    /// `hbase completebulkload <dir> <table>` runs — in a JVM of its own on the server's jars and configuration. Files
    /// that span a region boundary are split by the tool. Returns the tool's output.
    ///
    /// # Errors
    ///
    /// [`ServerError::Shell`] when the tool exits with an error (a missing table, a family the
    /// table lacks, a file HBase cannot read) or runs longer than 300 s, with the tail of its
    /// output.
    pub fn bulk_load(&self, dir: &Path, table: &str) -> Result<String, ServerError> {
        static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let base = self.dir.join(format!("bulkload-{n}"));
        let (out, err, log4j) = (
            base.with_extension("out"),
            base.with_extension("err"),
            base.with_extension("log4j.properties"),
        );
        std::fs::write(&log4j, LOG4J_ERRORS)
            .map_err(|e| ServerError::Shell(format!("writing {}: {e}", log4j.display())))?;
        let mut args = vec![
            self.java.display().to_string(),
            "-Xmx512m".into(),
            "-XX:+UseSerialGC".into(),
            "-XX:TieredStopAtLevel=1".into(),
        ];
        args.extend(JDK17_FLAGS.iter().map(|s| s.to_string()));
        args.push(format!("-Dlog4j.configuration=file:{}", log4j.display()));
        args.push(format!(
            "-Dlog4j2.configurationFile=file:{}",
            log4j.display()
        ));
        args.push("-cp".into());
        args.push(format!(
            "{}:{}",
            self.dir.join("conf").display(),
            self.classpath
        ));
        args.push("org.apache.hadoop.hbase.tool.BulkLoadHFilesTool".into());
        args.push(dir.display().to_string());
        args.push(table.to_string());
        let status = run_to_end(&args, &out, &err, SHELL_TIMEOUT).map_err(ServerError::Shell)?;
        let stdout = String::from_utf8_lossy(&std::fs::read(&out).unwrap_or_default()).into_owned();
        match status {
            Some(s) if s.success() => Ok(stdout),
            _ => Err(ServerError::Shell(format!(
                "BulkLoadHFilesTool {} {table} {}; its standard output ends:\n{}\nits standard \
                 error ends:\n{}",
                dir.display(),
                status.map_or_else(
                    || format!("did not exit in {} s", SHELL_TIMEOUT.as_secs()),
                    |s| s.to_string()
                ),
                tail(&stdout, 30),
                read_tail(&err, 30)
            ))),
        }
    }

    /// The Phoenix JDBC URL of this server: `jdbc:phoenix:127.0.0.1:<zk port>`.
    pub fn phoenix_url(&self) -> String {
        format!("jdbc:phoenix:127.0.0.1:{}", self.zk_port)
    }

    /// Run the SQL statements of `script` through Phoenix's thick JDBC driver (on a server
    /// started with Phoenix: [`HBase::start_with_phoenix`] or [`HBase::shared_phoenix`]) and
    /// return what its queries printed.
    ///
    /// The script: statements separated by `;` (outside `'…'` literals and `"…"` identifiers),
    /// `--` comments to the end of the line. Auto-commit is off: the mutations (`UPSERT`,
    /// `DELETE`) are committed before each `SELECT` and at the end; DDL runs at once.
    ///
    /// The output, for each query only: a line of column labels, one line per row, then
    /// `(N rows)`. Fields are separated by a tab; NULL is `\N`; in text a backslash, tab,
    /// newline and carriage return are written `\\`, `\t`, `\n`, `\r`; `BINARY`/`VARBINARY`
    /// values are lowercase hex; `DECIMAL` in plain notation; `DATE` and `TIME` as epoch
    /// milliseconds; `TIMESTAMP` as epoch milliseconds, a dot, and the nanoseconds within that
    /// millisecond (6 digits); the rest as the driver's `getString`.
    ///
    /// Each call starts a JVM (the harness `harness/phoenix/PhoenixSql.java`, compiled with
    /// the JDK's `javac` on first use) with the server's and Phoenix's jars and the server's
    /// `conf/hbase-site.xml`, under the wrapper that kills it if this process dies: put many
    /// statements in one script.
    ///
    /// ```no_run
    /// # use rowkey_hbase::testkit::HBase;
    /// let hbase = HBase::shared_phoenix()?;
    /// let out = hbase.phoenix_sql(
    ///     "CREATE TABLE T (K VARCHAR PRIMARY KEY, V INTEGER);
    ///      UPSERT INTO T VALUES ('a', 1);
    ///      SELECT K, V FROM T",
    /// )?;
    /// assert_eq!(out, "K\tV\na\t1\n(1 rows)\n");
    /// # Ok::<(), rowkey_hbase::testkit::ServerError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ServerError::Phoenix`] when this server runs without Phoenix, when a statement fails
    /// (the run stops there, what was not committed is rolled back; the message names the
    /// statement and holds Phoenix's error) or the script runs longer than 600 s;
    /// [`ServerError::Missing`] without `javac`; [`ServerError::Fetch`] when the harness does
    /// not compile.
    pub fn phoenix_sql(&self, script: &str) -> Result<String, ServerError> {
        let Some(jars) = &self.phoenix else {
            return Err(ServerError::Phoenix(
                "this HBase runs without Phoenix: start it with HBase::start_with_phoenix \
                 (or use HBase::shared_phoenix)"
                    .into(),
            ));
        };
        let harness = phoenix_harness(&self.java)?;
        static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let base = self.dir.join(format!("phoenix-{n}"));
        let (sql, out, err, log4j) = (
            base.with_extension("sql"),
            base.with_extension("out"),
            base.with_extension("err"),
            base.with_extension("log4j.properties"),
        );
        std::fs::write(&sql, script)
            .and_then(|()| std::fs::write(&log4j, LOG4J_ERRORS))
            .map_err(|e| ServerError::Phoenix(format!("writing {}: {e}", sql.display())))?;
        let mut args = vec![
            "sh".to_string(),
            "-c".into(),
            "exec \"$@\" <\"$0\"".into(),
            sql.display().to_string(),
        ];
        args.extend(self.phoenix_java(&harness, jars, &log4j, &["-XX:TieredStopAtLevel=1"]));
        let status =
            run_to_end(&args, &out, &err, PHOENIX_TIMEOUT).map_err(ServerError::Phoenix)?;
        let stdout = std::fs::read(&out).unwrap_or_default();
        let stdout = String::from_utf8_lossy(&stdout).into_owned();
        match status {
            Some(s) if s.success() => Ok(stdout),
            _ => Err(ServerError::Phoenix(format!(
                "{} running {} through {}; its standard error ends:\n{}\nits standard output \
                 ends:\n{}",
                status.map_or_else(
                    || format!("no exit in {} s", PHOENIX_TIMEOUT.as_secs()),
                    |s| s.to_string()
                ),
                sql.display(),
                self.phoenix_url(),
                read_tail(&err, 40),
                tail(&stdout, 10)
            ))),
        }
    }

    /// The `java` command line of the Phoenix harness (`PhoenixSql <url>`), with `flags`.
    fn phoenix_java(
        &self,
        harness: &Path,
        jars: &str,
        log4j: &Path,
        flags: &[&str],
    ) -> Vec<String> {
        let mut args = vec![
            self.java.display().to_string(),
            "-Xmx384m".into(),
            "-XX:+UseSerialGC".into(),
        ];
        args.extend(flags.iter().map(|s| s.to_string()));
        args.extend(JDK17_FLAGS.iter().map(|s| s.to_string()));
        args.push(format!("-Dlog4j.configuration=file:{}", log4j.display()));
        args.push("-cp".into());
        args.push(format!(
            "{}:{}:{}:{jars}",
            harness.display(),
            self.dir.join("conf").display(),
            self.classpath
        ));
        args.push("PhoenixSql".into());
        args.push(self.phoenix_url());
        args
    }

    /// A Phoenix JDBC connection (the thick driver, in a JVM of its own) that runs queries
    /// one at a time and times each **inside** its JVM: the anchor a benchmark compares reads
    /// with. See [`PhoenixTimer::query`].
    ///
    /// # Errors
    ///
    /// As [`HBase::phoenix_sql`].
    pub fn phoenix_timer(&self) -> Result<PhoenixTimer, ServerError> {
        let Some(jars) = &self.phoenix else {
            return Err(ServerError::Phoenix(
                "this HBase runs without Phoenix: start it with HBase::start_with_phoenix".into(),
            ));
        };
        let harness = phoenix_harness(&self.java)?;
        let log4j = self.dir.join("phoenix-timer.log4j.properties");
        std::fs::write(&log4j, LOG4J_ERRORS)
            .map_err(|e| ServerError::Phoenix(format!("writing {}: {e}", log4j.display())))?;
        // the JIT at full tier: a benchmark's anchor runs as Phoenix does in production
        let mut args = self.phoenix_java(&harness, jars, &log4j, &[]);
        args.push("--timer".into());
        let (program, rest) = args
            .split_first()
            .ok_or_else(|| ServerError::Phoenix("no java command".into()))?;
        let mut child = Command::new(program)
            .args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ServerError::Phoenix(format!("starting {program}: {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().map(std::io::BufReader::new);
        match (stdin, stdout) {
            (Some(stdin), Some(stdout)) => Ok(PhoenixTimer {
                child,
                stdin,
                stdout,
            }),
            _ => {
                let _ = child.kill();
                Err(ServerError::Phoenix(
                    "no pipes to the Phoenix harness".into(),
                ))
            }
        }
    }

    /// Stop the gateway and HBase now (also done on drop and at process exit) and remove the
    /// data directory.
    pub fn stop(&self) {
        self.gateway.kill();
        if let Ok(mut m) = self.master.lock() {
            if let Some(mut jvm) = m.take() {
                jvm.kill();
            }
        }
    }
}

fn jvm_args(
    java: &Path,
    conf: &Path,
    classpath: &str,
    heap: &str,
    extra: &[String],
    main: &[&str],
) -> Vec<String> {
    let mut args = vec![
        java.display().to_string(),
        format!("-Xmx{heap}"),
        "-XX:+UseParallelGC".into(),
    ];
    args.extend(JDK17_FLAGS.iter().map(|s| s.to_string()));
    args.extend(extra.iter().cloned());
    args.push(format!(
        "-Dlog4j.configuration=file:{}/log4j.properties",
        conf.display()
    ));
    args.push("-cp".into());
    args.push(format!("{}:{classpath}", conf.display()));
    args.extend(main.iter().map(|s| s.to_string()));
    args
}

impl Drop for HBase {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A Phoenix JDBC connection in a JVM of its own, timing queries inside that JVM (see
/// [`HBase::phoenix_timer`]). Ended when dropped.
pub struct PhoenixTimer {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl fmt::Debug for PhoenixTimer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PhoenixTimer")
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

impl PhoenixTimer {
    /// Run one `SELECT` (on one line), read every column of every row, and return the number
    /// of rows and the time Phoenix took, measured in its JVM from `executeQuery` to the last
    /// row.
    ///
    /// # Errors
    ///
    /// [`ServerError::Phoenix`]: the query failed (with Phoenix's message), or the harness
    /// died.
    pub fn query(&mut self, sql: &str) -> Result<(u64, Duration), ServerError> {
        use std::io::{BufRead, Write};
        let one_line = sql.replace(['\n', '\r'], " ");
        writeln!(self.stdin, "{one_line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| ServerError::Phoenix(format!("sending a query: {e}")))?;
        let mut answer = String::new();
        self.stdout
            .read_line(&mut answer)
            .map_err(|e| ServerError::Phoenix(format!("reading an answer: {e}")))?;
        let mut parts = answer.split_whitespace();
        match (
            parts.next().map(str::parse::<u64>),
            parts.next().map(str::parse::<u64>),
        ) {
            (Some(Ok(rows)), Some(Ok(nanos))) => Ok((rows, Duration::from_nanos(nanos))),
            _ if answer.is_empty() => {
                Err(ServerError::Phoenix("the Phoenix harness exited".into()))
            }
            _ => Err(ServerError::Phoenix(answer.trim().to_string())),
        }
    }
}

impl Drop for PhoenixTimer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_version_parses() {
        let java = find_java().expect("a JDK 17 (apt-get install openjdk-17-jdk-headless)");
        let v = java_major(&java).unwrap();
        assert!((11..24).contains(&v), "{v}");
    }

    #[test]
    fn missing_programs_say_what_to_install() {
        let nowhere = vec![PathBuf::from("/nonexistent/bin/java")];
        let e = java_among(&nowhere).expect_err("no java there").to_string();
        assert!(
            e.contains("JDK 17") && e.contains("openjdk-17-jdk-headless"),
            "{e}"
        );
        let e = mvn_among(vec![PathBuf::from("/nonexistent/bin/mvn")])
            .expect_err("no mvn there")
            .to_string();
        assert!(
            e.contains("Maven") && e.contains("apt-get install maven"),
            "{e}"
        );
        // a JDK of the wrong version is named with its version
        let java25 = PathBuf::from("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
        if java25.is_file() {
            let e = java_among(&[java25])
                .expect_err("JDK 25 refused")
                .to_string();
            assert!(e.contains("version 25"), "{e}");
        }
    }

    #[test]
    fn run_to_end_reports_the_exit_status_and_kills_on_timeout() {
        let dir = std::env::temp_dir().join(format!("rowkey-hbase-run-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (out, err) = (dir.join("out"), dir.join("err"));
        let sh = |script: &str| -> Vec<String> { vec!["sh".into(), "-c".into(), script.into()] };
        let status = run_to_end(
            &sh("echo hi; echo oops >&2; exit 3"),
            &out,
            &err,
            Duration::from_secs(30),
        )
        .unwrap()
        .unwrap();
        assert_eq!(status.code(), Some(3));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "hi\n");
        assert_eq!(std::fs::read_to_string(&err).unwrap(), "oops\n");
        let started = Instant::now();
        let marker = dir.join("survived");
        let script = format!("sleep 5; touch {}", marker.display());
        let status = run_to_end(&sh(&script), &out, &err, Duration::from_millis(300)).unwrap();
        assert!(status.is_none());
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
        std::thread::sleep(Duration::from_secs(6));
        assert!(!marker.exists(), "the command outlived its timeout");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn phoenix_jars_skip_the_artifacts_the_server_holds() {
        let server = "/m2/org/a/guava/11.0.2/guava-11.0.2.jar:/m2/org/b/x/1/x-1.jar";
        let phoenix = "/m2/org/p/core/5.2.1/core-5.2.1.jar:/m2/org/a/guava/27.0/guava-27.0.jar:\
                       /m2/org/b/x/1/x-1.jar:/m2/org/c/y/2/y-2.jar";
        assert_eq!(
            without_artifacts_of(phoenix, server),
            "/m2/org/p/core/5.2.1/core-5.2.1.jar:/m2/org/c/y/2/y-2.jar"
        );
        assert_eq!(without_artifacts_of("", server), "");
    }

    #[test]
    fn fnv64_is_fnv_1a() {
        assert_eq!(fnv64(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv64("a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn tail_keeps_the_last_lines() {
        assert_eq!(tail("a\nb\nc", 2), "b\nc");
        assert_eq!(tail("a", 5), "a");
    }
}
