use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct JavaInner {
    #[rowkey(java)]
    x: i32,
}

// Whether the nested key ranges exactly is known once `T` is: `Pair<u32>` ranges, and
// `Pair<JavaInner>` fails where its range is built.
#[derive(RowKey)]
struct Pair<T> {
    a: u8,
    t: T,
}

fn main() {
    let _ = Pair::<u32>::scan().a(1).t_range(3..9).ranges();
    let _ = Pair::<JavaInner>::scan().a(1).t_range(JavaInner { x: -1 }..).ranges();
}
