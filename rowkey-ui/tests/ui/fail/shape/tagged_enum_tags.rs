// A tagged key enum: every variant holds one key type behind a distinct tag, none a prefix of
// another.
use rowkey::RowKey;

#[derive(RowKey)]
struct A {
    id: u32,
}

#[derive(RowKey)]
struct B {
    id: u64,
}

#[derive(RowKey)]
enum SameTag {
    #[rowkey(tag = 1)]
    A(A),
    #[rowkey(tag = 1)]
    B(B),
}

#[derive(RowKey)]
enum PrefixTag {
    #[rowkey(tag = b"i")]
    A(A),
    #[rowkey(tag = b"ix")]
    B(B),
}

#[derive(RowKey)]
enum Untagged {
    #[rowkey(tag = 1)]
    A(A),
    B(B),
}

#[derive(RowKey)]
enum TwoFields {
    #[rowkey(tag = 1)]
    A(A, B),
}

#[derive(RowKey)]
#[rowkey(salt(buckets = 4))]
enum Salted {
    #[rowkey(tag = 1)]
    A(A),
}

fn main() {}
