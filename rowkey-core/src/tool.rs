//! A command-line key tool for a project's own key types (feature `tool`).
//!
//! A project writes one line and gets a binary that reads and writes its keys the way the HBase
//! shell, `cbt` and logs print them:
//!
//! ```no_run
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct OrderBySeller {
//!     #[salt(buckets = 16)]
//!     seller_id: u64,
//!     #[reverse_ts]
//!     created_ms: i64,
//!     #[sep]
//!     order_no: String,
//! }
//!
//! fn main() {
//!     rowkey::tool::main::<(OrderBySeller,)>()
//! }
//! ```
//!
//! Subcommands (each has `--help` with examples, and `--json` for scripts):
//!
//! * `describe [KEY…]` — keys in HBase `toStringBinary` form (what the shell, `cbt` users and
//!   logs copy), or hex with `--hex`; from the arguments or stdin, one per line. Every key type
//!   is tried; each type that decodes the key is printed field by field (with byte offsets). A
//!   key no type decodes gets each type's decode error (field and byte offset).
//! * `encode TYPE field=value…` — the key as an HBase shell literal, hex and `toStringBinary`.
//!   Value syntax per field type: see [`crate::text`].
//! * `scan TYPE field=value… [field=lo..hi | field^=prefix]` — the ranges `T::scan()` builds,
//!   as HBase shell `scan` commands, `cbt read` commands and hex.
//! * `plan TYPE --regions N [--sample FILE] [--check]` — split points, the HBase `create`
//!   statement and the `cbt createtable` command; `--check` runs the [plan lint](crate::plan::Lint).
//! * `hotspots TYPE (--regions N | --splits FILE) --keys DUMP [--time-field F] [--svg OUT]` —
//!   the [hotspot report](crate::hotspot) of a key dump: the output of an HBase shell `scan`,
//!   of `cbt read`, or one key per line (`toStringBinary` or hex), detected automatically and
//!   read as a stream (constant memory), with a progress line when stderr is a terminal.
//! * `types` — the key types and their fields.
//!
//! A key type may be a keyspace: a tagged key enum (`#[rowkey(tag = ..)]` variants, several
//! key types in one table). `describe` dispatches on the tag and shows the variant (with the
//! tag's byte range) before the variant key's salt and fields; `encode` and `scan` take
//! `variant=NAME` and then that variant's fields (`scan` gives `T::scan_<variant>()`'s ranges,
//! behind the tag); `types` lists each variant with its tag and fields. `plan` and `hotspots`
//! take the keyspace's keys as they are (a keyspace has no one layout to plan from: give
//! `--sample`/`--splits`; `--time-field` may name a field of any variant).
//!
//! ```no_run
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct OrderRow {
//!     #[salt(buckets = 4)]
//!     order_id: u64,
//! }
//!
//! #[derive(RowKey)]
//! struct ByBuyer {
//!     #[sep]
//!     buyer: String,
//!     order_id: u64,
//! }
//!
//! #[derive(RowKey)]
//! enum Orders {
//!     #[rowkey(tag = b"r")]
//!     Row(OrderRow),
//!     #[rowkey(tag = b"i1")]
//!     Buyer(ByBuyer),
//! }
//!
//! // keytool encode Orders variant=Buyer buyer=ann order_id=7
//! // keytool scan Orders variant=Row order_id=42
//! fn main() {
//!     rowkey::tool::main::<(Orders,)>()
//! }
//! ```
//!
//! Exit codes: 0 on success, 1 when the input is bad or a key does not decode (one `error:`
//! line on stderr), 2 for a command-line usage error.
//!
//! Tests drive [`run`] in-process with their own stdin/stdout/stderr.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};

use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::hbase::{from_string_binary, shell_literal, to_string_binary};
use crate::layout::Layout;
use crate::plan;
use crate::scan::ScanRanges;
use crate::text::{parse_hex, TaggedVariant, TextArgs, TextError, TextFields};
use crate::{DecodeError, DecodeRowKeyOwned, RowKey};

mod dump;

pub use dump::DumpFormat;
use dump::{read_dump_from, trim_eol, Progress};

// ---------------------------------------------------------------------------------------------
// key types

type SampleSplitFn = fn(&[Vec<u8>], usize) -> Result<Vec<Vec<u8>>, plan::PlanError>;

/// One key type the tool knows: its name, layout and the functions it needs.
#[derive(Clone, Copy)]
pub struct KeyType {
    /// The name the tool knows the type by: `T::LAYOUT.name`, with the type parameters of a
    /// generic key (`Tagged<u32>`, paths left out).
    pub name: &'static str,
    /// The layout.
    pub layout: &'static Layout,
    fields: fn() -> Vec<(&'static str, String)>,
    decode: fn(&[u8]) -> Decoded,
    encode: fn(&mut TextArgs) -> Result<Vec<u8>, TextError>,
    scan: fn(&mut TextArgs) -> Result<ScanRanges, TextError>,
    split_points: fn(usize) -> Result<Vec<Vec<u8>>, plan::PlanError>,
    sample_split_points: SampleSplitFn,
    variants: fn() -> Vec<TaggedVariant>,
}

impl KeyType {
    /// The entry of key type `T`.
    pub fn of<T>() -> KeyType
    where
        T: RowKey + TextFields + DecodeRowKeyOwned,
    {
        KeyType {
            name: type_name_of::<T>(),
            layout: T::LAYOUT,
            fields: T::fields,
            decode: decode_fields::<T>,
            encode: T::encode_text,
            scan: T::scan_text,
            split_points: T::split_points,
            sample_split_points: |keys, n| T::split_points_from_sample(keys, n),
            variants: T::variants,
        }
    }
}

/// `T::LAYOUT.name`, or for a generic key its type as written without paths
/// (`Tagged<String>` for `my_crate::Tagged<alloc::string::String>`): interned, one leaked
/// string per generic type the process registers.
fn type_name_of<T: RowKey>() -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    let full = std::any::type_name::<T>();
    if !full.contains('<') {
        return T::LAYOUT.name;
    }
    static NAMES: OnceLock<Mutex<HashMap<&'static str, &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    names
        .entry(full)
        .or_insert_with(|| Box::leak(short_type_name(full).into_boxed_str()))
}

/// A type name with every path cut to its last segment: `a::B<c::D, [u8; 4]>` → `B<D, [u8; 4]>`.
fn short_type_name(full: &str) -> String {
    let mut out = String::with_capacity(full.len());
    let mut word = String::new();
    for ch in full.chars().chain(std::iter::once('\0')) {
        if ch.is_alphanumeric() || ch == '_' || ch == ':' {
            word.push(ch);
            continue;
        }
        out.push_str(word.rsplit("::").next().unwrap_or_default());
        word.clear();
        if ch != '\0' {
            out.push(ch);
        }
    }
    out
}

impl KeyType {
    /// `(field, expected text)` of each top-level field, in key order (for a tagged key enum:
    /// `variant`, see [`variants`](Self::variants)).
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        (self.fields)()
    }

    /// The variants of a tagged key enum (a keyspace), each with its tag and key type; empty
    /// for a struct key.
    pub fn variants(&self) -> Vec<TaggedVariant> {
        (self.variants)()
    }

    /// Whether some key of this type has a field `name` (for a keyspace: some variant's key).
    fn has_field(&self, name: &str) -> bool {
        self.layout.fields.iter().any(|l| l.name == name)
            || self
                .variants()
                .iter()
                .any(|v| v.layout.fields.iter().any(|l| l.name == name))
    }

    /// The names of its fields (a keyspace: `Variant.field` for each variant's).
    fn field_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .layout
            .fields
            .iter()
            .map(|l| l.name.to_owned())
            .collect();
        for v in self.variants() {
            names.extend(
                v.layout
                    .fields
                    .iter()
                    .map(|l| format!("{}.{}", v.name, l.name)),
            );
        }
        names
    }
}

