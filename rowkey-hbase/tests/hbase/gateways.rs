//! Every transport a Thrift2 gateway offers, against real gateways of the shared HBase each
//! started with its own settings: framed (`hbase.regionserver.thrift.framed`), compact
//! (`hbase.regionserver.thrift.compact`), both on a `hsha` server (which needs framing), HTTP
//! mode (`hbase.regionserver.thrift.http`) and HTTP over TLS (`hbase.thrift.ssl.enabled`, a
//! keystore signed by a CA the test makes with the JDK's `keytool`). On each: typed writes and
//! reads, the region view, an index table and a migration (the features work unchanged), and
//! the wrong client for each gateway is refused with an error that names what the gateway runs
//! with — never a hang. A certificate the client does not trust is refused.

use std::sync::OnceLock;

use rowkey_hbase::testkit::{make_tls, Gateway, HBase, TestTls};
use rowkey_hbase::{Client, Error, GatewayConfig};

use rowkey_hbase::{Batch, Cell};

use crate::smoke::{smoke, Reading};

fn hbase() -> &'static HBase {
    HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"))
}

/// A gateway of the shared HBase with these settings, started once per binary.
fn gateway(slot: &'static OnceLock<Gateway>, settings: &[(&str, &str)]) -> &'static Gateway {
    slot.get_or_init(|| {
        hbase()
            .gateway_with(settings)
            .unwrap_or_else(|e| panic!("gateway with {settings:?}: {e}"))
    })
}

static FRAMED: OnceLock<Gateway> = OnceLock::new();
static COMPACT: OnceLock<Gateway> = OnceLock::new();
static HSHA: OnceLock<Gateway> = OnceLock::new();
static HTTP: OnceLock<Gateway> = OnceLock::new();
static HTTPS: OnceLock<(TestTls, Gateway)> = OnceLock::new();

pub(crate) fn framed() -> &'static Gateway {
    gateway(&FRAMED, &[("hbase.regionserver.thrift.framed", "true")])
}

pub(crate) fn compact() -> &'static Gateway {
    gateway(&COMPACT, &[("hbase.regionserver.thrift.compact", "true")])
}

fn hsha() -> &'static Gateway {
    gateway(
        &HSHA,
        &[
            ("hbase.regionserver.thrift.server.type", "hsha"),
            ("hbase.regionserver.thrift.framed", "true"),
            ("hbase.regionserver.thrift.compact", "true"),
        ],
    )
}

pub(crate) fn http() -> &'static Gateway {
    gateway(&HTTP, &[("hbase.regionserver.thrift.http", "true")])
}

fn https() -> &'static (TestTls, Gateway) {
    HTTPS.get_or_init(|| {
        let tls = make_tls(&hbase().dir().join("tls")).unwrap_or_else(|e| panic!("{e}"));
        let g = hbase()
            .https_gateway(&tls)
            .unwrap_or_else(|e| panic!("HTTPS gateway: {e}"));
        (tls, g)
    })
}

fn http_url(g: &Gateway, scheme: &str) -> String {
    format!("{scheme}://{}/", g.addr())
}

#[test]
fn a_framed_gateway() {
    let g = framed();
    let client = Client::connect_to(GatewayConfig::socket(g.addr()).expect("addr").framed())
        .expect("framed client");
    smoke(&admin(), &client, "gw_framed");
    // the default client is told what the gateway may run with
    let e = Client::connect(g.addr()).expect_err("unframed client");
    assert!(e.to_string().contains("framed"), "{e}");
}

#[test]
fn a_compact_gateway() {
    let g = compact();
    let client = Client::connect_to(GatewayConfig::socket(g.addr()).expect("addr").compact())
        .expect("compact client");
    smoke(&admin(), &client, "gw_compact");
    let e = Client::connect(g.addr()).expect_err("binary client");
    assert!(e.to_string().contains("compact"), "{e}");
}

#[test]
fn a_framed_compact_hsha_gateway() {
    let g = hsha();
    let config = GatewayConfig::socket(g.addr())
        .expect("addr")
        .framed()
        .compact();
    let client = Client::connect_to(config).expect("framed compact client");
    smoke(&admin(), &client, "gw_hsha");
    for wrong in [
        GatewayConfig::socket(g.addr()).expect("addr"),
        GatewayConfig::socket(g.addr()).expect("addr").framed(),
        GatewayConfig::socket(g.addr()).expect("addr").compact(),
    ] {
        let e = Client::connect_to(wrong.clone()).expect_err("wrong client");
        assert!(
            matches!(e, Error::Connection(_)) && e.to_string().contains("may run with"),
            "{wrong:?}: {e}"
        );
    }
}

