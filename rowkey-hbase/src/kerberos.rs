//! Kerberos for a secured gateway (feature `kerberos`): SASL GSSAPI on the socket transport,
//! SPNEGO in HTTP mode, through the system's GSSAPI library (MIT Kerberos, `libgssapi_krb5`).
//!
//! ```toml
//! [dependencies]
//! # builds against the system's MIT Kerberos (libkrb5-dev; bindgen needs libclang)
//! rowkey-hbase = { version = "0.1", features = ["kerberos"] }
//! ```
//!
//! A gateway of a Kerberized cluster (`hbase.security.authentication = kerberos`) runs with
//! its own principal (`hbase.thrift.kerberos.principal`, say `hbase/gw1.example.com@EXAMPLE.COM`)
//! and either speaks SASL on its socket (`hbase.thrift.security.qop` = `auth`, `auth-int` or
//! `auth-conf`) or, in HTTP mode, wants SPNEGO (`Authorization: Negotiate …`, its principal
//! `hbase.thrift.spnego.principal`, `HTTP/gw1.example.com@EXAMPLE.COM`). [`Kerberos`] names
//! that principal and where this client's credentials come from:
//!
//! | credentials | `Kerberos` |
//! |---|---|
//! | `kinit`'s ticket cache (`KRB5CCNAME` or the system's default) | `Kerberos::service(principal)` |
//! | a ticket cache of its own | `Kerberos::ticket_cache(principal, path)` |
//! | a keytab (tickets obtained and renewed from it) | `Kerberos::keytab(principal, client_principal, path)` |
//!
//! One constructor per source of credentials, so no order of calls can pick another; the
//! protection level ([`Kerberos::qop`]) is the only setting added after.
//!
//! ```no_run
//! # fn main() -> Result<(), rowkey_hbase::Error> {
//! use rowkey_hbase::{Client, GatewayConfig, Kerberos, Qop};
//!
//! // hbase.thrift.security.qop = auth-conf: every message encrypted
//! let client = Client::connect_to(
//!     GatewayConfig::socket("gw1.example.com:9090")?.kerberos(
//!         Kerberos::keytab(
//!             "hbase/gw1.example.com@EXAMPLE.COM",
//!             "etl@EXAMPLE.COM",
//!             "/etc/security/keytabs/etl.keytab",
//!         )
//!         .qop(Qop::AuthConf),
//!     ),
//! )?;
//! // HTTP mode over TLS, SPNEGO with the ticket of `kinit`
//! let client = Client::connect_to(
//!     GatewayConfig::http("https://gw1.example.com:9090/")?
//!         .kerberos(Kerberos::service("HTTP/gw1.example.com@EXAMPLE.COM")),
//! )?;
//! # Ok(()) }
//! ```
//!
//! The realm's KDCs come from the system's Kerberos configuration (`/etc/krb5.conf`, or the
//! file `KRB5_CONFIG` names), as for `kinit`.
//!
//! **Tickets.** Credentials are acquired for each new connection (each HTTP request in HTTP
//! mode): a ticket cache renewed by `kinit -R` or a new `kinit` is picked up by the next
//! connection; with a keytab, a new ticket is obtained from it when the last one expires.
//! A refusal — no ticket, an expired one, a principal the KDC or the gateway does not know,
//! a protection level the gateway does not offer — is [`Error::Auth`],
//! never retried. It names what is wrong: the client principal the KDC does not know (MIT:
//! "Client '…' not found in Kerberos database") apart from the gateway's ("Server … not
//! found"), a keytab that does not exist, or one that holds no key for the client's principal.
//!
//! **A gateway without SASL.** A gateway that runs without Kerberos reads the SASL start as the
//! first bytes of a 16 MiB Thrift call and answers nothing. After 1.5 s of silence the client
//! asks it a plain Thrift question on a second connection: a Thrift (or HTTP) answer ends the
//! handshake at once with [`Error::Connection`] saying the gateway does not speak SASL; a SASL
//! gateway answers that question with a SASL error, and the handshake waits on.
//!
//! **Protection.** With `auth-int` every message carries an integrity check, with `auth-conf`
//! it is also encrypted (GSSAPI `wrap`). By default the client takes the strongest level the
//! gateway offers; [`Kerberos::qop`] insists on one. In HTTP mode protection is TLS's
//! (`https://`).
//!
//! **Secrets.** No key, ticket or token appears in an error, a log line or `Debug` output;
//! principals and file paths do.