impl std::fmt::Debug for KeyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyType").field("name", &self.name).finish()
    }
}

/// The key types of a tool: implemented for tuples `(A,)` … `(A, B, C, D, E, F, G, H)` of
/// derived struct keys and tagged key enums (keyspaces) without lifetime parameters (generic
/// keys with their parameters given).
///
/// ```
/// use rowkey::tool::{KeyType, KeyTypes};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event {
///     #[salt(buckets = 8)]
///     host: u32,
///     seq: u64,
/// }
///
/// #[derive(RowKey)]
/// struct Tagged<T> {
///     id: u64,
///     tag: T,
/// }
///
/// let types: Vec<KeyType> = <(Event, Tagged<u16>)>::key_types();
/// let names: Vec<&str> = types.iter().map(|t| t.name).collect();
/// assert_eq!(names, ["Event", "Tagged<u16>"]);
/// let event = KeyType::of::<Event>();
/// assert_eq!(event.layout.salt.unwrap().buckets, 8);
/// let fields = event.fields(); // what `keytool encode Event --help` lists
/// assert_eq!(fields.iter().map(|(name, _)| *name).collect::<Vec<_>>(), ["host", "seq"]);
/// ```
pub trait KeyTypes {
    /// The types, in order.
    fn key_types() -> Vec<KeyType>;
}

macro_rules! key_types_tuple {
    ($($t:ident),+) => {
        impl<$($t),+> KeyTypes for ($($t,)+)
        where
            $($t: RowKey + TextFields + DecodeRowKeyOwned,)+
        {
            fn key_types() -> Vec<KeyType> {
                vec![$(KeyType::of::<$t>()),+]
            }
        }
    };
}
key_types_tuple!(A);
key_types_tuple!(A, B);
key_types_tuple!(A, B, C);
key_types_tuple!(A, B, C, D);
key_types_tuple!(A, B, C, D, E);
key_types_tuple!(A, B, C, D, E, F);
key_types_tuple!(A, B, C, D, E, F, G);
key_types_tuple!(A, B, C, D, E, F, G, H);

/// What a part of a decoded key is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PartKind {
    /// The layout's constant prefix.
    Prefix,
    /// The salt.
    Salt,
    /// A field (or a tagged enum's `variant`).
    Field,
}

/// One decoded part of a key: name, byte range and value as `describe` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Field {
    kind: PartKind,
    name: &'static str,
    start: usize,
    end: usize,
    value: String,
}

#[derive(Debug, Clone)]
struct Decoded {
    salt: Option<u32>,
    /// Prefix, salt and fields in key order, with their byte ranges.
    parts: Vec<Field>,
    error: Option<DecodeError>,
}

impl Decoded {
    /// The fields (not the prefix or salt), in key order.
    fn fields(&self) -> impl Iterator<Item = &Field> {
        self.parts.iter().filter(|p| p.kind == PartKind::Field)
    }
}

struct Recorder {
    salt: Option<u32>,
    parts: Vec<Field>,
    pos: usize,
}

impl crate::describe::Visit for Recorder {
    fn prefix(&mut self, prefix: &'static [u8], at: usize) {
        let end = at + prefix.len();
        self.parts.push(Field {
            kind: PartKind::Prefix,
            name: "prefix",
            start: at,
            end,
            value: format!("\"{}\"", to_string_binary(prefix)),
        });
        self.pos = end;
    }
    fn salt(&mut self, salt: u32, at: usize, end: usize) {
        self.salt = Some(salt);
        self.parts.push(Field {
            kind: PartKind::Salt,
            name: "salt",
            start: at,
            end,
            value: salt.to_string(),
        });
        self.pos = end;
    }
    fn field(&mut self, name: &'static str, end: usize, value: &dyn crate::describe::Show) {
        let mut v = String::new();
        value.show(&mut v);
        self.parts.push(Field {
            kind: PartKind::Field,
            name,
            start: self.pos,
            end,
            value: v,
        });
        self.pos = end;
    }
}

fn decode_fields<T>(bytes: &[u8]) -> Decoded
where
    T: RowKey + DecodeRowKeyOwned,
{
    let mut rec = Recorder {
        salt: None,
        parts: Vec::new(),
        pos: 0,
    };
    let res = (|| {
        if let Some(max) = T::LAYOUT.max_len {
            crate::decode::check_decode_max_len(bytes.len(), max)
                .map_err(|e| e.in_key(T::LAYOUT.name))?;
        }
        let (_, used) = T::decode_visit(bytes, 0, &mut rec)?;
        crate::decode::check_end(used, bytes.len()).map_err(|e| e.in_key(T::LAYOUT.name))
    })();
    Decoded {
        salt: rec.salt,
        parts: rec.parts,
        error: res.err(),
    }
}

// ---------------------------------------------------------------------------------------------
// entry points

/// The whole tool as a `main`: reads the process arguments, stdin, stdout and stderr, shows a
/// progress line on stderr when it is a terminal, and exits with the tool's exit code.
pub fn main<K: KeyTypes>() -> ! {
    let args: Vec<String> = std::env::args().collect();
    let stdin = io::stdin();
    let mut stdin = stdin.lock();
    let stdout = io::stdout();
    let mut stdout = io::BufWriter::new(stdout.lock());
    let progress = io::stderr().is_terminal();
    let mut stderr = io::stderr();
    let code = run_with::<K>(&args, &mut stdin, &mut stdout, &mut stderr, progress);
    let _ = stdout.flush();
    std::process::exit(code)
}

