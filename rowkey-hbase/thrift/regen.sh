#!/usr/bin/env bash
# Regenerate src/thrift/hbase.rs from thrift/hbase.thrift, the Thrift2 IDL shipped inside
# org.apache.hbase:hbase-thrift:2.6.1 (org/apache/hadoop/hbase/thrift2/hbase.thrift).
# Needs the Thrift compiler 0.17 (Debian: apt-get install thrift-compiler), the version of the
# `thrift` crate this crate depends on. Building the crate never needs the compiler: the output
# is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(thrift --version)
case "$version" in
  *" 0.17."*) ;;
  *) echo "need Thrift compiler 0.17 (the thrift crate's version), found: $version" >&2; exit 1 ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
thrift -out "$out" --gen rs thrift/hbase.thrift
cp "$out/hbase.rs" src/thrift/hbase.rs
echo "wrote src/thrift/hbase.rs ($version)"