use std::ffi::{c_void, CString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::atomic::{AtomicU64, Ordering};

use libgssapi::context::{ClientCtx, CtxFlags};
use libgssapi::credential::Cred;
use libgssapi::error::{Error as GssError, MajorFlags};
use libgssapi::name::Name;
use libgssapi::oid::{Oid, GSS_MECH_KRB5, GSS_MECH_SPNEGO, GSS_NT_KRB5_PRINCIPAL};

use crate::Error;

/// A protection level of SASL GSSAPI (`hbase.thrift.security.qop`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Qop {
    /// `auth`: authentication only.
    Auth,
    /// `auth-int`: and an integrity check on every message.
    AuthInt,
    /// `auth-conf`: and every message encrypted.
    AuthConf,
}

impl Qop {
    /// The bit of this layer in the SASL GSSAPI security-layer mask (RFC 4752).
    pub(crate) fn bit(self) -> u8 {
        match self {
            Qop::Auth => 1,
            Qop::AuthInt => 2,
            Qop::AuthConf => 4,
        }
    }

    /// Its name in `hbase.thrift.security.qop`.
    pub fn name(self) -> &'static str {
        match self {
            Qop::Auth => "auth",
            Qop::AuthInt => "auth-int",
            Qop::AuthConf => "auth-conf",
        }
    }

    /// The layers of a mask, strongest first.
    pub(crate) fn offered(mask: u8) -> Vec<Qop> {
        [Qop::AuthConf, Qop::AuthInt, Qop::Auth]
            .into_iter()
            .filter(|q| mask & q.bit() != 0)
            .collect()
    }
}

impl fmt::Display for Qop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a client's Kerberos credentials come from.
#[derive(Clone, PartialEq, Eq)]
enum Credentials {
    /// `kinit`'s cache: `KRB5CCNAME`, or the system's default.
    Default,
    /// This ticket cache.
    Cache(PathBuf),
    /// Tickets obtained from this keytab for this principal, kept in a memory cache of this
    /// client's own.
    Keytab {
        principal: String,
        keytab: PathBuf,
        memory: String,
    },
}

/// Kerberos for a gateway: its principal, this client's credentials, the protection level.
/// See the [module docs](self).
#[derive(Clone, PartialEq, Eq)]
pub struct Kerberos {
    service: String,
    credentials: Credentials,
    qop: Option<Qop>,
}

impl fmt::Debug for Kerberos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Kerberos");
        d.field("service", &self.service);
        match &self.credentials {
            Credentials::Default => d.field("credentials", &"the default ticket cache"),
            Credentials::Cache(p) => d.field("ticket_cache", p),
            Credentials::Keytab {
                principal, keytab, ..
            } => d.field("principal", principal).field("keytab", keytab),
        };
        d.field("qop", &self.qop.map_or("the strongest offered", Qop::name))
            .finish()
    }
}

static MEMORY_CACHES: AtomicU64 = AtomicU64::new(0);

impl Kerberos {
    /// Kerberos to the gateway whose principal is `principal` (`service/host@REALM`, or
    /// `service/host` in the default realm): `hbase.thrift.kerberos.principal` of a socket
    /// gateway, `hbase.thrift.spnego.principal` (`HTTP/host@REALM`) of one in HTTP mode.
    /// Credentials from `kinit`'s ticket cache.
    pub fn service(principal: &str) -> Kerberos {
        Kerberos {
            service: principal.to_owned(),
            credentials: Credentials::Default,
            qop: None,
        }
    }

