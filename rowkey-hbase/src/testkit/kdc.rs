//! A Kerberos KDC for tests: Hadoop's MiniKdc (Apache Kerby) in a JVM of its own.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{find_java, read_tail, resolve_classpath, Jvm, ServerError};

/// The Maven project that lists MiniKdc's jars.
const KDC_POM: &str = include_str!("../../harness/kdc-pom.xml");

/// The realm of every [`Kdc`].
pub const REALM: &str = "EXAMPLE.COM";

/// MiniKdc's jars (`org.apache.hadoop:hadoop-minikdc` 3.3.6, about 5 MB), resolved with
/// Maven on first use and cached like the server's.
///
/// # Errors
///
/// As [`classpath`](super::classpath).
pub fn kdc_classpath() -> Result<String, ServerError> {
    static CP: std::sync::OnceLock<Result<String, ServerError>> = std::sync::OnceLock::new();
    CP.get_or_init(|| resolve_classpath(KDC_POM, "kdc", "Hadoop MiniKdc 3.3.6", "about 5 MB"))
        .clone()
}

/// A running KDC of realm [`REALM`] on a free loopback port, stopped when dropped: its
/// principals' keys in one keytab, and a `krb5.conf` for clients — MIT Kerberos (`kinit`,
/// `libgssapi_krb5`: point `KRB5_CONFIG` at it) and Java (`-Djava.security.krb5.conf`).
///
/// ```no_run
/// use rowkey_hbase::testkit::Kdc;
///
/// let kdc = Kdc::start(&["hbase/localhost", "alice"])?;
/// let cache = kdc.dir().join("alice.cc");
/// kdc.kinit("alice", &cache, None)?; // a ticket cache, as `kinit` makes it
/// # Ok::<(), rowkey_hbase::testkit::ServerError>(())
/// ```
pub struct Kdc {
    dir: PathBuf,
    port: u16,
    keytab: PathBuf,
    krb5_conf: PathBuf,
    jvm: Mutex<Option<Jvm>>,
}

impl fmt::Debug for Kdc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Kdc")
            .field("port", &self.port)
            .field("krb5_conf", &self.krb5_conf)
            .finish_non_exhaustive()
    }
}