/// Runs the tool on `args` (`args[0]` is the program name) with the given streams and returns
/// the exit code: 0 success, 1 bad input, 2 usage error.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event {
///     #[sep]
///     host: String,
///     ts: u64,
/// }
///
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let code = rowkey::tool::run::<(Event,)>(
///     &["keytool", "encode", "Event", "host=web1", "ts=7"],
///     &mut &b""[..],
///     &mut out,
///     &mut err,
/// );
/// assert_eq!(code, 0);
/// assert!(String::from_utf8(out)?.contains(r#"shell   "web1\x00\x00\x00\x00\x00\x00\x00\x00\x07""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run<K: KeyTypes>(
    args: &[impl AsRef<str>],
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> i32 {
    run_with::<K>(args, stdin, stdout, stderr, false)
}

fn run_with<K: KeyTypes>(
    args: &[impl AsRef<str>],
    stdin: &mut dyn BufRead,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
    progress: bool,
) -> i32 {
    let types = K::key_types();
    if let Some(name) = shared_name(&types) {
        let _ = writeln!(
            stderr,
            "error: two key types are named {name}: the tool cannot tell them apart (register one of them only)"
        );
        return 2;
    }
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let bin = args
        .first()
        .map(|a| {
            std::path::Path::new(a)
                .file_name()
                .map_or_else(|| (*a).to_owned(), |f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "keytool".to_owned());
    let matches = match command(&bin, &types).try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let text = e.render().to_string();
            let _ = if e.use_stderr() {
                stderr.write_all(text.as_bytes())
            } else {
                stdout.write_all(text.as_bytes())
            };
            return code;
        }
    };
    let mut ctx = Ctx {
        types: &types,
        stdin,
        out: stdout,
        err: stderr,
        progress,
        json: false,
    };
    let res = match matches.subcommand() {
        Some((name, m)) => {
            ctx.json = m.get_flag("json");
            match name {
                "describe" => ctx.describe(m),
                "encode" => ctx.encode(m),
                "scan" => ctx.scan(m),
                "plan" => ctx.plan(m),
                "hotspots" => ctx.hotspots(m),
                "types" => ctx.list_types(),
                other => Err(Failure::msg(format!("unknown subcommand {other}"))),
            }
        }
        None => Err(Failure::msg("no subcommand: see --help")),
    };
    let _ = ctx.out.flush();
    match res {
        Ok(()) => 0,
        Err(Failure::Message(m)) => {
            let _ = writeln!(ctx.err, "error: {m}");
            1
        }
    }
}

enum Failure {
    Message(String),
}

impl Failure {
    fn msg(m: impl Into<String>) -> Self {
        Failure::Message(m.into())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Message(format!("I/O error: {e}"))
    }
}

impl From<TextError> for Failure {
    fn from(e: TextError) -> Self {
        Failure::Message(e.to_string())
    }
}

type Res = Result<(), Failure>;

// ---------------------------------------------------------------------------------------------
// command line

fn json_arg() -> Arg {
    Arg::new("json")
        .long("json")
        .action(ArgAction::SetTrue)
        .help("Print JSON (one document) for scripts")
}

fn type_arg(types: &[KeyType]) -> Arg {
    let names: Vec<&'static str> = types.iter().map(|t| t.name).collect();
    Arg::new("type")
        .value_name("TYPE")
        .required(true)
        .value_parser(clap::builder::PossibleValuesParser::new(names))
        .help("The key type")
}

fn command(bin: &str, types: &[KeyType]) -> Command {
    let first = types.first().map_or("Key", |t| t.name);
    let ex_fields = types.first().map_or_else(String::new, |t| {
        t.fields()
            .iter()
            .map(|(f, _)| format!("{f}=…"))
            .collect::<Vec<_>>()
            .join(" ")
    });
    let scan_fields = types.first().map_or_else(String::new, |t| {
        t.fields()
            .first()
            .map_or_else(String::new, |(f, _)| format!("{f}=…"))
    });
    let type_list: Vec<String> = types
        .iter()
        .map(|t| {
            let variants = t.variants();
            if variants.is_empty() {
                let f: Vec<&str> = t.fields().iter().map(|(n, _)| *n).collect();
                format!("  {} ({})", t.name, f.join(", "))
            } else {
                let v: Vec<&str> = variants.iter().map(|v| v.name).collect();
                format!("  {} (keyspace: variant={})", t.name, v.join("|"))
            }
        })
        .collect();
    Command::new(bin.to_owned())
        .about("Describe, encode, scan, plan and find hotspots of this project's row keys")
        .after_help(format!(
            "Key types:\n{}\n\nExit codes: 0 success, 1 bad input or a key that does not decode, 2 usage error.",
            type_list.join("\n")
        ))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("describe")
                .about("Decode keys with every key type, field by field")
                .arg(
                    Arg::new("keys")
                        .value_name("KEY")
                        .num_args(0..)
                        .help("Keys in toStringBinary form (\\x00 escapes, as the HBase shell prints them), or hex with --hex; none: one per line from stdin"),
                )
                .arg(
                    Arg::new("hex")
                        .long("hex")
                        .action(ArgAction::SetTrue)
                        .help("Keys are hex digits (spaces and colons ignored)"),
                )
                .arg(
                    Arg::new("dump")
                        .long("dump")
                        .value_name("DUMP")
                        .conflicts_with("keys")
                        .help("Describe every row of a dump: HBase shell scan output, cbt read output (raw key bytes), or one key per line; - for stdin"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  {bin} describe '\\x05\\x80\\x00\\x00\\x00\\x00\\x00\\x00*'\n  {bin} describe --hex 0580000000000000\n  cbt read orders count=5 > rows.txt; {bin} describe --dump rows.txt\n  grep 'region hot' app.log | cut -d' ' -f5 | {bin} describe --json"
                )),
        )
        .subcommand(
            Command::new("encode")
                .about("Encode a key from field=value pairs")
                .arg(type_arg(types))
                .arg(
                    Arg::new("fields")
                        .value_name("FIELD=VALUE")
                        .num_args(0..)
                        .help("One pair per field; nested keys as outer.inner=value. Integers: decimal or 0x hex; strings: text with \\x00 escapes; bytes: 0x…/hex:… or text; Option: none or a value; enums: variant name or code"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  {bin} encode {first} {ex_fields}\n  {bin} encode {first} {ex_fields} --json"
                )),
        )
        .subcommand(
            Command::new("scan")
                .about("The row ranges of a scan, as HBase shell and cbt commands")
                .arg(type_arg(types))
                .arg(
                    Arg::new("fields")
                        .value_name("CONSTRAINT")
                        .num_args(0..)
                        .help("Fields in key order: field=value (equality), then optionally field=lo..hi, lo..=hi, lo.., ..hi (range) or field^=prefix as the last one"),
                )
                .arg(
                    Arg::new("table")
                        .long("table")
                        .default_value("TABLE")
                        .help("Table name for the printed commands"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  {bin} scan {first} {scan_fields}\n  {bin} scan {first} --table orders {scan_fields} --json"
                )),
        )
        .subcommand(
            Command::new("plan")
                .about("Split points, the HBase create statement and the cbt createtable command")
                .arg(type_arg(types))
                .arg(
                    Arg::new("regions")
                        .long("regions")
                        .value_name("N")
                        .required(true)
                        .value_parser(clap::value_parser!(usize))
                        .help("Number of regions (tablets)"),
                )
                .arg(
                    Arg::new("sample")
                        .long("sample")
                        .value_name("FILE")
                        .help("Split at the quantiles of a key sample (a dump: HBase shell scan, cbt read, or one key per line)"),
                )
                .arg(Arg::new("table").long("table").default_value("TABLE"))
                .arg(Arg::new("family").long("family").default_value("f"))
                .arg(
                    Arg::new("check")
                        .long("check")
                        .action(ArgAction::SetTrue)
                        .help("Lint the plan (unreachable regions, skew, …); exit 1 on errors"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  {bin} plan {first} --regions 16 --table orders\n  {bin} plan {first} --regions 8 --sample keys.txt --check"
                )),
        )
        .subcommand(
            Command::new("hotspots")
                .about("Per-region load and a heatmap of a key dump")
                .arg(type_arg(types))
                .arg(
                    Arg::new("regions")
                        .long("regions")
                        .value_name("N")
                        .value_parser(clap::value_parser!(usize))
                        .conflicts_with("splits")
                        .required_unless_present("splits")
                        .help("Regions planned from the layout (as `plan`)"),
                )
                .arg(
                    Arg::new("splits")
                        .long("splits")
                        .value_name("FILE")
                        .help("Split points, one per line (toStringBinary, or 0x…/hex:… hex)"),
                )
                .arg(
                    Arg::new("keys")
                        .long("keys")
                        .value_name("DUMP")
                        .required(true)
                        .help("The dump: HBase shell scan output, cbt read output, or one key per line (toStringBinary or hex); - for stdin"),
                )
                .arg(
                    Arg::new("format")
                        .long("format")
                        .value_parser(["auto", "hbase", "cbt", "lines", "hex"])
                        .default_value("auto")
                        .help("Dump format"),
                )
                .arg(
                    Arg::new("time_field")
                        .long("time-field")
                        .value_name("F")
                        .help("Integer field holding the write time (ms since the epoch for the axis labels): time x region heatmap"),
                )
                .arg(
                    Arg::new("slices")
                        .long("slices")
                        .value_name("N")
                        .value_parser(clap::value_parser!(usize))
                        .default_value("48")
                        .help("Time slices of the heatmap"),
                )
                .arg(
                    Arg::new("svg")
                        .long("svg")
                        .value_name("OUT")
                        .help("Write the heatmap SVG here"),
                )
                .arg(json_arg())
                .after_help(format!(
                    "Examples:\n  hbase shell <<< \"scan 'orders'\" > dump.txt; {bin} hotspots {first} --regions 16 --keys dump.txt\n  cbt read orders > dump.txt; {bin} hotspots {first} --splits splits.txt --keys dump.txt --time-field created_ms --svg heat.svg"
                )),
        )
        .subcommand(
            Command::new("types")
                .about("The key types and their fields")
                .arg(json_arg())
                .after_help(format!("Example:\n  {bin} types")),
        )
}

