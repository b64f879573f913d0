// A reference to any accepted scan argument form is accepted too (issue 23 item 9): what
// iterating `&["a", "b"]` or `&[&b"x"[..]]` yields (`&&str`, `&&[u8]`), `&String`, `&&String`,
// `&Vec<u8>`, `&&Vec<u8>`, `&[u8; N]` — in equality, starts-with and ranges — and each gives the
// ranges of its plain form.
use rowkey::RowKey;

#[derive(RowKey, Debug, PartialEq)]
struct Doc {
    #[sep]
    owner: String,
    #[sep]
    tag: Vec<u8>,
    path: String,
}

fn main() {
    for owner in &["alice", "bob"] {
        let owner: &&str = owner; // what the loop yields
        let plain = Doc::scan().owner(*owner).ranges();
        assert_eq!(Doc::scan().owner(owner).ranges(), plain);
        assert_eq!(Doc::scan().owner(&owner).ranges(), plain);
        let s = owner.to_string();
        assert_eq!(Doc::scan().owner(&s).ranges(), plain);
        assert_eq!(Doc::scan().owner(&&s).ranges(), plain);
        assert_eq!(
            Doc::scan().owner_starts_with(owner).ranges(),
            Doc::scan().owner_starts_with(*owner).ranges()
        );
        assert_eq!(
            Doc::scan().owner_starts_with(&&s).ranges(),
            Doc::scan().owner_starts_with(*owner).ranges()
        );
        assert_eq!(
            Doc::scan().owner_range(owner..&"zzz").ranges(),
            Doc::scan().owner_range(*owner.."zzz").ranges()
        );
    }
    for tag in &[&b"red"[..], b"blue"] {
        let tag: &&[u8] = tag;
        let plain = Doc::scan().owner("alice").tag(*tag).ranges();
        assert_eq!(Doc::scan().owner("alice").tag(tag).ranges(), plain);
        let v = tag.to_vec();
        assert_eq!(Doc::scan().owner("alice").tag(&v).ranges(), plain);
        assert_eq!(Doc::scan().owner("alice").tag(&&v).ranges(), plain);
        assert_eq!(
            Doc::scan().owner("alice").tag_starts_with(tag).ranges(),
            Doc::scan().owner("alice").tag_starts_with(*tag).ranges()
        );
    }
    let paths = vec![String::from("/a"), String::from("/b")];
    for p in &paths {
        let p: &String = p;
        let _ = Doc::scan().owner("alice").tag(b"red").path(p).ranges();
        let _ = Doc::scan().owner("alice").tag(&b"red").path_starts_with(&p).ranges();
    }
}
