//! A real MIT Kerberos KDC for tests (`krb5kdc`, Debian's `krb5-kdc`), beside MiniKdc
//! ([`Kdc`](super::Kdc)): the KDC most Kerberized clusters run, whose words a client's errors
//! are made of.

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{free_port, read_tail, Jvm, ServerError};

/// The realm of every [`MitKdc`] (another than MiniKdc's [`REALM`](super::REALM), so both can
/// serve one process).
pub const MIT_REALM: &str = "MIT.TEST";

/// The Debian package of `krb5kdc` and `kdb5_util`; `kadmin.local` is in `krb5-admin-server`.
const PACKAGES: &str = "the Debian packages krb5-kdc and krb5-admin-server";

/// A running MIT KDC (`krb5kdc`) of realm [`MIT_REALM`] on a free loopback port, its database
/// and configuration in a directory of its own, stopped when dropped or when this process
/// exits. Principals are made and deleted with `kadmin.local`; [`start`](Self::start) adds this
/// realm's `krb5.conf` to this process's `KRB5_CONFIG`, after a MiniKdc's (whose realm stays
/// the default).
///
/// ```no_run
/// use rowkey_hbase::testkit::{MitKdc, MIT_REALM};
///
/// let kdc = MitKdc::start(&["alice", "hbase/localhost"])?;
/// let keytab = kdc.dir().join("alice.keytab");
/// kdc.ktadd(&keytab, &["alice"])?; // alice@MIT.TEST's keys
/// kdc.delete("alice")?; // the keytab outlives the principal
/// # Ok::<(), rowkey_hbase::testkit::ServerError>(())
/// ```
pub struct MitKdc {
    dir: PathBuf,
    port: u16,
    krb5_conf: PathBuf,
    kdc_conf: PathBuf,
    process: Mutex<Option<Jvm>>,
}

impl fmt::Debug for MitKdc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MitKdc")
            .field("port", &self.port)
            .field("krb5_conf", &self.krb5_conf)
            .finish_non_exhaustive()
    }
}

/// Where an MIT program is: the `PATH`, or `/usr/sbin` (not on every user's `PATH`).
fn program(name: &str) -> Result<PathBuf, ServerError> {
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/usr/local/sbin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            ServerError::Missing(format!(
                "the MIT Kerberos KDC program {name} is missing: install {PACKAGES} \
                 (apt-get install krb5-kdc krb5-admin-server)"
            ))
        })
}

/// The `krb5.conf` files of the test kit's KDCs in this process, in `KRB5_CONFIG`'s order.
static KRB5_CONFIGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Point this process's Kerberos library at `file` as well as at the other KDCs' files the
/// test kit added (and at nothing else, as a KDC alone always did): `first` before them (its
/// `[libdefaults]` win), else after them.
pub(crate) fn add_krb5_config(file: &Path, first: bool) {
    let file = file.display().to_string();
    let mut files = match KRB5_CONFIGS.lock() {
        Ok(f) => f,
        Err(poisoned) => poisoned.into_inner(),
    };
    files.retain(|f| *f != file);
    if first {
        files.insert(0, file);
    } else {
        files.push(file);
    }
    std::env::set_var("KRB5_CONFIG", files.join(":"));
}

