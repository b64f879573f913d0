//! Certificates for tests of a gateway behind TLS, made with the JDK's `keytool`.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{find_java, ServerError};

/// The password of [`TestTls`]'s keystores.
pub const TLS_PASSWORD: &str = "rowkey-test";

/// A test CA, a gateway certificate for `127.0.0.1` signed by it, and a second CA that
/// signed nothing (for "a certificate the client does not trust"): what [`make_tls`] makes.
#[derive(Debug, Clone)]
pub struct TestTls {
    /// The CA's certificate (PEM), for `GatewayConfig::ca_file`.
    pub ca_pem: PathBuf,
    /// Another CA's certificate (PEM).
    pub other_ca_pem: PathBuf,
    /// The gateway's key and certificate chain (PKCS12, password [`TLS_PASSWORD`]), for
    /// `hbase.thrift.ssl.keystore.store`.
    pub keystore: PathBuf,
}

/// Make a [`TestTls`] in `dir` (created; what it held is removed) with the JDK's `keytool`.
///
/// ```no_run
/// use rowkey_hbase::testkit::{make_tls, HBase};
///
/// let hbase = HBase::shared()?;
/// let tls = make_tls(&hbase.dir().join("tls"))?;
/// let gateway = hbase.https_gateway(&tls)?; // clients trust tls.ca_pem
/// # Ok::<(), rowkey_hbase::testkit::ServerError>(())
/// ```
///
/// # Errors
///
/// [`ServerError::Missing`] without a JDK; [`ServerError::Start`] when `keytool` fails.
pub fn make_tls(dir: &Path) -> Result<TestTls, ServerError> {
    let keytool = find_java()?.with_file_name("keytool");
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)
        .map_err(|e| ServerError::Start(format!("creating {}: {e}", dir.display())))?;
    let run = |args: &[&str]| -> Result<(), ServerError> {
        let out = Command::new(&keytool)
            .current_dir(dir)
            .args(args)
            .output()
            .map_err(|e| {
                ServerError::Missing(format!(
                    "{}: {e} (keytool comes with the JDK 17)",
                    keytool.display()
                ))
            })?;
        if out.status.success() {
            Ok(())
        } else {
            Err(ServerError::Start(format!(
                "keytool {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            )))
        }
    };
    let pass = ["-storepass", TLS_PASSWORD, "-keypass", TLS_PASSWORD];
    let store = ["-storepass", TLS_PASSWORD];
    for (alias, keystore) in [("ca", "ca.p12"), ("other", "other.p12")] {
        let dname = format!("CN=rowkey test {alias}");
        let mut args = vec![
            "-genkeypair",
            "-alias",
            alias,
            "-keyalg",
            "RSA",
            "-keysize",
            "2048",
            "-validity",
            "3",
            "-ext",
            "bc:c",
            "-dname",
            &dname,
            "-storetype",
            "PKCS12",
            "-keystore",
            keystore,
        ];
        args.extend(pass);
        run(&args)?;
        let pem = format!("{alias}.pem");
        let mut args = vec![
            "-exportcert",
            "-rfc",
            "-alias",
            alias,
            "-keystore",
            keystore,
            "-file",
            &pem,
        ];
        args.extend(store);
        run(&args)?;
    }
    let mut args = vec![
        "-genkeypair",
        "-alias",
        "gateway",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "3",
        "-dname",
        "CN=127.0.0.1",
        "-storetype",
        "PKCS12",
        "-keystore",
        "gateway.p12",
    ];
    args.extend(pass);
    run(&args)?;
    let mut args = vec![
        "-certreq",
        "-alias",
        "gateway",
        "-keystore",
        "gateway.p12",
        "-file",
        "gateway.csr",
    ];
    args.extend(store);
    run(&args)?;
    let mut args = vec![
        "-gencert",
        "-alias",
        "ca",
        "-keystore",
        "ca.p12",
        "-infile",
        "gateway.csr",
        "-outfile",
        "gateway.pem",
        "-rfc",
        "-validity",
        "3",
        "-ext",
        "san=ip:127.0.0.1",
        "-ext",
        "eku=serverAuth",
    ];
    args.extend(store);
    run(&args)?;
    for (alias, file) in [("ca", "ca.pem"), ("gateway", "gateway.pem")] {
        let mut args = vec![
            "-importcert",
            "-noprompt",
            "-alias",
            alias,
            "-keystore",
            "gateway.p12",
            "-file",
            file,
        ];
        args.extend(store);
        run(&args)?;
    }
    Ok(TestTls {
        ca_pem: dir.join("ca.pem"),
        other_ca_pem: dir.join("other.pem"),
        keystore: dir.join("gateway.p12"),
    })
}