/// The attributes of a field as written (`#[hash_prefix(4)] #[sep]`), from its layout.
fn attributes(l: &crate::layout::FieldLayout) -> String {
    use crate::layout::FieldEncoding as E;
    let mut a = Vec::new();
    if let Some(h) = l.hash_prefix {
        a.push(if h.raw {
            format!("#[hash_prefix({}, raw)]", h.width)
        } else {
            format!("#[hash_prefix({})]", h.width)
        });
    }
    match l.encoding {
        E::Natural => {}
        E::Java => a.push("#[rowkey(java)]".to_owned()),
        E::Pad { len, fill: 0 } => a.push(format!("#[pad({len})]")),
        E::Pad { len, fill } => a.push(format!("#[pad({len}, fill = {fill})]")),
        E::Sep => a.push("#[sep]".to_owned()),
        E::SepByte(b) => a.push(format!("#[sep({})]", crate::hbase::shell_literal(&[b]))),
        E::ReverseTs => a.push("#[reverse_ts]".to_owned()),
        E::Reverse { .. } => a.push("#[reverse]".to_owned()),
    }
    if l.desc {
        a.push("#[desc]".to_owned());
    }
    a.join(" ")
}

// ---------------------------------------------------------------------------------------------
// JSON (a few values: strings, numbers, arrays, objects)

/// The fields of a layout as JSON objects (name, type, attributes, text form), comma-separated.
fn fields_json(layout: &Layout, texts: &[(&'static str, String)]) -> String {
    layout
        .fields
        .iter()
        .zip(texts)
        .map(|(l, (_, exp))| {
            format!(
                "{{\"name\":{},\"type\":{},\"attributes\":{},\"text\":{}}}",
                js(l.name),
                js(l.ty),
                js(&attributes(l)),
                js(exp)
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn js(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

fn jnum(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".to_owned()
    }
}

// ---------------------------------------------------------------------------------------------
// shell quoting for cbt (bash)

/// A bash word whose value is exactly `bytes`: `'…'` when printable, else `$'…'` with `\xHH`.
/// `None` when the bytes hold 0x00, which no command-line argument can carry.
fn bash_word(bytes: &[u8]) -> Option<String> {
    if bytes.contains(&0) {
        return None;
    }
    let bare = !bytes.is_empty()
        && bytes.first() != Some(&b'-')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"_.:/-+@%".contains(b));
    if bare {
        return Some(String::from_utf8_lossy(bytes).into_owned());
    }
    let plain = bytes
        .iter()
        .all(|b| (0x20..=0x7E).contains(b) && *b != b'\'');
    if plain {
        return Some(format!("'{}'", String::from_utf8_lossy(bytes)));
    }
    let mut s = String::from("$'");
    for &b in bytes {
        match b {
            b'\'' => s.push_str("\\'"),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7E => s.push(char::from(b)),
            _ => {
                let _ = write!(s, "\\x{b:02X}");
            }
        }
    }
    s.push('\'');
    Some(s)
}

/// cbt arguments cannot carry 0x00: the widest start at or below `start` without it.
fn cbt_start(start: &[u8]) -> (Vec<u8>, bool) {
    match start.iter().position(|b| *b == 0) {
        Some(i) => (start.get(..i).unwrap_or_default().to_vec(), true),
        None => (start.to_vec(), false),
    }
}

/// … and the smallest stop at or above `stop` without 0x00 (`P\x00…` → `P\x01`).
fn cbt_stop(stop: &[u8]) -> (Vec<u8>, bool) {
    match stop.iter().position(|b| *b == 0) {
        Some(i) => {
            let mut v = stop.get(..i).unwrap_or_default().to_vec();
            v.push(1);
            (v, true)
        }
        None => (stop.to_vec(), false),
    }
}

/// A pattern for `cbt read … regex=` that matches exactly the keys `k` with
/// `start <= k < stop` (`stop: None`: no upper bound), for when `start=`/`end=` had to be
/// widened (they cannot carry `0x00`).
///
/// Bigtable matches a row-key regex (RE2) against the key byte by byte: `\xHH` is the byte
/// `HH`, `\C` any byte (`.` would not match `\n`). The pattern is anchored (`^`, and `$`
/// where a key may end), and every other branch ends in `\C*`, so it selects the same keys
/// whether the server matches the whole key or a part. It has only printable ASCII
/// without `'`, so it goes into single quotes unchanged. It is built from the bytes: keys that
/// share the bounds' common bytes, then at the first byte where `start` and `stop` differ, the
/// keys above `start`'s rest, those strictly between, and those below `stop`'s rest.
fn cbt_regex(start: &[u8], stop: Option<&[u8]>) -> Option<String> {
    // a prefix range: the prefix, then anything
    if let Some(stop) = stop {
        if crate::scan::prefix_successor(start).as_deref() == Some(stop) {
            return Some(format!("^{}\\C*", re_lit(start)));
        }
    }
    let body = match stop {
        None => Some(re_at_least(start)),
        Some(stop) => re_between(start, stop),
    }?;
    Some(format!("^{body}"))
}

/// One byte in a pattern: letters, digits and `_` as they are, anything else `\xHH`.
fn re_byte(b: u8) -> String {
    if b.is_ascii_alphanumeric() || b == b'_' {
        char::from(b).to_string()
    } else {
        format!("\\x{b:02X}")
    }
}

fn re_lit(bytes: &[u8]) -> String {
    bytes.iter().map(|b| re_byte(*b)).collect()
}

/// The bytes `lo..=hi` (`lo <= hi`), then anything.
fn re_class_any(lo: u8, hi: u8) -> String {
    if lo == hi {
        format!("{}\\C*", re_byte(lo))
    } else {
        format!("[\\x{lo:02X}-\\x{hi:02X}]\\C*")
    }
}

fn re_alt(parts: Vec<String>) -> Option<String> {
    match parts.len() {
        0 => None,
        1 => parts.into_iter().next(),
        _ => Some(format!("(?:{})", parts.join("|"))),
    }
}

/// Keys (after the bytes matched so far) at or above `s`.
fn re_at_least(s: &[u8]) -> String {
    let Some((&c, rest)) = s.split_first() else {
        return "\\C*".to_owned();
    };
    let mut parts = vec![format!("{}{}", re_byte(c), re_at_least(rest))];
    if c < 0xFF {
        parts.push(re_class_any(c + 1, 0xFF));
    }
    re_alt(parts).unwrap_or_default()
}

/// Keys (after the bytes matched so far) below `e`; `None`: no key.
fn re_below(e: &[u8]) -> Option<String> {
    let (&c, rest) = e.split_first()?;
    // the key ends here: a proper prefix of `e` sorts before it
    let mut parts = vec!["$".to_owned()];
    if c > 0 {
        parts.push(re_class_any(0, c - 1));
    }
    if let Some(r) = re_below(rest) {
        parts.push(format!("{}{r}", re_byte(c)));
    }
    re_alt(parts)
}

/// Keys (after the bytes matched so far) in `s..e`; `None`: no key.
fn re_between(s: &[u8], e: &[u8]) -> Option<String> {
    let Some((&sc, srest)) = s.split_first() else {
        return re_below(e);
    };
    let (&ec, erest) = e.split_first()?;
    if sc == ec {
        return re_between(srest, erest).map(|r| format!("{}{r}", re_byte(sc)));
    }
    if sc > ec {
        return None;
    }
    let mut parts = vec![format!("{}{}", re_byte(sc), re_at_least(srest))];
    if ec - sc >= 2 {
        parts.push(re_class_any(sc + 1, ec - 1));
    }
    if let Some(r) = re_below(erest) {
        parts.push(format!("{}{r}", re_byte(ec)));
    }
    re_alt(parts)
}

// ---------------------------------------------------------------------------------------------
// subcommands

struct Ctx<'a> {
    types: &'a [KeyType],
    stdin: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    progress: bool,
    json: bool,
}

fn key_type<'t>(types: &'t [KeyType], m: &ArgMatches) -> Result<&'t KeyType, Failure> {
    let name = m
        .get_one::<String>("type")
        .ok_or_else(|| Failure::msg("no key type given"))?;
    types
        .iter()
        .find(|t| t.name == name)
        .ok_or_else(|| Failure::msg(format!("no key type {name}")))
}

/// The first name two registered key types share (`a::Key` and `b::Key`): the tool could not
/// tell them apart on its command line.
fn shared_name(types: &[KeyType]) -> Option<&'static str> {
    types
        .iter()
        .enumerate()
        .find(|&(i, t)| types.iter().take(i).any(|u| u.name == t.name))
        .map(|(_, t)| t.name)
}

fn strings<'m>(m: &'m ArgMatches, id: &str) -> Vec<&'m str> {
    m.get_many::<String>(id)
        .map(|v| v.map(String::as_str).collect())
        .unwrap_or_default()
}

