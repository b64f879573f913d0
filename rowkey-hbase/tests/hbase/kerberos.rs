//! rowkey-hbase on a Kerberized HBase that this binary starts itself: a KDC (Hadoop's MiniKdc),
//! principals and keytabs made here, standalone HBase with `hbase.security.authentication =
//! kerberos` and its Thrift2 gateways — SASL GSSAPI at each protection level
//! (`hbase.thrift.security.qop` = `auth-conf`, `auth`, `auth-int`) and HTTP mode over TLS
//! with SPNEGO. With a valid ticket (from `kinit`'s cache or a keytab) the client reads and
//! writes, and the index, migration and region-view features work unchanged; without one,
//! with an expired one, with the wrong principal and on a protection mismatch it is refused
//! with an error that says why, at once (never a retry loop); a renewed ticket is picked up.
//!
//! Its own Kerberized HBase (every process of it runs with Kerberos on), started on first use
//! beside the binary's other servers; feature `kerberos`.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rowkey_hbase::testkit::{make_tls, Gateway, HBase, Kdc, TestTls, REALM};
use rowkey_hbase::{Client, Error, GatewayConfig, Kerberos, Qop};

use crate::smoke::{smoke, Reading};

const GATEWAY: &str = "hbase/localhost@EXAMPLE.COM";
const SPNEGO: &str = "HTTP/localhost@EXAMPLE.COM";

struct Secure {
    kdc: Kdc,
    hbase: HBase,
    /// `alice`'s ticket cache (`kinit`), valid for the KDC's maximum lifetime.
    alice: PathBuf,
}

fn secure() -> &'static Secure {
    static SECURE: OnceLock<Secure> = OnceLock::new();
    SECURE.get_or_init(|| {
        let kdc = Kdc::start(&["hbase/localhost", "HTTP/localhost", "alice", "bob", "carol"])
            .unwrap_or_else(|e| panic!("{e}"));
        // (Kdc::start pointed this process's Kerberos library at the KDC: KRB5_CONFIG) the
        // default ticket cache of the process, empty until a test kinits into it; set before
        // any Kerberos call of this process (every test gets here first)
        std::env::set_var(
            "KRB5CCNAME",
            format!("FILE:{}", kdc.dir().join("default.cc").display()),
        );
        let started = Instant::now();
        let hbase = HBase::start_kerberized(&kdc).unwrap_or_else(|e| panic!("{e}"));
        eprintln!(
            "Kerberized HBase up in {:.1} s (KDC on port {}, realm {REALM})",
            started.elapsed().as_secs_f64(),
            kdc.port()
        );
        let alice = kdc.dir().join("alice.cc");
        kdc.kinit("alice", &alice, None)
            .unwrap_or_else(|e| panic!("{e}"));
        Secure { kdc, hbase, alice }
    })
}

fn alice() -> Kerberos {
    Kerberos::ticket_cache(GATEWAY, &secure().alice)
}

fn socket(g: &Gateway, kerberos: Kerberos) -> GatewayConfig {
    GatewayConfig::socket(g.addr())
        .expect("addr")
        .kerberos(kerberos)
}

/// A client of the main gateway (`auth-conf`) with alice's ticket: creates the tables.
fn admin() -> Client {
    let s = secure();
    Client::connect_to(socket(s.hbase.main_gateway(), alice())).expect("alice at auth-conf")
}

fn gateway(slot: &'static OnceLock<Gateway>, settings: &[(&str, &str)]) -> &'static Gateway {
    slot.get_or_init(|| {
        secure()
            .hbase
            .gateway_with(settings)
            .unwrap_or_else(|e| panic!("gateway with {settings:?}: {e}"))
    })
}

fn auth_only() -> &'static Gateway {
    static G: OnceLock<Gateway> = OnceLock::new();
    gateway(&G, &[("hbase.thrift.security.qop", "auth")])
}

