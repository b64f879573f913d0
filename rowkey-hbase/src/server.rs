//! Start a real HBase — standalone HBase 2.6 (master, region server and ZooKeeper in one JVM)
//! and its Thrift2 gateway — on free loopback ports, for tests and examples.
//!
//! What it needs: a JDK 17 (`java`; HBase's Hadoop code does not run on JDK 24+) and Maven
//! (`mvn`) reaching Maven Central. The jars are resolved from this crate's `harness/pom.xml`
//! into `~/.m2` by `mvn dependency:build-classpath` (about 240 MB, first run only; the
//! classpath is cached under `~/.cache/rowkey-hbase`). Missing `java` or `mvn`, or a failed
//! fetch, is an error that says what to install — a test never passes without the server.
//!
//! Each process runs under a small `sh` wrapper that reads its standard input: when the handle
//! is dropped, or the process that started it exits in any way (even killed), the pipe closes
//! and the wrapper kills the JVM and removes its data directory. No HBase outlives its test
//! binary.
//!
//! ```no_run
//! use rowkey_hbase::server::HBase;
//! use rowkey_hbase::Client;
//!
//! let hbase = HBase::shared()?; // one per process, started on first use (20–60 s)
//! let client = Client::connect(hbase.thrift_addr())?;
//! # Ok::<(), rowkey_hbase::Error>(())
//! ```

use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The HBase version the server runs (the `hbase-server` and `hbase-thrift` artifacts).
pub const HBASE_VERSION: &str = "2.6.1";

/// The Maven project that lists the server's jars.
const POM: &str = include_str!("../harness/pom.xml");

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
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Missing(m) => write!(f, "cannot start HBase: {m}"),
            ServerError::Fetch(m) => write!(f, "cannot fetch the HBase {HBASE_VERSION} jars: {m}"),
            ServerError::Start(m) => write!(f, "HBase did not start: {m}"),
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
    CP.get_or_init(resolve_classpath).clone()
}

fn resolve_classpath() -> Result<String, ServerError> {
    let dir = cache_dir();
    let cached = dir.join("classpath.txt");
    let pom = dir.join("pom.xml");
    let pom_same = std::fs::read_to_string(&pom).is_ok_and(|p| p == POM);
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
    std::fs::write(&pom, POM)
        .map_err(|e| ServerError::Fetch(format!("writing {}: {e}", pom.display())))?;
    eprintln!(
        "rowkey-hbase: fetching the HBase {HBASE_VERSION} jars with Maven (first run only, about \
         240 MB into ~/.m2)…"
    );
    let tmp = dir.join(format!("classpath.{}.tmp", std::process::id()));
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
            "`mvn dependency:build-classpath` failed ({}); Maven Central must be reachable:\n{}",
            out.status,
            tail(&msg, 40)
        )));
    }
    let cp = std::fs::read_to_string(&tmp)
        .map_err(|e| ServerError::Fetch(format!("reading {}: {e}", tmp.display())))?;
    std::fs::rename(&tmp, &cached)
        .map_err(|e| ServerError::Fetch(format!("writing {}: {e}", cached.display())))?;
    eprintln!("rowkey-hbase: the HBase {HBASE_VERSION} jars are in place");
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
            std::thread::spawn(move || {
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
    java: PathBuf,
    classpath: String,
    state: Mutex<(SocketAddr, Option<Jvm>)>,
}

impl fmt::Debug for Gateway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gateway")
            .field("addr", &self.addr())
            .finish_non_exhaustive()
    }
}

impl Gateway {
    fn new(hbase_dir: &Path, java: &Path, classpath: &str) -> Gateway {
        Gateway {
            dir: hbase_dir.to_path_buf(),
            java: java.to_path_buf(),
            classpath: classpath.to_string(),
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
        let mut state = self
            .state
            .lock()
            .map_err(|_| ServerError::Start("poisoned".into()))?;
        if let Some(mut old) = state.1.take() {
            old.kill();
        }
        let port = free_port().map_err(ServerError::Start)?;
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let port_s = port.to_string();
        let log = self.dir.join(format!("thrift-{port}.log"));
        let jvm = Jvm::spawn(
            &log,
            None,
            &jvm_args(
                &self.java,
                &self.dir.join("conf-gateway"),
                &self.classpath,
                "512m",
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
            let answer = crate::Client::connect(addr).and_then(|c| c.list_tables());
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
        let java = find_java()?;
        let classpath = classpath()?;
        let mut last = ServerError::Start(String::new());
        // A port found free can be taken before ZooKeeper binds it: retry.
        for _ in 0..3 {
            match Self::start_once(&java, &classpath) {
                Ok(h) => return Ok(h),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn start_once(java: &Path, classpath: &str) -> Result<HBase, ServerError> {
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
</configuration>
"#,
            root = dir.display()
        );
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
        std::fs::create_dir_all(&gateway_conf)
            .and_then(|()| std::fs::write(conf.join("hbase-site.xml"), &site))
            .and_then(|()| std::fs::write(conf.join("log4j.properties"), log4j))
            .and_then(|()| std::fs::write(gateway_conf.join("hbase-site.xml"), gateway_site))
            .and_then(|()| std::fs::write(gateway_conf.join("log4j.properties"), log4j))
            .map_err(|e| ServerError::Start(format!("writing the configuration: {e}")))?;
        let master = Jvm::spawn(
            &dir.join("master.log"),
            Some(&dir),
            &jvm_args(
                java,
                &conf,
                classpath,
                "1536m",
                &["org.apache.hadoop.hbase.master.HMaster", "start"],
            ),
        )
        .map_err(ServerError::Start)?;
        let hbase = HBase {
            dir: dir.clone(),
            java: java.to_path_buf(),
            classpath: classpath.to_string(),
            zk_port,
            gateway: Gateway::new(&dir, java, classpath),
            master: Mutex::new(Some(master)),
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
        let g = Gateway::new(&self.dir, &self.java, &self.classpath);
        g.restart()?;
        Ok(g)
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

    /// The main Thrift2 gateway's address.
    pub fn thrift_addr(&self) -> SocketAddr {
        self.gateway.addr()
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

fn jvm_args(java: &Path, conf: &Path, classpath: &str, heap: &str, main: &[&str]) -> Vec<String> {
    let mut args = vec![
        java.display().to_string(),
        format!("-Xmx{heap}"),
        "-XX:+UseParallelGC".into(),
    ];
    args.extend(JDK17_FLAGS.iter().map(|s| s.to_string()));
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
    fn tail_keeps_the_last_lines() {
        assert_eq!(tail("a\nb\nc", 2), "b\nc");
        assert_eq!(tail("a", 5), "a");
    }
}
