#!/usr/bin/env bash
# Regenerate src/proto/hbase.pb.rs (prost) from HBase's own protobuf IDL: Filter.proto,
# Comparator.proto and HBase.proto as shipped inside
# org.apache.hbase:hbase-protocol-shaded:2.6.1-hadoop3 (the jar's root; package hbase.pb).
# These are the messages the Thrift2 gateway parses from TScan.filterBytes
# (ThriftUtilities.filterFromThrift -> FilterProtos.Filter -> ProtobufUtil.toFilter).
#
# Needs protoc (Debian: apt-get install protobuf-compiler) and, to refresh the .proto files
# from the jar, Maven (`--from-jar`). Building rowkey-hbase never needs either: the output is
# committed, as the Thrift bindings are (thrift/regen.sh).
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" = "--from-jar" ]; then
  artifact=org.apache.hbase:hbase-protocol-shaded:2.6.1-hadoop3
  mvn -q dependency:get -Dartifact="$artifact" -Dtransitive=false
  jar="$HOME/.m2/repository/org/apache/hbase/hbase-protocol-shaded/2.6.1-hadoop3/hbase-protocol-shaded-2.6.1-hadoop3.jar"
  unzip -o -q "$jar" Filter.proto Comparator.proto HBase.proto
fi
command -v protoc >/dev/null || { echo "need protoc: apt-get install protobuf-compiler" >&2; exit 1; }
cargo run --quiet --manifest-path regen/Cargo.toml
echo "wrote ../src/proto/hbase.pb.rs ($(protoc --version))"