    /// Kerberos to the gateway `service` ([`Kerberos::service`]) with the tickets of this
    /// ticket cache (a file `kinit -c path` wrote) instead of the default one.
    pub fn ticket_cache(service: &str, path: impl AsRef<Path>) -> Kerberos {
        Kerberos {
            credentials: Credentials::Cache(path.as_ref().to_path_buf()),
            ..Kerberos::service(service)
        }
    }

    /// Kerberos to the gateway `service` ([`Kerberos::service`]) as `principal`, its tickets
    /// obtained from `keytab` (and again when they expire) and kept in memory: no ticket
    /// cache is written.
    pub fn keytab(service: &str, principal: &str, keytab: impl AsRef<Path>) -> Kerberos {
        let n = MEMORY_CACHES.fetch_add(1, Ordering::Relaxed);
        Kerberos {
            credentials: Credentials::Keytab {
                principal: principal.to_owned(),
                keytab: keytab.as_ref().to_path_buf(),
                memory: format!("MEMORY:rowkey-hbase-{}-{n}", std::process::id()),
            },
            ..Kerberos::service(service)
        }
    }

    /// Insist on this protection level: a gateway that does not offer it is refused
    /// ([`Error::Auth`]). Without it the client takes the strongest the gateway offers.
    #[must_use]
    pub fn qop(mut self, qop: Qop) -> Kerberos {
        self.qop = Some(qop);
        self
    }

    /// The gateway's principal.
    pub fn service_principal(&self) -> &str {
        &self.service
    }

    pub(crate) fn wanted_qop(&self) -> Option<Qop> {
        self.qop
    }

    /// Acquire this client's credentials now (from the cache or the keytab).
    fn credentials(&self) -> Result<Cred, Error> {
        let (name, store): (Option<&str>, Vec<(&str, String)>) = match &self.credentials {
            Credentials::Default => (None, Vec::new()),
            Credentials::Cache(p) => (None, vec![("ccache", format!("FILE:{}", p.display()))]),
            Credentials::Keytab {
                principal,
                keytab,
                memory,
            } => (
                Some(principal.as_str()),
                vec![
                    ("client_keytab", format!("FILE:{}", keytab.display())),
                    ("ccache", memory.clone()),
                ],
            ),
        };
        acquire_from(name, &store).map_err(|e| Error::Auth(self.explain("no credentials", &e)))
    }

    /// A context to the gateway's principal with this client's credentials.
    pub(crate) fn context(&self, spnego: bool) -> Result<ClientCtx, Error> {
        let cred = self.credentials()?;
        let target = Name::new(self.service.as_bytes(), Some(GSS_NT_KRB5_PRINCIPAL))
            .map_err(|e| Error::Auth(format!("the principal {:?}: {e}", self.service)))?;
        let mech: Oid<'static> = if spnego {
            GSS_MECH_SPNEGO
        } else {
            GSS_MECH_KRB5
        };
        Ok(ClientCtx::new(
            Some(cred),
            target,
            CtxFlags::GSS_C_MUTUAL_FLAG
                | CtxFlags::GSS_C_INTEG_FLAG
                | CtxFlags::GSS_C_CONF_FLAG
                | CtxFlags::GSS_C_SEQUENCE_FLAG
                | CtxFlags::GSS_C_REPLAY_FLAG,
            Some(mech),
        ))
    }

    /// The first token of a context to the gateway, or why there is none.
    pub(crate) fn first_token(&self, ctx: &mut ClientCtx) -> Result<Vec<u8>, Error> {
        match ctx.step(None, None) {
            Ok(Some(token)) => Ok(token.to_vec()),
            Ok(None) => Err(Error::Auth(format!(
                "Kerberos to {}: GSSAPI produced no token",
                self.service
            ))),
            Err(e) => Err(Error::Auth(self.explain("no service ticket", &e))),
        }
    }

    /// The `Authorization` header of one HTTP request (SPNEGO, RFC 4559).
    pub(crate) fn negotiate_header(&self) -> Result<String, Error> {
        use base64::Engine as _;
        let mut ctx = self.context(true)?;
        let token = self.first_token(&mut ctx)?;
        Ok(format!(
            "Negotiate {}",
            base64::engine::general_purpose::STANDARD.encode(token)
        ))
    }

    /// A GSSAPI failure in words, with what to do about it: see [`diagnose`].
    pub(crate) fn explain(&self, what: &str, e: &GssError) -> String {
        let keytab_exists = match &self.credentials {
            Credentials::Keytab { keytab, .. } => Some(keytab.is_file()),
            _ => None,
        };
        diagnose(
            what,
            &self.service,
            &self.credentials,
            keytab_exists,
            e.major,
            &e.to_string(),
        )
    }
}