impl MitKdc {
    /// Start a KDC with these principals (`alice`, `hbase/localhost`: the realm is added), each
    /// with a random key, and add its realm to this process's `KRB5_CONFIG`.
    ///
    /// # Errors
    ///
    /// [`ServerError::Missing`] without `krb5kdc`, `kdb5_util` or `kadmin.local` (naming the
    /// Debian packages); [`ServerError::Start`] when the database or the KDC fails.
    pub fn start(principals: &[&str]) -> Result<MitKdc, ServerError> {
        let krb5kdc = program("krb5kdc")?;
        let kdb5_util = program("kdb5_util")?;
        program("kadmin.local")?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir =
            std::env::temp_dir().join(format!("rowkey-mitkdc-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| ServerError::Start(format!("creating {}: {e}", dir.display())))?;
        let port = free_port().map_err(ServerError::Start)?;
        let d = dir.display();
        let kdc_conf = dir.join("kdc.conf");
        let krb5_conf = dir.join("krb5.conf");
        let kdc_text = format!(
            "[kdcdefaults]\n\
             \x20   kdc_listen = 127.0.0.1:{port}\n\
             \x20   kdc_tcp_listen = 127.0.0.1:{port}\n\
             [realms]\n\
             \x20   {MIT_REALM} = {{\n\
             \x20       database_name = {d}/principal\n\
             \x20       key_stash_file = {d}/stash\n\
             \x20       acl_file = {d}/kadm5.acl\n\
             \x20       max_life = 1d\n\
             \x20   }}\n\
             [logging]\n\
             \x20   kdc = FILE:{d}/kdc.log\n\
             \x20   admin_server = FILE:{d}/kadmin.log\n"
        );
        let krb5_text = format!(
            "[libdefaults]\n\
             \x20   default_realm = {MIT_REALM}\n\
             \x20   udp_preference_limit = 1\n\
             \x20   dns_lookup_kdc = false\n\
             \x20   dns_lookup_realm = false\n\
             \x20   dns_canonicalize_hostname = false\n\
             \x20   rdns = false\n\
             [realms]\n\
             \x20   {MIT_REALM} = {{\n\
             \x20       kdc = 127.0.0.1:{port}\n\
             \x20   }}\n"
        );
        std::fs::write(&kdc_conf, kdc_text)
            .and_then(|()| std::fs::write(&krb5_conf, krb5_text))
            .map_err(|e| ServerError::Start(format!("writing the KDC's configuration: {e}")))?;
        let mut kdc = MitKdc {
            dir: dir.clone(),
            port,
            krb5_conf,
            kdc_conf,
            process: Mutex::new(None),
        };
        // the master key's password: random, used here once (the key is kept in the stash)
        let master = {
            use std::hash::BuildHasher;
            let s = std::collections::hash_map::RandomState::new();
            format!("{:016x}{:016x}", s.hash_one(nanos), s.hash_one(port))
        };
        kdc.run(
            &kdb5_util,
            &["create", "-s", "-r", MIT_REALM, "-P", &master],
            "kdb5_util create",
        )?;
        for p in principals {
            kdc.kadmin(&format!("addprinc -randkey {}", kdc.full(p)))?;
        }
        let log = dir.join("krb5kdc.out");
        let args = vec![
            krb5kdc.display().to_string(),
            "-n".into(),
            "-r".into(),
            MIT_REALM.into(),
        ];
        // the wrapper's environment is this process's: name the KDC's files in it for the KDC
        let wrapped: Vec<String> = [
            "env".to_owned(),
            format!("KRB5_CONFIG={}", kdc.krb5_conf.display()),
            format!("KRB5_KDC_PROFILE={}", kdc.kdc_conf.display()),
        ]
        .into_iter()
        .chain(args)
        .collect();
        let process = Jvm::spawn(&log, Some(&dir), &wrapped).map_err(ServerError::Start)?;
        kdc.process = Mutex::new(Some(process));
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect_timeout(&addr, Duration::from_millis(500)).is_err() {
            let exited = kdc
                .process
                .lock()
                .ok()
                .and_then(|mut p| p.as_mut().and_then(Jvm::exited))
                .is_some();
            if exited || Instant::now() > deadline {
                return Err(ServerError::Start(format!(
                    "the MIT KDC (krb5kdc) {} on port {port}; its output:\n{}\nits log:\n{}",
                    if exited {
                        "exited"
                    } else {
                        "did not listen in 30 s"
                    },
                    read_tail(&log, 20),
                    read_tail(&dir.join("kdc.log"), 20)
                )));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        add_krb5_config(&kdc.krb5_conf, false);
        Ok(kdc)
    }

    /// `principal` with the realm (unless it names one).
    fn full(&self, principal: &str) -> String {
        if principal.contains('@') {
            principal.to_owned()
        } else {
            format!("{principal}@{MIT_REALM}")
        }
    }

    /// Run an MIT admin program against this KDC's database.
    fn run(&self, program: &Path, args: &[&str], what: &str) -> Result<String, ServerError> {
        let out = Command::new(program)
            .args(args)
            .env("KRB5_CONFIG", &self.krb5_conf)
            .env("KRB5_KDC_PROFILE", &self.kdc_conf)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| ServerError::Missing(format!("running {}: {e}", program.display())))?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() {
            return Err(ServerError::Start(format!("{what}: {text}")));
        }
        Ok(text)
    }

    /// One `kadmin.local` query; its output must not start with an error.
    fn kadmin(&self, query: &str) -> Result<(), ServerError> {
        let text = self.run(
            &program("kadmin.local")?,
            &["-r", MIT_REALM, "-q", query],
            &format!("kadmin.local -q {query:?}"),
        )?;
        // kadmin.local exits 0 on a failed query: its words say so
        if text.lines().any(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("error") || l.contains("while ") || l.contains("no such")
        }) {
            return Err(ServerError::Start(format!(
                "kadmin.local -q {query:?}: {text}"
            )));
        }
        Ok(())
    }

    /// Add a principal with a random key.
    ///
    /// # Errors
    ///
    /// [`ServerError::Start`] when `kadmin.local` fails.
    pub fn add(&self, principal: &str) -> Result<(), ServerError> {
        self.kadmin(&format!("addprinc -randkey {}", self.full(principal)))
    }

    /// Delete a principal (its keytabs stay as they are).
    ///
    /// # Errors
    ///
    /// [`ServerError::Start`] when `kadmin.local` fails.
    pub fn delete(&self, principal: &str) -> Result<(), ServerError> {
        self.kadmin(&format!("delprinc -force {}", self.full(principal)))
    }

    /// Write the current keys of `principals` to the keytab `path` (added to it when it
    /// exists), without changing them (`ktadd -norandkey`).
    ///
    /// # Errors
    ///
    /// [`ServerError::Start`] when `kadmin.local` fails.
    pub fn ktadd(&self, path: &Path, principals: &[&str]) -> Result<(), ServerError> {
        let names: Vec<String> = principals.iter().map(|p| self.full(p)).collect();
        self.kadmin(&format!(
            "ktadd -norandkey -k {} {}",
            path.display(),
            names.join(" ")
        ))
    }

    /// The KDC's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A directory of this KDC's for tickets and keytabs (removed with it).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A `krb5.conf` naming this KDC for its realm.
    pub fn krb5_conf(&self) -> &Path {
        &self.krb5_conf
    }

    /// Stop the KDC.
    pub fn stop(&self) {
        if let Ok(mut p) = self.process.lock() {
            if let Some(mut p) = p.take() {
                p.kill();
            }
        }
    }
}

impl Drop for MitKdc {
    fn drop(&mut self) {
        self.stop();
    }
}
