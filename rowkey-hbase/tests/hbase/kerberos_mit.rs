//! Kerberos refusals against a real MIT KDC (`krb5kdc` of Debian's `krb5-kdc`, started here
//! once for the binary on a free loopback port, realm `MIT.TEST`; without it the tests fail
//! naming the package): each error names the principal or the file that is actually wrong,
//! in MIT's words as well as ours, at once.
//!
//! Credentials are acquired before the client sends its first byte, so a loopback listener that
//! never answers stands in for the gateway where only the KDC is under test. A Kerberos client
//! at a gateway without SASL uses the shared HBase's main gateway.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rowkey_hbase::testkit::{HBase, MitKdc, MIT_REALM};
use rowkey_hbase::{Client, Error, GatewayConfig, Kerberos};

/// The service principal the refusals ask a ticket for (the KDC knows it).
const SERVICE: &str = "hbase/localhost@MIT.TEST";

pub(crate) struct Mit {
    pub(crate) kdc: MitKdc,
    /// `alice`'s and `gone`'s keys; `gone` is deleted from the KDC after they were written.
    pub(crate) keytab: PathBuf,
    /// A listener that accepts nothing: the client never gets past its credentials.
    silent: TcpListener,
}

/// The binary's MIT KDC (killed when the binary exits).
pub(crate) fn mit() -> &'static Mit {
    static MIT: OnceLock<Mit> = OnceLock::new();
    MIT.get_or_init(|| {
        let kdc =
            MitKdc::start(&["alice", "gone", "hbase/localhost"]).unwrap_or_else(|e| panic!("{e}"));
        let keytab = kdc.dir().join("clients.keytab");
        kdc.ktadd(&keytab, &["alice", "gone"])
            .unwrap_or_else(|e| panic!("{e}"));
        // the keytab outlives its principal: the KDC no longer knows `gone`
        kdc.delete("gone").unwrap_or_else(|e| panic!("{e}"));
        let silent = TcpListener::bind("127.0.0.1:0").expect("a loopback listener");
        eprintln!("MIT KDC on port {} (realm {MIT_REALM})", kdc.port());
        Mit {
            kdc,
            keytab,
            silent,
        }
    })
}

/// The refusal of a client with keytab credentials, and how long it took.
fn refusal(service: &str, principal: &str, keytab: &Path) -> (String, Duration) {
    let m = mit();
    let addr = m.silent.local_addr().expect("addr");
    let started = Instant::now();
    let e = Client::connect_to(
        GatewayConfig::socket(addr)
            .expect("addr")
            .kerberos(Kerberos::keytab(service, principal, keytab)),
    )
    .expect_err("refused");
    let took = started.elapsed();
    match e {
        Error::Auth(m) => (m, took),
        other => panic!("expected Error::Auth, got {other:?}"),
    }
}

#[test]
fn mit_a_client_principal_the_kdc_does_not_know_is_named() {
    let m = mit();
    let (msg, took) = refusal(SERVICE, "gone@MIT.TEST", &m.keytab);
    eprintln!("MIT, a deleted client principal: {msg}");
    // MIT's words, and ours naming the client principal and its keytab, not the service's
    assert!(
        msg.contains("Client 'gone@MIT.TEST' not found in Kerberos database"),
        "{msg}"
    );
    assert!(
        msg.contains("the KDC knows no client principal gone@MIT.TEST")
            && msg.contains(&m.keytab.display().to_string()),
        "{msg}"
    );
    assert!(!msg.contains("gateway's own"), "{msg}");
    assert!(took < Duration::from_secs(2), "refused after {took:?}");
}

#[test]
fn mit_a_service_principal_the_kdc_does_not_know_is_named() {
    let m = mit();
    let (msg, took) = refusal("hbase/nowhere@MIT.TEST", "alice@MIT.TEST", &m.keytab);
    eprintln!("MIT, an unknown service principal: {msg}");
    assert!(
        msg.contains("the KDC knows no principal hbase/nowhere@MIT.TEST: name the gateway's own"),
        "{msg}"
    );
    assert!(!msg.contains("client principal"), "{msg}");
    assert!(took < Duration::from_secs(2), "refused after {took:?}");
}

#[test]
fn mit_a_principal_missing_from_the_keytab_is_named() {
    let m = mit();
    let (msg, took) = refusal(SERVICE, "mallory@MIT.TEST", &m.keytab);
    eprintln!("MIT, a principal the keytab does not hold: {msg}");
    assert!(
        msg.contains(&format!(
            "the keytab {} holds no key for mallory@MIT.TEST",
            m.keytab.display()
        )),
        "{msg}"
    );
    assert!(!msg.contains("kinit"), "{msg}");
    assert!(took < Duration::from_secs(2), "refused after {took:?}");
}