/// The principal named after `word` in a Kerberos message, quoted or not: MIT's "Client
/// 'etl@EXAMPLE.COM' not found in Kerberos database" names the client, "Server
/// hbase/gw@EXAMPLE.COM not found in Kerberos database" the service.
fn named_after<'t>(text: &'t str, word: &str) -> Option<&'t str> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find(&format!("{word} "))? + word.len() + 1;
    let rest = text.get(at..)?;
    let name = match rest.strip_prefix('\'') {
        Some(quoted) => quoted.get(..quoted.find('\'')?)?,
        None => rest.get(..rest.find(' ').unwrap_or(rest.len()))?,
    };
    Some(name).filter(|n| !n.is_empty() && !n.eq_ignore_ascii_case("not"))
}

/// A GSSAPI failure (`major` and the library's words `text`) in words that name what is
/// actually wrong — the client principal, the service principal, the keytab or the ticket
/// cache — with what to do about it. `keytab_exists`: whether the keytab file of keytab
/// credentials exists. The text is the Kerberos library's (MIT's `libgssapi_krb5`, whatever
/// the KDC: MIT, Heimdal or Apache Kerby), which names principals and files, never keys.
fn diagnose(
    what: &str,
    service: &str,
    credentials: &Credentials,
    keytab_exists: Option<bool>,
    major: MajorFlags,
    text: &str,
) -> String {
    let lower = text.to_ascii_lowercase();
    let whose = match credentials {
        Credentials::Default => "the default ticket cache".to_owned(),
        Credentials::Cache(p) => format!("the ticket cache {}", p.display()),
        Credentials::Keytab {
            principal, keytab, ..
        } => format!("{principal} from the keytab {}", keytab.display()),
    };
    let keytab = match credentials {
        Credentials::Keytab {
            principal, keytab, ..
        } => Some((principal.as_str(), keytab.as_path())),
        _ => None,
    };
    let unknown = lower.contains("not found in kerberos database");
    let hint = if major.contains(MajorFlags::GSS_S_CREDENTIALS_EXPIRED) || lower.contains("expired")
    {
        format!("the Kerberos ticket of {whose} has expired: renew it (kinit)")
    } else if lower.contains("cannot contact any kdc") || lower.contains("cannot find kdc") {
        // MIT: "Cannot contact any KDC for realm 'R'", "Cannot find KDC for realm "R""
        format!(
            "no KDC of the realm answered ({whose}): the realm's KDCs come from the system's \
             Kerberos configuration (/etc/krb5.conf, or the file KRB5_CONFIG names) — check that \
             it lists the realm and that its KDC is reachable"
        )
    } else if unknown && lower.contains("client") {
        // the KDC does not know this client (deleted after its keytab was made, or never added)
        let client = named_after(text, "client")
            .or(keytab.map(|(p, _)| p))
            .unwrap_or("of this client");
        let source = match keytab {
            Some((_, path)) => format!(" (its keys are in the keytab {})", path.display()),
            None => format!(" ({whose})"),
        };
        format!(
            "the KDC knows no client principal {client}{source}: add it to the KDC (kadmin \
             addprinc) and export its keytab again, or use a principal the KDC knows"
        )
    } else if unknown {
        let server = named_after(text, "server").unwrap_or(service);
        format!(
            "the KDC knows no principal {server}: name the gateway's own \
             (hbase.thrift.kerberos.principal, or hbase.thrift.spnego.principal in HTTP mode)"
        )
    } else if let (Some((_, path)), Some(false)) = (keytab, keytab_exists) {
        format!(
            "the keytab {} does not exist (Kerberos::keytab): give the path of the client's \
             keytab",
            path.display()
        )
    } else if let Some((principal, path)) = keytab.filter(|_| {
        lower.contains("no key table entry")
            || lower.contains("no suitable keys")
            || lower.contains("keytab")
            || lower.contains("key table")
            || lower.contains("no credentials")
            || major.contains(MajorFlags::GSS_S_NO_CRED)
    }) {
        if lower.contains("permission denied") {
            format!(
                "the keytab {} cannot be read by this process: give it read access",
                path.display()
            )
        } else if lower.contains("preauthentication failed")
            || lower.contains("integrity check")
            || lower.contains("decrypt")
        {
            format!(
                "the keytab {} does not hold {principal}'s current key: export it again \
                 (kadmin ktadd)",
                path.display()
            )
        } else {
            format!(
                "the keytab {} holds no key for {principal}: export the principal's keys into \
                 it (kadmin ktadd), or name a principal it holds (klist -k)",
                path.display()
            )
        }
    } else if major.contains(MajorFlags::GSS_S_NO_CRED)
        || lower.contains("no credentials")
        || lower.contains("not found")
    {
        format!("no Kerberos ticket in {whose}: run kinit, or give a keytab (Kerberos::keytab)")
    } else if lower.contains("preauthentication failed") || lower.contains("key table") {
        format!("{whose}: the keytab does not hold this principal's current key")
    } else {
        format!("Kerberos with {whose}")
    };
    format!("{what} for {service}: {hint} ({text})")
}

