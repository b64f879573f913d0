// `Layout::fields[i].ty` (and the type shown in derive error messages) is the field type's
// source text. Removing every space from the token string turns `&'a str` into `&'astr`
// and `&'a [u8]` into `&'a[u8]`; tokens must be joined with spaces only where needed
// (e.g. via `prettyplease`-free normalisation: remove spaces except after a lifetime).
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
struct Borrowed<'a> {
    #[sep]
    host: &'a str,
    tail: &'a [u8],
}

fn main() {
    let f = <Borrowed<'_> as RowKey>::LAYOUT.fields;
    assert_eq!(f[0].ty, "&'a str");
    assert_eq!(f[1].ty, "&'a [u8]");
}
