// No range on a CHAR(N) column (Phoenix compares it padded with spaces), nor on a DESC
// VARCHAR of a table without rowKeyOrderOptimizable (a value sorts before its extensions).
use rowkey::phoenix::Char;
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(phoenix)]
struct Code {
    code: Char<4>,
    id: i64,
}

#[derive(RowKey)]
#[rowkey(phoenix(row_key_order_optimizable = false))]
struct Legacy {
    #[desc]
    name: String,
    id: i64,
}

fn main() {
    let _ = Code::scan().code_range(Char::new("a")..Char::new("b")).ranges();
    let _ = Legacy::scan().name_range("a".to_owned().."b".to_owned()).ranges();
    let _ = Legacy::scan().name_starts_with("a").ranges();
}