/// A key as typed: `toStringBinary` (optionally in matching quotes) or hex.
fn parse_key(text: &str, hex_mode: bool) -> Result<Vec<u8>, String> {
    let t = text.trim_end_matches(['\r', '\n']);
    if hex_mode {
        let t = t.trim();
        let t = t
            .strip_prefix("0x")
            .or_else(|| t.strip_prefix("hex:"))
            .unwrap_or(t);
        return parse_hex(t).map_err(|e| format!("{text:?} is not hex: {e}"));
    }
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|q| t.strip_prefix(*q).and_then(|r| r.strip_suffix(*q)))
        .unwrap_or(t);
    from_string_binary(unquoted).map_err(|e| format!("{text:?} is not a toStringBinary key: {e}"))
}

impl Ctx<'_> {
    fn list_types(&mut self) -> Res {
        if self.json {
            let items: Vec<String> = self
                .types
                .iter()
                .map(|t| {
                    let variants = t.variants();
                    if variants.is_empty() {
                        return format!(
                            "{{\"type\":{},\"fields\":[{}]}}",
                            js(t.name),
                            fields_json(t.layout, &t.fields())
                        );
                    }
                    let vs: Vec<String> = variants
                        .iter()
                        .map(|v| {
                            format!(
                                "{{\"name\":{},\"tag\":{},\"key\":{},\"fields\":[{}]}}",
                                js(v.name),
                                js(&to_string_binary(v.tag)),
                                js(v.layout.name),
                                fields_json(v.layout, &(v.fields)())
                            )
                        })
                        .collect();
                    format!(
                        "{{\"type\":{},\"fields\":[],\"variants\":[{}]}}",
                        js(t.name),
                        vs.join(",")
                    )
                })
                .collect();
            writeln!(self.out, "[{}]", items.join(","))?;
            return Ok(());
        }
        for t in self.types {
            writeln!(self.out, "{}", t.name)?;
            let variants = t.variants();
            if variants.is_empty() {
                self.write_fields(t.layout, &t.fields(), "  ")?;
                continue;
            }
            writeln!(
                self.out,
                "  (a keyspace: variant=NAME, then that variant's fields)"
            )?;
            for v in &variants {
                writeln!(
                    self.out,
                    "  variant {}  tag {}  key {}",
                    v.name,
                    crate::hbase::shell_literal(v.tag),
                    v.layout.name
                )?;
                self.write_fields(v.layout, &(v.fields)(), "    ")?;
            }
        }
        Ok(())
    }

    /// The salt and the fields of a layout, one per line: name, type, attributes, text form.
    fn write_fields(
        &mut self,
        layout: &Layout,
        texts: &[(&'static str, String)],
        indent: &str,
    ) -> Res {
        if let Some(s) = layout.salt {
            writeln!(
                self.out,
                "{indent}(salt: {} buckets, {} byte(s), over fields 0..={})",
                s.buckets, s.width, s.through_field
            )?;
        }
        let nw = layout
            .fields
            .iter()
            .map(|l| l.name.len())
            .max()
            .unwrap_or(0);
        let tw = layout.fields.iter().map(|l| l.ty.len()).max().unwrap_or(0);
        let attrs: Vec<String> = layout.fields.iter().map(attributes).collect();
        let aw = attrs.iter().map(String::len).max().unwrap_or(0);
        for ((l, (_, exp)), a) in layout.fields.iter().zip(texts).zip(&attrs) {
            let line = format!("{indent}{:<nw$}  {:<tw$}  {a:<aw$}  {exp}", l.name, l.ty);
            writeln!(self.out, "{}", line.trim_end())?;
        }
        Ok(())
    }

    fn describe(&mut self, m: &ArgMatches) -> Res {
        let hex_mode = m.get_flag("hex");
        // (as typed, the key or why it is not one)
        let mut inputs: Vec<(String, Result<Vec<u8>, String>)> = strings(m, "keys")
            .into_iter()
            .map(|k| (k.to_owned(), parse_key(k, hex_mode)))
            .collect();
        if let Some(path) = m.get_one::<String>("dump") {
            self.read_dump(path, "auto", None, &mut |k| {
                inputs.push((to_string_binary(k), Ok(k.to_vec())));
            })?;
        } else if inputs.is_empty() {
            let mut line = Vec::new();
            loop {
                line.clear();
                if self.stdin.read_until(b'\n', &mut line)? == 0 {
                    break;
                }
                let raw = trim_eol(&line);
                if raw.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match std::str::from_utf8(raw) {
                    Ok(t) => inputs.push((t.to_owned(), parse_key(t, hex_mode))),
                    Err(_) => inputs.push((
                        to_string_binary(raw),
                        Err("not text: raw key bytes (such as cbt read output) go through --dump FILE".to_owned()),
                    )),
                }
            }
        }
        let mut failed = 0usize;
        // what the `error:` line says about the first key that failed
        let mut first_failure: Option<String> = None;
        let mut json_items = Vec::new();
        for (input, parsed) in &inputs {
            let key = match parsed {
                Ok(k) => k.clone(),
                Err(e) => {
                    failed += 1;
                    first_failure.get_or_insert_with(|| format!("{input}: not a key: {e}"));
                    if self.json {
                        json_items.push(format!("{{\"input\":{},\"error\":{}}}", js(input), js(e)));
                    } else {
                        writeln!(self.out, "{input}\n  not a key: {e}")?;
                    }
                    continue;
                }
            };
            let decoded: Vec<(&KeyType, Decoded)> =
                self.types.iter().map(|t| (t, (t.decode)(&key))).collect();
            let ok: Vec<&(&KeyType, Decoded)> =
                decoded.iter().filter(|(_, d)| d.error.is_none()).collect();
            if ok.is_empty() {
                failed += 1;
                first_failure.get_or_insert_with(|| {
                    let errors: Vec<String> = decoded
                        .iter()
                        .filter_map(|(t, d)| d.error.as_ref().map(|e| format!("{}: {e}", t.name)))
                        .collect();
                    format!("{}: {}", to_string_binary(&key), errors.join("; "))
                });
            }
            if self.json {
                let show: Vec<&(&KeyType, Decoded)> = if ok.is_empty() {
                    decoded.iter().collect()
                } else {
                    ok.clone()
                };
                let types: Vec<String> = show
                    .iter()
                    .map(|(t, d)| {
                        let fields: Vec<String> = d
                            .fields()
                            .map(|f| {
                                format!(
                                    "{{\"name\":{},\"value\":{},\"start\":{},\"end\":{}}}",
                                    js(f.name),
                                    js(&f.value),
                                    f.start,
                                    f.end
                                )
                            })
                            .collect();
                        let salt = d.salt.map_or("null".to_owned(), |s| s.to_string());
                        let error = match &d.error {
                            None => "null".to_owned(),
                            Some(e) => format!(
                                "{{\"field\":{},\"variant\":{},\"offset\":{},\"message\":{}}}",
                                js(e.field()),
                                e.variant().map_or("null".to_owned(), js),
                                e.offset(),
                                js(&e.to_string())
                            ),
                        };
                        format!(
                            "{{\"type\":{},\"ok\":{},\"salt\":{},\"fields\":[{}],\"error\":{}}}",
                            js(t.name),
                            d.error.is_none(),
                            salt,
                            fields.join(","),
                            error
                        )
                    })
                    .collect();
                json_items.push(format!(
                    "{{\"input\":{},\"key\":{},\"hex\":{},\"len\":{},\"decoded\":{},\"types\":[{}]}}",
                    js(input),
                    js(&to_string_binary(&key)),
                    js(&hex(&key)),
                    key.len(),
                    !ok.is_empty(),
                    types.join(",")
                ));
                continue;
            }
            writeln!(
                self.out,
                "{}  ({} bytes)",
                to_string_binary(&key),
                key.len()
            )?;
            if ok.is_empty() {
                writeln!(self.out, "  no key type decodes it:")?;
                for (t, d) in &decoded {
                    if let Some(e) = &d.error {
                        writeln!(self.out, "  {}: {e}", t.name)?;
                    }
                }
                continue;
            }
            for (t, d) in ok {
                writeln!(self.out, "  {}", t.name)?;
                let w = d
                    .parts
                    .iter()
                    .map(|f| f.name.len())
                    .max()
                    .unwrap_or(0)
                    .max(4);
                for f in &d.parts {
                    writeln!(
                        self.out,
                        "    {:<w$}  {:<8}  {}",
                        f.name,
                        format!("[{}, {})", f.start, f.end),
                        f.value
                    )?;
                }
            }
        }
        if self.json {
            writeln!(self.out, "[{}]", json_items.join(","))?;
        }
        if let Some(first) = first_failure {
            let more = if failed > 1 {
                format!(" (the first of {failed}; each one's errors are on stdout)")
            } else {
                String::new()
            };
            return Err(Failure::msg(format!(
                "{failed} of {} key(s) decoded by no key type: {first}{more}",
                inputs.len()
            )));
        }
        Ok(())
    }

    fn encode(&mut self, m: &ArgMatches) -> Res {
        let t = key_type(self.types, m)?;
        let mut args = TextArgs::parse(strings(m, "fields"))?;
        let key = (t.encode)(&mut args).map_err(|e| Failure::msg(format!("{}: {e}", t.name)))?;
        let shell = shell_literal(&key);
        let sb = to_string_binary(&key);
        let hx = hex(&key);
        let d = (t.decode)(&key);
        let fields: Vec<String> = d
            .parts
            .iter()
            .filter(|p| p.kind != PartKind::Prefix)
            .map(|f| format!("{}={}", f.name, f.value))
            .collect();
        if self.json {
            writeln!(
                self.out,
                "{{\"type\":{},\"shell\":{},\"hex\":{},\"string_binary\":{},\"len\":{},\"fields\":{}}}",
                js(t.name),
                js(&shell),
                js(&hx),
                js(&sb),
                key.len(),
                js(&fields.join(" "))
            )?;
        } else {
            writeln!(self.out, "{}  ({} bytes)", t.name, key.len())?;
            writeln!(self.out, "  shell   {shell}")?;
            writeln!(self.out, "  hex     {hx}")?;
            writeln!(self.out, "  binary  {sb}")?;
            writeln!(self.out, "  fields  {}", fields.join(" "))?;
        }
        Ok(())
    }

    fn scan(&mut self, m: &ArgMatches) -> Res {
        let t = key_type(self.types, m)?;
        let table = m
            .get_one::<String>("table")
            .map_or("TABLE", String::as_str)
            .to_owned();
        let mut args = TextArgs::parse_scan(strings(m, "fields"))?;
        let ranges = (t.scan)(&mut args).map_err(|e| Failure::msg(format!("{}: {e}", t.name)))?;
        let tq = crate::hbase::ruby_single_quoted(&table);
        let tb = bash_word(table.as_bytes()).unwrap_or_else(|| table.clone());
        let mut json_items = Vec::new();
        if !self.json {
            writeln!(
                self.out,
                "{}: {} range(s){}",
                t.name,
                ranges.len(),
                if ranges.is_empty() {
                    " (no key can match)"
                } else {
                    ""
                }
            )?;
        }
        for (i, r) in ranges.iter().enumerate() {
            let mut hb = format!("scan {tq}, {{STARTROW => {}", shell_literal(r.start()));
            if let Some(s) = r.stop() {
                let _ = write!(hb, ", STOPROW => {}", shell_literal(s));
            }
            hb.push('}');
            let (cs, ws) = cbt_start(r.start());
            let mut cbt = format!("cbt read {tb}");
            let mut widened = ws;
            if !cs.is_empty() {
                let _ = write!(cbt, " start={}", bash_word(&cs).unwrap_or_default());
            }
            if let Some(s) = r.stop() {
                let (ce, we) = cbt_stop(s);
                widened |= we;
                let _ = write!(cbt, " end={}", bash_word(&ce).unwrap_or_default());
            }
            // start/end widened: a row-key regex keeps exactly the range's rows
            let regex = if widened {
                cbt_regex(r.start(), r.stop())
            } else {
                None
            };
            if let Some(re) = &regex {
                let _ = write!(cbt, " regex='{re}'");
            }
            let stop_sb = r.stop().map(to_string_binary);
            let stop_hex = r.stop().map(hex);
            if self.json {
                json_items.push(format!(
                    "{{\"start\":{},\"stop\":{},\"start_hex\":{},\"stop_hex\":{},\"hbase\":{},\"cbt\":{},\"cbt_widened\":{},\"cbt_exact\":{}}}",
                    js(&to_string_binary(r.start())),
                    stop_sb.as_deref().map_or("null".to_owned(), js),
                    js(&hex(r.start())),
                    stop_hex.as_deref().map_or("null".to_owned(), js),
                    js(&hb),
                    js(&cbt),
                    widened,
                    !widened || regex.is_some()
                ));
                continue;
            }
            writeln!(self.out, "range {}", i + 1)?;
            writeln!(
                self.out,
                "  rows   [{}, {})",
                to_string_binary(r.start()),
                stop_sb.as_deref().unwrap_or("end of table")
            )?;
            writeln!(
                self.out,
                "  hex    {} .. {}",
                hex(r.start()),
                stop_hex.as_deref().unwrap_or("(end)")
            )?;
            writeln!(self.out, "  hbase  {hb}")?;
            writeln!(self.out, "  cbt    {cbt}")?;
            if widened && regex.is_some() {
                writeln!(
                    self.out,
                    "         (start/end widened to rows without 0x00, which no command-line argument can carry; the regex keeps exactly the range's rows)"
                )?;
            } else if widened {
                writeln!(
                    self.out,
                    "         (widened to the nearest rows without 0x00, which no command-line argument can carry: filter the rows)"
                )?;
            }
        }
        if self.json {
            writeln!(
                self.out,
                "{{\"type\":{},\"ranges\":[{}]}}",
                js(t.name),
                json_items.join(",")
            )?;
        }
        Ok(())
    }

    fn plan(&mut self, m: &ArgMatches) -> Res {
        let t = key_type(self.types, m)?;
        let regions = m.get_one::<usize>("regions").copied().unwrap_or(1);
        let table = m.get_one::<String>("table").map_or("TABLE", String::as_str);
        let family = m.get_one::<String>("family").map_or("f", String::as_str);
        let sample: Option<Vec<Vec<u8>>> = match m.get_one::<String>("sample") {
            None => None,
            Some(path) => {
                // Rows of other layouts in the dump are skipped: the sample is this type's keys.
                let mut keys = Vec::new();
                let mut skipped = 0usize;
                self.read_dump(path, "auto", Some(t), &mut |k| {
                    if (t.decode)(k).error.is_none() {
                        keys.push(k.to_vec());
                    } else {
                        skipped += 1;
                    }
                })?;
                if keys.is_empty() {
                    return Err(Failure::msg(format!(
                        "--sample {path}: no row decodes as {} ({skipped} other row(s))",
                        t.name
                    )));
                }
                if skipped > 0 && !self.json {
                    writeln!(
                        self.out,
                        "sample: {} key(s) of {}, {skipped} other row(s) skipped",
                        keys.len(),
                        t.name
                    )?;
                }
                Some(keys)
            }
        };
        let splits = match &sample {
            Some(keys) => (t.sample_split_points)(keys, regions),
            None => (t.split_points)(regions),
        }
        .map_err(|e| {
            let hint = if matches!(e, plan::PlanError::NeedsSample { .. }) && sample.is_none() {
                " (give --sample FILE)"
            } else {
                ""
            };
            Failure::msg(format!("{}: {e}{hint}", t.name))
        })?;
        let create = plan::create_statement(table, family, &splits);
        let cbt_splits: Option<Vec<String>> = splits
            .iter()
            .map(|s| {
                if s.contains(&b',') {
                    None
                } else {
                    bash_word(s)
                }
            })
            .collect();
        let tb = bash_word(table.as_bytes()).unwrap_or_else(|| table.to_owned());
        let cbt = match &cbt_splits {
            Some(words) if words.is_empty() => format!("cbt createtable {tb} families={family}"),
            Some(words) => {
                // one bash word: concatenated quoted pieces with commas between
                let joined = words.join(",");
                format!("cbt createtable {tb} families={family} splits={joined}")
            }
            None => {
                "(cbt cannot take these split points: one holds 0x00 or ','; use a client library)"
                    .to_owned()
            }
        };
        let lint = m.get_flag("check").then(|| {
            let mut l = plan::Lint::new(&splits).layout(t.layout);
            if let Some(keys) = &sample {
                l = l.sample(keys);
            }
            l.run()
        });
        if self.json {
            let sp: Vec<String> = splits.iter().map(|s| js(&to_string_binary(s))).collect();
            let sph: Vec<String> = splits.iter().map(|s| js(&hex(s))).collect();
            let lint_json = match &lint {
                None => "null".to_owned(),
                Some(r) => format!(
                    "{{\"errors\":{},\"clean\":{},\"report\":{}}}",
                    r.has_errors(),
                    r.is_clean(),
                    js(&r.to_string())
                ),
            };
            writeln!(
                self.out,
                "{{\"type\":{},\"regions\":{},\"splits\":[{}],\"splits_hex\":[{}],\"hbase\":{},\"cbt\":{},\"check\":{}}}",
                js(t.name),
                splits.len() + 1,
                sp.join(","),
                sph.join(","),
                js(&create),
                js(&cbt),
                lint_json
            )?;
        } else {
            writeln!(
                self.out,
                "{}: {} regions, {} split point(s){}",
                t.name,
                splits.len() + 1,
                splits.len(),
                if sample.is_some() {
                    " from the sample"
                } else {
                    ""
                }
            )?;
            for s in &splits {
                writeln!(self.out, "  {:<24} {}", to_string_binary(s), hex(s))?;
            }
            writeln!(self.out, "hbase:")?;
            writeln!(self.out, "  {create}")?;
            writeln!(self.out, "cbt:")?;
            writeln!(self.out, "  {cbt}")?;
            if let Some(r) = &lint {
                writeln!(self.out, "check:")?;
                write!(self.out, "{r}")?;
                if !r.to_string().ends_with('\n') {
                    writeln!(self.out)?;
                }
            }
        }
        if lint.as_ref().is_some_and(plan::LintReport::has_errors) {
            return Err(Failure::msg("the plan check found errors"));
        }
        Ok(())
    }

    fn hotspots(&mut self, m: &ArgMatches) -> Res {
        let t = key_type(self.types, m)?;
        let dump = m
            .get_one::<String>("keys")
            .cloned()
            .ok_or_else(|| Failure::msg("--keys is required"))?;
        let format = m
            .get_one::<String>("format")
            .cloned()
            .unwrap_or_else(|| "auto".to_owned());
        let slices = m.get_one::<usize>("slices").copied().unwrap_or(48);
        let splits: Vec<Vec<u8>> = match m.get_one::<String>("splits") {
            Some(path) => {
                let f = File::open(path).map_err(|e| Failure::msg(format!("{path}: {e}")))?;
                let mut out = Vec::new();
                for (i, line) in BufReader::new(f).lines().enumerate() {
                    let line = line?;
                    let l = line.trim();
                    if l.is_empty() {
                        continue;
                    }
                    let hex_mode = l.starts_with("0x") || l.starts_with("hex:");
                    out.push(
                        parse_key(l, hex_mode)
                            .map_err(|e| Failure::msg(format!("{path} line {}: {e}", i + 1)))?,
                    );
                }
                out
            }
            None => {
                let n = m.get_one::<usize>("regions").copied().unwrap_or(1);
                (t.split_points)(n).map_err(|e| Failure::msg(format!("{}: {e}", t.name)))?
            }
        };
        let time_field = m.get_one::<String>("time_field").cloned();
        if let Some(f) = &time_field {
            if !t.has_field(f) {
                return Err(Failure::msg(format!(
                    "--time-field {f}: {} has no such field (fields: {})",
                    t.name,
                    t.field_names().join(", ")
                )));
            }
            if dump == "-" {
                return Err(Failure::msg(
                    "--time-field needs --keys FILE (the dump is read twice: once for the time span)",
                ));
            }
        }
        let mut analyzer = crate::hotspot::Analyzer::new(&splits)
            .map_err(|e| Failure::msg(format!("split points: {e}")))?
            .with_name(t.name);
        let time_of = |key: &[u8]| -> Option<u64> {
            let f = time_field.as_deref()?;
            let d = (t.decode)(key);
            if d.error.is_some() {
                return None;
            }
            let v = d.fields().find(|x| x.name == f)?;
            let s = v.value.trim();
            let s = s
                .strip_prefix("Some(")
                .and_then(|x| x.strip_suffix(')'))
                .unwrap_or(s);
            s.parse::<i128>().ok().and_then(|x| u64::try_from(x).ok())
        };
        if time_field.is_some() {
            let (mut lo, mut hi) = (u64::MAX, 0u64);
            self.read_dump(&dump, &format, Some(t), &mut |k| {
                if let Some(x) = time_of(k) {
                    lo = lo.min(x);
                    hi = hi.max(x);
                }
            })?;
            if lo <= hi {
                analyzer = analyzer
                    .with_time_span(lo, hi.saturating_add(1), slices)
                    .map_err(|e| Failure::msg(format!("heatmap: {e}")))?;
            }
        }
        let mut total = 0u64;
        let mut undecodable = 0u64;
        let mut first_error: Option<(Vec<u8>, String)> = None;
        let detected = self.read_dump(&dump, &format, Some(t), &mut |k| {
            total += 1;
            let d = (t.decode)(k);
            let time = if d.error.is_none() { time_of(k) } else { None };
            if let Some(e) = d.error {
                undecodable += 1;
                if first_error.is_none() {
                    first_error = Some((k.to_vec(), e.to_string()));
                }
            }
            analyzer.add_with(k, time, k.len() as u64);
        })?;
        let report = analyzer.report();
        if let Some(path) = m.get_one::<String>("svg") {
            report
                .write_heatmap_svg(path)
                .map_err(|e| Failure::msg(format!("{path}: {e}")))?;
        }
        if self.json {
            let regions: Vec<String> = report
                .regions()
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    format!(
                        "{{\"index\":{},\"start\":{},\"stop\":{},\"keys\":{},\"bytes\":{},\"share\":{}}}",
                        r.index,
                        js(&to_string_binary(&r.start)),
                        r.stop.as_deref().map_or("null".to_owned(), |s| js(&to_string_binary(s))),
                        r.keys,
                        r.bytes,
                        jnum(report.share(i))
                    )
                })
                .collect();
            writeln!(
                self.out,
                "{{\"type\":{},\"format\":{},\"keys\":{},\"undecodable\":{},\"empty_regions\":{},\"max_mean_skew\":{},\"regions\":[{}]}}",
                js(t.name),
                js(detected.name()),
                total,
                undecodable,
                report.empty_regions(),
                jnum(report.max_mean_skew()),
                regions.join(",")
            )?;
        } else {
            writeln!(
                self.out,
                "{total} key(s) read ({}), {undecodable} not decodable as {}",
                detected.name(),
                t.name
            )?;
            if let Some((k, e)) = &first_error {
                writeln!(self.out, "  first: {}: {e}", to_string_binary(k))?;
            }
            write!(self.out, "{report}")?;
            if let Some(path) = m.get_one::<String>("svg") {
                writeln!(self.out, "heatmap: {path}")?;
            }
        }
        Ok(())
    }

    /// Streams the keys of a dump (a path, or `-` for stdin) into `f`; returns the format.
    fn read_dump(
        &mut self,
        path: &str,
        format: &str,
        t: Option<&KeyType>,
        f: &mut dyn FnMut(&[u8]),
    ) -> Result<DumpFormat, Failure> {
        let forced = DumpFormat::from_option(format);
        let decodes = t.map(|t| move |k: &[u8]| (t.decode)(k).error.is_none());
        let decodes = decodes.as_ref().map(|d| d as dump::Decodes<'_>);
        if path == "-" {
            let progress = Progress::new(false, None);
            return read_dump_from(self.stdin, forced, decodes, f, progress, self.err)
                .map_err(|e| Failure::msg(format!("stdin: {e}")));
        }
        let file = File::open(path).map_err(|e| Failure::msg(format!("{path}: {e}")))?;
        let len = file.metadata().ok().map(|m| m.len());
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let progress = Progress::new(self.progress, len);
        read_dump_from(&mut reader, forced, decodes, f, progress, self.err)
            .map_err(|e| Failure::msg(format!("{path}: {e}")))
    }
}

