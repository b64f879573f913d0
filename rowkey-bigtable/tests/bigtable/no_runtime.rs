//! Issue 23 item 4: the client's constructors need a Tokio runtime (their gRPC channels spawn
//! onto its reactor). Called without one — from a plain `#[test]`, or polled by an executor
//! that is not Tokio's — they return [`Error::NoRuntime`] naming the function and saying what to
//! do, instead of panicking with "there is no reactor running". No emulator is needed: nothing
//! is sent.

use futures::executor::block_on;
use rowkey_bigtable::{Client, Error};

fn assert_no_runtime(e: Error, function: &str) {
    let msg = e.to_string();
    assert!(
        matches!(&e, Error::NoRuntime { function: f } if *f == function),
        "{e:?}"
    );
    assert!(msg.contains(function), "{msg}");
    assert!(msg.contains("inside a Tokio runtime"), "{msg}");
}

#[test]
fn emulator_without_a_runtime_is_an_error() {
    let e = Client::emulator("127.0.0.1:1", "p", "i").unwrap_err();
    assert_no_runtime(e, "Client::emulator");
    // the argument check still comes first
    assert!(matches!(
        Client::emulator("not/an/endpoint", "p", "i"),
        Err(Error::InvalidArgument(_))
    ));
}

#[test]
fn connect_polled_outside_tokio_is_an_error() {
    let e = block_on(Client::connect("p", "i")).unwrap_err();
    assert_no_runtime(e, "Client::connect");
}

#[test]
fn admin_polled_outside_tokio_is_an_error() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = {
        let _in_runtime = rt.enter();
        Client::emulator("127.0.0.1:1", "p", "i").unwrap()
    };
    let e = block_on(client.admin()).unwrap_err();
    assert_no_runtime(e, "Client::admin");
    // inside the runtime the same calls work (no request is sent yet)
    rt.block_on(async {
        let client = Client::emulator("127.0.0.1:1", "p", "i").unwrap();
        client.admin().await.unwrap();
    });
}
