use rowkey_hbase::server::HBase;

#[test]
fn smoke() {
    let t = std::time::Instant::now();
    let h = HBase::shared_phoenix().unwrap_or_else(|e| panic!("{e}"));
    eprintln!("start {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let out = h
        .phoenix_sql("CREATE TABLE T (K VARCHAR PRIMARY KEY, V INTEGER);\nUPSERT INTO T VALUES ('a', 1);\nSELECT K, V FROM T")
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("sql {:?}\n{out}", t.elapsed());
}