// ---------------------------------------------------------------------------------------------
// dumps

/// Reads every row key of a dump (HBase shell `scan` output, `cbt read` output, or one key per
/// line in `toStringBinary` or hex form; the format detected from the first lines) into `f`,
/// streaming. Every key reads back byte for byte, including keys holding newlines in a `cbt
/// read` dump; the few exceptions of each format are listed on [`DumpFormat`].
///
/// # Errors
///
/// An I/O error, or a key line that is not valid `toStringBinary`/hex (with its line number).
///
/// ```
/// let dump = "ROW   COLUMN+CELL\n \\x00\\x01row1   column=f:q, timestamp=1, value=v\n \\x00\\x01row1   column=f:r, timestamp=1, value=w\n1 row(s)\n";
/// let mut keys = Vec::new();
/// rowkey::tool::read_dump(&mut dump.as_bytes(), &mut |k| keys.push(k.to_vec()))?;
/// assert_eq!(keys, vec![b"\x00\x01row1".to_vec()]);
///
/// // `cbt read` prints keys raw: a key ending in a newline keeps it
/// let cell = "  f:q                                      @ 2023/11/14-22:13:20.000000\n    \"1\"\n\n";
/// let rule = "-".repeat(40);
/// let dump = format!("{rule}\nab\n\n{cell}{rule}\ncd\n{cell}");
/// let mut keys = Vec::new();
/// rowkey::tool::read_dump(&mut dump.as_bytes(), &mut |k| keys.push(k.to_vec()))?;
/// assert_eq!(keys, vec![b"ab\n".to_vec(), b"cd".to_vec()]);
/// # Ok::<(), String>(())
/// ```
pub fn read_dump(r: &mut dyn BufRead, f: &mut dyn FnMut(&[u8])) -> Result<(), String> {
    let mut sink = io::sink();
    read_dump_from(r, None, None, f, Progress::new(false, None), &mut sink).map(|_| ())
}

