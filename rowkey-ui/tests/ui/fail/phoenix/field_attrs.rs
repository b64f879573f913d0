// A Phoenix key's bytes are Phoenix's: of the field attributes only #[desc] applies, and the
// container takes neither `java` nor `prefix`.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix, java, prefix = b"t")]
struct Metric {
    #[sep]
    host: String,
    #[reverse_ts]
    ts: i64,
    #[hash_prefix(4)]
    user: String,
}

fn main() {}