#[test]
fn mit_a_keytab_that_does_not_exist_is_named() {
    let m = mit();
    let missing = m.kdc.dir().join("no-such.keytab");
    let (msg, took) = refusal(SERVICE, "alice@MIT.TEST", &missing);
    eprintln!("MIT, a keytab that does not exist: {msg}");
    assert!(
        msg.contains(&format!("the keytab {} does not exist", missing.display())),
        "{msg}"
    );
    assert!(!msg.contains("kinit"), "{msg}");
    assert!(took < Duration::from_secs(2), "refused after {took:?}");
}

#[test]
fn mit_a_valid_keytab_gets_past_the_kdc() {
    // the control: alice's keys get a service ticket, and the client goes on to the
    // (silent) gateway, where it gives up after the first call's timeout
    let m = mit();
    let addr = m.silent.local_addr().expect("addr");
    let e = Client::connect_to(
        GatewayConfig::socket(addr)
            .expect("addr")
            .kerberos(Kerberos::keytab(SERVICE, "alice@MIT.TEST", &m.keytab)),
    )
    .expect_err("no gateway behind the listener");
    assert!(matches!(e, Error::Connection(_)), "{e:?}");
}

/// A Kerberos client at a gateway without SASL (the shared HBase's main gateway) is told so:
/// the gateway reads the SASL start as the first bytes of a 16 MB Thrift call and says
/// nothing, so the client asks it a plain Thrift question on a second connection.
#[test]
fn mit_a_kerberos_client_at_a_gateway_without_sasl() {
    let m = mit();
    let hbase = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    let at = hbase.thrift_addr();
    let started = Instant::now();
    let e = Client::connect_to(
        GatewayConfig::socket(at)
            .expect("addr")
            .kerberos(Kerberos::keytab(SERVICE, "alice@MIT.TEST", &m.keytab)),
    )
    .expect_err("no SASL at the gateway");
    let took = started.elapsed();
    eprintln!("a Kerberos client at a gateway without SASL, after {took:?}: {e}");
    let msg = e.to_string();
    assert!(
        msg.contains(&format!("the gateway at {at} does not speak SASL")),
        "{msg}"
    );
    assert!(!msg.contains("broke off"), "{msg}");
    assert!(took < Duration::from_secs(5), "told after {took:?}");
}

/// A gateway in another mode than a plain socket tells a Kerberos client so at once: in HTTP
/// mode it answers the SASL start with an HTTP error, framed or compact it closes the
/// connection without a SASL answer.
#[test]
fn mit_a_kerberos_client_at_gateways_of_other_modes() {
    let m = mit();
    let modes = [
        ("HTTP mode", crate::gateways::http(), "it runs in HTTP mode"),
        (
            "framed",
            crate::gateways::framed(),
            "it does not speak SASL here",
        ),
        (
            "compact",
            crate::gateways::compact(),
            "it does not speak SASL here",
        ),
    ];
    for (mode, g, says) in modes {
        let started = Instant::now();
        let e = Client::connect_to(
            GatewayConfig::socket(g.addr())
                .expect("addr")
                .kerberos(Kerberos::keytab(SERVICE, "alice@MIT.TEST", &m.keytab)),
        )
        .expect_err("no SASL at the gateway");
        let took = started.elapsed();
        eprintln!("a Kerberos client at a {mode} gateway, after {took:?}: {e}");
        let msg = e.to_string();
        assert!(
            msg.contains(&format!("the gateway at {}", g.addr())) && msg.contains(says),
            "{mode}: {msg}"
        );
        assert!(took < Duration::from_secs(5), "{mode}: told after {took:?}");
    }
}

/// A realm the Kerberos configuration does not list: the configuration is blamed, not the
/// keytab (which holds the principal's key).
#[test]
fn mit_a_realm_without_a_kdc_is_named() {
    let m = mit();
    let keytab = m.kdc.dir().join("nowhere.keytab");
    // MIT's kadmin writes keys for a principal of a realm no configuration lists
    m.kdc.add("carol@NOWHERE.TEST").expect("kadmin addprinc");
    m.kdc
        .ktadd(&keytab, &["carol@NOWHERE.TEST"])
        .expect("kadmin ktadd");
    let (msg, took) = refusal(
        "hbase/localhost@NOWHERE.TEST",
        "carol@NOWHERE.TEST",
        &keytab,
    );
    eprintln!("MIT, a realm without a KDC: {msg}");
    assert!(
        msg.contains("no KDC of the realm answered") && !msg.contains("holds no key"),
        "{msg}"
    );
    assert!(took < Duration::from_secs(5), "refused after {took:?}");
}