/// [`read_dump`] of a dump in a known format (what `--format` selects): no detection, so a
/// one-key-per-line dump whose keys happen to look like hex digits, a dash line or an HBase
/// cell stays what it is.
///
/// # Errors
///
/// As [`read_dump`].
///
/// ```
/// use rowkey::tool::{read_dump_as, DumpFormat};
///
/// let mut keys = Vec::new();
/// read_dump_as(&mut &b"cafe\n\"q\" \n"[..], DumpFormat::Lines, &mut |k| keys.push(k.to_vec()))?;
/// assert_eq!(keys, vec![b"cafe".to_vec(), b"\"q\" ".to_vec()]);
/// # Ok::<(), String>(())
/// ```
pub fn read_dump_as(
    r: &mut dyn BufRead,
    format: DumpFormat,
    f: &mut dyn FnMut(&[u8]),
) -> Result<(), String> {
    let mut sink = io::sink();
    read_dump_from(
        r,
        Some(format),
        None,
        f,
        Progress::new(false, None),
        &mut sink,
    )
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::short_type_name;

    #[test]
    fn type_names_lose_their_paths() {
        assert_eq!(short_type_name("keytool::Tagged<u32>"), "Tagged<u32>");
        assert_eq!(
            short_type_name("a::b::Tagged<alloc::string::String, [u8; 4]>"),
            "Tagged<String, [u8; 4]>"
        );
        assert_eq!(
            short_type_name("x::Pair<core::option::Option<x::Kind>, (u8, i64)>"),
            "Pair<Option<Kind>, (u8, i64)>"
        );
        assert_eq!(short_type_name("Plain"), "Plain");
    }
}
