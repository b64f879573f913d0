//! Generates `rowkey-hfile/src/proto/hbase.pb.rs` from the `.proto` files beside this project
//! (HBase's own `HFile.proto` and the `HBase.proto` it imports, package `hbase.pb`).
//! Run through `../regen.sh`.
fn main() {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let protos = here.join("..");
    let out = here.join("../../src/proto");
    std::fs::create_dir_all(&out).expect("creating src/proto");
    prost_build::Config::new()
        .out_dir(&out)
        .compile_protos(&[protos.join("HFile.proto")], &[protos])
        .expect("protoc (Debian: apt-get install protobuf-compiler) and the .proto files");
}
