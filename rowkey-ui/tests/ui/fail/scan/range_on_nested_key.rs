use rowkey::RowKey;

// A range over a nested key builds its bounds field by field: exact only when every field of
// the nested key sorts ascending in its natural order.
#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct JavaInner {
    #[rowkey(java)]
    x: i32, // -1 is 0xFFFFFFFF: after 1
}

#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct DescInner {
    #[desc]
    x: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct PadInner {
    #[pad(3, fill = b' ')]
    code: String, // "a\x01" sorts before "a" (stored "a  ")
}

#[derive(RowKey)]
struct Outer {
    a: u8,
    j: JavaInner,
}

#[derive(RowKey)]
struct OuterDesc {
    a: u8,
    d: Option<DescInner>,
}

#[derive(RowKey)]
struct OuterPad {
    a: u8,
    p: PadInner,
}

fn main() {
    let _ = Outer::scan().a(1).j_range(JavaInner { x: -1 }..=JavaInner { x: 1 });
    let _ = OuterDesc::scan().a(1).d_range(Some(DescInner { x: 1 })..);
    let _ = OuterPad::scan().a(1).p_range(PadInner { code: "a".into() }..);
    // equality is fine
    let _ = Outer::scan().a(1).j(JavaInner { x: -1 }).ranges();
}