/// `gss_acquire_cred_from` (MIT): initiator credentials for `name` (or the cache's principal)
/// from a credential store (`ccache`, `client_keytab`), which `libgssapi` does not wrap.
fn acquire_from(name: Option<&str>, store: &[(&str, String)]) -> Result<Cred, GssError> {
    use libgssapi_sys as sys;

    /// 1.2.840.113554.1.2.2.1, `GSS_KRB5_NT_PRINCIPAL_NAME`.
    const KRB5_PRINCIPAL_OID: &[u8] = b"\x2a\x86\x48\x86\xf7\x12\x01\x02\x02\x01";

    let gss_error = |major: u32, minor: u32| GssError {
        major: MajorFlags::from_bits_retain(major),
        minor,
    };
    let failed = |major: u32| major & 0xffff_0000 != 0;
    let invalid = || gss_error(sys::_GSS_S_FAILURE, 0);

    let keys: Vec<CString> = store
        .iter()
        .map(|(k, _)| CString::new(*k))
        .collect::<Result<_, _>>()
        .map_err(|_| invalid())?;
    let values: Vec<CString> = store
        .iter()
        .map(|(_, v)| CString::new(v.as_str()))
        .collect::<Result<_, _>>()
        .map_err(|_| invalid())?;
    let mut elements: Vec<sys::gss_key_value_element_desc> = keys
        .iter()
        .zip(&values)
        .map(|(k, v)| sys::gss_key_value_element_desc {
            key: k.as_ptr(),
            value: v.as_ptr(),
        })
        .collect();
    let set = sys::gss_key_value_set_desc {
        count: u32::try_from(elements.len()).map_err(|_| invalid())?,
        elements: elements.as_mut_ptr(),
    };
    let mut minor: u32 = 0;
    let mut desired: sys::gss_name_t = ptr::null_mut();
    if let Some(name) = name {
        let mut oid = sys::gss_OID_desc {
            length: KRB5_PRINCIPAL_OID.len() as u32,
            elements: KRB5_PRINCIPAL_OID.as_ptr() as *mut c_void,
        };
        let mut buf = sys::gss_buffer_desc {
            length: name.len(),
            value: name.as_ptr() as *mut c_void,
        };
        // SAFETY: `buf` and `oid` point at live bytes for the call; gss_import_name copies
        // them and writes a name that we release below.
        let major = unsafe { sys::gss_import_name(&mut minor, &mut buf, &mut oid, &mut desired) };
        if failed(major) {
            return Err(gss_error(major, minor));
        }
    }
    let mut cred: sys::gss_cred_id_t = ptr::null_mut();
    // SAFETY: every pointer is live for the call (the store's strings are owned above); the
    // credential written is handed to `Cred`, which releases it.
    let major = unsafe {
        sys::gss_acquire_cred_from(
            &mut minor,
            desired,
            sys::_GSS_C_INDEFINITE,
            ptr::null_mut(),
            sys::GSS_C_INITIATE as sys::gss_cred_usage_t,
            &set,
            &mut cred,
            ptr::null_mut(),
            ptr::null_mut(),
        )
    };
    if !desired.is_null() {
        let mut release_minor: u32 = 0;
        // SAFETY: `desired` was written by gss_import_name and is released once.
        unsafe { sys::gss_release_name(&mut release_minor, &mut desired) };
    }
    if failed(major) {
        return Err(gss_error(major, minor));
    }
    // SAFETY: `cred` is a credential this call owns alone.
    Ok(unsafe { Cred::from_c(cred) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_names_principals_and_paths_only() {
        let k = Kerberos::keytab("hbase/gw@EXAMPLE.COM", "etl@EXAMPLE.COM", "/k/etl.keytab")
            .qop(Qop::AuthInt);
        let d = format!("{k:?}");
        assert!(
            d.contains("hbase/gw@EXAMPLE.COM") && d.contains("etl@EXAMPLE.COM"),
            "{d}"
        );
        assert!(d.contains("auth-int") && !d.contains("MEMORY"), "{d}");
    }

    /// GSSAPI's words for a failure, as `libgssapi` shows them: the major status's, then the
    /// minor (mechanism) status's in parentheses.
    const NO_CRED: &str =
        "No credentials were supplied, or the credentials were unavailable or inaccessible";
    const FAILURE: &str = "Unspecified GSS failure.  Minor code may provide more information";

    fn keytab(principal: &str, path: &str) -> Credentials {
        Credentials::Keytab {
            principal: principal.into(),
            keytab: PathBuf::from(path),
            memory: "MEMORY:test".into(),
        }
    }

    /// `diagnose` on the exact words MIT Kerberos 1.20's `libgssapi_krb5` gave against an MIT
    /// KDC (krb5-kdc 1.20, `tests/hbase/kerberos_mit.rs`) and against Hadoop's MiniKdc
    /// (Apache Kerby, `tests/hbase/kerberos.rs`): the same words for both, since the client
    /// library writes them from the KDC's error code ("Client '…' not found" when the KDC
    /// answers KDC_ERR_C_PRINCIPAL_UNKNOWN, "Server … not found" for S_PRINCIPAL_UNKNOWN).
    #[test]
    fn diagnoses_name_what_is_wrong_in_mit_s_words() {
        let service = "hbase/localhost@MIT.TEST";
        let kt = keytab("gone@MIT.TEST", "/k/clients.keytab");
        // a client principal the KDC does not know (deleted after its keytab was written)
        let m = diagnose(
            "no service ticket",
            service,
            &kt,
            Some(true),
            MajorFlags::GSS_S_NO_CRED,
            &format!("{NO_CRED} (Client 'gone@MIT.TEST' not found in Kerberos database)"),
        );
        assert!(
            m.contains("the KDC knows no client principal gone@MIT.TEST (its keys are in the keytab /k/clients.keytab)"),
            "{m}"
        );
        assert!(!m.contains("gateway's own"), "{m}");
        // a service principal the KDC does not know: MIT names it unquoted
        let kt = keytab("alice@MIT.TEST", "/k/clients.keytab");
        let m = diagnose(
            "no service ticket",
            "hbase/nowhere@MIT.TEST",
            &kt,
            Some(true),
            MajorFlags::GSS_S_FAILURE,
            &format!("{FAILURE} (Server hbase/nowhere@MIT.TEST not found in Kerberos database)"),
        );
        assert!(
            m.contains("the KDC knows no principal hbase/nowhere@MIT.TEST: name the gateway's own"),
            "{m}"
        );
        // a principal the keytab does not hold, and a keytab that does not exist: MIT says
        // "No credentials cache found" for both (the memory cache it would fill)
        let no_cache = format!("{NO_CRED} (No credentials cache found)");
        let kt = keytab("mallory@MIT.TEST", "/k/clients.keytab");
        let m = diagnose(
            "no credentials",
            service,
            &kt,
            Some(true),
            MajorFlags::GSS_S_NO_CRED,
            &no_cache,
        );
        assert!(
            m.contains("the keytab /k/clients.keytab holds no key for mallory@MIT.TEST")
                && !m.contains("kinit"),
            "{m}"
        );
        let kt = keytab("alice@MIT.TEST", "/k/none.keytab");
        let m = diagnose(
            "no credentials",
            service,
            &kt,
            Some(false),
            MajorFlags::GSS_S_NO_CRED,
            &no_cache,
        );
        assert!(
            m.contains("the keytab /k/none.keytab does not exist") && !m.contains("kinit"),
            "{m}"
        );
        // a realm whose KDC cannot be reached, or that the configuration does not list: not
        // blamed on the keytab
        for text in [
            format!("{NO_CRED} (Cannot contact any KDC for realm 'MIT.TEST')"),
            format!("{NO_CRED} (Cannot find KDC for realm \"NOWHERE.TEST\")"),
        ] {
            let m = diagnose(
                "no credentials",
                service,
                &kt,
                Some(true),
                MajorFlags::GSS_S_NO_CRED,
                &text,
            );
            assert!(
                m.contains(
                    "no KDC of the realm answered (alice@MIT.TEST from the keytab /k/none.keytab)"
                ) && !m.contains("holds no key"),
                "{m}"
            );
        }
        // the same words with a ticket cache: no ticket there, kinit
        let cache = Credentials::Cache(PathBuf::from("/tmp/alice.cc"));
        let m = diagnose(
            "no credentials",
            service,
            &cache,
            None,
            MajorFlags::GSS_S_NO_CRED,
            &no_cache,
        );
        assert!(
            m.contains("no Kerberos ticket in the ticket cache /tmp/alice.cc: run kinit"),
            "{m}"
        );
    }

    #[test]
    fn names_are_read_quoted_or_not() {
        assert_eq!(
            named_after("x (Client 'a@R' not found in Kerberos database)", "client"),
            Some("a@R")
        );
        assert_eq!(
            named_after("x (Server h/x@R not found in Kerberos database)", "server"),
            Some("h/x@R")
        );
        assert_eq!(
            named_after("Client not found in Kerberos database", "client"),
            None
        );
        assert_eq!(named_after("nothing here", "client"), None);
    }

    #[test]
    fn qop_masks_list_the_strongest_first() {
        assert_eq!(
            Qop::offered(7),
            vec![Qop::AuthConf, Qop::AuthInt, Qop::Auth]
        );
        assert_eq!(Qop::offered(4), vec![Qop::AuthConf]);
        assert_eq!(Qop::offered(0), Vec::<Qop>::new());
    }
}
