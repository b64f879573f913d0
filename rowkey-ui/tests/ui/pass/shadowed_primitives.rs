// Primitive type names are not keywords: a user type named `u8` or `usize` shadows the
// primitive in its module. The generated code must name primitives as `::core::primitive::*`.
#![allow(non_camel_case_types, dead_code)]

mod m {
    pub struct u8;
    pub struct usize;
    pub struct u32;
    pub struct str;
    pub struct bool;

    #[derive(::rowkey::RowKey, Debug, PartialEq)]
    #[rowkey(salt(buckets = 4))]
    pub struct Key {
        #[sep]
        pub name: ::std::string::String,
        pub id: ::core::primitive::u64,
        pub tail: ::std::vec::Vec<::core::primitive::u8>,
    }

    #[derive(::rowkey::RowKey, Debug, PartialEq)]
    pub enum Kind {
        A,
        B,
    }
}

fn main() {
    use rowkey::RowKey;
    let k = m::Key {
        name: "n".into(),
        id: 1,
        tail: vec![1],
    };
    let b = k.to_row_key().unwrap();
    assert_eq!(m::Key::from_row_key(&b).unwrap(), k);
    let b = m::Kind::B.to_row_key().unwrap();
    assert_eq!(m::Kind::from_row_key(&b).unwrap(), m::Kind::B);
}