fn integrity() -> &'static Gateway {
    static G: OnceLock<Gateway> = OnceLock::new();
    gateway(&G, &[("hbase.thrift.security.qop", "auth-int")])
}

fn https() -> &'static (TestTls, Gateway) {
    static G: OnceLock<(TestTls, Gateway)> = OnceLock::new();
    G.get_or_init(|| {
        let s = secure();
        let tls = make_tls(&s.kdc.dir().join("tls")).unwrap_or_else(|e| panic!("{e}"));
        let g = s
            .hbase
            .https_gateway(&tls)
            .unwrap_or_else(|e| panic!("HTTPS gateway: {e}"));
        (tls, g)
    })
}

fn auth_error(e: Error) -> String {
    match e {
        Error::Auth(m) => m,
        other => panic!("expected Error::Auth, got {other:?}"),
    }
}

#[test]
fn reads_and_writes_at_every_protection_level() {
    let s = secure();
    // auth-conf (the main gateway): every message encrypted; taken by default
    let client = admin();
    smoke(&client, &client, "krb_conf");
    // auth and auth-int, asked for by name
    let client = Client::connect_to(socket(auth_only(), alice().qop(Qop::Auth))).expect("auth");
    smoke(&admin(), &client, "krb_auth");
    let client =
        Client::connect_to(socket(integrity(), alice().qop(Qop::AuthInt))).expect("auth-int");
    smoke(&admin(), &client, "krb_int");
    // credentials from a keytab (no ticket cache), and from the default cache (KRB5CCNAME)
    let keytab = Kerberos::keytab(GATEWAY, &format!("bob@{REALM}"), s.kdc.keytab());
    let client = Client::connect_to(socket(s.hbase.main_gateway(), keytab)).expect("keytab");
    assert!(client
        .list_tables()
        .expect("list")
        .iter()
        .any(|t| t == "krb_conf_readings"));
    let default = s.kdc.dir().join("default.cc");
    s.kdc.kinit("carol", &default, None).expect("kinit carol");
    let client = Client::connect_to(socket(s.hbase.main_gateway(), Kerberos::service(GATEWAY)))
        .expect("default cache");
    let rows = client
        .table("krb_conf_readings")
        .read::<Reading>(&Reading::scan().ranges())
        .collect()
        .expect("read");
    assert_eq!(rows.len(), 200);
}

#[test]
fn large_messages_are_split_into_frames_the_gateway_takes() {
    // a batch far larger than the gateway's largest wrapped message (64 KiB by default)
    let client = admin();
    client
        .create_table_for::<Reading>("krb_large", &["d"], 4)
        .expect("create");
    let table = client.table("krb_large");
    let mut batch = rowkey_hbase::Batch::new();
    let value = "v".repeat(4096);
    for i in 0..300u32 {
        let k = Reading {
            sensor: i % 3,
            ts: u64::from(i),
        };
        batch
            .put(
                &table,
                &k,
                [rowkey_hbase::Cell::new("d", "v", value.as_str())],
            )
            .expect("encode");
    }
    batch.apply().expect("a 1.2 MB batch, encrypted");
    let rows = table
        .read::<Reading>(&Reading::scan().ranges())
        .rows()
        .expect("read")
        .map(|r| r.expect("row"))
        .collect::<Vec<_>>();
    assert_eq!(rows.len(), 300);
    assert!(rows
        .iter()
        .all(|(_, row)| row.value("d", b"v") == Some(value.as_bytes())));
}

#[test]
fn refused_without_a_ticket() {
    let s = secure();
    let missing = s.kdc.dir().join("nobody.cc");
    let e = Client::connect_to(socket(
        s.hbase.main_gateway(),
        Kerberos::ticket_cache(GATEWAY, &missing),
    ))
    .expect_err("no ticket");
    let m = auth_error(e);
    assert!(
        m.contains("no Kerberos ticket") && m.contains("kinit"),
        "{m}"
    );
    // a client without Kerberos at a Kerberized gateway (which reads its call as the start of
    // a negotiation message and waits for the rest) is told what the gateway may run with
    let e = Client::connect(s.hbase.thrift_addr()).expect_err("no Kerberos at all");
    assert!(e.to_string().contains("GatewayConfig::kerberos"), "{e}");
}

