#!/usr/bin/env bash
# Regenerate src/proto/hbase.pb.rs (prost) from HBase's own protobuf IDL: HFile.proto (the
# HFile trailer, FileTrailerProto, and the file info, FileInfoProto) and the HBase.proto it
# imports (BytesBytesPair), as shipped inside
# org.apache.hbase:hbase-protocol-shaded:2.6.1 (the jar's root; package hbase.pb).
#
# Needs protoc (Debian: apt-get install protobuf-compiler) and, to refresh the .proto files
# from the jar, Maven (`--from-jar`). Building rowkey-hfile never needs either: the output is
# committed.
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" = "--from-jar" ]; then
  artifact=org.apache.hbase:hbase-protocol-shaded:2.6.1
  mvn -q dependency:get -Dartifact="$artifact" -Dtransitive=false
  jar="$HOME/.m2/repository/org/apache/hbase/hbase-protocol-shaded/2.6.1/hbase-protocol-shaded-2.6.1.jar"
  unzip -o -q "$jar" HFile.proto HBase.proto
fi
command -v protoc >/dev/null || { echo "need protoc: apt-get install protobuf-compiler" >&2; exit 1; }
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/regen/target}" cargo run --quiet --manifest-path regen/Cargo.toml
echo "wrote ../src/proto/hbase.pb.rs ($(protoc --version))"