impl Kdc {
    /// Start a KDC with these principals (`alice`, `hbase/localhost`: the realm is added),
    /// every key in [`keytab`](Self::keytab), and point this process's Kerberos library at it
    /// ([`krb5_conf`](Self::krb5_conf) first in `KRB5_CONFIG`, followed by the file of an
    /// [`MitKdc`](super::MitKdc) of this process): start it before other threads use
    /// Kerberos.
    ///
    /// # Errors
    ///
    /// [`ServerError`]: no Java or Maven, a failed fetch, or a KDC that did not start.
    pub fn start(principals: &[&str]) -> Result<Kdc, ServerError> {
        let java = find_java()?;
        let classpath = kdc_classpath()?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("rowkey-kdc-{}-{nanos}", std::process::id()));
        let work = dir.join("work");
        std::fs::create_dir_all(&work)
            .and_then(|()| std::fs::write(dir.join("kdc.properties"), "kdc.port=0\n"))
            .map_err(|e| ServerError::Start(format!("creating {}: {e}", dir.display())))?;
        let keytab = dir.join("all.keytab");
        let mut args = vec![
            java.display().to_string(),
            "-Xmx128m".into(),
            "-cp".into(),
            classpath,
            "org.apache.hadoop.minikdc.MiniKdc".into(),
            work.display().to_string(),
            dir.join("kdc.properties").display().to_string(),
            keytab.display().to_string(),
        ];
        args.extend(principals.iter().map(|p| p.to_string()));
        let log = dir.join("kdc.log");
        let jvm = Jvm::spawn(&log, Some(&dir), &args).map_err(ServerError::Start)?;
        let mut kdc = Kdc {
            dir: dir.clone(),
            port: 0,
            keytab,
            krb5_conf: dir.join("krb5.conf"),
            jvm: Mutex::new(Some(jvm)),
        };
        // MiniKdc writes its krb5.conf (with the port it bound) and the keytab, then says so
        let deadline = Instant::now() + Duration::from_secs(60);
        let port = loop {
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            if text.contains("Do <CTRL-C> or kill <PID> to stop it") {
                let conf = std::fs::read_to_string(work.join("krb5.conf")).unwrap_or_default();
                let port = conf
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("kdc = localhost:"))
                    .and_then(|p| p.trim().parse::<u16>().ok());
                match port {
                    Some(p) => break p,
                    None => {
                        return Err(ServerError::Start(format!(
                            "MiniKdc's krb5.conf names no port:\n{conf}"
                        )))
                    }
                }
            }
            let exited = kdc
                .jvm
                .lock()
                .ok()
                .and_then(|mut j| j.as_mut().and_then(Jvm::exited))
                .is_some();
            if exited || Instant::now() > deadline {
                return Err(ServerError::Start(format!(
                    "the KDC (MiniKdc) {}; its log:\n{}",
                    if exited {
                        "exited"
                    } else {
                        "did not start in 60 s"
                    },
                    read_tail(&log, 30)
                )));
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        kdc.port = port;
        // MiniKdc's own krb5.conf lets a client canonicalize host names through DNS, which
        // turns `localhost` into whatever the machine's resolver says: not here.
        let conf = format!(
            "[libdefaults]\n\
             \x20   default_realm = {REALM}\n\
             \x20   udp_preference_limit = 1\n\
             \x20   dns_lookup_kdc = false\n\
             \x20   dns_lookup_realm = false\n\
             \x20   dns_canonicalize_hostname = false\n\
             \x20   rdns = false\n\
             [realms]\n\
             \x20   {REALM} = {{\n\
             \x20       kdc = 127.0.0.1:{port}\n\
             \x20   }}\n"
        );
        std::fs::write(&kdc.krb5_conf, conf)
            .map_err(|e| ServerError::Start(format!("writing the krb5.conf: {e}")))?;
        // this process's Kerberos library (MIT, which reads the KDC's address there): first in
        // the list, so its realm is the default beside an MIT KDC's (`MitKdc`)
        super::mit_kdc::add_krb5_config(&kdc.krb5_conf, true);
        Ok(kdc)
    }

    /// The KDC's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A directory of this KDC's for tickets and keytabs (removed with it).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The keytab holding every principal's key.
    pub fn keytab(&self) -> &Path {
        &self.keytab
    }

    /// A `krb5.conf` naming this KDC for its realm.
    pub fn krb5_conf(&self) -> &Path {
        &self.krb5_conf
    }

    /// `kinit` `principal` from the keytab into the ticket cache `cache`, for `lifetime`
    /// (`kinit -l`, say `"5s"`; the KDC's maximum, a day, without it).
    ///
    /// # Errors
    ///
    /// [`ServerError::Missing`] without `kinit` (Debian package `krb5-user`);
    /// [`ServerError::Start`] when it fails.
    pub fn kinit(
        &self,
        principal: &str,
        cache: &Path,
        lifetime: Option<&str>,
    ) -> Result<(), ServerError> {
        let mut cmd = Command::new("kinit");
        cmd.env("KRB5_CONFIG", &self.krb5_conf)
            .arg("-c")
            .arg(format!("FILE:{}", cache.display()));
        if let Some(l) = lifetime {
            cmd.args(["-l", l]);
        }
        let out = cmd
            .arg("-k")
            .arg("-t")
            .arg(&self.keytab)
            .arg(format!("{principal}@{REALM}"))
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                ServerError::Missing(format!(
                    "running kinit ({e}): install MIT Kerberos' client programs (the Debian \
                     package krb5-user)"
                ))
            })?;
        if !out.status.success() {
            return Err(ServerError::Start(format!(
                "kinit {principal}: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )));
        }
        Ok(())
    }

    /// Stop the KDC.
    pub fn stop(&self) {
        if let Ok(mut jvm) = self.jvm.lock() {
            if let Some(mut j) = jvm.take() {
                j.kill();
            }
        }
    }
}

impl Drop for Kdc {
    fn drop(&mut self) {
        self.stop();
    }
}