#[test]
fn an_expired_ticket_is_refused_and_a_renewed_one_picked_up() {
    let s = secure();
    let cache = s.kdc.dir().join("short.cc");
    s.kdc
        .kinit("alice", &cache, Some("5s"))
        .expect("kinit -l 5s");
    let client = Client::connect_to(socket(
        s.hbase.main_gateway(),
        Kerberos::ticket_cache(GATEWAY, &cache),
    ))
    .expect("a fresh ticket")
    .with_max_idle(Duration::from_millis(200))
    .with_retry_for(Duration::from_secs(30));
    client.list_tables().expect("while the ticket lasts");
    std::thread::sleep(Duration::from_secs(6));
    // the pooled connection has idled out: the next call needs a new handshake
    let started = Instant::now();
    let m = auth_error(client.list_tables().expect_err("expired"));
    assert!(m.contains("expired") && m.contains("kinit"), "{m}");
    // an error, not a retry loop until the 30 s budget is spent
    assert!(
        started.elapsed() < Duration::from_secs(25),
        "refused after {:?}",
        started.elapsed()
    );
    // renewed in the same cache: the same client goes on
    s.kdc.kinit("alice", &cache, None).expect("kinit again");
    client.list_tables().expect("renewed ticket");
}

#[test]
fn refused_with_the_wrong_principal() {
    let s = secure();
    // a principal the KDC knows, but not the gateway's: the gateway cannot accept the ticket
    let e = Client::connect_to(socket(
        s.hbase.main_gateway(),
        Kerberos::ticket_cache(SPNEGO, &s.alice),
    ))
    .expect_err("HTTP/localhost at the SASL gateway");
    let m = auth_error(e);
    assert!(m.contains("refused") && m.contains(SPNEGO), "{m}");
    // a principal the KDC does not know
    let e = Client::connect_to(socket(
        s.hbase.main_gateway(),
        Kerberos::ticket_cache("hbase/nowhere@EXAMPLE.COM", &s.alice),
    ))
    .expect_err("unknown principal");
    let m = auth_error(e);
    eprintln!("MiniKdc, an unknown service principal: {m}");
    assert!(m.contains("KDC knows no principal hbase/nowhere"), "{m}");
    assert!(!m.contains("client principal"), "{m}");
    // a client principal whose key the keytab does not hold: the keytab and the principal are
    // named, and no kinit is asked for
    let e = Client::connect_to(socket(
        s.hbase.main_gateway(),
        Kerberos::keytab(GATEWAY, &format!("mallory@{REALM}"), s.kdc.keytab()),
    ))
    .expect_err("no key for mallory");
    let m = auth_error(e);
    eprintln!("MiniKdc, a principal the keytab does not hold: {m}");
    assert!(
        m.contains(&format!(
            "the keytab {} holds no key for mallory@{REALM}",
            s.kdc.keytab().display()
        )) && !m.contains("kinit"),
        "{m}"
    );
    // a keytab that does not exist
    let missing = s.kdc.dir().join("no-such.keytab");
    let m = auth_error(
        Client::connect_to(socket(
            s.hbase.main_gateway(),
            Kerberos::keytab(GATEWAY, &format!("alice@{REALM}"), &missing),
        ))
        .expect_err("no keytab"),
    );
    eprintln!("MiniKdc, a keytab that does not exist: {m}");
    assert!(
        m.contains(&format!("the keytab {} does not exist", missing.display()))
            && !m.contains("kinit"),
        "{m}"
    );
    // a client principal the KDC does not know, with keys in a keytab (MiniKdc has no admin
    // interface: the MIT KDC's kadmin writes a keytab for a principal of this realm, which
    // MiniKdc never heard of)
    let mit = &crate::kerberos_mit::mit().kdc;
    let ghost = format!("ghost@{REALM}");
    let ghost_keytab = mit.dir().join("ghost.keytab");
    mit.add(&ghost).expect("kadmin addprinc");
    mit.ktadd(&ghost_keytab, &[ghost.as_str()])
        .expect("kadmin ktadd");
    let started = Instant::now();
    let m = auth_error(
        Client::connect_to(socket(
            s.hbase.main_gateway(),
            Kerberos::keytab(GATEWAY, &ghost, &ghost_keytab),
        ))
        .expect_err("a client the KDC does not know"),
    );
    eprintln!("MiniKdc, an unknown client principal: {m}");
    assert!(
        m.contains(&format!("the KDC knows no client principal {ghost}"))
            && m.contains(&ghost_keytab.display().to_string())
            && !m.contains("gateway's own"),
        "{m}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn refused_on_a_protection_mismatch() {
    let s = secure();
    let e = Client::connect_to(socket(s.hbase.main_gateway(), alice().qop(Qop::Auth)))
        .expect_err("auth at an auth-conf gateway");
    let m = auth_error(e);
    assert!(
        m.contains("offers protection auth-conf") && m.contains("insists on auth"),
        "{m}"
    );
    let e = Client::connect_to(socket(auth_only(), alice().qop(Qop::AuthConf)))
        .expect_err("auth-conf at an auth gateway");
    let m = auth_error(e);
    assert!(
        m.contains("offers protection auth") && m.contains("insists on auth-conf"),
        "{m}"
    );
    // framing is refused before anything is sent: HBase has no SASL over framed transports
    let e =
        Client::connect_to(socket(s.hbase.main_gateway(), alice()).framed()).expect_err("framed");
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
}

#[test]
fn http_mode_over_tls_with_spnego() {
    let s = secure();
    let (tls, g) = https();
    let url = format!("https://{}/", g.addr());
    let trusting = GatewayConfig::http(&url)
        .expect("url")
        .ca_file(&tls.ca_pem)
        .expect("CA");
    let spnego = Kerberos::ticket_cache(SPNEGO, &s.alice);
    // the kit saw the TLS port accept a connection: wait until the servlet answers too
    let deadline = Instant::now() + Duration::from_secs(60);
    let client = loop {
        match Client::connect_to(trusting.clone().kerberos(spnego.clone())) {
            Ok(c) => break c,
            Err(e) if Instant::now() < deadline && !matches!(e, Error::Auth(_)) => {
                eprintln!("HTTPS gateway not answering yet: {e}");
                std::thread::sleep(Duration::from_millis(500));
            }
            Err(e) => panic!("SPNEGO over HTTPS: {e}"),
        }
    };
    smoke(&admin(), &client, "krb_https");
    // without Kerberos: HTTP 401, at once
    let m = auth_error(Client::connect_to(trusting.clone()).expect_err("no SPNEGO"));
    assert!(m.contains("401") && m.contains("SPNEGO"), "{m}");
    // without a ticket
    let missing = s.kdc.dir().join("nobody-http.cc");
    let m = auth_error(
        Client::connect_to(
            trusting
                .clone()
                .kerberos(Kerberos::ticket_cache(SPNEGO, &missing)),
        )
        .expect_err("no ticket"),
    );
    assert!(m.contains("no Kerberos ticket"), "{m}");
    // the socket gateway's principal is not the HTTP one
    let m = auth_error(
        Client::connect_to(trusting.kerberos(alice())).expect_err("hbase/ principal over SPNEGO"),
    );
    assert!(m.contains("401"), "{m}");
    // a certificate the client does not trust, with Kerberos as without
    let e = Client::connect_to(
        GatewayConfig::http(&url)
            .expect("url")
            .ca_file(&tls.other_ca_pem)
            .expect("CA")
            .kerberos(spnego),
    )
    .expect_err("another CA");
    assert!(e.to_string().contains("not trusted"), "{e}");
}
