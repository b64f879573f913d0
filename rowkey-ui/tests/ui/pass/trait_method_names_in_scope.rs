// A user trait in scope with a blanket impl whose method names match the ones the generated
// code calls (`field`, `salt`, `map_err`, `in_field`, `bucket`, `show`, `push_str`, `encode`, ...)
// must not make those calls ambiguous.
#![allow(dead_code)]
use rowkey::RowKey;

trait Sneaky {
    fn field(&mut self, _: &str, _: usize, _: &dyn core::any::Any) {}
    fn salt(&mut self, _: u32) {}
    fn map_err(self, _: ()) -> Self
    where
        Self: Sized,
    {
        self
    }
    fn in_field(self, _: &str) -> Self
    where
        Self: Sized,
    {
        self
    }
    fn bucket(&self, _: u32) -> u32 {
        0
    }
    fn show(&self, _: &mut String) {}
    fn push_str(&mut self, _: &str) {}
    fn encode(&self) {}
    fn decode(&self) {}
    fn len(&self) -> usize {
        0
    }
}
impl<T: ?Sized> Sneaky for T {}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(max_len = 64)]
struct Key {
    #[salt(buckets = 16)]
    #[sep]
    name: String,
    #[hash_prefix(4)]
    id: u32,
    opt: Option<u16>,
    inner: Inner,
}

#[derive(RowKey, Debug, PartialEq)]
struct Inner(#[desc] u8, Kind);

#[derive(RowKey, Debug, PartialEq)]
enum Kind {
    A,
}

fn main() {
    let k = Key {
        name: "n".into(),
        id: 3,
        opt: Some(2),
        inner: Inner(1, Kind::A),
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(Key::from_row_key(&b).unwrap(), k);
    let _ = Key::describe(&b);
}