#[test]
fn a_gateway_in_http_mode() {
    let g = http();
    let client = Client::connect_to(GatewayConfig::http(&http_url(g, "http")).expect("url"))
        .expect("HTTP client");
    assert_eq!(client.addr(), None);
    smoke(&admin(), &client, "gw_http");
    // a socket client hears an HTTP answer and says so
    let e = Client::connect(g.addr()).expect_err("socket client");
    assert!(e.to_string().contains("HTTP mode"), "{e}");
    // an HTTP client at a socket gateway is refused, not left waiting
    let e = Client::connect_to(GatewayConfig::http(&http_url(hbase_main(), "http")).expect("url"))
        .expect_err("HTTP client at a socket gateway");
    assert!(matches!(e, Error::Connection(_)), "{e}");
    // TLS to a plain HTTP gateway
    let e = Client::connect_to(GatewayConfig::http(&http_url(g, "https")).expect("url"))
        .expect_err("https to http");
    assert!(e.to_string().contains("TLS"), "{e}");
    // framing has no meaning in HTTP mode
    let e = Client::connect_to(
        GatewayConfig::http(&http_url(g, "http"))
            .expect("url")
            .framed(),
    )
    .expect_err("framed HTTP");
    assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
}

fn admin() -> Client {
    Client::connect(hbase().thrift_addr()).expect("main gateway")
}

fn hbase_main() -> &'static Gateway {
    hbase().main_gateway()
}

#[test]
fn a_gateway_in_http_mode_over_tls() {
    let (tls, g) = https();
    let url = http_url(g, "https");
    let trusting = GatewayConfig::http(&url)
        .expect("url")
        .ca_file(&tls.ca_pem)
        .expect("CA");
    // The kit saw the TLS port accept a connection (it cannot check the certificate of the
    // test's CA): wait until the servlet answers too.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let client = loop {
        match Client::connect_to(trusting.clone()) {
            Ok(c) => break c,
            Err(e) if std::time::Instant::now() < deadline => {
                eprintln!("HTTPS gateway not answering yet: {e}");
                std::thread::sleep(std::time::Duration::from_millis(500));
            }
            Err(e) => panic!("HTTPS client trusting the test CA: {e}"),
        }
    };
    smoke(&admin(), &client, "gw_https");

    // a certificate the client does not trust: the system's roots, another CA
    let e = Client::connect_to(GatewayConfig::http(&url).expect("url"))
        .expect_err("system roots do not know the test CA");
    assert!(e.to_string().contains("not trusted"), "{e}");
    let e = Client::connect_to(
        GatewayConfig::http(&url)
            .expect("url")
            .ca_file(&tls.other_ca_pem)
            .expect("CA"),
    )
    .expect_err("another CA");
    assert!(e.to_string().contains("not trusted"), "{e}");
    // plain HTTP to the TLS port
    let e = Client::connect_to(GatewayConfig::http(&http_url(g, "http")).expect("url"))
        .expect_err("http to https");
    assert!(matches!(e, Error::Connection(_)), "{e}");
    // a CA is only for https, and must hold a certificate
    assert!(GatewayConfig::http(&http_url(g, "http"))
        .expect("url")
        .ca_file(&tls.ca_pem)
        .is_err());
    assert!(GatewayConfig::http(&url)
        .expect("url")
        .ca_pem(b"not a certificate")
        .is_err());
}

/// The pool and the read's retries work unchanged in HTTP mode: a gateway killed and started
/// again on its port in the middle of a read (8 streams, pages of 50 rows) ends with every row
/// exactly once, in order.
#[test]
fn an_http_gateway_restarted_mid_read_resumes_without_duplicates_or_gaps() {
    let admin = Client::connect(hbase().thrift_addr()).expect("main gateway");
    let name = "gw_http_restart";
    admin
        .create_table_for::<Reading>(name, &["d"], 4)
        .expect("create");
    let mut batch = Batch::new();
    for i in 0..4000u32 {
        let k = Reading {
            sensor: i % 13,
            ts: u64::from(i),
        };
        batch
            .put(&admin.table(name), &k, [Cell::new("d", "v", "x")])
            .expect("encode");
    }
    batch.apply().expect("write");

    let g = hbase()
        .gateway_with(&[("hbase.regionserver.thrift.http", "true")])
        .expect("an HTTP gateway of its own");
    let client = Client::connect_to(GatewayConfig::http(&http_url(&g, "http")).expect("url"))
        .expect("HTTP client")
        .with_timeout(std::time::Duration::from_secs(30))
        .with_retry_for(std::time::Duration::from_secs(120));
    let table = client.table(name);
    let read = table
        .read::<Reading>(&Reading::scan().ranges())
        .page_rows(50)
        .streams(8);
    let mut got = Vec::new();
    std::thread::scope(|s| {
        let mut restart = None;
        for row in read.rows().expect("rows") {
            let (k, _) = row.unwrap_or_else(|e| panic!("error after {} rows: {e}", got.len()));
            got.push(k);
            if got.len() == 1000 {
                g.kill();
                restart = Some(s.spawn(|| g.restart_same_port()));
            }
        }
        restart
            .expect("killed mid-read")
            .join()
            .expect("restart thread")
            .expect("restart");
    });
    let mut want: Vec<Reading> = (0..4000u32)
        .map(|i| Reading {
            sensor: i % 13,
            ts: u64::from(i),
        })
        .collect();
    want.sort_by_key(|r| (r.sensor, r.ts));
    assert_eq!(got.len(), 4000, "every row once");
    assert!(got == want, "rows differ across the restart");
}
